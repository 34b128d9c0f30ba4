import { describe, expect, it } from "@effect/vitest"
import { SchemeLimits } from "@payrules/accounts"
import { FieldValidator, PayBody, PayFields } from "@payrules/transfers"
import { hostileJson, readFixture, issuesOf as schemaIssuesOf, schemaLaws } from "@payrules/vitest"
import { Arbitrary, Result, Schema } from "effect"
import fc from "fast-check"
import {
  base,
  compile,
  found,
  issuePaths,
  jsonSchemaValidator,
  lazily,
  payBodyJsonSchema,
  type Rule,
  ruleErrors,
  type Strictness,
  schemaPaths,
  validatePaths
} from "./support/validator.js"

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
  // loaded and compiled when a test runs (see `lazily`)
  const loaded = lazily(() => load(name))

  it("accepts the valid bodies as they are", () => {
    for (const body of loaded().fixture.valid) expect(loaded().validator.validate(body)).toEqual(Result.succeed(body))
  })

  it("reports every fault of an invalid body at once", () => {
    for (const { note, body, issues } of loaded().fixture.invalid) {
      expect([note, found(loaded().validator.validate(body))]).toEqual([
        note,
        issues.map((i) => `${i.path.join(".")}|${i.rule}`).sort()
      ])
    }
  })

  it("uses the server's description of the pattern as the message", () => {
    const descriptions = new Map(loaded().response.fields.map((f) => [f.name, f.validation?.regex?.description]))
    for (const { body } of loaded().fixture.invalid) {
      for (const issue of Result.match(loaded().validator.validate(body), {
        onFailure: (i) => i,
        onSuccess: () => []
      })) {
        if (issue.rule === "Pattern") expect(issue.message).toBe(descriptions.get(issue.path.join(".")))
      }
    }
  })

  it("decides the boundaries in code points", () => {
    for (const { note, body, valid } of loaded().fixture.boundary) {
      expect([note, Result.isSuccess(loaded().validator.validate(body))]).toEqual([note, valid])
    }
  })

  it("agrees with its Schema on every body", () => {
    const bodies = [
      ...loaded().fixture.valid,
      ...loaded().fixture.invalid.map((x) => x.body),
      ...loaded().fixture.boundary.map((x) => x.body)
    ]
    for (const body of bodies)
      expect(schemaPaths(loaded().validator, body)).toEqual(validatePaths(loaded().validator, body))
  })

  it.prop(
    "every body its Schema's arbitrary draws passes validate, as it is",
    [Arbitrary.flatMap(Arbitrary.Constant(undefined), () => Arbitrary.schema(loaded().validator.schema))],
    ([body]) => {
      expect(loaded().validator.validate(body)).toEqual(Result.succeed(body))
    },
    { arbitrary: { runs: 100 } }
  )
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
    expect(Result.isFailure(r) && r.failure[0]!.message).toBe(
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
    expect(Result.isSuccess(FieldValidator.compile([{ name: "a.b.c.d.e", required: true }]))).toBe(true)
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
      Result.isSuccess(v.validate({ ...base, currency: "CHF", receiver: { counterparty_id: "c", account_id: "a" } }))
    ).toBe(true)
  })

  it("limits mapped fields even when the server does not list them, and knows them", () => {
    const v = compile([], { schemes: [SchemeLimits.OpenBanking, SchemeLimits.FasterPayments] })
    expect(v.form.map((f) => [f.name, f.maxLength, f.required])).toEqual([["reference", 18, false]])
    expect(found(v.validate({ ...base, reference: "r".repeat(19) }))).toEqual(["reference|MaxLength"])
    expect(Result.isSuccess(compile([]).validate({ ...base, reference: "r".repeat(200) }))).toBe(true)
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
    const stripped = Result.getOrThrow(strip.validate(body))
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
    expect(Result.getOrThrow(allow.validate(body))).toBe(body)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const clean = { ...base }
    expect(Result.getOrThrow(strip.validate(clean))).toBe(clean)
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
  const v = lazily(() =>
    compile(
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
  )

  it.prop(
    "its arbitrary draws bodies that validate accepts, also for a pattern that runs on re2js",
    [Arbitrary.flatMap(Arbitrary.Constant(undefined), () => Arbitrary.schema(v().schema))],
    ([body]) => {
      expect(v().validate(body)).toEqual(Result.succeed(body))
      const note = (body as { readonly note?: unknown }).note
      if (note !== undefined) expect(note).toMatch(/^(?:a|ab)+$/)
    },
    { arbitrary: { runs: 100 } }
  )

  it("composes with other schemas", () => {
    const Envelope = Schema.Struct({ idempotency_key: Schema.String, body: v().schema })
    const ok = {
      idempotency_key: "k",
      body: { ...base, receiver: { counterparty_id: "c", address: { postcode: "SW1A 1AA" } }, charge_bearer: "shared" }
    }
    expect(Schema.decodeUnknownSync(Envelope)(ok)).toEqual(ok)
    expect(() => Schema.decodeUnknownSync(Envelope)({ idempotency_key: "k", body: base })).toThrow()
  })

  it("exports a JSON Schema with the intersected lengths, the options and only the linear patterns", () => {
    const body = payBodyJsonSchema(v().schema) as {
      required: ReadonlyArray<string>
      properties: Record<string, Record<string, unknown>>
      propertyNames: unknown
    }
    expect(body.required).toEqual(["amount", "currency", "account_id", "receiver", "request_id", "charge_bearer"])
    // no field but the known ones (effect 4 writes `additionalProperties: false` only when asked, as below)
    expect(body.propertyNames).toEqual({
      enum: ["amount", "currency", "account_id", "receiver", "request_id", "reference", "note", "charge_bearer"]
    })
    expect(payBodyJsonSchema(v().schema, { onExcessProperty: "error" }).additionalProperties).toBe(false)
    expect(body.properties.reference).toMatchObject({ type: "string", maxLength: 18 })
    expect(body.properties.charge_bearer).toMatchObject({ type: "string", enum: ["shared", "debtor"] })
    expect(body.properties.note).not.toHaveProperty("pattern")
    expect(body.properties.note!.description).toContain("a's and ab's")
    const postcode = (body.properties.receiver as { properties: { address: { properties: { postcode: unknown } } } })
      .properties.address.properties.postcode
    expect(postcode).toMatchObject({ pattern: "^(?:[\\u{20}0-9A-Z]{3,10})$", description: "a postcode" })
    const open = payBodyJsonSchema(compile([], { unknownFields: "strip" }).schema)
    expect(open.additionalProperties).toBe(true)
    expect(open).not.toHaveProperty("propertyNames")
  })

  it("exports a JSON Schema that a JSON Schema validator reads as we do", () => {
    const ok = {
      ...base,
      receiver: { counterparty_id: "c", address: { postcode: "SW1A 1AA" } },
      charge_bearer: "shared",
      reference: "INV-1"
    }
    const strict = jsonSchemaValidator(v().schema)
    expect(strict(ok)).toBe(true)
    for (const wrong of [
      { ...ok, extra: 1 },
      { ...ok, receiver: { ...ok.receiver, nick: "x" } },
      { ...ok, reference: "r".repeat(19) },
      { ...ok, charge_bearer: "ours" },
      { ...ok, receiver: { ...ok.receiver, account_id: "a", card_id: "k" } },
      { ...ok, amount: 0 }
    ]) {
      expect([wrong, strict(wrong)]).toEqual([wrong, false])
      expect(Result.isFailure(v().validate(wrong))).toBe(true)
    }
    const open = jsonSchemaValidator(compile([], { unknownFields: "strip" }).schema)
    expect(open({ ...base, extra: 1 })).toBe(true)
  })

  schemaLaws("PayBody.PayBody", PayBody.PayBody)

  it("PayBody.PayBody is the static base alone", () => {
    expect(Schema.decodeUnknownSync(PayBody.PayBody)({ ...base, anything: 1 })).toEqual(base)
    const r = Schema.decodeUnknownResult(PayBody.PayBody, { errors: "all" })({
      amount: 0,
      currency: "XYZ",
      account_id: "",
      receiver: { counterparty_id: "c", account_id: "a", card_id: "k" },
      request_id: "r".repeat(41)
    })
    expect(Result.isFailure(r) && issuePaths(r.failure)).toEqual([
      "amount",
      "currency",
      "account_id",
      "receiver",
      "request_id"
    ])
    expect(PayBody.alwaysRequired).toEqual(["amount", "currency", "account_id", "receiver", "request_id"])
  })
})

describe("request_id is text, as POST /exchange takes it", () => {
  const v = lazily(() => compile([]))
  const issuesOf = (requestId: string) =>
    Result.match(v().validate({ ...base, request_id: requestId }), {
      onFailure: (issues) => issues,
      onSuccess: () => []
    })

  it("refuses control characters and lone surrogates, saying which and where", () => {
    expect(issuesOf("req\n1")).toEqual([
      {
        path: ["request_id"],
        rule: "Characters",
        message:
          "request_id must be text without control characters; it has a control character, U+000A, at character 4"
      }
    ])
    expect(issuesOf("😀\u0000").map((i) => i.message)).toEqual([
      "request_id must be text without control characters; it has a control character, U+0000, at character 2"
    ])
    expect(issuesOf("a\u009f").map((i) => i.rule)).toEqual(["Characters"])
    expect(issuesOf("a\u007f").map((i) => i.rule)).toEqual(["Characters"])
    expect(issuesOf("a\ud800b").map((i) => i.message)).toEqual([
      "request_id must be text without control characters; it has a lone surrogate (UTF-8 cannot carry it), U+D800, at character 2"
    ])
    expect(issuesOf("\udc00").map((i) => i.rule)).toEqual(["Characters"])
  })

  it("takes any other text of 1 to 40 code points; the length is checked first", () => {
    for (const ok of ["e0cbf846-3726-4ee0-82a8-48b1c2d3e4f5", "😀".repeat(40), "a b\u00a0c", "\ud83d\ude00", "é"]) {
      expect(issuesOf(ok), JSON.stringify(ok)).toEqual([])
    }
    expect(issuesOf("\n".repeat(41)).map((i) => i.rule)).toEqual(["MaxLength"])
  })

  it("the Schema, PayBody.PayBody and the JSON Schema say the same", () => {
    expect(schemaPaths(v(), { ...base, request_id: "a\rb" })).toEqual(
      validatePaths(v(), { ...base, request_id: "a\rb" })
    )
    const r = Schema.decodeUnknownResult(PayBody.PayBody)({ ...base, request_id: "a\rb" })
    expect(Result.isFailure(r) && schemaIssuesOf(r.failure)).toEqual([
      {
        path: ["request_id"],
        message:
          "request_id must be text without control characters; it has a control character, U+000D, at character 2"
      }
    ])
    const js = payBodyJsonSchema(PayBody.PayBody) as { properties: { request_id: { pattern?: string } } }
    const requestId = js.properties.request_id
    const pattern = new RegExp(requestId.pattern!)
    expect(["req-1", "😀"].every((ok) => pattern.test(ok))).toBe(true)
    expect(["a\nb", "\u0000", "\u009f"].some((bad) => pattern.test(bad))).toBe(false)
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
          if (Result.isFailure(result)) {
            for (const e of result.failure) expect(e.message.length).toBeGreaterThan(0)
            return
          }
          for (const r of rules) {
            for (const segment of r.name.split(".")) {
              expect(["__proto__", "constructor", "prototype", "toString", "valueOf", ""].includes(segment)).toBe(false)
            }
          }
          for (const body of bodies) {
            const out = result.success.validate(body)
            if (Result.isSuccess(out) && typeof out.success === "object") {
              expect([Object.prototype, null]).toContain(Object.getPrototypeOf(out.success))
            }
            Schema.decodeUnknownResult(result.success.schema, { errors: "all" })(body)
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined()
          expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined()
        }
      ),
      { numRuns: 500 }
    )
  })
})
