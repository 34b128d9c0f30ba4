import { describe, expect, it } from "@effect/vitest"
import { SchemeLimits } from "@payrules/accounts"
import { Currency } from "@payrules/money"
import { FieldValidator, PayBody, PayFields, type RuleError } from "@payrules/transfers"
import { hostileJson, readFixture } from "@payrules/vitest"
import { Either, FastCheck as fc, JSONSchema, ParseResult, Schema } from "effect"

type Rule = PayFields.FieldRequirement
type Strictness = FieldValidator.Strictness

const compile = (fields: ReadonlyArray<Rule>, options?: FieldValidator.Options) =>
  Either.getOrThrowWith(
    FieldValidator.compile(fields, options),
    (errors) => new Error(errors.map((e) => e.message).join("; "))
  )

const ruleErrors = (
  fields: ReadonlyArray<Rule>,
  options?: FieldValidator.Options
): ReadonlyArray<RuleError.RuleError> =>
  Either.match(FieldValidator.compile(fields, options), { onLeft: (errors) => errors, onRight: () => [] })

const found = (r: Either.Either<unknown, ReadonlyArray<FieldValidator.Issue>>): ReadonlyArray<string> =>
  Either.match(r, { onLeft: (issues) => issues.map((i) => `${i.path.join(".")}|${i.rule}`).sort(), onRight: () => [] })

const schemaPaths = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<string> | undefined => {
  const r = Schema.decodeUnknownEither(v.schema, { errors: "all" })(body)
  return Either.isRight(r)
    ? undefined
    : [...new Set(ParseResult.ArrayFormatter.formatErrorSync(r.left).map((i) => i.path.join(".")))].sort()
}

const validatePaths = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<string> | undefined =>
  Either.match(v.validate(body), {
    onLeft: (issues) => [...new Set(issues.map((i) => i.path.join(".")))].sort(),
    onRight: () => undefined
  })

const base = {
  amount: 10,
  currency: "GBP",
  account_id: "acc",
  receiver: { counterparty_id: "cp" },
  request_id: "req-1"
}

// ---------------------------------------------------------------------------------------------------------------------
// fixtures
// ---------------------------------------------------------------------------------------------------------------------

interface Fixture {
  readonly description: string
  readonly schemes: ReadonlyArray<"FasterPayments" | "OpenBanking" | "Swift">
  readonly response: unknown
  readonly valid: ReadonlyArray<unknown>
  readonly invalid: ReadonlyArray<{
    readonly note: string
    readonly body: unknown
    readonly issues: ReadonlyArray<{ readonly path: ReadonlyArray<string>; readonly rule: string }>
  }>
  readonly boundary: ReadonlyArray<{ readonly note: string; readonly body: unknown; readonly valid: boolean }>
}

const load = (name: string) => {
  const fixture = readFixture<Fixture>(import.meta.url, `fixtures/${name}.json`)
  const response = Schema.decodeUnknownSync(PayFields.FieldsResponse)(fixture.response)
  const validator = compile(response.fields, { schemes: fixture.schemes.map((s) => SchemeLimits[s]) })
  return { fixture, response, validator }
}

describe.each(["swift", "inr", "swiss-qr", "gb-faster-payments"])("fixture %s", (name) => {
  const { fixture, response, validator } = load(name)

  it("accepts the valid bodies as they are", () => {
    for (const body of fixture.valid) expect(validator.validate(body)).toEqual(Either.right(body))
  })

  it("reports every fault of an invalid body at once", () => {
    for (const { note, body, issues } of fixture.invalid) {
      expect([note, found(validator.validate(body))]).toEqual([
        note,
        issues.map((i) => `${i.path.join(".")}|${i.rule}`).sort()
      ])
    }
  })

  it("uses the server's description of the pattern as the message", () => {
    const descriptions = new Map(response.fields.map((f) => [f.name, f.validation?.regex?.description]))
    for (const { body } of fixture.invalid) {
      for (const issue of Either.match(validator.validate(body), { onLeft: (i) => i, onRight: () => [] })) {
        if (issue.rule === "Pattern") expect(issue.message).toBe(descriptions.get(issue.path.join(".")))
      }
    }
  })

  it("decides the boundaries in code points", () => {
    for (const { note, body, valid } of fixture.boundary) {
      expect([note, Either.isRight(validator.validate(body))]).toEqual([note, valid])
    }
  })

  it("agrees with its Schema on every body", () => {
    const bodies = [...fixture.valid, ...fixture.invalid.map((x) => x.body), ...fixture.boundary.map((x) => x.body)]
    for (const body of bodies) expect(schemaPaths(validator, body)).toEqual(validatePaths(validator, body))
  })
})

describe("the fixtures' forms", () => {
  it("SWIFT: the charge bearer options with shared as the default, the address under receiver", () => {
    const { validator } = load("swift")
    const form = validator.form
    expect(form.map((f) => f.name)).toEqual([
      "reference",
      "charge_bearer",
      "receiver.address.street_line1",
      "receiver.address.city",
      "receiver.address.country"
    ])
    const bearer = form.find((f) => f.name === "charge_bearer")!
    expect(bearer.options).toEqual([
      { value: "shared", label: "Shared: each side pays its own bank's fees", default: true },
      { value: "debtor", label: "You pay all fees", default: false },
      { value: "prefer_debtor", label: "You pay all fees where the corridor allows it", default: false }
    ])
    const country = form.find((f) => f.name === "receiver.address.country")!
    expect(country).toMatchObject({
      path: ["receiver", "address", "country"],
      label: "Country",
      required: true,
      patternDescription: "A two-letter ISO 3166 country code, e.g. US",
      htmlPattern: "[A-Z]{2}"
    })
    expect(form.find((f) => f.name === "reference")).toMatchObject({
      maxLength: 140,
      limits: ["Swift: SWIFT remittance information (MT103 field 70) is 4 lines of 35 characters"]
    })
  })

  it("GB Faster Payments: the scheme's 18 replaces the server's 35", () => {
    const { validator } = load("gb-faster-payments")
    expect(validator.form).toEqual([
      {
        name: "reference",
        path: ["reference"],
        label: "Reference",
        required: true,
        minLength: undefined,
        maxLength: 18,
        patternDescription: undefined,
        htmlPattern: undefined,
        options: undefined,
        limits: ["FasterPayments: Faster Payments accepts only 18 characters of reference"]
      }
    ])
    const r = validator.validate({ ...base, reference: "INVOICE 2024-00017 MARCH" })
    expect(Either.isLeft(r) && r.left[0]!.message).toBe(
      "reference must have at most 18 characters (FasterPayments: Faster Payments accepts only 18 characters of reference); it has 24"
    )
  })

  it("INR: twelve reason codes, Swiss QR: exactly 27", () => {
    expect(load("inr").validator.form[1]!.options).toHaveLength(12)
    expect(load("swiss-qr").validator.form[0]).toMatchObject({ minLength: 27, maxLength: 27, htmlPattern: "[0-9]{27}" })
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// rule errors
// ---------------------------------------------------------------------------------------------------------------------

describe("FieldValidator.compile: rule errors", () => {
  it("refuses field names that are not safe dotted paths", () => {
    const names = [
      "__proto__.x",
      "constructor.prototype.x",
      "toString",
      "a.valueOf",
      "hasOwnProperty",
      "__defineGetter__",
      "prototype",
      "a..b",
      " a",
      "a ",
      "a.",
      ".a",
      "",
      "1a",
      "a-b",
      "café",
      "a.b.c.d.e.f"
    ]
    const errors = ruleErrors(names.map((name) => ({ name, required: true })))
    expect(errors.map((e) => [e.field, e.reason])).toEqual(names.map((n) => [n, "InvalidName"]))
    expect(Either.isRight(FieldValidator.compile([{ name: "a.b.c.d.e", required: true }]))).toBe(true)
  })

  it("refuses a duplicate and a name that is both a value and an object", () => {
    expect(
      ruleErrors([
        { name: "x", required: true },
        { name: "x", required: false }
      ]).map((e) => e.reason)
    ).toEqual(["DuplicateField"])
    for (const fields of [
      [
        { name: "a", required: true },
        { name: "a.b", required: true }
      ],
      [
        { name: "a.b", required: true },
        { name: "a", required: true }
      ],
      [{ name: "amount", required: true }],
      [{ name: "receiver", required: true }],
      [{ name: "request_id.x", required: true }],
      [{ name: "reference.x", required: true }]
    ]) {
      expect(ruleErrors(fields).map((e) => e.reason)).toEqual(["PathConflict"])
    }
  })

  it("refuses rules no value satisfies", () => {
    const cases: ReadonlyArray<readonly [Rule, ReadonlyArray<SchemeLimits.LimitSet>]> = [
      [{ name: "reference", required: true, validation: { min_length: 20 } }, [SchemeLimits.FasterPayments]],
      [{ name: "x", required: true, validation: { min_length: 5, max_length: 3 } }, []],
      [
        { name: "reference", required: true, validation: { regex: { pattern: "\\d{27}", description: "27 digits" } } },
        [SchemeLimits.FasterPayments]
      ],
      [
        { name: "x", required: true, validation: { regex: { pattern: "[^\\x{0}-\\x{10FFFF}]", description: "none" } } },
        []
      ],
      [
        {
          name: "x",
          required: true,
          validation: { regex: { pattern: "[A-Z]+", description: "capitals" } },
          options: [{ value: "a" }, { value: "b1" }]
        },
        []
      ],
      [{ name: "x", required: true, validation: { max_length: 2 }, options: [{ value: "abc" }] }, []],
      [{ name: "x", required: false, options: [] }, []],
      [{ name: "currency", required: true, options: [{ value: "EURO" }, { value: "gbp" }] }, []],
      [{ name: "request_id", required: true, validation: { min_length: 41 } }, []]
    ]
    for (const [rule, schemes] of cases) {
      const errors = ruleErrors([rule], { schemes })
      expect([rule.name, errors.map((e) => e.reason)]).toEqual([rule.name, ["EmptyIntersection"]])
    }
    expect(ruleErrors([cases[0]![0]], { schemes: [SchemeLimits.FasterPayments] })[0]!.message).toBe(
      "reference: no length fits: the minimum is 20 (the server's rule) and the maximum 18 (FasterPayments: Faster Payments accepts only 18 characters of reference)"
    )
  })

  it("refuses bad lengths and bad patterns, naming the field and the construct", () => {
    const errors = ruleErrors([
      { name: "a", required: true, validation: { min_length: -1 } },
      { name: "b", required: true, validation: { max_length: 1.5 } },
      { name: "c", required: true, validation: { regex: { pattern: "(?<=x)y", description: "" } } },
      { name: "d", required: true, validation: { regex: { pattern: "(", description: "" } } }
    ])
    expect(errors.map((e) => [e.field, e.reason, e.construct])).toEqual([
      ["a", "InvalidLength", undefined],
      ["b", "InvalidLength", undefined],
      ["c", "UnsupportedPattern", "lookbehind"],
      ["d", "InvalidPattern", undefined]
    ])
  })

  it("reports every broken rule, not only the first", () => {
    const errors = ruleErrors(
      [
        { name: "__proto__", required: true },
        { name: "reference", required: true, validation: { min_length: 19 } },
        { name: "note", required: false, validation: { regex: { pattern: "(a)\\1", description: "" } } },
        { name: "note", required: false }
      ],
      { schemes: [SchemeLimits.FasterPayments] }
    )
    expect(errors.map((e) => e.reason)).toEqual([
      "InvalidName",
      "UnsupportedPattern",
      "DuplicateField",
      "EmptyIntersection"
    ])
  })

  it("checks the names of the limit mapping too", () => {
    expect(
      ruleErrors([], { limitFields: { "__proto__.x": "Reference", amount: "Reference" } }).map((e) => e.reason)
    ).toEqual(["InvalidName", "PathConflict"])
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// intersection with the base schema, the mapping, strictness
// ---------------------------------------------------------------------------------------------------------------------

describe("FieldValidator: rules on base fields, the limit mapping, unknown fields", () => {
  it("intersects a server rule on a string field of the base schema", () => {
    const v = compile([
      { name: "request_id", required: false, validation: { max_length: 36 } },
      { name: "currency", required: true, options: [{ value: "EUR" }, { value: "CHF" }, { value: "EURO" }] },
      { name: "receiver.account_id", required: true }
    ])
    expect(found(v.validate({ ...base, request_id: "r".repeat(37) }))).toEqual([
      "currency|OneOf",
      "receiver.account_id|Required",
      "request_id|MaxLength"
    ])
    expect(v.form.find((f) => f.name === "currency")!.options!.map((o) => o.value)).toEqual(["EUR", "CHF"])
    expect(
      Either.isRight(v.validate({ ...base, currency: "CHF", receiver: { counterparty_id: "c", account_id: "a" } }))
    ).toBe(true)
  })

  it("limits mapped fields even when the server does not list them, and knows them", () => {
    const v = compile([], { schemes: [SchemeLimits.OpenBanking, SchemeLimits.FasterPayments] })
    expect(v.form.map((f) => [f.name, f.maxLength, f.required])).toEqual([["reference", 18, false]])
    expect(found(v.validate({ ...base, reference: "r".repeat(19) }))).toEqual(["reference|MaxLength"])
    expect(Either.isRight(compile([]).validate({ ...base, reference: "r".repeat(200) }))).toBe(true)
    const e2e = compile([], {
      schemes: [SchemeLimits.FasterPayments],
      limitFields: { reference: "Reference", end_to_end_id: "EndToEndIdentification" }
    })
    expect(e2e.form.map((f) => [f.name, f.maxLength])).toEqual([
      ["reference", 18],
      ["end_to_end_id", 31]
    ])
    expect(found(e2e.validate({ ...base, end_to_end_id: "e".repeat(32) }))).toEqual(["end_to_end_id|MaxLength"])
  })

  it("reports, strips or keeps unknown fields", () => {
    const body = JSON.parse(
      '{"amount":1,"currency":"EUR","account_id":"a","receiver":{"counterparty_id":"c","nick":"x","__proto__":{"polluted":true}},"request_id":"r","extra":{"deep":1}}'
    )
    const error = compile([])
    expect(found(error.validate(body))).toEqual([
      "extra|UnknownField",
      "receiver.__proto__|UnknownField",
      "receiver.nick|UnknownField"
    ])
    const strip = compile([], { unknownFields: "strip" })
    const stripped = Either.getOrThrow(strip.validate(body))
    expect(stripped).toEqual({
      amount: 1,
      currency: "EUR",
      account_id: "a",
      receiver: { counterparty_id: "c" },
      request_id: "r"
    })
    expect(Object.getPrototypeOf(stripped.receiver)).toBe(Object.prototype)
    expect(Object.keys(stripped.receiver)).toEqual(["counterparty_id"])
    const allow = compile([], { unknownFields: "allow" })
    expect(Either.getOrThrow(allow.validate(body))).toBe(body)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const clean = { ...base }
    expect(Either.getOrThrow(strip.validate(clean))).toBe(clean)
  })

  it("counts code points at both ends of the length range", () => {
    const v = compile([{ name: "note", required: true, validation: { min_length: 3, max_length: 4 } }])
    const verdicts = ["😀😀", "😀😀😀", "a😀😀", "😀😀😀😀", "😀😀😀😀😀", "ab", "abcd", "abcde"].map((note) =>
      found(v.validate({ ...base, note }))
    )
    expect(verdicts).toEqual([
      ["note|MinLength"],
      [],
      [],
      [],
      ["note|MaxLength"],
      ["note|MinLength"],
      [],
      ["note|MaxLength"]
    ])
  })

  it("reads own properties only", () => {
    const inherited = Object.assign(Object.create({ reference: "inherited" }), base)
    const v = compile([{ name: "reference", required: true }])
    expect(found(v.validate(inherited))).toEqual(["reference|Required"])
  })

  it("never throws, even on a body that throws when read", () => {
    const v = compile([{ name: "reference", required: true }])
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("no")
        }
      }
    )
    expect(found(v.validate(trap))).toEqual(["|Type"])
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// the Schema and JSON Schema
// ---------------------------------------------------------------------------------------------------------------------

describe("FieldValidator.schema", () => {
  const v = compile(
    [
      {
        name: "receiver.address.postcode",
        required: true,
        validation: { regex: { pattern: "[A-Z0-9 ]{3,10}", description: "a postcode" } }
      },
      { name: "note", required: false, validation: { regex: { pattern: "(a|ab)+", description: "a's and ab's" } } },
      { name: "charge_bearer", required: true, options: [{ value: "shared" }, { value: "debtor" }] }
    ],
    { schemes: [SchemeLimits.FasterPayments] }
  )

  it("composes with other schemas", () => {
    const Envelope = Schema.Struct({ idempotency_key: Schema.String, body: v.schema })
    const ok = {
      idempotency_key: "k",
      body: { ...base, receiver: { counterparty_id: "c", address: { postcode: "SW1A 1AA" } }, charge_bearer: "shared" }
    }
    expect(Schema.decodeUnknownSync(Envelope)(ok)).toEqual(ok)
    expect(() => Schema.decodeUnknownSync(Envelope)({ idempotency_key: "k", body: base })).toThrow()
  })

  it("exports a JSON Schema with the intersected lengths, the options and only the linear patterns", () => {
    const js = JSONSchema.make(v.schema) as unknown as { $defs: { PayBody: Record<string, unknown> } }
    const body = js.$defs.PayBody as {
      required: ReadonlyArray<string>
      properties: Record<string, Record<string, unknown>>
      additionalProperties: boolean
    }
    expect(body.required).toEqual(["amount", "currency", "account_id", "receiver", "request_id", "charge_bearer"])
    expect(body.additionalProperties).toBe(false)
    expect(body.properties.reference).toMatchObject({ type: "string", maxLength: 18 })
    expect(body.properties.charge_bearer).toMatchObject({ type: "string", enum: ["shared", "debtor"] })
    expect(body.properties.note).not.toHaveProperty("pattern")
    expect(body.properties.note!.description).toContain("a's and ab's")
    const postcode = (body.properties.receiver as { properties: { address: { properties: { postcode: unknown } } } })
      .properties.address.properties.postcode
    expect(postcode).toMatchObject({ pattern: "^(?:[\\u{20}0-9A-Z]{3,10})$", description: "a postcode" })
    const open = JSONSchema.make(compile([], { unknownFields: "strip" }).schema) as unknown as {
      $defs: { PayBody: { additionalProperties: boolean } }
    }
    expect(open.$defs.PayBody.additionalProperties).toBe(true)
  })

  it("PayBody.PayBody is the static base alone", () => {
    expect(Schema.decodeUnknownSync(PayBody.PayBody)({ ...base, anything: 1 })).toEqual(base)
    const r = Schema.decodeUnknownEither(PayBody.PayBody, { errors: "all" })({
      amount: 0,
      currency: "XYZ",
      account_id: "",
      receiver: { counterparty_id: "c", account_id: "a", card_id: "k" },
      request_id: "r".repeat(41)
    })
    expect(Either.isLeft(r) && ParseResult.ArrayFormatter.formatErrorSync(r.left).map((i) => i.path.join("."))).toEqual(
      ["amount", "currency", "account_id", "receiver", "request_id"]
    )
    expect(PayBody.alwaysRequired).toEqual(["amount", "currency", "account_id", "receiver", "request_id"])
  })
})

describe("FieldValidator.hash and canonical", () => {
  const rules: ReadonlyArray<Rule> = [
    { name: "reference", required: true, validation: { max_length: 35, min_length: 1 } },
    { name: "charge_bearer", required: true, options: [{ value: "shared", default: true }] }
  ]
  it("ignores the order of keys, not the order of fields", () => {
    const reordered: ReadonlyArray<Rule> = [
      { validation: { min_length: 1, max_length: 35 }, required: true, name: "reference" },
      { options: [{ default: true, value: "shared" }], name: "charge_bearer", required: true }
    ]
    expect(FieldValidator.hash(reordered)).toBe(FieldValidator.hash(rules))
    expect(FieldValidator.canonical(reordered)).toBe(FieldValidator.canonical(rules))
    expect(FieldValidator.hash([...rules].reverse())).not.toBe(FieldValidator.hash(rules))
    expect(FieldValidator.hash(rules)).toMatch(/^[0-9a-f]{16}$/)
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// properties: a slow, obviously correct reference checker; the Schema; the form
// ---------------------------------------------------------------------------------------------------------------------

/** patterns whose meaning is the same in the dialect and in a JavaScript RegExp with the `u` flag */
const patternPool: ReadonlyArray<{ readonly source: string; readonly min: number; readonly max: number }> = [
  { source: "[A-Z]{2}", min: 2, max: 2 },
  { source: "\\d{3,5}", min: 3, max: 5 },
  { source: "[a-z]+", min: 1, max: Infinity },
  { source: "[a-z]+[a-z0-9]*", min: 1, max: Infinity },
  { source: "x|xy", min: 1, max: 2 },
  { source: "(ab)*", min: 0, max: Infinity },
  { source: "[^ ]{2,}", min: 2, max: Infinity },
  { source: "[A-Za-z0-9 -]{1,18}", min: 1, max: 18 },
  { source: "^\\w{4}$", min: 4, max: 4 }
]
const names = [
  "reference",
  "charge_bearer",
  "transfer_reason_code",
  "note",
  "receiver.address.city",
  "receiver.address.postcode",
  "receiver.bank.code",
  "a.b.c",
  "request_id",
  "currency",
  "receiver.account_id"
]
const optionValues = ["A", "B", "shared", "debtor", "ab", "x😀", "EUR", "GBP", "r-1"]
const unit = fc.constantFrom("a", "b", "z", "A", "Z", "0", "9", " ", "-", "x", "y", "é", "😀")

interface GenRule extends Rule {
  readonly pattern?: (typeof patternPool)[number]
}

const ruleArb = (name: string): fc.Arbitrary<GenRule> =>
  fc
    .record(
      {
        required: fc.boolean(),
        min: fc.option(fc.nat(6), { nil: undefined }),
        max: fc.option(fc.integer({ min: 0, max: 24 }), { nil: undefined }),
        pattern: fc.option(fc.constantFrom(...patternPool), { nil: undefined }),
        options: fc.option(fc.uniqueArray(fc.constantFrom(...optionValues), { maxLength: 4 }), {
          nil: undefined,
          freq: 2
        })
      },
      { requiredKeys: ["required"] }
    )
    .map((r) => {
      const validation = {
        ...(r.min === undefined ? {} : { min_length: r.min }),
        ...(r.max === undefined ? {} : { max_length: r.max }),
        ...(r.pattern === undefined
          ? {}
          : { regex: { pattern: r.pattern.source, description: `like ${r.pattern.source}` } })
      }
      return {
        name,
        required: r.required,
        ...(Object.keys(validation).length === 0 ? {} : { validation }),
        ...(r.options === undefined ? {} : { options: r.options.map((value, i) => ({ value, default: i === 0 })) }),
        ...(r.pattern === undefined ? {} : { pattern: r.pattern })
      }
    })

const setup = fc.record({
  rules: fc
    .uniqueArray(fc.constantFrom(...names), { maxLength: 6 })
    .chain((ns) => (ns.length === 0 ? fc.constant([]) : fc.tuple(...ns.map(ruleArb)))),
  schemes: fc.subarray([SchemeLimits.FasterPayments, SchemeLimits.OpenBanking, SchemeLimits.Swift]),
  strictness: fc.constantFrom<Strictness>("strip", "error", "allow")
})

type Setup = {
  readonly rules: ReadonlyArray<GenRule>
  readonly schemes: ReadonlyArray<SchemeLimits.LimitSet>
  readonly strictness: Strictness
}

// ----- the reference checker: written out again, slowly, with nothing shared with the package -----

interface Expected {
  kind: "string" | "currency" | "amount"
  required: boolean
  min: number
  max: number
  patterns: Array<RegExp>
  options: Array<string> | undefined
}

const baseExpected = (): Map<string, Expected> =>
  new Map<string, Expected>([
    ["amount", { kind: "amount", required: true, min: 0, max: Infinity, patterns: [], options: undefined }],
    ["currency", { kind: "currency", required: true, min: 0, max: Infinity, patterns: [], options: undefined }],
    ["account_id", { kind: "string", required: true, min: 1, max: Infinity, patterns: [], options: undefined }],
    [
      "receiver.counterparty_id",
      { kind: "string", required: true, min: 1, max: Infinity, patterns: [], options: undefined }
    ],
    [
      "receiver.account_id",
      { kind: "string", required: false, min: 1, max: Infinity, patterns: [], options: undefined }
    ],
    ["receiver.card_id", { kind: "string", required: false, min: 1, max: Infinity, patterns: [], options: undefined }],
    ["request_id", { kind: "string", required: true, min: 1, max: 40, patterns: [], options: undefined }],
    ["reference", { kind: "string", required: false, min: 0, max: Infinity, patterns: [], options: undefined }]
  ])

const length = (s: string) => [...s].length

const passesAllButOptions = (e: Expected, s: string): boolean =>
  length(s) >= e.min &&
  length(s) <= e.max &&
  (e.kind !== "currency" || Currency.isKnown(s)) &&
  e.patterns.every((p) => p.test(s))

/** the expected fields, or "empty" when no value can satisfy some field */
const expectedFields = (s: Setup): Map<string, Expected> | "empty" => {
  const fields = baseExpected()
  const referenceLimits = s.schemes.flatMap((set) =>
    set.limits.filter((l) => l.field === "Reference").map((l) => l.maxLength)
  )
  fields.get("reference")!.max = Math.min(Infinity, ...referenceLimits)
  let empty = false
  for (const r of s.rules) {
    const e = fields.get(r.name) ?? {
      kind: "string",
      required: false,
      min: 0,
      max: Infinity,
      patterns: [],
      options: undefined
    }
    e.required ||= r.required
    e.min = Math.max(e.min, r.validation?.min_length ?? 0)
    e.max = Math.min(e.max, r.validation?.max_length ?? Infinity)
    if (r.pattern !== undefined) {
      e.patterns.push(new RegExp(`^(?:${r.pattern.source})$`, "u"))
      if (r.pattern.min > e.max || r.pattern.max < e.min) empty = true
    }
    fields.set(r.name, e)
    if (e.min > e.max) empty = true
  }
  for (const r of s.rules) {
    if (r.options === undefined) continue
    const e = fields.get(r.name)!
    e.options = [...new Set(r.options.map((o) => o.value))].filter((v) => passesAllButOptions(e, v))
    if (e.options.length === 0) empty = true
  }
  return empty ? "empty" : fields
}

const plainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const referenceIssues = (s: Setup, fields: Map<string, Expected>, body: unknown): ReadonlyArray<string> => {
  const issues: Array<string> = []
  const childrenOf = (prefix: string) => {
    const out = new Set<string>()
    for (const name of fields.keys()) {
      if (prefix === "" || name.startsWith(`${prefix}.`)) {
        const rest = prefix === "" ? name : name.slice(prefix.length + 1)
        out.add(rest.split(".")[0]!)
      }
    }
    return out
  }
  const requiredBelow = (prefix: string) => [...fields].some(([name, e]) => e.required && name.startsWith(`${prefix}.`))
  const visit = (prefix: string, value: unknown): void => {
    const before = issues.length
    if (!plainObject(value)) {
      issues.push(`${prefix}|Type`)
      return
    }
    for (const key of childrenOf(prefix)) {
      const name = prefix === "" ? key : `${prefix}.${key}`
      const e = fields.get(name)
      const present = Object.hasOwn(value, key)
      if (e === undefined) {
        if (present) visit(name, value[key])
        else if (requiredBelow(name) || name === "receiver") issues.push(`${name}|Required`)
        continue
      }
      if (!present) {
        if (e.required) issues.push(`${name}|Required`)
        continue
      }
      const v = value[key]
      if (e.kind === "amount") {
        if (typeof v !== "number") issues.push(`${name}|Type`)
        else if (!(v > 0 && Number.isFinite(v))) issues.push(`${name}|PositiveAmount`)
        continue
      }
      if (typeof v !== "string") {
        issues.push(`${name}|Type`)
        continue
      }
      if (e.options !== undefined) {
        if (!e.options.includes(v)) issues.push(`${name}|OneOf`)
      } else if (length(v) < e.min) issues.push(`${name}|MinLength`)
      else if (length(v) > e.max) issues.push(`${name}|MaxLength`)
      else if (e.kind === "currency" && !Currency.isKnown(v)) issues.push(`${name}|Currency`)
      else if (!e.patterns.every((p) => p.test(v))) issues.push(`${name}|Pattern`)
    }
    if (s.strictness === "error") {
      const known = childrenOf(prefix)
      for (const key of Object.keys(value)) {
        if (!known.has(key)) issues.push(`${prefix === "" ? key : `${prefix}.${key}`}|UnknownField`)
      }
    }
    if (
      prefix === "receiver" &&
      issues.length === before &&
      Object.hasOwn(value, "account_id") &&
      Object.hasOwn(value, "card_id")
    ) {
      issues.push("receiver|OneReceiverMethod")
    }
  }
  visit("", body)
  return issues.sort()
}

// ----- bodies generated for a rule set -----

const stringFor = (rule: GenRule | undefined): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit, maxLength: 8 }),
    fc.string({ unit, minLength: 15, maxLength: 45 }),
    fc.string({ unit: fc.constantFrom("😀", "𝄞", "a"), maxLength: 8 }),
    ...(rule?.options === undefined || rule.options.length === 0
      ? []
      : [fc.constantFrom(...rule.options.map((o) => o.value))]),
    ...(rule?.pattern === undefined
      ? []
      : [fc.stringMatching(new RegExp(`^(?:${rule.pattern.source})$`)).filter((x) => x.length < 30)])
  )

const wrong = fc.constantFrom<unknown>(5, null, true, {}, [], "")

const define = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })

const alnum = fc.constantFrom("a", "b", "Z", "0", "7", "x", "é", "😀")

/** a body that tries to satisfy every rule (options, pattern-shaped strings, lengths within the bounds) */
const validAttempt = (s: Setup, fields: Map<string, Expected>): fc.Arbitrary<unknown> => {
  const byName = new Map(s.rules.map((r) => [r.name, r]))
  const leaves = [...fields.keys()].filter((n) => n !== "amount" && n !== "receiver.card_id")
  return fc
    .tuple(
      ...leaves.map((name) => {
        const e = fields.get(name)!
        const pattern = byName.get(name)?.pattern
        const value: fc.Arbitrary<string> =
          e.options !== undefined
            ? fc.constantFrom(...e.options)
            : e.kind === "currency"
              ? fc.constantFrom("EUR", "GBP")
              : pattern !== undefined
                ? fc.stringMatching(new RegExp(`^(?:${pattern.source})$`))
                : fc.string({ unit: alnum, minLength: e.min, maxLength: Math.min(e.max, e.min + 10) })
        return e.required ? value : fc.option(value, { nil: undefined })
      })
    )
    .map((values) => {
      const root: Record<string, unknown> = { amount: 3 }
      leaves.forEach((name, i) => {
        const v = values[i]
        if (v === undefined) return
        const path = name.split(".")
        let o = root
        for (const segment of path.slice(0, -1)) {
          if (!plainObject(o[segment])) o[segment] = {}
          o = o[segment] as Record<string, unknown>
        }
        o[path[path.length - 1]!] = v
      })
      return root
    })
}

const bodyFor = (s: Setup): fc.Arbitrary<unknown> => {
  const fields = expectedFields(s)
  return fields === "empty" ? randomBody(s) : fc.oneof(randomBody(s), validAttempt(s, fields))
}

const randomBody = (s: Setup): fc.Arbitrary<unknown> => {
  const byName = new Map(s.rules.map((r) => [r.name, r]))
  const leaves = [
    ...new Set([
      "account_id",
      "receiver.counterparty_id",
      "receiver.account_id",
      "receiver.card_id",
      "request_id",
      "reference",
      ...s.rules.map((r) => r.name)
    ])
  ]
  return fc
    .record({
      amount: fc.oneof(fc.constant(12.5), fc.constantFrom<unknown>(0, -1, "12.5", 1e-7)),
      currency: fc.oneof(fc.constantFrom("EUR", "GBP", "CHF"), fc.constantFrom<unknown>("gbp", "XYZ", 978)),
      values: fc.tuple(
        ...leaves.map((name) =>
          fc.oneof(
            { weight: 2, arbitrary: fc.constant<unknown>(undefined) },
            { weight: 6, arbitrary: stringFor(byName.get(name)) as fc.Arbitrary<unknown> },
            { weight: 1, arbitrary: wrong }
          )
        )
      ),
      extra: fc.subarray(["extra", "receiver.nick", "receiver.address.zip", "__proto__", "receiver.__proto__"], {
        maxLength: 2
      }),
      brokenObject: fc.option(fc.constantFrom("receiver", "receiver.address", "a.b", "root"), {
        nil: undefined,
        freq: 8
      })
    })
    .map((g) => {
      const root: Record<string, unknown> = {}
      const put = (name: string, value: unknown) => {
        const path = name.split(".")
        let o = root
        for (const segment of path.slice(0, -1)) {
          if (!plainObject(o[segment]) || !Object.hasOwn(o, segment)) define(o, segment, {})
          o = o[segment] as Record<string, unknown>
        }
        define(o, path[path.length - 1]!, value)
      }
      put("amount", g.amount)
      put("currency", g.currency)
      leaves.forEach((name, i) => {
        const v = g.values[i]
        if (v !== undefined) put(name, v)
        else if (name === "receiver.counterparty_id") put("receiver.counterparty_id", "cp")
      })
      for (const name of g.extra) put(name, name.endsWith("__proto__") ? { polluted: true } : "?")
      if (g.brokenObject === "root") return JSON.parse(JSON.stringify([root]))
      if (g.brokenObject !== undefined) put(g.brokenObject, "not an object")
      // through JSON, as a body arrives: a "__proto__" key becomes an own property
      return JSON.parse(JSON.stringify(root))
    })
}

const toFields = (rules: ReadonlyArray<GenRule>): ReadonlyArray<Rule> => rules.map(({ pattern: _, ...rule }) => rule)

const withBodies = setup.chain((s) => fc.tuple(fc.constant(s), fc.array(bodyFor(s), { minLength: 1, maxLength: 6 })))

describe("FieldValidator: properties", () => {
  it("validate agrees with a slow reference checker, and compile refuses exactly the empty rule sets", () => {
    let compiled = 0
    let refused = 0
    let validBodies = 0
    fc.assert(
      fc.property(withBodies, ([s, bodies]) => {
        const expected = expectedFields(s)
        const result = FieldValidator.compile(toFields(s.rules), { schemes: s.schemes, unknownFields: s.strictness })
        if (expected === "empty") {
          expect(Either.isLeft(result) && result.left.every((e) => e.reason === "EmptyIntersection")).toBe(true)
          refused++
          return
        }
        if (Either.isLeft(result)) throw new Error(result.left.map((e) => e.message).join("; "))
        compiled++
        for (const body of bodies) {
          const got = found(result.right.validate(body))
          expect({ body, got }).toEqual({ body, got: referenceIssues(s, expected, body) })
          if (got.length === 0) validBodies++
        }
      }),
      { numRuns: 800 }
    )
    expect(compiled).toBeGreaterThan(100)
    expect(refused).toBeGreaterThan(10)
    expect(validBodies).toBeGreaterThan(20)
  })

  it("the Schema and validate accept the same bodies, with issues at the same paths and the same output", () => {
    fc.assert(
      fc.property(withBodies, ([s, bodies]) => {
        const result = FieldValidator.compile(toFields(s.rules), { schemes: s.schemes, unknownFields: s.strictness })
        if (Either.isLeft(result)) return
        const v = result.right
        for (const body of bodies) {
          expect({ body, paths: schemaPaths(v, body) }).toEqual({ body, paths: validatePaths(v, body) })
          const ours = v.validate(body)
          if (Either.isRight(ours) && s.strictness !== "allow") {
            expect(Schema.decodeUnknownSync(v.schema)(body)).toEqual(ours.right)
          }
        }
      }),
      { numRuns: 300 }
    )
  })

  it("the form lists exactly the compiled fields: the server's, then the fields a scheme limits", () => {
    fc.assert(
      fc.property(setup, (s) => {
        const result = FieldValidator.compile(toFields(s.rules), { schemes: s.schemes, unknownFields: s.strictness })
        if (Either.isLeft(result)) return
        const limited = s.schemes.some((set) => set.limits.some((l) => l.field === "Reference"))
        const names = s.rules.map((r) => r.name)
        const expected = limited && !names.includes("reference") ? [...names, "reference"] : names
        const form = result.right.form
        expect(form.map((f) => f.name)).toEqual(expected)
        for (const f of form) {
          expect(f.path.join(".")).toBe(f.name)
          const rule = s.rules.find((r) => r.name === f.name)
          expect(f.required).toBe(rule?.required === true || ["currency", "request_id"].includes(f.name))
          if (f.minLength !== undefined && f.maxLength !== undefined)
            expect(f.minLength).toBeLessThanOrEqual(f.maxLength)
          if (rule?.options !== undefined)
            expect(f.options!.map((o) => o.value).every((x) => rule.options!.some((o) => o.value === x))).toBe(true)
        }
      }),
      { numRuns: 300 }
    )
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// hostile names and bodies
// ---------------------------------------------------------------------------------------------------------------------

const hostileName = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "__proto__.polluted",
    "constructor.prototype.polluted",
    "receiver.__proto__.polluted",
    "toString",
    "valueOf",
    "a..b",
    " a",
    "a.b.c.d.e.f",
    "__defineSetter__",
    "propertyIsEnumerable.x",
    "polluted"
  ),
  fc.string({ maxLength: 12 }),
  fc
    .array(fc.constantFrom("a", "__proto__", "constructor", "prototype", "x_1", ""), { minLength: 1, maxLength: 7 })
    .map((s) => s.join("."))
)

const hostileRule: fc.Arbitrary<Rule> = fc
  .record({
    name: hostileName,
    required: fc.boolean(),
    options: fc.option(fc.array(fc.record({ value: fc.string({ maxLength: 4 }) }), { maxLength: 3 }), {
      nil: undefined
    })
  })
  .map(({ options, ...r }) => (options === undefined ? r : { ...r, options }))

const hostileBody = fc.oneof(
  hostileJson,
  fc.constantFrom(
    JSON.parse(
      '{"amount":1,"currency":"EUR","account_id":"a","receiver":{"counterparty_id":"c","__proto__":{"polluted":true}},"request_id":"r","__proto__":{"polluted":true}}'
    ),
    JSON.parse('{"constructor":{"prototype":{"polluted":true}},"polluted":{"__proto__":{"polluted":true}}}'),
    JSON.parse('{"a":{"b":{"__proto__":{"polluted":true}}},"receiver":"__proto__"}')
  )
)

describe("FieldValidator: hostile rules and bodies", () => {
  it("compile never throws and refuses every unsafe name; validate never throws; no prototype changes", () => {
    fc.assert(
      fc.property(
        fc.array(hostileRule, { maxLength: 6 }),
        fc.array(hostileBody, { maxLength: 6 }),
        fc.constantFrom<Strictness>("strip", "error", "allow"),
        (rules, bodies, unknownFields) => {
          const result = FieldValidator.compile(rules, { unknownFields })
          if (Either.isLeft(result)) {
            for (const e of result.left) expect(e.message.length).toBeGreaterThan(0)
            return
          }
          for (const r of rules) {
            for (const segment of r.name.split(".")) {
              expect(["__proto__", "constructor", "prototype", "toString", "valueOf", ""].includes(segment)).toBe(false)
            }
          }
          for (const body of bodies) {
            const out = result.right.validate(body)
            if (Either.isRight(out) && typeof out.right === "object") {
              expect([Object.prototype, null]).toContain(Object.getPrototypeOf(out.right))
            }
            Schema.decodeUnknownEither(result.right.schema, { errors: "all" })(body)
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined()
          expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined()
        }
      ),
      { numRuns: 500 }
    )
  })
})
