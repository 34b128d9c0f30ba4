/**
 * The body of POST /exchange (D5), decoded to `Sell | Buy`: the amount is given exactly once, in `from` to sell a
 * known amount or in `to` to buy one, as an exact decimal that fits its currency.
 *
 * @since 0.1.0
 */
import { type Currency, DecimalAmount } from "@payrules/money"
import * as BigDecimal from "effect/BigDecimal"
import type * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as canonicalJson from "./internal/canonicalJson.js"
import * as rules from "./internal/requestRules.js"
import * as schemas from "./internal/requestSchema.js"

/**
 * At most 40 characters (Unicode code points), at least 1.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_REQUEST_ID_LENGTH: typeof rules.MAX_REQUEST_ID_LENGTH = rules.MAX_REQUEST_ID_LENGTH

/**
 * At most 40 characters (Unicode code points).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_REFERENCE_LENGTH: typeof rules.MAX_REFERENCE_LENGTH = rules.MAX_REFERENCE_LENGTH

/**
 * One side of the exchange, without the amount (which the request holds once, see {@link Sell} and {@link Buy}).
 *
 * @since 0.1.0
 * @category models
 */
export interface Side {
  readonly account_id: string
  readonly currency: Currency.CurrencyCode
}

interface Common {
  readonly from: Side
  readonly to: Side
  /** exact, greater than 0, with no more decimals than the currency it is in */
  readonly amount: BigDecimal.BigDecimal
  readonly reference?: string
  readonly request_id: string
  readonly exchange_reason_code?: string
}

/**
 * Sell a known amount of `from.currency` (the wire body carries `from.amount`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Sell extends Common {
  readonly _tag: "Sell"
}

/**
 * Buy a known amount of `to.currency` (the wire body carries `to.amount`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Buy extends Common {
  readonly _tag: "Buy"
}

/**
 * @since 0.1.0
 * @category models
 */
export type ExchangeRequest = Sell | Buy

/**
 * One side of the wire body.
 *
 * @since 0.1.0
 * @category models
 */
export interface EncodedSide {
  readonly account_id: string
  readonly currency: string
  readonly amount?: number
}

/**
 * The wire body, as the specification lists it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Encoded {
  readonly from: EncodedSide
  readonly to: EncodedSide
  readonly reference?: string
  readonly request_id: string
  readonly exchange_reason_code?: string
}

/**
 * The rule a decoding issue breaks:
 *
 * - `Shape`: not an object, a required field missing, a field of the wrong JSON type, or a field the body does not
 *   have;
 * - `EmptyAccountId`: an `account_id` that is the empty string;
 * - `UnknownCurrency`: a currency that is not an upper-case ISO 4217 code of the list;
 * - `SameCurrency`: `to.currency` equal to `from.currency`;
 * - `MissingAmount`: neither `from.amount` nor `to.amount` (reported at `from.amount`);
 * - `TwoAmounts`: both (reported at `to.amount`);
 * - `InexactAmount`: a number a double does not hold as written (`0.1 + 0.2`), or not finite;
 * - `AmountNotPositive`: 0 or less;
 * - `ScaleExceedsExponent`: more decimals than the currency has (10.505 GBP, 1.5 JPY);
 * - `RequestIdLength`: `request_id` empty or over 40 characters;
 * - `RequestIdCharacters`: `request_id` with a control character (U+0000 to U+001F, U+007F to U+009F: NUL, CR, LF,
 *   DEL, ...) or a lone surrogate (text that UTF-8 cannot carry): two different keys must never read as one;
 * - `ReferenceLength`: `reference` over 40 characters;
 * - `ReferenceCharacters`: `reference` with a control character or a lone surrogate, as for `request_id`.
 *
 * @since 0.1.0
 * @category errors
 */
export type Rule =
  | "Shape"
  | "EmptyAccountId"
  | "UnknownCurrency"
  | "SameCurrency"
  | "MissingAmount"
  | "TwoAmounts"
  | "InexactAmount"
  | "AmountNotPositive"
  | "ScaleExceedsExponent"
  | "RequestIdLength"
  | "RequestIdCharacters"
  | "ReferenceLength"
  | "ReferenceCharacters"

/**
 * The key under which a decoding issue carries the {@link Rule} it breaks: each issue our decoder reports is an
 * `InvalidValue` of `effect/SchemaIssue` whose `annotations[RuleAnnotationId]` is the rule (and whose
 * `annotations.message` is the message). {@link issues} reads it for you.
 *
 * @since 0.1.0
 * @category annotations
 */
export const RuleAnnotationId: typeof rules.RuleAnnotationId = rules.RuleAnnotationId

/**
 * A request_id: 1 to 40 characters (Unicode code points), none of them a control character (U+0000 to U+001F,
 * U+007F to U+009F) or a lone surrogate. The rule of POST /exchange bodies and of GET /transactions?request_id=, on
 * both sides: a client refuses to send another, the sandbox refuses to read one.
 *
 * Its arbitrary (`Arbitrary.schema(ExchangeRequest.RequestId)`) draws UUIDs and any text of 1 to 40 code points
 * without control characters.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequestId: Schema.Codec<string> = schemas.RequestId

/**
 * The decoded sell request (no transformation).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Sell: Schema.Codec<Sell> = schemas.Sell

/**
 * The decoded buy request (no transformation).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Buy: Schema.Codec<Buy> = schemas.Buy

/**
 * The currency the amount is in: `from.currency` for a sell, `to.currency` for a buy.
 *
 * @since 0.1.0
 * @category getters
 */
export const amountCurrency: (request: ExchangeRequest) => Currency.CurrencyCode = schemas.amountCurrency

/**
 * @since 0.1.0
 * @category guards
 */
export const isSell = (request: ExchangeRequest): request is Sell => request._tag === "Sell"

/**
 * @since 0.1.0
 * @category guards
 */
export const isBuy = (request: ExchangeRequest): request is Buy => request._tag === "Buy"

/**
 * POST /exchange bodies: decodes to `Sell | Buy` and encodes back to the same JSON, keys in the specification's
 * order (`from`, `to`, `reference`, `request_id`, `exchange_reason_code`; inside a side `account_id`, `currency`,
 * `amount`). Every rule of D5 is checked, and every broken rule is reported (not only the first) as an issue with
 * the path of the field and a message that names the rule; {@link issues} gives each one its {@link Rule}. Fields
 * the body does not have are refused (a misspelt `exchange_reason_code` would otherwise vanish).
 *
 * Its arbitrary (`Arbitrary.schema(ExchangeRequest.ExchangeRequest)`) draws valid requests: sells and buys between
 * two different currencies of the ISO 4217 list, with amounts of up to 15 significant digits that fit the currency.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ExchangeRequest: Schema.Codec<ExchangeRequest, Encoded> = schemas.ExchangeRequest

/**
 * Decodes a POST /exchange body (for instance `JSON.parse` of it).
 *
 * @example
 * ```ts
 * import { ExchangeRequest } from "@payrules/exchange"
 * import { Result } from "effect"
 *
 * const r = ExchangeRequest.parse({
 *   from: { account_id: "a", currency: "GBP", amount: 10.5 },
 *   to: { account_id: "b", currency: "EUR" },
 *   request_id: "r-1"
 * })
 * if (Result.isSuccess(r)) console.log(r.success._tag) // Sell
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const parse: (u: unknown) => Result.Result<ExchangeRequest, Schema.SchemaError> =
  Schema.decodeUnknownResult(ExchangeRequest)

/**
 * The wire body of a request, ready for `JSON.stringify`. Fails only for a request built by hand that breaks a rule.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode: (request: ExchangeRequest) => Result.Result<Encoded, Schema.SchemaError> =
  Schema.encodeResult(ExchangeRequest)

/**
 * The body as canonical JSON: the encoded body with keys sorted, no whitespace. It is the exact text, not a hash, so
 * two different bodies never share a fingerprint, and the same body always has the same one, whatever the order of
 * its keys or the trailing zeros of its amount (10.50 and 10.5 are one JSON number).
 *
 * @since 0.1.0
 * @category getters
 */
export const fingerprint = (request: ExchangeRequest): string => {
  const { from, to } = request
  const { exchange_reason_code: reason, reference } = request
  // the fields of a decoded request are text and its amount a JSON number: `JSON.stringify` of the body with its keys
  // inserted in sorted order writes the canonical JSON (it leaves out the fields that are undefined), as one flat
  // string. A request built by hand with other values goes the general way.
  const amount = BigDecimal.isBigDecimal(request.amount) ? schemas.toNumber(request.amount) : undefined
  if (
    amount === undefined ||
    typeof from.account_id !== "string" ||
    typeof from.currency !== "string" ||
    typeof to.account_id !== "string" ||
    typeof to.currency !== "string" ||
    typeof request.request_id !== "string" ||
    (reference !== undefined && typeof reference !== "string") ||
    (reason !== undefined && typeof reason !== "string")
  ) {
    return canonicalFingerprint(request)
  }
  const sell = request._tag === "Sell"
  return JSON.stringify({
    exchange_reason_code: reason,
    from: { account_id: from.account_id, amount: sell ? amount : undefined, currency: from.currency },
    reference,
    request_id: request.request_id,
    to: { account_id: to.account_id, amount: sell ? undefined : amount, currency: to.currency }
  })
}

/** the JSON of an amount: its number, or (built by hand with more digits than a JSON number) all of its digits */
const amountJson = (value: BigDecimal.BigDecimal): string => {
  const n = schemas.toNumber(value)
  return n === undefined ? DecimalAmount.toFixedString(BigDecimal.normalize(value)) : JSON.stringify(n)
}

/** {@link fingerprint} by the general canonical JSON writer */
const canonicalFingerprint = (request: ExchangeRequest): string =>
  canonicalJson.stringify(
    {
      from: {
        account_id: request.from.account_id,
        currency: request.from.currency,
        amount: request._tag === "Sell" ? request.amount : undefined
      },
      to: {
        account_id: request.to.account_id,
        currency: request.to.currency,
        amount: request._tag === "Buy" ? request.amount : undefined
      },
      reference: request.reference,
      request_id: request.request_id,
      exchange_reason_code: request.exchange_reason_code
    },
    (value) => (BigDecimal.isBigDecimal(value) ? amountJson(value) : undefined)
  )

/**
 * One decoding problem: the rule it breaks, where, and what to do.
 *
 * @since 0.1.0
 * @category errors
 */
export interface Issue {
  readonly rule: Rule
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/**
 * The issues of a decoding error, each with its {@link Rule}, path and message, so callers can match on the rule
 * instead of the text. The paths and messages are those of effect's Standard Schema formatter
 * (`SchemaIssue.makeFormatterStandardSchemaV1`), in the same order.
 *
 * @since 0.1.0
 * @category errors
 */
export const issues = (error: Schema.SchemaError): ReadonlyArray<Issue> => rules.collectIssues(error.issue)
