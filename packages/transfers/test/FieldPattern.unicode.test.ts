/**
 * Unicode property classes in server patterns (src/internal/regexParse.ts, regexCompile.ts): the cased-letter
 * categories under `(?i)` as Java reads them (D6: Java's `matches`), `\p{Any}` and `\P{Any}` as the sets they are, and
 * the values drawn for a pattern with a part that matches nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { FieldPattern, FieldValidator } from "@payrules/transfers"
import { Arbitrary, Effect, Result } from "effect"
import * as RegexCompile from "../src/internal/regexCompile.js"
import { patterns } from "./support/patternGrammar.js"

const compile = (source: string) => Result.getOrThrow(FieldPattern.compile(source))

/** one of each kind: Lu, Ll, Lt (U+01C5), Lm (U+02B0), Lo (U+00AA, U+4E2D), a digit, a symbol, a space */
const samples = ["A", "a", "\u01C5", "\u02B0", "\u00AA", "\u4E2D", "7", "+", " "] as const
const cased = new Set<string>(["A", "a", "\u01C5"])

/** ten bodies drawn for a required field of `pattern`: each one valid, its value matching `expected` */
const expectDrawn = (pattern: string, expected: RegExp, seed: number) =>
  Effect.gen(function* () {
    const v = FieldValidator.compileUnsafe([
      { name: "note", required: true, validation: { regex: { pattern, description: "d" } } }
    ])
    const bodies = yield* Arbitrary.sampleEffect(Arbitrary.schema(v.schema), { count: 10, seed })
    expect([pattern, bodies.length]).toEqual([pattern, 10])
    for (const body of bodies) {
      expect(v.validate(body)).toEqual(Result.succeed(body))
      expect((body as unknown as { readonly note: string }).note).toMatch(expected)
    }
  })

describe("FieldPattern: the cased-letter categories under (?i), as Java reads them", () => {
  it("matches every cased letter with \\p{Lu}, \\p{Ll} or \\p{Lt} under (?i), in each spelling (bug: (?i)\\p{Lu} refused `a`, which Java, RE2 and ECMAScript's `iu` accept)", () => {
    for (const name of ["Lu", "Ll", "Lt", "IsLu", "gc=Ll", "general_category=Lt"]) {
      const p = compile(`(?i)\\p{${name}}`)
      expect([name, samples.filter((s) => p.test(s))]).toEqual([name, ["A", "a", "\u01C5"]])
    }
  })

  it("matches no cased letter with \\P{Lu}, \\P{Ll} or \\P{Lt} under (?i), and every other character (bug: (?i)\\P{Lu} matched `a`)", () => {
    for (const name of ["Lu", "Ll", "Lt", "IsLt"]) {
      const p = compile(`(?i)\\P{${name}}`)
      expect([name, samples.filter((s) => p.test(s))]).toEqual([name, samples.filter((s) => !cased.has(s))])
      expect(compile(`(?i)\\p{^${name}}`).test("a")).toBe(false)
    }
  })

  it("folds the categories inside a class too, negated or not, and only where (?i) applies", () => {
    const inClass = compile("(?i)[\\p{Lu}\\d]")
    expect(samples.filter((s) => inClass.test(s))).toEqual(["A", "a", "\u01C5", "7"])
    const negatedClass = compile("(?i)[^\\p{Lu}]")
    expect(samples.filter((s) => negatedClass.test(s))).toEqual(samples.filter((s) => !cased.has(s)))
    const withComplement = compile("(?i)[+\\P{Ll}]")
    expect(samples.filter((s) => withComplement.test(s))).toEqual(samples.filter((s) => !cased.has(s)))
    // case-sensitive outside the group, and without the flag
    const scoped = compile("(?i:\\p{Lu})\\p{Lu}")
    expect([scoped.test("aB"), scoped.test("Ab"), scoped.test("ab")]).toEqual([true, false, false])
    expect(samples.filter((s) => compile("\\p{Lu}").test(s))).toEqual(["A"])
    expect(samples.filter((s) => compile("\\P{Lu}").test(s))).toEqual(samples.filter((s) => s !== "A"))
    // the other categories are not about case: (?i) leaves them as they are
    expect(samples.filter((s) => compile("(?i)\\p{Lm}").test(s))).toEqual(["\u02B0"])
    expect(samples.filter((s) => compile("(?i)\\p{L}").test(s))).toEqual([
      "A",
      "a",
      "\u01C5",
      "\u02B0",
      "\u00AA",
      "\u4E2D"
    ])
  })

  it("writes the folded category for RE2 as one class", () => {
    expect(compile("(?i)\\p{Lu}").re2Source).toBe("[\\p{Lu}\\p{Ll}\\p{Lt}]")
    expect(compile("(?i)\\P{Lu}").re2Source).toBe("[\\P{L}\\p{Lm}\\p{Lo}]")
    expect(compile("(?i)[x\\p{Lt}]").re2Source).toBe("[Xx\\p{Lu}\\p{Ll}\\p{Lt}]")
    expect(compile("\\p{Lu}").re2Source).toBe("\\p{Lu}")
  })

  test.prop([fc.integer({ min: 0, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff)], { numRuns: 300 })(
    "under (?i), \\p and \\P of a cased-letter category split every code point between them, and the three categories agree",
    (c) => {
      const s = String.fromCodePoint(c)
      const upper = compile("(?i)\\p{Lu}").test(s)
      expect(compile("(?i)\\P{Lu}").test(s)).toBe(!upper)
      expect(compile("(?i)\\p{Ll}").test(s)).toBe(upper)
      expect(compile("(?i)\\p{Lt}").test(s)).toBe(upper)
      // and without the flag, the three together are the folded one
      expect(compile("[\\p{Lu}\\p{Ll}\\p{Lt}]").test(s)).toBe(upper)
    }
  )
})

describe("FieldPattern: \\p{Any} and \\P{Any}", () => {
  it("knows that \\P{Any} matches nothing (bug: a pattern of it said to be satisfiable, and a rule of it accepted)", () => {
    for (const source of ["\\P{Any}", "[^\\p{Any}]", "[\\P{Any}]", "\\p{^Any}", "a\\P{Any}"]) {
      const p = compile(source)
      expect([source, p.satisfiable, p.test(""), p.test("a")]).toEqual([source, false, false, false])
    }
    const p = compile("a\\P{Any}|b")
    expect([p.satisfiable, p.minLength, p.maxLength, p.test("b")]).toEqual([true, 1, 1, true])
    const refused = FieldValidator.compile([
      { name: "note", required: true, validation: { regex: { pattern: "\\P{Any}", description: "d" } } }
    ])
    expect(Result.isFailure(refused) && refused.failure.map((e) => e.reason)).toEqual(["EmptyIntersection"])
  })

  it("runs \\p{Any} natively: one code point of any kind, a line break and an astral one too", () => {
    const p = compile("\\p{Any}")
    expect([p.engine, p.minLength, p.maxLength]).toEqual(["native", 1, 1])
    expect(["a", "\n", "\u{1F600}", "\u0000"].map((s) => p.test(s))).toEqual([true, true, true, true])
    expect(["", "ab"].map((s) => p.test(s))).toEqual([false, false])
    expect(compile("[^\\P{Any}]{2}").test("\n\u{10FFFF}")).toBe(true)
  })
})

describe("FieldPattern: drawing values for a pattern with Unicode property classes", () => {
  it.effect(
    "draws matching values of every kind the classes allow, from ECMAScript's tables of the same names (bug: every draw discarded, the arbitrary failing)",
    () =>
      Effect.gen(function* () {
        for (const [pattern, expected] of [
          ["\\p{Lu}{2}", /^\p{Lu}{2}$/u],
          ["[\\p{L} '-]{1,30}", /^[\p{L} '-]{1,30}$/u],
          ["\\p{Greek}+\\d", /^\p{Script=Greek}+\d$/u],
          ["\\pN{3}", /^\p{N}{3}$/u],
          ["\\P{L}\\p{Sc}", /^\P{L}\p{Sc}$/u],
          ["(?i)\\p{Ll}[^\\p{L}\\d]", /^[\p{Lu}\p{Ll}\p{Lt}][^\p{L}\d]$/u],
          ["x|\\P{Any}\\p{Lu}", /^x$/u]
        ] as const) {
          yield* expectDrawn(pattern, expected, 5)
        }
      })
  )
})

/** what values are drawn from for a pattern: its generator, as a RegExp (`undefined` when it has none) */
const drawnFrom = (source: string): RegExp | undefined => {
  const compiled = RegexCompile.compile(source)
  if (!compiled.ok) throw new Error(`${source} did not compile`)
  const generator = compiled.pattern.generator
  return generator === undefined ? undefined : new RegExp(generator, "u")
}

describe("FieldPattern: what values are drawn from", () => {
  it("holds a property class's code points from the first to the last, and no other (bug: a range cut at U+0000 or U+10FFFF, one code point too many, or \\P read as \\p)", () => {
    for (const source of ["\\P{L}", "[^\\p{L}]", "\\p{^L}"]) {
      const from = drawnFrom(source)!
      expect([source, ["\u0000", "\u{10FFFF}", "1", " ", "a", "\u4E2D"].map((s) => from.test(s))]).toEqual([
        source,
        [true, true, true, true, false, false]
      ])
    }
    const upper = drawnFrom("\\p{Lu}")!
    expect(["A", "Z", "@", "[", "a", "\u00C0", "\u00D7"].map((s) => upper.test(s))).toEqual([
      true,
      true,
      false,
      false,
      false,
      true,
      false
    ])
    // every general category RE2 knows, LC and Cn too, has an ECMAScript table
    expect(["a", "A", "1"].map((s) => drawnFrom("\\p{LC}")!.test(s))).toEqual([true, true, false])
    expect(["\u0378", "a"].map((s) => drawnFrom("\\p{Cn}")!.test(s))).toEqual([true, false])
    expect(["\u03A3", "a"].map((s) => drawnFrom("\\p{Greek}")!.test(s))).toEqual([true, false])
  })

  it("has no form for a pattern with an anchor or a boundary inside, nor for an empty pattern's parts", () => {
    expect(drawnFrom("a\\bb")).toBeUndefined()
    expect(drawnFrom("(?m)a$\\nb")).toBeUndefined()
    expect(drawnFrom("\\p{L}\\b")).toBeUndefined()
    // a pattern nothing matches keeps its form: there is nothing to draw, and the rule says so
    expect(drawnFrom("a[^\\s\\S]")?.source).toBe("^(?:a[])$")
  })

  /** characters the patterns below use, and others */
  const alphabet = fc.constantFrom("a", "b", "x", "y", "z", "9", "A", "\u03A3", "\u4E2D", " ", "-")
  const atoms = fc.constantFrom(
    "a",
    "b",
    "x",
    "[xy]",
    "[^\\s\\S]",
    "[\\P{Any}]",
    "\\p{Lu}",
    "\\p{Greek}",
    "[\\p{L}9]",
    "[^\\p{Ll}]",
    "\\d"
  )
  const quantifiers = fc.constantFrom("", "", "?", "*", "+", "{0,2}", "{2}", "{1,3}")

  test.prop(
    [
      patterns({ atom: atoms, quant: quantifiers, maxItems: 3, capturing: false }),
      fc.array(fc.array(alphabet, { maxLength: 5 }), { minLength: 20, maxLength: 20 })
    ],
    { numRuns: 200 }
  )(
    "matches exactly the values the pattern matches, parts that match nothing left out (bug: a branch or repetition of them kept, or a value lost)",
    (source, values) => {
      const pattern = compile(source)
      const from = drawnFrom(source)!
      for (const chars of values) {
        const value = chars.join("")
        expect([source, value, from.test(value)]).toEqual([source, value, pattern.test(value)])
      }
      // and what it is written as can be drawn from: no empty class left where a value can be drawn around it
      if (pattern.satisfiable) expect([source, from.source.includes("[]")]).toEqual([source, false])
    }
  )
})

describe("FieldPattern: drawing values for a pattern with a part that matches nothing", () => {
  it.effect(
    "draws matching values when an empty class sits in a branch or under an optional repetition (bug: every draw discarded)",
    () =>
      Effect.gen(function* () {
        for (const [pattern, expected] of [
          ["x[^\\s\\S]?", /^x$/],
          ["(?:a|[^\\s\\S])b", /^ab$/],
          ["x[\\P{Any}]?y", /^xy$/],
          ["(?:[^\\s\\S]|c)*d{2}", /^c*dd$/],
          ["(?:[^\\s\\S]{0,3}|e)f", /^e?f$/],
          ["(?:(?:a|(?:b[^\\s\\S]))+|z)9", /^(?:a+|z)9$/]
        ] as const) {
          yield* expectDrawn(pattern, expected, 11)
        }
      })
  )
})
