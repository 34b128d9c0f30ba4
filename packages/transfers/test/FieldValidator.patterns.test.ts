/**
 * Fields on which several rules apply at once: the server's pattern with the text rule of `request_id`, the ISO 4217
 * list of `currency`, a length limit of a scheme. What the JSON Schema, the form and the issues say of them.
 */
import { describe, expect, it } from "@effect/vitest"
import { SchemeLimits } from "@payrules/accounts"
import { Currency } from "@payrules/money"
import type { FieldValidator } from "@payrules/transfers"
import { Arbitrary, Result } from "effect"
import {
  base,
  compile,
  jsonSchemaValidator,
  lazily,
  payBodyJsonSchema,
  schemaPaths,
  validatePaths
} from "./support/validator.js"

const issuesOf = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<FieldValidator.Issue> =>
  Result.match(v.validate(body), { onFailure: (issues) => issues, onSuccess: () => [] })

/** every `pattern` of a JSON Schema, however deep in `allOf` */
const patternsIn = (js: unknown): ReadonlyArray<string> => {
  if (Array.isArray(js)) return js.flatMap(patternsIn)
  if (typeof js !== "object" || js === null) return []
  const o = js as Record<string, unknown>
  return [...(typeof o.pattern === "string" ? [o.pattern] : []), ...Object.values(o).flatMap(patternsIn)]
}

/** the `description` of a JSON Schema, however deep in `allOf` */
const descriptionsIn = (js: unknown): ReadonlyArray<string> => {
  if (Array.isArray(js)) return js.flatMap(descriptionsIn)
  if (typeof js !== "object" || js === null) return []
  const o = js as Record<string, unknown>
  return [...(typeof o.description === "string" ? [o.description] : []), ...Object.values(o).flatMap(descriptionsIn)]
}

const TEXT = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"

const rules = [
  // runs on re2js only (not proven linear), limited by Faster Payments to 18
  { name: "reference", required: true, validation: { regex: { pattern: "(a|ab)+", description: "a's and ab's" } } },
  // proven linear: in the JSON Schema as a pattern
  {
    name: "postcode",
    required: false,
    validation: { regex: { pattern: "[A-Z0-9 ]{3,10}", description: "3 to 10 capitals, digits or spaces" } }
  },
  { name: "note", required: false, validation: { regex: { pattern: "(a|ab)+", description: "" } } },
  { name: "blank", required: false, validation: { regex: { pattern: "[a-z]+", description: "  " } } },
  { name: "plain", required: false },
  { name: "request_id", required: true, validation: { regex: { pattern: "[a-z0-9-]+", description: "lower case" } } },
  { name: "currency", required: true, validation: { regex: { pattern: "[A-Z]{2}P", description: "ends in P" } } }
] as const
const v = lazily(() => compile(rules, { schemes: [SchemeLimits.FasterPayments] }))
const ok = { ...base, reference: "aab", request_id: "req-1", currency: "GBP" }
const properties = lazily(() => (payBodyJsonSchema(v().schema) as { properties: Record<string, unknown> }).properties)

describe("combined patterns: the JSON Schema", () => {
  it("describes a field by the server's description, then the RE2 pattern it runs on, then the scheme's limit (bug: a part dropped or run together)", () => {
    expect(descriptionsIn(properties().reference)).toEqual([
      "a's and ab's; matches the RE2 pattern (?:a|ab)+; FasterPayments: Faster Payments accepts only 18 characters of reference"
    ])
    expect(patternsIn(properties().reference)).toEqual([])
    // a linear pattern is in the JSON Schema itself: the description is the server's alone
    expect(descriptionsIn(properties().postcode)).toEqual(["3 to 10 capitals, digits or spaces"])
    expect(patternsIn(properties().postcode)).toEqual(["^(?:[\\u{20}0-9A-Z]{3,10})$"])
    expect(descriptionsIn(properties().plain)).toEqual([])
    // the limit alone
    const limited = payBodyJsonSchema(compile([], { schemes: [SchemeLimits.FasterPayments] }).schema) as {
      properties: Record<string, unknown>
    }
    expect(descriptionsIn(limited.properties.reference)).toEqual([
      "FasterPayments: Faster Payments accepts only 18 characters of reference"
    ])
  })

  it("leaves out a blank description of the server (bug: a description that starts with '; ')", () => {
    expect(descriptionsIn(properties().note)).toEqual(["matches the RE2 pattern (?:a|ab)+"])
    expect(descriptionsIn(properties().blank)).toEqual([])
  })

  it("gives request_id both the text rule and the server's pattern, and currency both the code shape and the server's pattern (bug: one of two patterns lost)", () => {
    expect([...patternsIn(properties().request_id)].sort()).toEqual([TEXT, "^(?:[\\u{2D}0-9a-z]+)$"].sort())
    expect([...patternsIn(properties().currency)].sort()).toEqual(["^(?:[A-Z]{2}P)$", "^[A-Z]{3}$"].sort())
    expect(descriptionsIn(properties().request_id)).toEqual(["lower case"])
    expect(descriptionsIn(properties().currency)).toEqual(["ends in P"])
    const check = jsonSchemaValidator(v().schema)
    expect(check(ok)).toBe(true)
    for (const wrong of [
      { ...ok, request_id: "REQ-1" },
      { ...ok, request_id: "req\n1" },
      { ...ok, currency: "USD" },
      { ...ok, currency: "GBPP" },
      { ...ok, currency: "gbp" }
    ]) {
      expect([wrong, check(wrong)]).toEqual([wrong, false])
      expect(Result.isFailure(v().validate(wrong))).toBe(true)
    }
  })

  it("keeps only the text rule of request_id when the server's pattern is not linear, and says the rest in words", () => {
    const re2 = compile([
      { name: "request_id", required: true, validation: { regex: { pattern: "(a|ab)+", description: "a's" } } }
    ])
    const js = (payBodyJsonSchema(re2.schema) as { properties: Record<string, unknown> }).properties.request_id
    expect(patternsIn(js)).toEqual([TEXT])
    expect(descriptionsIn(js)).toEqual(["a's; matches the RE2 pattern (?:a|ab)+"])
  })
})

describe("combined patterns: the form and the issues", () => {
  it("the form shows the server's description, no HTML pattern for a pattern that is not linear, and the limit apart", () => {
    const byName = new Map(v().form.map((f) => [f.name, f]))
    expect(byName.get("reference")).toMatchObject({
      patternDescription: "a's and ab's",
      htmlPattern: undefined,
      maxLength: 18,
      limits: ["FasterPayments: Faster Payments accepts only 18 characters of reference"]
    })
    expect(byName.get("request_id")).toMatchObject({
      patternDescription: "lower case",
      htmlPattern: "[\\u{2D}0-9a-z]+"
    })
    expect(byName.get("currency")).toMatchObject({ patternDescription: "ends in P", htmlPattern: "[A-Z]{2}P" })
    expect(byName.get("plain")!.patternDescription).toBeUndefined()
  })

  it("the form has no pattern description for a blank one (bug: an empty description shown)", () => {
    const byName = new Map(v().form.map((f) => [f.name, f]))
    expect(byName.get("note")!.patternDescription).toBeUndefined()
    expect(byName.get("blank")!.patternDescription).toBeUndefined()
  })

  it("one issue a field, in the order lengths, currency, characters, pattern; the pattern's issue is the server's description", () => {
    const cases: ReadonlyArray<readonly [Record<string, unknown>, string, string]> = [
      [{ reference: "ab".repeat(10) }, "MaxLength", "reference"],
      [{ reference: "b" }, "Pattern", "a's and ab's"],
      [{ currency: "XYZ" }, "Currency", "currency"],
      [{ currency: "gbp" }, "Currency", "currency"],
      [{ currency: "USD" }, "Pattern", "ends in P"],
      [{ request_id: "a".repeat(41) }, "MaxLength", "request_id"],
      [{ request_id: "A\n" }, "Characters", "request_id"],
      [{ request_id: "REQ-1" }, "Pattern", "lower case"]
    ]
    for (const [change, rule, said] of cases) {
      const body = { ...ok, ...change }
      const issues = issuesOf(v(), body)
      expect([change, issues.map((i) => i.rule)]).toEqual([change, [rule]])
      if (rule === "Pattern") expect(issues[0]!.message).toBe(said)
      else expect(issues[0]!.message.startsWith(said)).toBe(true)
      expect(schemaPaths(v(), body)).toEqual(validatePaths(v(), body))
    }
  })

  it("a pattern with a blank description is explained by the pattern (bug: an issue with an empty message)", () => {
    for (const [field, value, pattern] of [
      ["note", "b", "(a|ab)+"],
      ["blank", "B", "[a-z]+"]
    ] as const) {
      expect(issuesOf(v(), { ...ok, [field]: value })).toEqual([
        { path: [field], rule: "Pattern", message: `${field} must match the pattern ${JSON.stringify(pattern)}` }
      ])
    }
  })

  it.prop(
    "the Schema's arbitrary draws values that pass every pattern of a field at once",
    // drawn from the Schema when the test runs (the validator is made on first use)
    [Arbitrary.flatMap(Arbitrary.Constant(undefined), () => Arbitrary.schema(v().schema))],
    ([body]) => {
      expect(v().validate(body)).toEqual(Result.succeed(body))
      const { currency, request_id } = body as { readonly currency: string; readonly request_id: string }
      expect(Currency.isKnown(currency) && /^[A-Z]{2}P$/.test(currency)).toBe(true)
      expect(request_id).toMatch(/^[a-z0-9-]+$/)
    },
    { arbitrary: { runs: 50 } }
  )
})
