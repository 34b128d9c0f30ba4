/**
 * The Open Banking API family: GET /international-payments/{InternationalPaymentId}, as an `@effect/platform`
 * HttpApi, in the `revolut` profile of @payrules/open-banking.
 *
 * @since 0.1.0
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import { FapiHeaders, InternationalPayment } from "@payrules/open-banking"
import * as Schema from "effect/Schema"
import { BearerToken } from "./Auth.js"
import { atStatus } from "./internal/httpError.js"

/**
 * One error of an `OBErrorResponse1`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OBError1 = Schema.Struct({
  ErrorCode: Schema.String,
  Message: Schema.String,
  Path: Schema.optionalWith(Schema.String, { exact: true }),
  Url: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ identifier: "OBError1" })

/**
 * The error body of the Open Banking family, `OBErrorResponse1` (D9).
 *
 * @since 0.1.0
 * @category schemas
 */
export const OBErrorResponse1 = Schema.Struct({
  Code: Schema.String,
  Id: Schema.optionalWith(Schema.String, { exact: true }),
  Message: Schema.String,
  Errors: Schema.Array(OBError1)
}).annotations({ identifier: "OBErrorResponse1" })

/**
 * An error of the Open Banking API, with the HTTP status it came with.
 *
 * @since 0.1.0
 * @category errors
 */
export class OpenBankingError extends Schema.TaggedError<OpenBankingError>()("OpenBankingError", {
  status: Schema.Int,
  Code: Schema.String,
  Id: Schema.optionalWith(Schema.String, { exact: true }),
  Message: Schema.String,
  Errors: Schema.Array(OBError1)
}) {}

/**
 * The error schema of one status: `OBErrorResponse1` on the wire, an `OpenBankingError` in code.
 *
 * @since 0.1.0
 * @category schemas
 */
export const openBankingErrorAt = (status: number): Schema.Schema<OpenBankingError, typeof OBErrorResponse1.Encoded> =>
  atStatus(
    OpenBankingError,
    OBErrorResponse1,
    status,
    (body, s) => new OpenBankingError({ status: s, ...body }),
    ({ Code, Errors, Id, Message }) => ({ Code, Message, Errors, ...(Id === undefined ? {} : { Id }) })
  )

/**
 * `Authorization: Bearer <token>`: a missing or malformed header is a 401 `OpenBankingError`.
 *
 * @since 0.1.0
 * @category security
 */
export class OpenBankingAuthorization extends HttpApiMiddleware.Tag<OpenBankingAuthorization>()(
  "OpenBankingAuthorization",
  {
    failure: openBankingErrorAt(401),
    provides: BearerToken,
    security: { bearer: HttpApiSecurity.bearer }
  }
) {}

/**
 * The request headers of the operation (the FAPI headers of the `revolut` profile), without `authorization`, which
 * the security middleware reads.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PaymentHeaders = FapiHeaders.Revolut.omit("authorization")

/**
 * @since 0.1.0
 * @category endpoints
 */
export const getInternationalPayment = HttpApiEndpoint.get(
  "getInternationalPayment"
)`/international-payments/${HttpApiSchema.param("InternationalPaymentId", Schema.String)}`
  .setHeaders(PaymentHeaders)
  .addSuccess(InternationalPayment.RevolutStrict)
  .addError(openBankingErrorAt(400))
  .addError(openBankingErrorAt(401))
  .addError(openBankingErrorAt(403))
  .addError(openBankingErrorAt(405))
  .addError(openBankingErrorAt(406))
  .addError(openBankingErrorAt(429))
  .addError(openBankingErrorAt(500))
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
