/**
 * The merchant API family: GET /api/subscription-plans, as an `@effect/platform` HttpApi.
 *
 * @since 0.1.0
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import { SubscriptionPlan } from "@payrules/subscriptions"
import * as Schema from "effect/Schema"
import { BearerToken } from "./Auth.js"
import { atStatus } from "./internal/httpError.js"

/**
 * The error body of the merchant family: `{ code, message?, timestamp }` (D9). `code` is a string or a number;
 * `timestamp` a number (epoch milliseconds) or a string.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MerchantErrorBody = Schema.Struct({
  code: Schema.Union(Schema.String, Schema.Int),
  message: Schema.optionalWith(Schema.String, { exact: true }),
  timestamp: Schema.Union(Schema.Number, Schema.String)
}).annotations({ identifier: "MerchantErrorBody" })

/**
 * An error of the merchant API, with the HTTP status it came with.
 *
 * @since 0.1.0
 * @category errors
 */
export class MerchantError extends Schema.TaggedError<MerchantError>()("MerchantError", {
  status: Schema.Int,
  code: Schema.Union(Schema.String, Schema.Int),
  message: Schema.String,
  timestamp: Schema.Union(Schema.Number, Schema.String)
}) {}

/**
 * The error schema of one status: the merchant body on the wire, a `MerchantError` in code.
 *
 * @since 0.1.0
 * @category schemas
 */
export const merchantErrorAt = (status: number): Schema.Schema<MerchantError, typeof MerchantErrorBody.Encoded> =>
  atStatus(
    MerchantError,
    MerchantErrorBody,
    status,
    (body, s) =>
      new MerchantError({ status: s, code: body.code, message: body.message ?? "", timestamp: body.timestamp }),
    (e) => ({ code: e.code, ...(e.message === "" ? {} : { message: e.message }), timestamp: e.timestamp })
  )

/**
 * `Authorization: Bearer <token>` on the merchant API; a missing or malformed header is a 401 `MerchantError`.
 *
 * @since 0.1.0
 * @category security
 */
export class MerchantAuthorization extends HttpApiMiddleware.Tag<MerchantAuthorization>()("MerchantAuthorization", {
  failure: merchantErrorAt(401),
  provides: BearerToken,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * The request headers: `Revolut-Api-Version` selects the version of the merchant API (e.g. `2024-09-01`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriptionPlansHeaders = Schema.Struct({
  "revolut-api-version": Schema.String.annotations({ description: "the version of the merchant API, e.g. 2024-09-01" })
})

/**
 * @since 0.1.0
 * @category endpoints
 */
export const listSubscriptionPlans = HttpApiEndpoint.get("listSubscriptionPlans", "/api/subscription-plans")
  // the fields, not the named Schema: OpenApi lists query parameters only from an inline object (a `$ref` to
  // PlanListQuery would leave the operation without its parameters)
  .setUrlParams(Schema.Struct(SubscriptionPlan.PlanListQuery.fields))
  .setHeaders(SubscriptionPlansHeaders)
  .addSuccess(SubscriptionPlan.PlanListPage)
  .addError(merchantErrorAt(400))
  .addError(merchantErrorAt(401))
  .annotate(OpenApi.Summary, "Retrieve a subscription plan list")
  .annotate(
    OpenApi.Description,
    "All subscription plans of the merchant account, filtered by creation date, with token pagination: repeat `from` and `to` with every `page_token`."
  )

/**
 * @since 0.1.0
 * @category groups
 */
export class SubscriptionPlansGroup extends HttpApiGroup.make("subscriptionPlans")
  .add(listSubscriptionPlans)
  .middleware(MerchantAuthorization) {}

/**
 * The merchant API.
 *
 * @since 0.1.0
 * @category api
 */
export class MerchantApi extends HttpApi.make("merchant")
  .add(SubscriptionPlansGroup)
  .annotate(OpenApi.Title, "Merchant API: subscription plans")
  .annotate(OpenApi.Version, "2024-09-01") {}
