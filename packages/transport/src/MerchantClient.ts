/**
 * The client of the merchant API: subscription plans, one page at a time or as a `Stream` across pages.
 *
 * Pages are read as a later version of the API may send them (D11, issue 34): the envelope must be well-formed, then
 * each plan is read on its own (`PlanCheck.readEnvelope`). A plan in a state added since (`"archived"`) is kept, its
 * state `{ _tag: "Unknown", value: "archived" }`, with an `UnknownValue` finding; a plan that does not decode is left
 * out of the page and reported as an `UnreadablePlan` finding (its index, the path of the fault, the raw plan), and
 * the listing goes on to the next page.
 *
 * @since 0.1.0
 */
import { PlanCheck, SubscriptionPlan } from "@payrules/subscriptions"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Http from "./internal/http.js"
import * as MerchantApi from "./MerchantApi.js"

/**
 * Why a merchant call failed: the HTTP reasons, or `PaginationLoop` when the server hands back a page token it
 * gave before (following it would never end).
 *
 * @since 0.1.0
 * @category errors
 */
export type Reason = Http.Reason | "PaginationLoop"

/**
 * @since 0.1.0
 * @category errors
 */
export class MerchantClientError extends Data.TaggedError("MerchantClientError")<{
  readonly reason: Reason
  readonly status: number | undefined
  readonly raw: string | undefined
  /** the body decoded as `{ code, message?, timestamp }`, when it has that shape */
  readonly body: typeof MerchantApi.MerchantErrorBody.Type | undefined
  readonly retryAfter: Duration.Duration | undefined
  readonly message: string
}> {}

/**
 * @since 0.1.0
 * @category models
 */
export interface MerchantClientConfig extends Http.Connection {
  /** the `Revolut-Api-Version` header (default 2024-09-01) */
  readonly apiVersion: string
}

/**
 * @since 0.1.0
 * @category constants
 */
export const defaults: Omit<MerchantClientConfig, "baseUrl" | "token"> = {
  apiVersion: "2024-09-01",
  timeout: Http.defaultTimeout,
  deadline: Http.defaultDeadline,
  maxRetryAfter: Http.defaultMaxRetryAfter,
  maxResponseBytes: Http.defaultMaxResponseBytes,
  retry: Http.defaultRetry
}

/**
 * The configuration from the environment (`Config.nested` under `MERCHANT`): `MERCHANT_BASE_URL`,
 * `MERCHANT_TOKEN` (redacted), `MERCHANT_API_VERSION`, `MERCHANT_TIMEOUT`, `MERCHANT_MAX_ATTEMPTS`,
 * `MERCHANT_DEADLINE`, `MERCHANT_MAX_RETRY_AFTER`, `MERCHANT_MAX_RESPONSE_BYTES`.
 *
 * @since 0.1.0
 * @category config
 */
export const config: Config.Config<MerchantClientConfig> = Config.nested(
  Config.all([Http.connectionConfig, Config.String("API_VERSION").pipe(Config.withDefault(defaults.apiVersion))]).pipe(
    Config.map(([{ maxAttempts, ...rest }, apiVersion]) => ({
      ...rest,
      apiVersion,
      retry: { ...defaults.retry, maxAttempts }
    }))
  ),
  "MERCHANT"
)

/**
 * The filters of a plan listing; the client repeats them on every page request.
 *
 * @since 0.1.0
 * @category models
 */
export type PlanFilters = Omit<SubscriptionPlan.PlanListQuery, "page_token">

/**
 * A plan as the client reads it: the decoded plan (`SubscriptionPlan.SubscriptionPlanLenient`: since 0.2.0 its
 * `state` may be `{ _tag: "Unknown", value }`, a state added to the API since) and, in `findings`, what
 * `PlanCheck.check` says of it, paths from the plan: a state this version does not know (`UnknownValue`), a currency
 * code that is not on the ISO 4217 list (`CurrencyNotListed`) and the rules of D3, warnings and errors alike (D11:
 * reported, never dropped, never a failed read). Encoding it with the `SubscriptionPlanLenient` Schema drops
 * `findings` and gives back the state as it was read.
 *
 * @since 0.1.0
 * @category models
 */
export interface CheckedPlan extends SubscriptionPlan.SubscriptionPlanLenient {
  readonly findings: ReadonlyArray<PlanCheck.Finding>
}

/**
 * A page as the client reads it: the plans that decoded, with their findings, and every finding of the page in
 * `findings`, paths from the page as the server sent it (`["subscription_plans", 3, "variations", 0, "phases", 1,
 * "currency"]`): since 0.2.0 also an `UnreadablePlan` for each plan that did not decode (left out of
 * `subscription_plans`; its index and the path of the fault in `path`, the plan as sent in `raw`).
 *
 * @since 0.1.0
 * @category models
 */
export interface CheckedPage extends SubscriptionPlan.PlanListPageLenient {
  readonly subscription_plans: ReadonlyArray<CheckedPlan>
  readonly findings: ReadonlyArray<PlanCheck.Finding>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface MerchantClientService {
  /**
   * One page of GET /api/subscription-plans, decoded leniently and checked (see {@link CheckedPage}). The call,
   * retries and waits included, ends by the `deadline`.
   */
  readonly listSubscriptionPlansPage: (
    query: SubscriptionPlan.PlanListQuery
  ) => Effect.Effect<CheckedPage, MerchantClientError>
  /**
   * Every page, each with its findings (see {@link CheckedPage}): each page request repeats `limit`, `from` and `to`;
   * the stream ends when `next_page_token` is absent or null, and fails with `PaginationLoop` on a token seen before.
   * Each page request has its own `deadline`. A page with a plan that does not decode is a page like any other: the
   * plan is reported in its `findings` and the listing goes on.
   *
   * @since 0.2.0
   */
  readonly listSubscriptionPlanPages: (filters?: PlanFilters) => Stream.Stream<CheckedPage, MerchantClientError>
  /**
   * Every plan across pages, each with its findings (see {@link listSubscriptionPlanPages}). A plan that does not
   * decode is not in the stream: it is logged as a warning (its page's `UnreadablePlan` finding); read the pages to
   * have it as data.
   */
  readonly listSubscriptionPlans: (filters?: PlanFilters) => Stream.Stream<CheckedPlan, MerchantClientError>
}

/**
 * @since 0.1.0
 * @category services
 */
export class MerchantClient extends Context.Service<MerchantClient, MerchantClientService>()(
  "@payrules/transport/MerchantClient"
) {}

const toError = (failure: Http.Failure): MerchantClientError =>
  new MerchantClientError({
    reason: failure.reason,
    status: failure.status,
    raw: failure.raw,
    body: failure.body as MerchantClientError["body"],
    retryAfter: failure.retryAfter,
    message: failure.message
  })

const encodeQuery = Schema.encodeResult(SubscriptionPlan.PlanListQuery)

const checked = (envelope: SubscriptionPlan.PlanListEnvelope): CheckedPage => {
  const { findings, page } = PlanCheck.readEnvelope(envelope)
  return {
    ...page,
    subscription_plans: page.subscription_plans.map(
      (plan): CheckedPlan => ({ ...plan, findings: PlanCheck.check(plan) })
    ),
    findings
  }
}

/**
 * Builds the client; it needs an `HttpClient`. A base URL that is not an absolute http(s) URL (or carries
 * credentials, a query or a fragment) is refused here, with a `ConfigError`, not at the first call.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  cfg: MerchantClientConfig
): Effect.Effect<MerchantClientService, Config.ConfigError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const base = yield* Http.parseBaseUrl(cfg.baseUrl)
    const http = yield* HttpClient.HttpClient

    const listSubscriptionPlansPage: MerchantClientService["listSubscriptionPlansPage"] = (query) =>
      Effect.gen(function* () {
        const params = encodeQuery(query)
        if (Result.isFailure(params)) {
          return yield* Effect.fail(
            new MerchantClientError({
              reason: "BadRequest",
              status: undefined,
              raw: undefined,
              body: undefined,
              retryAfter: undefined,
              message: `the query is invalid: ${params.failure.message}`
            })
          )
        }
        const request = HttpClientRequest.get(`${base}/api/subscription-plans`, { urlParams: params.success }).pipe(
          HttpClientRequest.bearerToken(cfg.token),
          HttpClientRequest.acceptJson,
          HttpClientRequest.setHeader("revolut-api-version", cfg.apiVersion)
        )
        return yield* Http.send(request, {
          timeout: cfg.timeout,
          maxResponseBytes: cfg.maxResponseBytes,
          maxRetryAfter: cfg.maxRetryAfter,
          // the envelope strictly, then each plan on its own (`checked`): one bad plan never costs the page
          success: SubscriptionPlan.PlanListEnvelope,
          errorBody: MerchantApi.MerchantErrorBody
        }).pipe(
          Effect.retry(Http.retrySchedule(cfg.retry)),
          (retried) => Http.withDeadline(retried, cfg.deadline),
          Effect.map((answer) => checked(answer.value)),
          Effect.mapError(toError)
        )
      }).pipe(
        Effect.provideService(HttpClient.HttpClient, http),
        Effect.withSpan("MerchantClient.listSubscriptionPlansPage", undefined, Http.spanOptions)
      )

    const listSubscriptionPlanPages: MerchantClientService["listSubscriptionPlanPages"] = (filters = {}) =>
      Stream.paginate({ token: Option.none<string>(), seen: new Set<string>() }, ({ seen, token }) =>
        Effect.gen(function* () {
          const page = yield* listSubscriptionPlansPage(
            Option.match(token, { onNone: () => filters, onSome: (page_token) => ({ ...filters, page_token }) })
          )
          const next = page.next_page_token ?? undefined
          if (next !== undefined && seen.has(next)) {
            return yield* Effect.fail(
              new MerchantClientError({
                reason: "PaginationLoop",
                status: undefined,
                raw: undefined,
                body: undefined,
                retryAfter: undefined,
                message: `the server returned page token ${JSON.stringify(next.slice(0, 40))} a second time: following it would never end`
              })
            )
          }
          return [
            [page],
            next === undefined
              ? Option.none()
              : Option.some({ token: Option.some(next), seen: new Set([...seen, next]) })
          ] as const
        })
      )

    const listSubscriptionPlans: MerchantClientService["listSubscriptionPlans"] = (filters) =>
      listSubscriptionPlanPages(filters).pipe(
        Stream.tap((page) =>
          Effect.forEach(
            page.findings.filter((f) => f.rule === "UnreadablePlan"),
            (f) => Effect.logWarning(`MerchantClient.listSubscriptionPlans: ${f.message}`),
            { discard: true }
          )
        ),
        Stream.flatMap((page) => Stream.fromIterable(page.subscription_plans))
      )

    return { listSubscriptionPlansPage, listSubscriptionPlanPages, listSubscriptionPlans }
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  cfg: MerchantClientConfig
): Layer.Layer<MerchantClient, Config.ConfigError, HttpClient.HttpClient> => Layer.effect(MerchantClient, make(cfg))

/**
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  cfg: Config.Config<MerchantClientConfig> = config
): Layer.Layer<MerchantClient, Config.ConfigError, HttpClient.HttpClient> =>
  Layer.effect(MerchantClient, Effect.flatMap(cfg, make))
