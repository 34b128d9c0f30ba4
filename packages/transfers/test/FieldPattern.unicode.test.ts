/**
 * Unicode property classes in server patterns (src/internal/regexParse.ts, regexCompile.ts): the cased-letter
 * categories under `(?i)` as Java reads them (D6: Java's `matches`), `\p{Any}` and `\P{Any}` as the sets they are, and
 * the values drawn for a pattern with a part that matches nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { FieldPattern, FieldValidator } from "@payrules/transfers"
import { Arbitrary, Effect, Result } from "effect"

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
