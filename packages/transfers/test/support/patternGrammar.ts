/**
 * Generated patterns of the dialect, for the properties of FieldPattern.test.ts and FieldPattern.compile.test.ts: atoms
 * with quantifiers, in sequences, alternatives and groups, nested. Each file gives its own atoms and quantifiers (what
 * its property is about), the grammar is the same.
 */
import { fc } from "@fast-check/vitest"

export interface PatternGrammar {
  /** the atoms of the patterns (characters, classes, escapes, small groups) */
  readonly atom: fc.Arbitrary<string>
  /** what may follow an atom or a group: "" for nothing, and the quantifiers */
  readonly quant: fc.Arbitrary<string>
  /** the most items in a sequence */
  readonly maxItems: number
  /** whether groups may also capture, `(...)` beside `(?:...)` */
  readonly capturing: boolean
}

/** patterns of atoms and quantifiers: alternatives of sequences of items, each an atom or a group, quantified */
export const patterns = ({ atom, quant, maxItems, capturing }: PatternGrammar): fc.Arbitrary<string> =>
  fc.letrec<{ re: string; seq: string; item: string }>((tie) => {
    const group = (open: string) => ({
      weight: 1,
      depthSize: "small" as const,
      arbitrary: fc.tuple(tie("re"), quant).map(([r, q]) => `${open}${r})${q}`)
    })
    return {
      re: fc.oneof(
        { weight: 3, arbitrary: tie("seq") },
        { weight: 1, arbitrary: fc.tuple(tie("seq"), tie("seq")).map(([a, b]) => `${a}|${b}`) }
      ),
      seq: fc.array(tie("item"), { minLength: 1, maxLength: maxItems }).map((items) => items.join("")),
      item: fc.oneof(
        { weight: 4, arbitrary: fc.tuple(atom, quant).map(([a, q]) => a + q) },
        ...(capturing ? [group("(")] : []),
        group("(?:")
      )
    }
  }).re
