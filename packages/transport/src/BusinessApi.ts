/**
 * The business API family: POST /exchange, GET /exchange-reasons, GET /transactions?request_id= and POST /pay/fields,
 * as an `effect/http-api` HttpApi.
 *
 * @since 0.1.0
 */
import { ExchangeReason, ExchangeRequest, ExchangeTransaction } from "@payrules/exchange"
import { PayFields } from "@payrules/transfers"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import * as OpenApi from "effect/http-api/OpenApi"
import * as Schema from "effect/Schema"
import type { BearerToken } from "./Auth.js"
import { atStatus, cachedByStatus } from "./internal/httpError.js"

/**
 * The error body of the business family: `{ code, message, error_id? }` (D9), `code` a number such as 3448
 * (exchange reason required) or 3020 (duplicate request).
 *
 * @since 0.1.0
 * @category schemas
 */
export const BusinessErrorBody = Schema.Struct({
  code: Schema.Int,
  message: Schema.String,
  error_id: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "BusinessErrorBody" })

/**
 * An error of the business API, with the HTTP status it came with.
 *
 * @since 0.1.0
 * @category errors
 */
export class BusinessError extends Schema.TaggedError<BusinessError>()("BusinessError", {
  status: Schema.Int,
  code: Schema.Int,
  message: Schema.String,
  error_id: Schema.optionalKey(Schema.String)
}) {}

/**
 * The error schema of one status: the business body on the wire, a `BusinessError` in code (the status is its
 * `httpApiStatus` annotation). Made once per status: every call with the same status answers the same schema.
 *
 * @since 0.1.0
 * @category schemas
 */
export const businessErrorAt: (status: number) => Schema.Codec<BusinessError, typeof BusinessErrorBody.Encoded> =
  cachedByStatus((status) =>
    atStatus(
      BusinessError,
      BusinessErrorBody,
      status,
      (body, s) => new BusinessError({ status: s, ...body }),
      (e) => ({ code: e.code, message: e.message, ...(e.error_id === undefined ? {} : { error_id: e.error_id }) })
    )
  )

/**
 * Error codes of the business family used by payrules (the specification publishes none; these follow the real
 * API where known).
 *
 * @since 0.1.0
 * @category constants
 */
export const ErrorCode = {
  /** the request body or parameters are invalid */
  InvalidRequest: 3000,
  /** a request_id was reused for the same body in `duplicates: "error"` mode */
  DuplicateRequest: 3020,
  /** a request_id was reused for a different body */
  RequestIdConflict: 3021,
  /** the exchange needs an `exchange_reason_code` (country and amount) */
  ExchangeReasonRequired: 3448,
  /** the `exchange_reason_code` is not one of GET /exchange-reasons */
  UnknownExchangeReason: 3449,
  /** not enough balance in the source account */
  InsufficientBalance: 3004,
  /** the account, counterparty or card does not exist */
  NotFound: 3404,
  /** missing or invalid access token */
  Unauthorized: 9001,
  /** the path exists, but not for this method */
  MethodNotAllowed: 9405,
  /** the Accept header excludes JSON */
  NotAcceptable: 9406,
  /** the request body is larger than the server takes */
  PayloadTooLarge: 9413,
  /** the request body is not `application/json` (UTF-8) */
  UnsupportedMediaType: 9415,
  /** too many requests */
  TooManyRequests: 9429,
  /** an unexpected failure */
  InternalError: 9500,
  /** the service failed or is unavailable */
  ServiceUnavailable: 9503
} as const

/**
 * `Authorization: Bearer <token>` on the business API; a missing or malformed header is a 401 `BusinessError`. It
 * provides the `BearerToken` to the handlers.
 *
 * @since 0.1.0
 * @category security
 */
export class BusinessAuthorization extends HttpApiMiddleware.Service<
  BusinessAuthorization,
  { provides: BearerToken }
>()("BusinessAuthorization", {
  error: businessErrorAt(401),
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * @since 0.1.0
 * @category endpoints
 */
export const exchange = HttpApiEndpoint.post("exchange", "/exchange", {
  payload: ExchangeRequest.ExchangeRequest,
  success: ExchangeTransaction.ExchangeTransaction,
  error: [
    businessErrorAt(400),
    businessErrorAt(401),
    businessErrorAt(413),
    businessErrorAt(415),
    businessErrorAt(429),
    businessErrorAt(503)
  ]
})
  .annotate(OpenApi.Summary, "Exchange money")
  .annotate(
    OpenApi.Description,
    "Sell an amount (in `from`) or buy one (in `to`) between two accounts of the same holder. Reuse the same `request_id` for retries of the same exchange: it is never processed twice."
  )

/**
 * @since 0.1.0
 * @category endpoints
 */
export const exchangeReasons = HttpApiEndpoint.get("exchangeReasons", "/exchange-reasons", {
  success: ExchangeReason.ExchangeReasonList,
  // 400: a request the server cannot read (a header that breaks its Schema)
  error: [businessErrorAt(400), businessErrorAt(401), businessErrorAt(429)]
}).annotate(OpenApi.Summary, "List exchange reasons")

/**
 * The query of the transaction lookup: the `request_id` of an exchange, with the rule of POST /exchange bodies (1 to
 * 40 characters, no control characters).
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionsQuery = Schema.Struct({
  request_id: ExchangeRequest.RequestId
})

/**
 * @since 0.1.0
 * @category endpoints
 */
export const findTransactions = HttpApiEndpoint.get("findTransactions", "/transactions", {
  query: TransactionsQuery,
  success: Schema.Array(ExchangeTransaction.ExchangeTransaction),
  error: [businessErrorAt(400), businessErrorAt(401), businessErrorAt(429)]
})
  .annotate(OpenApi.Summary, "Find transactions by request_id")
  .annotate(
    OpenApi.Description,
    "The transactions created by the request with this request_id (none or one): how a client reconciles an exchange whose answer it never saw."
  )

/**
 * @since 0.1.0
 * @category groups
 */
export class ExchangeGroup extends HttpApiGroup.make("exchange")
  .add(exchange, exchangeReasons, findTransactions)
  .middleware(BusinessAuthorization) {}

/**
 * @since 0.1.0
 * @category endpoints
 */
export const transferFieldRequirements = HttpApiEndpoint.post("transferFieldRequirements", "/pay/fields", {
  payload: PayFields.FieldsRequest,
  success: PayFields.FieldsResponse,
  error: [
    businessErrorAt(400),
    businessErrorAt(401),
    businessErrorAt(404),
    businessErrorAt(413),
    businessErrorAt(415),
    businessErrorAt(429)
  ]
})
  .annotate(OpenApi.Summary, "Check transfer field requirements")
  .annotate(
    OpenApi.Description,
    "The fields a payment from this account to this receiver needs, with their lengths, patterns and allowed values. At most 450 requests per minute."
  )

/**
 * @since 0.1.0
 * @category groups
 */
export class PayGroup extends HttpApiGroup.make("pay")
  .add(transferFieldRequirements)
  .middleware(BusinessAuthorization) {}

/**
 * The business API.
 *
 * @since 0.1.0
 * @category api
 */
export class BusinessApi extends HttpApi.make("business")
  .add(ExchangeGroup, PayGroup)
  .annotate(OpenApi.Title, "Business API: exchange and transfer field requirements")
  .annotate(OpenApi.Version, "1.0") {}
