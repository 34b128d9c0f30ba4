import { describe, expect, it } from "@effect/vitest"
import { PayFields } from "@payrules/transfers"
import { issuesOf, readFixture, schemaLaws } from "@payrules/vitest"
import { Result, Schema } from "effect"

schemaLaws("FieldsRequest", PayFields.FieldsRequest)
schemaLaws("FieldsResponse", PayFields.FieldsResponse)

const decodeRequest = Schema.decodeUnknownResult(PayFields.FieldsRequest)
const decodeResponse = Schema.decodeUnknownResult(PayFields.FieldsResponse)

describe("FieldsRequest", () => {
  it("accepts a counterparty alone, with an account, or with a card", () => {
    for (const receiver of [
      { counterparty_id: "c" },
      { counterparty_id: "c", account_id: "a" },
      { counterparty_id: "c", card_id: "k" }
    ]) {
      expect(Result.isSuccess(decodeRequest({ account_id: "acc", receiver }))).toBe(true)
    }
  })

  it("refuses both receiver.account_id and receiver.card_id, at the path receiver", () => {
    const r = decodeRequest({ account_id: "acc", receiver: { counterparty_id: "c", account_id: "a", card_id: "k" } })
    if (Result.isSuccess(r)) throw new Error("accepted both")
    const issues = issuesOf(r.failure)
    expect(issues.map((i) => i.path)).toEqual([["receiver"]])
    expect(issues[0]!.message).toContain("not both")
  })

  it("reports missing and mistyped fields at their paths", () => {
    const r = decodeRequest({ receiver: { account_id: 5 } })
    if (Result.isSuccess(r)) throw new Error("accepted")
    expect(issuesOf(r.failure).map((i) => i.path)).toEqual([["account_id"]])
    const all = Schema.decodeUnknownResult(PayFields.FieldsRequest, { errors: "all" })({ receiver: { account_id: 5 } })
    if (Result.isSuccess(all)) throw new Error("accepted")
    expect(issuesOf(all.failure).map((i) => i.path.join("."))).toEqual([
      "account_id",
      "receiver.counterparty_id",
      "receiver.account_id"
    ])
  })

  it("exports a JSON Schema that forbids both", () => {
    const js = JSON.stringify(Schema.toJsonSchemaDocument(PayFields.FieldsRequest))
    expect(js).toContain('"not":{"required":["account_id","card_id"]}')
  })
})

describe("FieldsResponse", () => {
  it("decodes the fixtures' responses and keeps the option fields the specification calls any", () => {
    for (const name of ["swift", "inr", "swiss-qr", "gb-faster-payments"]) {
      const fixture = readFixture<{ response: unknown }>(import.meta.url, `fixtures/${name}.json`)
      const r = decodeResponse(fixture.response)
      if (Result.isFailure(r)) throw new Error(`${name}: ${r.failure.message}`)
      expect(r.success.fields.length).toBeGreaterThan(0)
    }
    const r = Result.getOrThrow(
      decodeResponse({
        fields: [
          {
            name: "charge_bearer",
            required: true,
            options: [{ value: "shared", default: true, type: { any: ["thing"] }, description: 7 }]
          }
        ],
        next: "ignored"
      })
    )
    expect(r).toEqual({
      fields: [
        {
          name: "charge_bearer",
          required: true,
          options: [{ value: "shared", default: true, type: { any: ["thing"] }, description: 7 }]
        }
      ]
    })
  })

  it("refuses negative or fractional lengths and a regex without its description", () => {
    for (const validation of [{ min_length: -1 }, { max_length: 1.5 }, { regex: { pattern: "a" } }]) {
      expect(Result.isFailure(decodeResponse({ fields: [{ name: "x", required: true, validation }] }))).toBe(true)
    }
  })

  it("decodes a JSON-parsed __proto__ key without touching any prototype", () => {
    const body = JSON.parse(
      '{"fields":[{"name":"x","required":false,"__proto__":{"polluted":true},"options":[{"value":"a","default":{"__proto__":{"polluted":true}}}]}]}'
    )
    const r = Result.getOrThrow(decodeResponse(body))
    expect(Object.getPrototypeOf(r.fields[0])).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
