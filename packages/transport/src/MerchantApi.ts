/**
 * The merchant API family: GET /api/subscription-plans, as an `effect/http-api` HttpApi.
 *
 * @since 0.1.0
 */
import { SubscriptionPlan } from "@payrules/subscriptions"
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
 * The error body of the merchant family: `{ code, message?, timestamp }` (D9). `code` is a string or a number;
 * `timestamp` a number (epoch milliseconds) or a string.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MerchantErrorBody = Schema.Struct({
  code: Schema.Union([Schema.String, Schema.Int]),
  message: Schema.optionalKey(Schema.String),
  timestamp: Schema.Union([Schema.Finite, Schema.String])
}).annotate({ identifier: "MerchantErrorBody" })

/**
 * An error of the merchant API, with the HTTP status it came with.
 *
 * @since 0.1.0
 * @category errors
 */
export class MerchantError extends Schema.TaggedError<MerchantError>()("MerchantError", {
  status: Schema.Int,
  code: Schema.Union([Schema.String, Schema.Int]),
  message: Schema.String,
  timestamp: Schema.Union([Schema.Finite, Schema.String])
}) {}

/**
 * The error schema of one status: the merchant body on the wire, a `MerchantError` in code (the status is its
 * `httpApiStatus` annotation). Made once per status.
 *
 * @since 0.1.0
 * @category schemas
 */
export const merchantErrorAt: (status: number) => Schema.Codec<MerchantError, typeof MerchantErrorBody.Encoded> =
  cachedByStatus((status) =>
    atStatus(
      MerchantError,
      MerchantErrorBody,
      status,
      (body, s) =>
        new MerchantError({ status: s, code: body.code, message: body.message ?? "", timestamp: body.timestamp }),
      (e) => ({ code: e.code, ...(e.message === "" ? {} : { message: e.message }), timestamp: e.timestamp })
    )
  )

/**
 * `Authorization: Bearer <token>` on the merchant API; a missing or malformed header is a 401 `MerchantError`. It
 * provides the `BearerToken` to the handlers.
 *
 * @since 0.1.0
 * @category security
 */
export class MerchantAuthorization extends HttpApiMiddleware.Service<
  MerchantAuthorization,
  { provides: BearerToken }
>()("MerchantAuthorization", {
  error: merchantErrorAt(401),
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * The request headers: `Revolut-Api-Version` selects the version of the merchant API (e.g. `2024-09-01`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriptionPlansHeaders = Schema.Struct({
  "revolut-api-version": Schema.String.annotate({ description: "the version of the merchant API, e.g. 2024-09-01" })
})

/**
 * @since 0.1.0
 * @category endpoints
 */
export const listSubscriptionPlans = HttpApiEndpoint.get("listSubscriptionPlans", "/api/subscription-plans", {
  query: SubscriptionPlan.PlanListQuery,
  headers: SubscriptionPlansHeaders,
  success: SubscriptionPlan.PlanListPage,
  error: [merchantErrorAt(400), merchantErrorAt(401)]
})
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
 * The JSON Schema of the `limit` query parameter as the official document gives it: an integer (written in the
 * query string) of 1 to 500, 100 by default. effect 4 documents every query parameter by its text on the wire (a
 * string), so the document is corrected here: the parameter takes this schema, and the component it referred to goes
 * when nothing else refers to it.
 */
const limitParameter = {
  type: "integer",
  minimum: 1,
  maximum: 500,
  default: 100,
  description: "the number of plans per page (the API's default is 100, its maximum 500)"
} as const

const documentLimit: OpenApi.Transform["Service"] = (document) => {
  const spec = document as OpenApi.OpenAPISpec
  const limit = spec.paths["/api/subscription-plans"]?.get?.parameters.find(
    (p) => p.name === "limit" && p.in === "query"
  )
  if (limit === undefined) return spec
  const ref = "$ref" in limit.schema ? limit.schema.$ref : undefined
  limit.schema = { ...limitParameter }
  const name =
    typeof ref === "string" && ref.startsWith("#/components/schemas/")
      ? ref.slice("#/components/schemas/".length)
      : undefined
  if (name !== undefined && !JSON.stringify(spec).includes(`"#/components/schemas/${name}"`)) {
    delete spec.components.schemas[name]
  }
  return spec
}

/**
 * The merchant API.
 *
 * @since 0.1.0
 * @category api
 */
export class MerchantApi extends HttpApi.make("merchant")
  .add(SubscriptionPlansGroup)
  .annotate(OpenApi.Title, "Merchant API: subscription plans")
  .annotate(OpenApi.Version, "2024-09-01")
  .annotate(OpenApi.Transform, documentLimit) {}
