/**
 * What a reader of the JSON Schema (or of an OpenAPI document built from these Schemas) sees: the name of each
 * definition (its identifier), its title, description and pattern. They are the public contract of the wire formats:
 * a renamed or lost identifier breaks the `$ref`s of documents that point at it. Each test names the bug it guards.
 */
import { describe, expect, it } from "@effect/vitest"
import { ExchangeReason, ExchangeRequest, ExchangeState, ExchangeTransaction, RequestLedger } from "@payrules/exchange"
import { Schema, SchemaAST } from "effect"

const documentOf = (schema: Schema.Top) => {
  const document = Schema.toJsonSchemaDocument(schema)
  return { schema: document.schema, definitions: document.definitions as Record<string, Record<string, unknown>> }
}

describe("JSON Schema of the exchange request", () => {
  it("the type side names Sell, Buy and their fields' definitions: guards a lost identifier", () => {
    const { definitions, schema } = documentOf(Schema.toType(ExchangeRequest.ExchangeRequest))
    expect(schema).toEqual({ $ref: "#/$defs/ExchangeRequestValue" })
    expect(Object.keys(definitions).sort()).toEqual(
      ["AccountId", "Buy", "ExchangeAmountEncoded", "ExchangeRequestValue", "Reference", "RequestId", "Sell"].sort()
    )
    expect(definitions.ExchangeRequestValue).toEqual({ anyOf: [{ $ref: "#/$defs/Sell" }, { $ref: "#/$defs/Buy" }] })
    expect(documentOf(ExchangeRequest.Sell).schema).toEqual({ $ref: "#/$defs/Sell" })
    expect(documentOf(ExchangeRequest.Buy).schema).toEqual({ $ref: "#/$defs/Buy" })
  })

  it("the body carries its title and description, RequestId its rule: guards emptied annotations", () => {
    const body = ExchangeRequest.ExchangeRequest.ast
    expect(SchemaAST.resolveIdentifier(body)).toBe("ExchangeRequest")
    expect(SchemaAST.resolveTitle(body)).toBe("POST /exchange body")
    expect(SchemaAST.resolveDescription(body)).toBe(
      "an exchange between two accounts: the amount in from (sell) or in to (buy), exactly once"
    )
    expect(SchemaAST.resolveIdentifier(ExchangeRequest.RequestId.ast)).toBe("RequestId")
    expect(SchemaAST.resolveDescription(ExchangeRequest.RequestId.ast)).toBe(
      "1 to 40 characters, no control characters"
    )
  })
})

describe("JSON Schema of exchange reasons", () => {
  it("a country code is a definition with its title and pattern: guards a lost identifier, title or pattern", () => {
    expect(documentOf(ExchangeReason.CountryCode)).toEqual({
      schema: { $ref: "#/$defs/CountryCode" },
      definitions: {
        CountryCode: { type: "string", pattern: "^[A-Z]{2}$", title: "ISO 3166-1 alpha-2 country code" }
      }
    })
  })

  it("a policy refers to its rules, a rule to its country code and threshold, by name: guards lost identifiers", () => {
    const { definitions, schema } = documentOf(ExchangeReason.Policy)
    expect(schema).toEqual({ $ref: "#/$defs/ExchangeReasonPolicy" })
    expect(Object.keys(definitions).sort()).toEqual(
      ["CountryCode", "ExchangeReasonPolicy", "ExchangeReasonRule", "ThresholdEncoded"].sort()
    )
    expect(definitions.ExchangeReasonPolicy?.properties).toEqual({
      rules: { type: "array", items: { $ref: "#/$defs/ExchangeReasonRule" } }
    })
    expect(definitions.ExchangeReasonRule?.properties).toMatchObject({
      country: { $ref: "#/$defs/CountryCode" },
      threshold: { $ref: "#/$defs/ThresholdEncoded" }
    })
    expect(documentOf(ExchangeReason.Rule).schema).toEqual({ $ref: "#/$defs/ExchangeReasonRule" })
  })

  it("GET /exchange-reasons is a list of named entries with a non-empty code: guards lost identifiers", () => {
    expect(documentOf(ExchangeReason.ExchangeReasonList)).toEqual({
      schema: { $ref: "#/$defs/ExchangeReasonList" },
      definitions: {
        ExchangeReason: {
          type: "object",
          properties: { code: { type: "string", minLength: 1 }, name: { type: "string" } },
          required: ["code", "name"],
          additionalProperties: true
        },
        ExchangeReasonList: { type: "array", items: { $ref: "#/$defs/ExchangeReason" } }
      }
    })
  })
})

describe("JSON Schema of transactions and states", () => {
  it("the state lists the six states with a description: guards a lost identifier or description", () => {
    expect(documentOf(ExchangeState.State)).toEqual({
      schema: { $ref: "#/$defs/ExchangeState" },
      definitions: {
        ExchangeState: {
          type: "string",
          enum: ["created", "pending", "completed", "declined", "failed", "reverted"],
          description: "the state of an exchange transaction: created, pending, completed, declined, failed or reverted"
        }
      }
    })
    expect(documentOf(ExchangeState.StateLenient).schema).toEqual({ $ref: "#/$defs/ExchangeStateLenientEncoded" })
    expect(SchemaAST.resolveDescription(ExchangeState.StateLenient.ast)).toContain("or a state added since")
  })

  it("the strict and the lenient transaction are two named definitions, the strict one says its rule: guards lost annotations", () => {
    const strict = documentOf(ExchangeTransaction.ExchangeTransaction)
    expect(strict.schema).toEqual({ $ref: "#/$defs/ExchangeTransaction" })
    expect(strict.definitions.ExchangeTransaction?.properties).toMatchObject({
      state: { $ref: "#/$defs/ExchangeState" }
    })
    expect(SchemaAST.resolveDescription(ExchangeTransaction.ExchangeTransaction.ast)).toBe(
      "an exchange transaction whose reason_code is present exactly when the state is declined or failed"
    )
    const lenient = documentOf(ExchangeTransaction.Lenient)
    expect(lenient.schema).toEqual({ $ref: "#/$defs/ExchangeTransactionLenient" })
    expect(lenient.definitions.ExchangeTransactionLenient?.properties).toMatchObject({
      state: { $ref: "#/$defs/ExchangeStateLenientEncoded" }
    })
  })

  it("a stored outcome is a named union of its three forms: guards a lost identifier", () => {
    const { definitions, schema } = documentOf(RequestLedger.OutcomeSchema)
    expect(schema).toEqual({ $ref: "#/$defs/RequestLedgerOutcomeEncoded" })
    const forms = definitions.RequestLedgerOutcomeEncoded?.anyOf as ReadonlyArray<{ properties: { _tag: unknown } }>
    expect(forms.map((f) => f.properties._tag)).toEqual(
      ["Succeeded", "Rejected", "Unknown"].map((tag) => ({ type: "string", enum: [tag] }))
    )
  })
})
