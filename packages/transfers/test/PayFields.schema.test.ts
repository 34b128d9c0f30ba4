/**
 * A compiled validator's `schema` (src/internal/schema.ts) as its users meet it: the messages of its issues (the same
 * as `validate`'s), the JSON Schema it exports (bounds, options, the receiver's "not both", the known fields), the
 * bodies its arbitrary draws; and the equivalence of the "any" JSON values of PayFields.
 */
import { describe, expect, it } from "@effect/vitest"
import { SchemeLimits } from "@payrules/accounts"
import { type FieldValidator, PayBody, PayFields } from "@payrules/transfers"
import { issuesOf as schemaIssuesOf } from "@payrules/vitest"
import { lazyArbitrary } from "@payrules/vitest/Lazy"
import { Arbitrary, Result, Schema } from "effect"
import { base, compile, lazily, payBodyJsonSchema } from "./support/validator.js"

/** what the Schema says of a body: each issue's path (dotted) and message */
const schemaSays = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<readonly [string, string]> => {
  const r = Schema.decodeUnknownResult(v.schema, { errors: "all" })(body)
  return Result.isSuccess(r) ? [] : schemaIssuesOf(r.failure).map((i) => [i.path.map(String).join("."), i.message])
}

const validateSays = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<readonly [string, string]> =>
  Result.match(v.validate(body), {
    onFailure: (issues) => issues.map((i) => [i.path.join("."), i.message] as const),
    onSuccess: () => []
  })

type JsonObject = { readonly properties: Record<string, Record<string, unknown>> } & Record<string, unknown>

const propertiesOf = (v: FieldValidator.FieldValidator): Record<string, Record<string, unknown>> =>
  (payBodyJsonSchema(v.schema) as JsonObject).properties

describe("FieldValidator.schema: what its issues say", () => {
  it("a value not among the options is told the list, as validate tells it (bug: the Schema's generic message)", () => {
    const v = compile([{ name: "charge_bearer", required: true, options: [{ value: "shared" }, { value: "debtor" }] }])
    const body = { ...base, charge_bearer: "ours" }
    expect(schemaSays(v, body)).toEqual([["charge_bearer", 'charge_bearer must be one of "shared", "debtor"']])
    expect(schemaSays(v, body)).toEqual(validateSays(v, body))
  })

  it("an unknown field is told which object it is not a field of, at its own path (bug: the root named for a nested object)", () => {
    const v = compile([{ name: "receiver.address.city", required: false }])
    expect(
      schemaSays(v, {
        ...base,
        extra: 1,
        receiver: { counterparty_id: "cp", nick: "x", address: { town: "Bern" } }
      })
    ).toEqual([
      ["receiver.address.town", "is not a field of receiver.address"],
      ["receiver.nick", "is not a field of receiver"],
      ["extra", "is not a field of the payment body"]
    ])
  })
})

describe("FieldValidator.schema: its JSON Schema", () => {
  it("carries a field's bounds only where there are some, its title, and its options as an enum with a title (bug: minLength 0, maxLength Infinity, an option field untitled)", () => {
    const properties = propertiesOf(
      compile(
        [
          { name: "open", required: false },
          { name: "bounded", required: false, validation: { min_length: 2, max_length: 9 } },
          { name: "floor", required: false, validation: { min_length: 1 } },
          {
            name: "charge_bearer",
            required: true,
            options: [{ value: "shared" }, { value: "debtor" }]
          }
        ],
        { schemes: [SchemeLimits.FasterPayments] }
      )
    )
    expect(properties.open).toEqual({ type: "string", title: "Open" })
    expect(properties.bounded).toEqual({ type: "string", title: "Bounded", minLength: 2, maxLength: 9 })
    expect(properties.floor).toEqual({ type: "string", title: "Floor", minLength: 1 })
    expect(properties.reference).toEqual({
      type: "string",
      title: "Reference",
      description: "FasterPayments: Faster Payments accepts only 18 characters of reference",
      maxLength: 18
    })
    expect(properties.charge_bearer).toMatchObject({ title: "Charge bearer", enum: ["shared", "debtor"] })
  })

  it("describes a pattern it leaves out by its RE2 form alone when the server's description is blank (bug: a description starting with '; ')", () => {
    const properties = propertiesOf(
      compile([{ name: "note", required: false, validation: { regex: { pattern: "(a|ab)+", description: "" } } }])
    )
    expect(properties.note).not.toHaveProperty("pattern")
    expect(properties.note!.description).toMatch(/^matches the RE2 pattern /)
  })

  it("forbids both receiver methods and lists the known fields of each object (bug: the JSON Schema takes what validate refuses)", () => {
    const js = payBodyJsonSchema(compile([{ name: "receiver.address.city", required: false }]).schema) as JsonObject
    const receiver = js.properties.receiver as JsonObject
    expect(receiver.allOf).toEqual([{ not: { required: ["account_id", "card_id"] } }])
    expect(receiver.propertyNames).toEqual({ enum: ["counterparty_id", "account_id", "card_id", "address"] })
    expect((receiver.properties.address as JsonObject).propertyNames).toEqual({ enum: ["city"] })
  })
})

describe("FieldValidator.schema: its arbitrary", () => {
  const v = lazily(() =>
    compile([
      // patterns whose generator is written with \u{...} escapes, which need the `u` flag
      { name: "spaces", required: true, validation: { regex: { pattern: "[ ]{3}", description: "three spaces" } } },
      { name: "accented", required: true, validation: { regex: { pattern: "[éü]{2,4}", description: "é or ü" } } }
    ])
  )

  it.prop(
    "draws bodies validate accepts, for patterns of characters written as escapes (bug: the pattern's generator read without the u flag)",
    [lazyArbitrary(() => Arbitrary.schema(v().schema))],
    ([body]) => {
      expect(v().validate(body)).toEqual(Result.succeed(body))
      expect((body as unknown as { readonly spaces: string }).spaces).toBe("   ")
    },
    { arbitrary: { runs: 20 } }
  )
})

describe("PayFields.AnyJson", () => {
  it("tells apart values of different JSON and not values of the same (bug: every two values equivalent)", () => {
    const same = Schema.toEquivalence(PayFields.FieldOption)
    expect(same({ value: "a", default: { x: [1] } }, { value: "a", default: { x: [1] } })).toBe(true)
    expect(same({ value: "a", default: { x: [1] } }, { value: "a", default: { x: [2] } })).toBe(false)
    expect(same({ value: "a", description: "A" }, { value: "a", description: 1 })).toBe(false)
    expect(Schema.toEquivalence(PayFields.AnyJson)(true, false)).toBe(false)
  })
})

describe("PayBody.PayBody", () => {
  it("requires receiver and its counterparty_id (bug: a body without a receiver taken)", () => {
    const { receiver: _, ...noReceiver } = base
    const paths = (body: unknown) => {
      const r = Schema.decodeUnknownResult(PayBody.PayBody, { errors: "all" })(body)
      return Result.isSuccess(r) ? [] : schemaIssuesOf(r.failure).map((i) => i.path.map(String).join("."))
    }
    expect(paths(noReceiver)).toEqual(["receiver"])
    expect(paths({ ...base, receiver: {} })).toEqual(["receiver.counterparty_id"])
    expect(paths(base)).toEqual([])
  })
})

describe("PayFields: the JSON Schema of POST /pay/fields", () => {
  it("names each part as a definition of its own, with the titles and descriptions of the Schemas (bug: a part inlined or unnamed in generated API documents)", () => {
    const response = Schema.toJsonSchemaDocument(PayFields.FieldsResponse)
    expect(response.schema).toEqual({ $ref: "#/$defs/FieldsResponse" })
    expect(Object.keys(response.definitions).sort()).toEqual(
      ["AnyJsonEncoded", "FieldOption", "FieldRegex", "FieldRequirement", "FieldValidation", "FieldsResponse"].sort()
    )
    expect(response.definitions.FieldsResponse).toMatchObject({ title: "POST /pay/fields response" })
    const request = Schema.toJsonSchemaDocument(PayFields.FieldsRequest)
    expect(request.schema).toEqual({ $ref: "#/$defs/FieldsRequest" })
    expect(Object.keys(request.definitions).sort()).toEqual(["FieldsRequest", "Receiver"])
    expect(request.definitions.FieldsRequest).toMatchObject({ title: "POST /pay/fields body" })
    expect(JSON.stringify(request.definitions.Receiver)).toContain(
      "a counterparty, and optionally one of its accounts or one of its cards"
    )
    const envelope = Schema.toJsonSchemaDocument(PayFields.FieldsResponseEnvelope)
    expect(Object.keys(envelope.definitions)).toEqual(["FieldsResponseEnvelope"])
    expect(envelope.definitions.FieldsResponseEnvelope).toMatchObject({
      title: "POST /pay/fields response, rules not yet read"
    })
  })
})

describe("PayBody.PayBody: amount", () => {
  it("refuses an amount that is not finite with one issue that says so, and documents it in its JSON Schema (bug: two issues, or an untitled amount)", () => {
    for (const amount of [Number.POSITIVE_INFINITY, Number.NaN, 0]) {
      const r = Schema.decodeUnknownResult(PayBody.PayBody, { errors: "all" })({ ...base, amount })
      expect(Result.isFailure(r) && schemaIssuesOf(r.failure)).toEqual([
        { path: ["amount"], message: `amount must be a finite number greater than 0; got ${amount}` }
      ])
    }
    const js = payBodyJsonSchema(PayBody.PayBody) as JsonObject
    expect(js.properties.amount).toEqual({
      type: "number",
      exclusiveMinimum: 0,
      title: "Amount",
      description: "the amount, a finite number greater than 0"
    })
    // the rule against both receiver methods is the receiver's alone
    expect(js).not.toHaveProperty("allOf")
  })
})
