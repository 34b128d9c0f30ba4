/**
 * `FieldValidator.canonical`, the cache key of compiled rules: equal rules share it whatever the order of their keys,
 * different rules never do, so a cache keyed by it never hands out the validator of other rules.
 */
import { isDeepStrictEqual } from "node:util"
import { describe, expect } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { FieldValidator } from "@payrules/transfers"
import { Result } from "effect"
import { base, type Rule } from "./support/validator.js"

// ----- rules drawn from small pools, so that two draws are often equal or one detail apart -----

/** text with the characters of JSON's syntax, so that a key and a value cannot be confused by where they end */
const text = fc.string({
  unit: fc.constantFrom("a", "b", '"', "\\", ",", ":", "{", "}", "[", "]", " ", "é", "😀"),
  maxLength: 3
})

/** keys that are not integer-like (JavaScript enumerates those first, whatever their order) */
const key = fc.oneof(
  fc.constantFrom("a", "b", "type", "x:y", 'q"', "a,b"),
  text.map((s) => `k${s}`)
)

/** what `default`, `type` and `description` of an option can be: any value, as the specification says */
const anything: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom<unknown>(null, true, false, 0, 1, -1.5, "", "x", undefined),
    text,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(key, tie("value"), { maxKeys: 3 })
  )
})).value

const option = fc.record(
  { value: fc.constantFrom("shared", "debtor", 'a"b'), default: anything, type: anything, description: anything },
  { requiredKeys: ["value"] }
)

const rule: fc.Arbitrary<Rule> = fc.record(
  {
    name: fc.constantFrom("reference", "charge_bearer", "receiver.address.city", "a,b", 'a"'),
    required: fc.boolean(),
    validation: fc.record(
      {
        min_length: fc.constantFrom(0, 1, 2),
        max_length: fc.constantFrom(1, 35),
        regex: fc.record({ pattern: fc.constantFrom("[A-Z]{2}", "\\d+"), description: text })
      },
      { requiredKeys: [] }
    ),
    options: fc.array(option, { maxLength: 2 })
  },
  { requiredKeys: ["name", "required"] }
)

const rules = fc.array(rule, { maxLength: 3 })

/** the same value, every object's keys in another order, and keys of `undefined` (which JSON leaves out) added */
const reordered = <A>(value: A, seed: number): A => {
  let s = seed
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648
    return s
  }
  const go = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(go)
    if (v === null || typeof v !== "object") return v
    const entries = Object.entries(v).map(([k, x]) => [k, go(x)] as const)
    for (let i = entries.length - 1; i > 0; i--) {
      const j = next() % (i + 1)
      ;[entries[i], entries[j]] = [entries[j]!, entries[i]!]
    }
    const out: Record<string, unknown> = {}
    if (next() % 2 === 0) out.absent = undefined
    for (const [k, x] of entries) Object.defineProperty(out, k, { value: x, enumerable: true, writable: true })
    return out
  }
  return go(value) as A
}

/** the rules as JSON sees them: `undefined` keys left out, `undefined` in arrays as null */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

describe("FieldValidator.canonical", () => {
  test.prop([rules])(
    "is the JSON of the rules: it reads back as them (bug: a part of the rules left out of the key, or text that is not JSON)",
    (fields) => {
      const text = FieldValidator.canonical(fields)
      expect(JSON.parse(text)).toStrictEqual(asJson(fields))
      expect(FieldValidator.canonical(asJson(fields) as ReadonlyArray<Rule>)).toBe(text)
    }
  )

  test.prop([rules])(
    "sorts the keys of every object and has no whitespace outside strings (bug: keys left in their order)",
    (fields) => {
      const text = FieldValidator.canonical(fields)
      const sorted = (v: unknown): unknown =>
        Array.isArray(v)
          ? v.map(sorted)
          : v !== null && typeof v === "object"
            ? Object.fromEntries(
                Object.keys(v)
                  .sort()
                  .map((k) => [k, sorted((v as Record<string, unknown>)[k])])
              )
            : v
      expect(text).toBe(JSON.stringify(sorted(asJson(fields))))
    }
  )

  test.prop([rules, fc.nat()])(
    "is the same for equal rules whatever the order of their keys or keys of undefined (bug: equal rules compiled twice)",
    (fields, seed) => {
      const other = reordered(fields, seed)
      expect(FieldValidator.canonical(other)).toBe(FieldValidator.canonical(fields))
      expect(FieldValidator.hash(other)).toBe(FieldValidator.hash(fields))
    }
  )

  test.prop([rules, rules])(
    "differs for rules that differ (bug: two rule sets sharing one compiled validator)",
    (a, b) => {
      expect(FieldValidator.canonical(a) === FieldValidator.canonical(b)).toBe(isDeepStrictEqual(asJson(a), asJson(b)))
    }
  )

  test("rules one detail apart, or with text moved between fields, get different keys", () => {
    const one: ReadonlyArray<Rule> = [{ name: "reference", required: true, validation: { max_length: 35 } }]
    const others: ReadonlyArray<ReadonlyArray<Rule>> = [
      [{ name: "reference", required: false, validation: { max_length: 35 } }],
      [{ name: "reference", required: true, validation: { max_length: 34 } }],
      [{ name: "reference", required: true, validation: { min_length: 35 } }],
      [{ name: "reference", required: true }],
      [{ name: "Reference", required: true, validation: { max_length: 35 } }],
      [{ name: "reference", required: true, validation: { max_length: 35 }, options: [] }],
      [...one, ...one],
      []
    ]
    const keys = [one, ...others].map(FieldValidator.canonical)
    expect(new Set(keys).size).toBe(keys.length)
    // a value that looks like the syntax around it
    const a: ReadonlyArray<Rule> = [
      { name: "x", required: true, options: [{ value: "a", description: 'b","value":"c' }] }
    ]
    const b: ReadonlyArray<Rule> = [
      { name: "x", required: true, options: [{ value: "c", description: "b" }, { value: "a" }] }
    ]
    expect(FieldValidator.canonical(a)).not.toBe(FieldValidator.canonical(b))
    // null is a value, undefined is no key
    const withNull: ReadonlyArray<Rule> = [{ name: "x", required: true, options: [{ value: "a", default: null }] }]
    const withUndefined: ReadonlyArray<Rule> = [
      { name: "x", required: true, options: [{ value: "a", default: undefined }] }
    ]
    const without: ReadonlyArray<Rule> = [{ name: "x", required: true, options: [{ value: "a" }] }]
    expect(FieldValidator.canonical(withNull)).not.toBe(FieldValidator.canonical(without))
    expect(FieldValidator.canonical(withUndefined)).toBe(FieldValidator.canonical(without))
    expect(FieldValidator.canonical([])).toBe("[]")
  })

  test("a cache keyed by canonical gives each rule set its own validator (bug: a stricter rule set served a laxer validator)", () => {
    const cache = new Map<string, FieldValidator.FieldValidator>()
    const cached = (fields: ReadonlyArray<Rule>) => {
      const k = FieldValidator.canonical(fields)
      let v = cache.get(k)
      if (v === undefined) {
        v = FieldValidator.compileUnsafe(fields)
        cache.set(k, v)
      }
      return v
    }
    const body = { ...base, reference: "INV-1" }
    const verdicts = (
      [
        [{ name: "reference", required: true, validation: { max_length: 35 } }],
        [{ name: "reference", required: true, validation: { max_length: 3 } }],
        [{ name: "reference", required: true, validation: { regex: { pattern: "\\d+", description: "digits" } } }],
        [{ name: "reference", required: true, options: [{ value: "INV-2" }] }],
        [{ validation: { max_length: 35 }, required: true, name: "reference" }]
      ] as ReadonlyArray<ReadonlyArray<Rule>>
    ).map((fields) => Result.isSuccess(cached(fields).validate(body)))
    expect(verdicts).toEqual([true, false, false, false, true])
    expect(cache.size).toBe(4)
  })
})
