import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import fc from "fast-check"
import * as Json from "../src/internal/json.js"

const problemsOf = (text: string, depth = 64) => {
  const r = Json.parse(text, depth)
  return Result.isSuccess(r) ? [] : r.failure.map((p) => ({ reason: p.reason, path: p.path }))
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

  it("refuses a key given twice in one object, at any depth, also when escaped; the same key in two objects is fine", () => {
    expect(problemsOf(`{"amount":1,"amount":2}`)).toEqual([{ reason: "DuplicateKey", path: ["amount"] }])
    expect(problemsOf(`{"from":{"currency":"GBP","amount":1,"amount":1}}`)).toEqual([
      { reason: "DuplicateKey", path: ["from", "amount"] }
    ])
    expect(problemsOf(`{"a":[{"b":{"c":1}},{"b":{"c":1,"d":2,"c":3}}]}`)).toEqual([
      { reason: "DuplicateKey", path: ["a", 1, "b", "c"] }
    ])
    // "\u0061" is "a": JSON reads them as one key
    expect(problemsOf(`{"a":1,"\\u0061":2}`)).toEqual([{ reason: "DuplicateKey", path: ["a"] }])
    // the same key in sibling and nested objects, and a key equal to a value, are not duplicates
    expect(problemsOf(`{"a":{"a":1},"b":{"a":2},"c":["a","a"],"d":"a"}`)).toEqual([])
    // wide objects keep their keys in a set: the duplicate after many keys is found
    const wide = Array.from({ length: 100 }, (_, i) => `"k${i}":${i}`).join(",")
    expect(problemsOf(`{${wide},"k3":0}`)).toEqual([{ reason: "DuplicateKey", path: ["k3"] }])
    expect(problemsOf(`{${wide}}`)).toEqual([])
    // the message names the key and where it is
    const parsed = Json.parse(`{"from":{"amount":1,"amount":2}}`, 64)
    expect(Result.isFailure(parsed) && parsed.failure[0]!.message).toBe(
      'from.amount: the key "amount" is given twice in one object (each key of a JSON object must be unique)'
    )
  })

  it("no text JSON.stringify writes has a duplicated key; any object with a key added again is refused (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const problems = problemsOf(JSON.stringify(value), 1_000)
        expect(problems.filter((p) => p.reason === "DuplicateKey")).toEqual([])
      })
    )
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 6 }),
        fc.nat(),
        fc.jsonValue({ maxDepth: 1 }),
        fc.array(fc.oneof(fc.constant<"array">("array"), fc.string({ maxLength: 4 })), { maxLength: 4 }),
        (object, pick, again, nesting) => {
          const keys = Object.keys(object)
          const key = keys[pick % keys.length]!
          const text = `${JSON.stringify(object).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(again)}}`
          // nested in arrays (at index 0) and objects (under a key)
          const nested = nesting.reduceRight(
            (inner, level) => (level === "array" ? `[${inner}]` : `{${JSON.stringify(level)}:${inner}}`),
            text
          )
          const path = [...nesting.map((level) => (level === "array" ? 0 : Json.clip(level))), Json.clip(key)]
          expect(problemsOf(nested, 1_000)).toContainEqual({ reason: "DuplicateKey", path })
        }
      )
    )
  })

  it("text that is not JSON is a Syntax problem whose message quotes none of it", () => {
    expect(Json.parse(`{"a": ${"x".repeat(10_000)}}`, 64)).toEqual(
      Result.fail([{ reason: "Syntax", path: [], message: "the request body is not valid JSON" }])
    )
  })

  it("clip keeps at most 64 characters of an input, never half a surrogate pair", () => {
    expect(Json.clip("a".repeat(64))).toBe("a".repeat(64))
    expect(Json.clip("a".repeat(65))).toBe(`${"a".repeat(64)}…`)
    expect(Json.clip(`${"a".repeat(63)}🦊`)).toBe(`${"a".repeat(63)}…`)
  })
})
