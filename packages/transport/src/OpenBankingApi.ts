/**
 * The Open Banking API family: GET /international-payments/{InternationalPaymentId}, as an `effect/http-api`
 * HttpApi, in the `revolut` profile of @payrules/open-banking.
 *
 * @since 0.1.0
 */
import { FapiHeaders, InternationalPayment } from "@payrules/open-banking"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import * as OpenApi from "effect/http-api/OpenApi"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import type { BearerToken } from "./Auth.js"
import { atStatus, cachedByStatus } from "./internal/httpError.js"

/**
 * One error of an `OBErrorResponse1`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OBError1 = Schema.Struct({
  ErrorCode: Schema.String,
  Message: Schema.String,
  Path: Schema.optionalKey(Schema.String),
  Url: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "OBError1" })

/**
 * The error body of the Open Banking family, `OBErrorResponse1` (D9).
 *
 * @since 0.1.0
 * @category schemas
 */
export const OBErrorResponse1 = Schema.Struct({
  Code: Schema.String,
  Id: Schema.optionalKey(Schema.String),
  Message: Schema.String,
  Errors: Schema.Array(OBError1)
}).annotate({ identifier: "OBErrorResponse1" })

/**
 * An error of the Open Banking API, with the HTTP status it came with.
 *
 * @since 0.1.0
 * @category errors
 */
export class OpenBankingError extends Schema.TaggedError<OpenBankingError>()("OpenBankingError", {
  status: Schema.Int,
  Code: Schema.String,
  Id: Schema.optionalKey(Schema.String),
  Message: Schema.String,
  Errors: Schema.Array(OBError1)
}) {}

/**
 * The error schema of one status: `OBErrorResponse1` on the wire, an `OpenBankingError` in code (the status is
 * its `httpApiStatus` annotation). Made once per status.
 *
 * @since 0.1.0
 * @category schemas
 */
export const openBankingErrorAt: (status: number) => Schema.Codec<OpenBankingError, typeof OBErrorResponse1.Encoded> =
  cachedByStatus((status) =>
    atStatus(
      OpenBankingError,
      OBErrorResponse1,
      status,
      (body, s) => new OpenBankingError({ status: s, ...body }),
      ({ Code, Errors, Id, Message }) => ({ Code, Message, Errors, ...(Id === undefined ? {} : { Id }) })
    )
  )

/**
 * `Authorization: Bearer <token>`: a missing or malformed header is a 401 `OpenBankingError`. It provides the
 * `BearerToken` to the handlers.
 *
 * @since 0.1.0
 * @category security
 */
export class OpenBankingAuthorization extends HttpApiMiddleware.Service<
  OpenBankingAuthorization,
  { provides: BearerToken }
>()("OpenBankingAuthorization", {
  error: openBankingErrorAt(401),
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * The request headers of the operation (the FAPI headers of the `revolut` profile), without `authorization`, which
 * the security middleware reads.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PaymentHeaders = FapiHeaders.Revolut.mapFields(Struct.omit(["authorization"]))

/**
 * The path parameters of the operation: the payment's id, an opaque string (D8).
 *
 * @since 0.1.0
 * @category schemas
 */
export const PaymentParams = Schema.Struct({
  InternationalPaymentId: Schema.String
})

/**
 * @since 0.1.0
 * @category endpoints
 */
export const getInternationalPayment = HttpApiEndpoint.get(
  "getInternationalPayment",
  "/international-payments/:InternationalPaymentId",
  {
    params: PaymentParams,
    headers: PaymentHeaders,
    success: InternationalPayment.RevolutStrict,
    error: [
      openBankingErrorAt(400),
      openBankingErrorAt(401),
      openBankingErrorAt(403),
      openBankingErrorAt(405),
      openBankingErrorAt(406),
      openBankingErrorAt(429),
      openBankingErrorAt(500)
    ]
  }
)
  .annotate(OpenApi.Summary, "Retrieve an international payment")
  .annotate(
    OpenApi.Description,
    "The state and initiation details of one international payment. An unknown id is a 400 (Open Banking rule). The response plays back x-fapi-interaction-id, or carries a fresh one."
  )

/**
 * @since 0.1.0
 * @category groups
 */
export class PaymentsGroup extends HttpApiGroup.make("payments")
  .add(getInternationalPayment)
  .middleware(OpenBankingAuthorization) {}

/**
 * The Open Banking API.
 *
 * @since 0.1.0
 * @category api
 */
export class OpenBankingApi extends HttpApi.make("openBanking")
  .add(PaymentsGroup)
  .annotate(OpenApi.Title, "Open Banking API: international payments")
  .annotate(OpenApi.Version, "3.1") {}
