/**
 * From a parsed pattern to a whole-value matcher (src/internal/regexCompile.ts): the length bounds and `satisfiable`
 * of patterns with parts that match nothing or only the empty value, the native engine's fallback to re2js on a value
 * too long for its stack, what re2js refuses, the source written for each engine, and the values drawn for a field
 * whose pattern runs on re2js.
 */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { FieldPattern, FieldValidator } from "@payrules/transfers"
import { Arbitrary, Effect, Result } from "effect"
import { RE2JS } from "re2js"
import { patterns } from "./support/patternGrammar.js"

const compile = (source: string) => Result.getOrThrow(FieldPattern.compile(source))

const refusalOf = (source: string) =>
  Result.match(FieldPattern.compile(source), {
    onFailure: (e) => e,
    onSuccess: () => {
      throw new Error(`${source} compiled`)
    }
  })

/** a class of no code point: a part of a pattern that nothing matches */
const NONE = "[^\\x{0}-\\x{10FFFF}]"

// ---------------------------------------------------------------------------------------------------------------------
// lengths and satisfiability
// ---------------------------------------------------------------------------------------------------------------------

const atom = fc.constantFrom("a", "b", "[ab]", "\\d", "é", "😀", ".", "(?:)", "(?:a{0})", NONE)
const quant = fc.constantFrom("", "", "*", "+", "?", "{2}", "{0,2}", "{1,3}", "{2,}", "{0}")
const piece = patterns({ atom, quant, maxItems: 3, capturing: false })
const input = fc.string({ unit: fc.constantFrom("a", "b", "0", "é", "😀", "\n"), maxLength: 6 })

const lengthsOf = (p: FieldPattern.FieldPattern) => [p.minLength, p.maxLength, p.satisfiable]

describe("FieldPattern: lengths and satisfiable", () => {
  test.prop([piece, fc.array(input, { minLength: 1, maxLength: 6 })], { numRuns: 150 })(
    "a part that matches nothing changes nothing in an alternative or an optional repetition, and makes a sequence or a required repetition match nothing (bug: an impossible branch counted in the lengths, a pattern nothing matches called satisfiable)",
    (source, values) => {
      const p = compile(source)
      // bounds are numbers a form can show: 0 <= minLength <= maxLength (Infinity when unbounded)
      for (const q of [p, compile(`${NONE}|${NONE}`), compile(`(?:${source})${NONE}`)]) {
        expect(Number.isInteger(q.minLength) && q.minLength >= 0).toBe(true)
        expect(q.maxLength === Infinity || Number.isInteger(q.maxLength)).toBe(true)
        expect(q.maxLength).toBeGreaterThanOrEqual(q.minLength)
      }
      const same = [`${source}|${NONE}`, `${NONE}|${source}`, `(?:${NONE})?(?:${source})`, `(?:${NONE})*(?:${source})`]
      for (const other of same.map(compile)) {
        if (p.satisfiable) expect([other.source, ...lengthsOf(other)]).toEqual([other.source, ...lengthsOf(p)])
        else expect([other.source, other.satisfiable]).toEqual([other.source, false])
        for (const v of values) expect([other.source, v, other.test(v)]).toEqual([other.source, v, p.test(v)])
      }
      const none = [`(?:${NONE})+(?:${source})`, `(?:${source})${NONE}`, `(?:${source})(?:${NONE}|${NONE}){1,2}`]
      for (const other of none.map(compile)) {
        expect([other.source, other.satisfiable]).toEqual([other.source, false])
        for (const v of values) expect([other.source, v, other.test(v)]).toEqual([other.source, v, false])
      }
      // repeated zero times, anything matches the empty value only
      const zero = compile(`(?:${source}){0}`)
      expect(lengthsOf(zero)).toEqual([0, 0, true])
      expect([zero.test(""), zero.test("a")]).toEqual([true, false])
    }
  )

  test.prop([piece], { numRuns: 150 })(
    "a repetition multiplies the lengths of its body, and a body of length 0 repeated without end still has length 0 (bug: 0 times Infinity giving NaN)",
    (source) => {
      const p = compile(source)
      fc.pre(p.satisfiable)
      const star = compile(`(?:${source})*`)
      expect(lengthsOf(star)).toEqual([0, p.maxLength === 0 ? 0 : Infinity, true])
      const plus = compile(`(?:${source})+`)
      expect(lengthsOf(plus)).toEqual([p.minLength, p.maxLength === 0 ? 0 : Infinity, true])
      const range = compile(`(?:${source}){2,3}`)
      expect(lengthsOf(range)).toEqual([2 * p.minLength, 3 * p.maxLength, true])
    }
  )

  it("gives the lengths of patterns with parts that match nothing or only the empty value", () => {
    // [pattern, minLength, maxLength, satisfiable, a value it matches or undefined]
    const cases: ReadonlyArray<readonly [string, number, number, boolean, string | undefined]> = [
      ["(?:)*", 0, 0, true, ""],
      ["(?:a{0})+b", 1, 1, true, "b"],
      ["(?:(?:)|a{0}){2,}", 0, 0, true, ""],
      [NONE, 1, 1, false, undefined],
      [`${NONE}|${NONE}`, 0, 0, false, undefined],
      [`a|b${NONE}`, 1, 1, true, "a"],
      [`${NONE}|bb`, 2, 2, true, "bb"],
      [`${NONE}*`, 0, 0, true, ""],
      [`${NONE}?a`, 1, 1, true, "a"],
      [`${NONE}{0}a`, 1, 1, true, "a"],
      [`${NONE}+`, 0, 0, false, undefined],
      [`${NONE}{2,5}`, 0, 0, false, undefined],
      [`a${NONE}`, 2, 2, false, undefined],
      [`(?:${NONE}|${NONE})?c`, 1, 1, true, "c"]
    ]
    for (const [source, min, max, satisfiable, match] of cases) {
      const p = compile(source)
      expect([source, ...lengthsOf(p)]).toEqual([source, min, max, satisfiable])
      const re2 = RE2JS.compile(p.re2Source)
      if (match !== undefined) expect([source, p.test(match), re2.testExact(match)]).toEqual([source, true, true])
      for (const v of ["", "a", "b", "c", "bb"].filter((v) => v !== match)) {
        expect([source, v, p.test(v), re2.testExact(v)]).toEqual([source, v, false, false])
      }
    }
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// engines
// ---------------------------------------------------------------------------------------------------------------------

describe("FieldPattern: engines", () => {
  it("answers a value too long for the native engine's stack on re2js, with the same verdict, again and again (bug: test throwing a RangeError)", () => {
    const p = compile("(?:a|b)*")
    expect(p.engine).toBe("native")
    const long = "ab".repeat(5_000_000)
    // the native RegExp runs out of stack on this value
    expect(() => new RegExp(p.ecmaSource!, "u").test(long)).toThrow(RangeError)
    expect(p.test(long)).toBe(true)
    expect(p.test(`${long}c`)).toBe(false)
    expect(p.test("abba")).toBe(true)
  })

  it("refuses a pattern whose repetitions, written out, are too large for re2js, even one the native engine could run, so that no match can throw (bug: test threw 'expression too large' when a value overflowed the native engine's stack)", () => {
    const huge = `(?:a|b)*(?:${"cd".repeat(750)}){1000}`
    const e = refusalOf(huge)
    expect([e.reason, e.construct, e.message]).toEqual([
      "UnsupportedPattern",
      "pattern size",
      `the pattern ${JSON.stringify(`${huge.slice(0, 57)}...`)} uses pattern size, which a linear-time engine cannot run: written out, its repetitions make a program larger than the linear-time engine runs`
    ])
    // the same refusal for a pattern that runs on re2js anyway, named in the field's error
    const errors = Result.match(
      FieldValidator.compile([
        {
          name: "note",
          required: false,
          validation: { regex: { pattern: `(?:a?){1000}(?:${"a?".repeat(700)}){1000}`, description: "x" } }
        }
      ]),
      { onFailure: (errors) => errors.map((e) => [e.field, e.reason, e.construct]), onSuccess: () => [] }
    )
    expect(errors).toEqual([["note", "UnsupportedPattern", "pattern size"]])
  })

  it("answers on re2js a value too long for the native engine's stack also for a long pattern (bug: its RE2 form compiled only then, and refused)", () => {
    const body = "cd".repeat(300)
    const p = compile(`(?:a|b)*(?:${body}){10}`)
    expect(p.engine).toBe("native")
    const long = `${"ab".repeat(5_000_000)}${body.repeat(10)}`
    expect(() => new RegExp(p.ecmaSource!, "u").test(long)).toThrow(RangeError)
    expect(p.test(long)).toBe(true)
    expect(p.test(`${long}c`)).toBe(false)
  })

  it("names the Unicode property re2js does not know, in either spelling (bug: an unknown property reported as an invalid pattern)", () => {
    for (const [source, construct] of [
      ["\\pQ", "\\p{Q}"],
      ["\\PQ", "\\P{Q}"],
      ["[a\\p{Foo}]", "\\p{Foo}"],
      ["\\p{L}+|\\p{Zzzz}", "\\p{Zzzz}"]
    ] as const) {
      const e = refusalOf(source)
      expect([source, e.reason, e.construct, e.message]).toEqual([
        source,
        "UnsupportedPattern",
        construct,
        `the pattern ${JSON.stringify(source)} uses ${construct}, which a linear-time engine cannot run: the linear-time engine does not know the Unicode property ${construct}`
      ])
    }
  })

  it("says why re2js runs a pattern, and runs the others natively", () => {
    expect([compile("[a-z]{2}\\d").engine, compile("[a-z]{2}\\d").re2Reason]).toEqual(["native", undefined])
    expect([compile("(a+)+").engine, compile("(a+)+").re2Reason]).toEqual(["re2", "nested quantifiers"])
    expect([compile("\\p{Lu}").engine, compile("\\p{Lu}").re2Reason]).toEqual([
      "re2",
      "a Unicode property class (its tables are RE2's)"
    ])
  })

  it("writes the quantifiers as written: * + ? {n} {n,} {n,m}, and an empty group as (?:)", () => {
    expect(compile("a*b+c?d{2}e{2,}f{2,3}").ecmaSource).toBe("^(?:a*b+c?d{2}e{2,}f{2,3})$")
    expect(compile("a*b+c?d{2}e{2,}f{2,3}").re2Source).toBe("a*b+c?d{2}e{2,}f{2,3}")
    expect(compile("a|").ecmaSource).toBe("^(?:a|(?:))$")
    expect(compile("x(?:)*").re2Source).toBe("x(?:(?:))*")
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// values drawn for a field whose pattern runs on re2js
// ---------------------------------------------------------------------------------------------------------------------

describe("FieldPattern: drawing matching values", () => {
  it.effect(
    "draws matching values for a required field whose pattern runs on re2js but has a plain form (bug: values drawn at random and all discarded)",
    () =>
      Effect.gen(function* () {
        for (const pattern of ["(?:a|ab)+c{3}x", "(\\d+-?)+\\d{4}Z", "(?:a|a)*b{5}", "(?:a|ab)+c{3}|(?:b|bc)*d{4}"]) {
          const v = FieldValidator.compileUnsafe([
            { name: "note", required: true, validation: { regex: { pattern, description: "d" } } }
          ])
          const bodies = yield* Arbitrary.sampleEffect(Arbitrary.schema(v.schema), { count: 20, seed: 7 })
          expect(bodies.length).toBe(20)
          const plain = new RegExp(`^(?:${pattern})$`, "u")
          for (const body of bodies) {
            expect(v.validate(body)).toEqual(Result.succeed(body))
            expect((body as unknown as { readonly note: string }).note).toMatch(plain)
          }
        }
      })
  )

  it.effect(
    "draws valid bodies for a pattern with a Unicode property class or an anchor inside, which have no plain form to draw from (bug: drawing failing on a form with an empty class or an assertion)",
    () =>
      Effect.gen(function* () {
        for (const pattern of [
          "(?s)(?:\\p{L}|[^\\p{L}])*",
          "(?s)(?:\\p{L}|[^\\p{L}])*x?",
          "(?s)(?:\\p{L}|x|[^\\p{L}])*",
          "(?s)(?:\\A|.)*",
          "(?s)(?m)(?:$|.)*"
        ]) {
          const v = FieldValidator.compileUnsafe([
            { name: "note", required: true, validation: { regex: { pattern, description: "d" } } }
          ])
          const bodies = yield* Arbitrary.sampleEffect(Arbitrary.schema(v.schema), { count: 10, seed: 7 })
          for (const body of bodies) expect(v.validate(body)).toEqual(Result.succeed(body))
          // values of every kind the pattern allows, not only the empty value
          const notes = bodies.map((body) => (body as unknown as { readonly note: string }).note)
          expect([pattern, notes.some((note) => [...note].length >= 2)]).toEqual([pattern, true])
        }
      })
  )
})
