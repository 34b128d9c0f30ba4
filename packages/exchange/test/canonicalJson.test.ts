/**
 * The canonical JSON writer behind the fingerprint of a request built by hand: the text of every JSON value, its keys
 * sorted, `undefined` properties left out, what JSON has no text for written `null`, and the `leaf` hook for values
 * that are not plain JSON. Each test names the bug it guards; the reference writer is written here again.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { stringify } from "../src/internal/canonicalJson.js"
import { sortedJson as reference } from "./support/sortedJson.js"

const plain = (u: unknown): string => stringify(u, () => undefined)

/** the same value with the keys of every object in another order */
const reversed = (u: unknown): unknown =>
  Array.isArray(u)
    ? u.map(reversed)
    : u !== null && typeof u === "object"
      ? Object.fromEntries(
          Object.entries(u)
            .reverse()
            .map(([k, v]) => [k, reversed(v)])
        )
      : u

describe("canonicalJson.stringify", () => {
  it("writes every JSON value as the reference does (sorted keys, no whitespace): guards a dropped case, separator or sort", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(plain(v)).toBe(reference(v))
        expect(JSON.parse(plain(v))).toStrictEqual(JSON.parse(JSON.stringify(v)))
      }),
      { numRuns: 500 }
    )
  })

  it("gives one text whatever the order of the keys: guards a lost sort", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(plain(reversed(v))).toBe(plain(v))
      }),
      { numRuns: 300 }
    )
    expect(plain({ b: 1, a: 2, B: 3, "": 4 })).toBe('{"":4,"B":3,"a":2,"b":1}')
  })

  it("writes each kind of leaf exactly: guards a case falling through to the next or returning empty text", () => {
    expect(plain(null)).toBe("null")
    expect(plain('a"b\n')).toBe('"a\\"b\\n"')
    expect(plain(true)).toBe("true")
    expect(plain(false)).toBe("false")
    expect(plain(0)).toBe("0")
    expect(plain(-1.5e-7)).toBe("-1.5e-7")
    expect(plain([])).toBe("[]")
    expect(plain({})).toBe("{}")
    expect(plain([1, [2, 3], { a: [null] }])).toBe('[1,[2,3],{"a":[null]}]')
    expect(plain({ a: 1, b: "x", c: { d: null } })).toBe('{"a":1,"b":"x","c":{"d":null}}')
  })

  it("writes what JSON has no text for as null, like JSON.stringify inside an array: guards empty text for them", () => {
    expect(plain(Number.NaN)).toBe("null")
    expect(plain(Number.POSITIVE_INFINITY)).toBe("null")
    expect(plain([Number.NEGATIVE_INFINITY, undefined, () => 1, Symbol.for("s"), 1n])).toBe(
      "[null,null,null,null,null]"
    )
    expect(plain(undefined)).toBe("null")
  })

  it("leaves out undefined properties and keeps null ones: guards a missing or inverted filter", () => {
    expect(plain({ a: undefined, b: null, c: 1 })).toBe('{"b":null,"c":1}')
    expect(plain({ a: undefined })).toBe("{}")
    expect(plain({ a: 0, b: false, c: "" })).toBe('{"a":0,"b":false,"c":""}')
  })

  it("writes what leaf gives for an object, and only then: guards the leaf answer ignored or always taken", () => {
    class Money {
      constructor(readonly cents: number) {}
    }
    const leaf = (v: object) => (v instanceof Money ? `${v.cents / 100}` : undefined)
    expect(stringify(new Money(1050), leaf)).toBe("10.5")
    expect(stringify({ z: [new Money(1)], a: new Money(250) }, leaf)).toBe('{"a":2.5,"z":[0.01]}')
    expect(stringify({ b: [1], a: { c: 2 } }, leaf)).toBe('{"a":{"c":2},"b":[1]}')
  })
})
