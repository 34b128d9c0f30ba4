import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as Json from "../src/internal/json.js"

const problemsOf = (text: string, depth = 64) => {
  const r = Json.parse(text, depth)
  return Either.isRight(r) ? [] : r.left.map((p) => ({ reason: p.reason, path: p.path }))
}

describe("reading JSON without trusting it", () => {
  it("every double's own text survives parsing, and so does any text of at most 15 significant digits", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => {
        expect(Json.survivesParsing(JSON.stringify(d))).toBe(true)
      })
    )
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n - 1n }),
        fc.integer({ min: -290, max: 290 }),
        fc.boolean(),
        (digits, exponent, negative) => {
          const text = `${negative ? "-" : ""}${digits}e${exponent}`
          expect(Json.survivesParsing(text)).toBe(true)
          expect(problemsOf(`{"a":${text}}`)).toEqual([])
        }
      )
    )
  })

  it("a number whose text a double cannot carry is refused, with its path", () => {
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 40 }), fc.integer({ min: 1, max: 9 }), (zeros, last) => {
        const text = `1.${"0".repeat(zeros)}${last}`
        expect(Json.survivesParsing(text)).toBe(false)
        expect(problemsOf(`{"from":{"amount":${text}},"list":[1,${text}]}`)).toEqual([
          { reason: "InexactNumber", path: ["from", "amount"] },
          { reason: "InexactNumber", path: ["list", 1] }
        ])
      })
    )
    for (const text of ["1e400", "-1e400", "1e-400", "12345678901234567890", "9007199254740993"]) {
      expect(Json.survivesParsing(text), text).toBe(false)
    }
    for (const text of ["-0", "0", "0.0", "1.50", "15e-1", "0.015E2", "1e2", "9007199254740992"]) {
      expect(Json.survivesParsing(text), text).toBe(true)
    }
  })

  it("nesting is measured without recursion: refused past the limit however deep, at its path", () => {
    for (const depth of [1, 10, 64]) {
      expect(problemsOf(`${"[".repeat(depth)}${"]".repeat(depth)}`)).toEqual([])
    }
    expect(problemsOf(`${"[".repeat(65)}${"]".repeat(65)}`)).toEqual([{ reason: "TooDeep", path: Array(64).fill(0) }])
    expect(problemsOf("[".repeat(1_000_000))[0]?.reason).toBe("TooDeep")
    expect(problemsOf(`${'{"a":'.repeat(3)}1}}}`, 2)).toEqual([{ reason: "TooDeep", path: ["a", "a"] }])
    // brackets in strings are text
    expect(problemsOf(`["${"[".repeat(100)}"]`)).toEqual([])
  })

  it("refuses __proto__, constructor and prototype as keys at any depth, also when escaped", () => {
    for (const key of ["__proto__", "constructor", "prototype", "\\u005f_proto__", "\\u0063onstructor"]) {
      expect(problemsOf(`{"a":[{"b":1,"${key}":{}}]}`), key).toEqual([
        { reason: "ForbiddenKey", path: ["a", 0, JSON.parse(`"${key}"`)] }
      ])
    }
    // as values they are text
    expect(problemsOf(`{"a":"__proto__","b":["constructor"]}`)).toEqual([])
  })

  it("text that is not JSON is a Syntax problem whose message quotes none of it", () => {
    expect(Json.parse(`{"a": ${"x".repeat(10_000)}}`, 64)).toEqual(
      Either.left([{ reason: "Syntax", path: [], message: "the request body is not valid JSON" }])
    )
  })

  it("clip keeps at most 64 characters of an input, never half a surrogate pair", () => {
    expect(Json.clip("a".repeat(64))).toBe("a".repeat(64))
    expect(Json.clip("a".repeat(65))).toBe(`${"a".repeat(64)}…`)
    expect(Json.clip(`${"a".repeat(63)}🦊`)).toBe(`${"a".repeat(63)}…`)
  })
})
