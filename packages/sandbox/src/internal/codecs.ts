/**
 * The Schemas of the endpoints the sandbox serves, taken from their HttpApi definitions (the one source), and the
 * JSON encoders and decoders made from them once, when the module loads: a request only runs them.
 *
 * @internal
 */
import { ExchangeRequest } from "@payrules/exchange"
import { PayFields } from "@payrules/transfers"
import { BusinessApi, OpenBankingApi } from "@payrules/transport"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/**
 * The one success Schema of an endpoint, as its HttpApi definition holds it (the JSON codec of the declared Schema).
 */
const successOf = <E extends { readonly "~Success": Schema.Top; readonly success: ReadonlySet<Schema.Top> }>(
  endpoint: E
): E["~Success"] => [...endpoint.success][0] as E["~Success"]

/** The one payload Schema of an endpoint, as its HttpApi definition holds it (the JSON codec of the declared Schema). */
const payloadOf = <
  E extends {
    readonly "~Payload": Schema.Top
    readonly payload: ReadonlyMap<string, { readonly schemas: ReadonlyArray<Schema.Top> }>
  }
>(
  endpoint: E
): E["~Payload"] => [...endpoint.payload.values()][0]!.schemas[0] as E["~Payload"]

const exchangePayload = payloadOf(BusinessApi.exchange)
const fieldsPayload = payloadOf(BusinessApi.transferFieldRequirements)

/** @internal */
export const payment = successOf(OpenBankingApi.getInternationalPayment)
/** @internal */
export const exchangeReasons = successOf(BusinessApi.exchangeReasons)
/** @internal */
export const fields = successOf(BusinessApi.transferFieldRequirements)
/** @internal */
export const transaction = successOf(BusinessApi.exchange)
/** @internal */
export const transactions = successOf(BusinessApi.findTransactions)

/** Encodes a transaction as the JSON text of POST /exchange. @internal */
export const encodeTransaction: (value: (typeof transaction)["Type"]) => string = (() => {
  const encode = Schema.encodeSync(transaction)
  return (value) => JSON.stringify(encode(value))
})()

/** Encodes transactions as the JSON text of GET /transactions. @internal */
export const encodeTransactions: (value: (typeof transactions)["Type"]) => string = (() => {
  const encode = Schema.encodeSync(transactions)
  return (value) => JSON.stringify(encode(value))
})()

/**
 * Decodes the parsed body of POST /exchange with the payload Schema of the endpoint, `ExchangeRequest` of
 * @payrules/exchange, itself: the body is JSON already, and the endpoint holds that Schema's JSON codec
 * (`Schema.toCodecJson`), which in effect 4.1 loses the rule that refuses keys the request does not have. Typed by the
 * endpoint: a definition that declares another Schema does not compile here.
 *
 * @internal
 */
export const decodeExchange: (body: unknown) => Effect.Effect<(typeof exchangePayload)["Type"], Schema.SchemaError> =
  Schema.decodeUnknownEffect(ExchangeRequest.ExchangeRequest)

/**
 * Decodes the parsed body of POST /pay/fields with the payload Schema of the endpoint, `FieldsRequest`, refusing keys
 * it does not have, at any depth, as POST /exchange does: a misspelt `receiver.card_id` would otherwise be dropped,
 * and the answer would be the requirements of another transfer than the one asked about.
 *
 * @internal
 */
export const decodeFieldsRequest: (body: unknown) => Effect.Effect<(typeof fieldsPayload)["Type"], Schema.SchemaError> =
  Schema.decodeUnknownEffect(PayFields.FieldsRequest, { onExcessProperty: "error" })
