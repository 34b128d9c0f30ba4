/**
 * The client of the business API: exchanges that happen exactly once under retries and faults, exchange reasons,
 * the transaction lookup, and transfer field requirements under the API's rate limit.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { ExchangeReason, ExchangeRequest, ExchangeTransaction, RequestLedger } from "@payrules/exchange"
import { FapiHeaders } from "@payrules/open-banking"
import { PayFields } from "@payrules/transfers"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as RateLimiter from "effect/RateLimiter"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as BusinessApi from "./BusinessApi.js"
import {
  BusinessClientError,
  type ExchangeOutcomeUnknown,
  type RequestIdConflict,
  toError
} from "./internal/businessErrors.js"
import * as ExchangeCall from "./internal/exchangeCall.js"
import * as Http from "./internal/http.js"

/**
 * Why a business call failed.
 *
 * @since 0.1.0
 * @category errors
 */
export type Reason = Http.Reason

/**
 * A failed business call: the reason, the HTTP status, the raw (at most 4 KiB) and the decoded error body, the
 * request_id of an exchange, the server's `Retry-After`, and whether the answer was a replay. The access token is
 * never part of it.
 *
 * @since 0.1.0
 * @category errors
 */
/**
 * The server could not tell what became of an exchange; resume by calling `exchange` again with the same request.
 *
 * @since 0.1.0
 * @category errors
 */
/**
 * The request_id was used before for a different exchange.
 *
 * @since 0.1.0
 * @category errors
 */
export { BusinessClientError, ExchangeOutcomeUnknown, RequestIdConflict } from "./internal/businessErrors.js"

/**
 * An exchange to send: the request_id may be left out, and the client creates one, once per call.
 *
 * @since 0.1.0
 * @category models
 */
export type ExchangeInput =
  | (Omit<ExchangeRequest.Sell, "request_id"> & { readonly request_id?: string | undefined })
  | (Omit<ExchangeRequest.Buy, "request_id"> & { readonly request_id?: string | undefined })

/**
 * Retry settings of one operation.
 *
 * @since 0.1.0
 * @category models
 */
export interface RetryPolicy extends Http.RetryPolicy {}

/**
 * @since 0.1.0
 * @category models
 */
export interface BusinessClientConfig extends Http.Connection {
  /** retries of the reads and of /pay/fields: 3 attempts, 0.5 s doubling to 5 s, with jitter */
  readonly retry: RetryPolicy
  /** retries of POST /exchange: the same, and at least 1 s between attempts */
  readonly exchangeRetry: RetryPolicy
  /** requests to POST /pay/fields: at most `limit` in any `window` (450 per minute) */
  readonly payFieldsLimit: { readonly limit: number; readonly window: Duration.DurationInput }
}

/**
 * The defaults of everything but the base URL and the token.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults: Omit<BusinessClientConfig, "baseUrl" | "token"> = {
  timeout: Http.defaultTimeout,
  deadline: Http.defaultDeadline,
  maxRetryAfter: Http.defaultMaxRetryAfter,
  maxResponseBytes: Http.defaultMaxResponseBytes,
  retry: Http.defaultRetry,
  exchangeRetry: { ...Http.defaultRetry, minSpacing: Duration.seconds(1) },
  payFieldsLimit: { limit: 450, window: Duration.minutes(1) }
}

/**
 * The configuration from the environment (`Config.nested` under `BUSINESS`): `BUSINESS_BASE_URL`,
 * `BUSINESS_TOKEN` (redacted), `BUSINESS_TIMEOUT`, `BUSINESS_MAX_ATTEMPTS`, `BUSINESS_DEADLINE`,
 * `BUSINESS_MAX_RETRY_AFTER`, `BUSINESS_MAX_RESPONSE_BYTES`.
 *
 * @since 0.1.0
 * @category config
 */
export const config: Config.Config<BusinessClientConfig> = Config.nested(
  Http.connectionConfig.pipe(
    Config.map(({ maxAttempts, ...rest }) => ({
      ...defaults,
      ...rest,
      retry: { ...defaults.retry, maxAttempts },
      exchangeRetry: { ...defaults.exchangeRetry, maxAttempts }
    }))
  ),
  "BUSINESS"
)

/**
 * @since 0.1.0
 * @category models
 */
export interface BusinessClientService {
  /**
   * Exchanges money exactly once. The request_id is the one given, or one created now, before the first attempt;
   * every retry sends the same body with the same id (at least 1 s apart). The `RequestLedger` refuses an id already
   * used for another body before anything is sent; an id whose exchange succeeded, or whose refusal the server
   * stored, answers from the ledger. A refusal is a `BusinessClientError` with the server's code: a replayed one
   * (`replayed: true`) is the stored result of the request_id; a fresh one frees the id in the ledger (the server
   * stores nothing for a request refused before execution, so the same id may carry a corrected body). A
   * "Duplicate request" answer, or attempts that all ended without a telling answer, are reconciled with
   * `findTransactionByRequestId`; when that finds nothing either, the call fails with `ExchangeOutcomeUnknown`.
   * The whole call, retries, waits and lookup included, ends by `deadline`.
   */
  readonly exchange: (
    request: ExchangeInput
  ) => Effect.Effect<
    ExchangeTransaction.ExchangeTransaction,
    BusinessClientError | ExchangeOutcomeUnknown | RequestIdConflict
  >
  /** GET /exchange-reasons */
  readonly exchangeReasons: Effect.Effect<ReadonlyArray<ExchangeReason.ExchangeReason>, BusinessClientError>
  /** GET /transactions?request_id=: the transaction a request created, if any */
  readonly findTransactionByRequestId: (
    requestId: string
  ) => Effect.Effect<Option.Option<ExchangeTransaction.ExchangeTransaction>, BusinessClientError>
  /**
   * POST /pay/fields: the fields a payment to this receiver needs. Every call of every fiber goes through one
   * limiter that keeps the process under `payFieldsLimit` (450 in any 60-second window); 429 answers are retried
   * after `Retry-After`.
   */
  readonly transferFieldRequirements: (
    request: PayFields.FieldsRequest
  ) => Effect.Effect<PayFields.FieldsResponse, BusinessClientError>
}

/**
 * The parameters of effect's token-bucket `RateLimiter` that keep at most `limit` requests in any `window`: a small
 * burst `b`, refilled one token every `ceil(window / (limit - b - 1))`. (A bucket of `limit` tokens refilled over the
 * window would start full and let through about twice the limit in the first window.)
 *
 * @since 0.1.0
 * @category rate limits
 */
export const tokenBucketFor = (
  limit: number,
  window: Duration.DurationInput
): { readonly limit: number; readonly interval: Duration.Duration; readonly worstCase: number } => {
  const windowMs = Duration.toMillis(Duration.decode(window))
  const burst = Math.max(1, Math.floor(limit / 45))
  const millisPerToken = Math.ceil(windowMs / Math.max(1, limit - burst - 1))
  return {
    limit: burst,
    interval: Duration.millis(burst * millisPerToken),
    // the burst, plus the refills of one window, plus one refill landing on its edge
    worstCase: burst + Math.floor(windowMs / millisPerToken) + 1
  }
}

/**
 * @since 0.1.0
 * @category tags
 */
export class BusinessClient extends Context.Tag("@payrules/transport/BusinessClient")<
  BusinessClient,
  BusinessClientService
>() {}

const spanOptions = Http.spanOptions

/**
 * Builds the client from a configuration; it needs an `HttpClient` (Node, fetch, ...) and a `RequestLedger`. A base
 * URL that is not an absolute http(s) URL (or carries credentials, a query or a fragment) is refused here, with a
 * `ConfigError`, not at the first call.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  cfg: BusinessClientConfig
): Effect.Effect<
  BusinessClientService,
  ConfigError.ConfigError,
  HttpClient.HttpClient | RequestLedger.RequestLedger | Scope.Scope
> =>
  Effect.gen(function* () {
    const base = yield* Http.parseBaseUrl(cfg.baseUrl)
    const http = yield* HttpClient.HttpClient
    const ledger = yield* RequestLedger.RequestLedger
    const bucket = tokenBucketFor(cfg.payFieldsLimit.limit, cfg.payFieldsLimit.window)
    const payFieldsLimiter = yield* RateLimiter.make({
      limit: bucket.limit,
      interval: bucket.interval,
      algorithm: "token-bucket"
    })
    const withAuth = (request: HttpClientRequest.HttpClientRequest) =>
      request.pipe(HttpClientRequest.bearerToken(cfg.token), HttpClientRequest.acceptJson)
    const provide = Effect.provideService(HttpClient.HttpClient, http)
    const errorBody = BusinessApi.BusinessErrorBody
    const limits = { timeout: cfg.timeout, maxResponseBytes: cfg.maxResponseBytes, maxRetryAfter: cfg.maxRetryAfter }
    const deadline = cfg.deadline ?? Http.defaultDeadline

    const findOnce = (requestId: string) =>
      Http.send(withAuth(HttpClientRequest.get(`${base}/transactions`, { urlParams: { request_id: requestId } })), {
        ...limits,
        success: Schema.Array(ExchangeTransaction.Lenient),
        errorBody
      })

    /** one read: retried per the policy within the deadline, its failure as a BusinessClientError, in a span */
    const call = <A>(
      attempt: Effect.Effect<Http.Answer<A>, Http.Failure, HttpClient.HttpClient>,
      span: string,
      requestId?: string
    ): Effect.Effect<A, BusinessClientError> =>
      attempt.pipe(
        Effect.retry(Http.retrySchedule(cfg.retry)),
        (retried) => Http.withDeadline(retried, deadline),
        Effect.map((answer) => answer.value),
        Effect.mapError((f) => toError(f, requestId)),
        provide,
        Effect.withSpan(
          span,
          requestId === undefined ? spanOptions : { ...spanOptions, attributes: { "payrules.request_id": requestId } }
        )
      )

    const findTransactionByRequestId: BusinessClientService["findTransactionByRequestId"] = (requestId) =>
      Effect.map(call(findOnce(requestId), "BusinessClient.findTransactionByRequestId", requestId), (found) =>
        Option.fromNullable(found[0])
      )

    const exchangeReasons: BusinessClientService["exchangeReasons"] = call(
      Http.send(withAuth(HttpClientRequest.get(`${base}/exchange-reasons`)), {
        ...limits,
        success: ExchangeReason.ExchangeReasonList,
        errorBody
      }),
      "BusinessClient.exchangeReasons"
    )

    const exchangeDeps: ExchangeCall.Deps = {
      ledger,
      post: (wire) =>
        Http.send(withAuth(HttpClientRequest.post(`${base}/exchange`)).pipe(HttpClientRequest.bodyUnsafeJson(wire)), {
          ...limits,
          success: ExchangeTransaction.Lenient,
          errorBody
        }).pipe(provide),
      findTransactionByRequestId,
      retry: cfg.exchangeRetry,
      deadline
    }

    const exchange: BusinessClientService["exchange"] = (input) =>
      Effect.gen(function* () {
        // created once per logical call, before the first attempt: every retry reuses it
        const requestId = input.request_id ?? (yield* FapiHeaders.randomInteractionId)
        const request = { ...input, request_id: requestId } as ExchangeRequest.ExchangeRequest
        const wire = ExchangeRequest.encode(request)
        if (Either.isLeft(wire)) {
          return yield* Effect.fail(
            new BusinessClientError({
              reason: "BadRequest",
              status: undefined,
              raw: undefined,
              body: undefined,
              requestId,
              retryAfter: undefined,
              replayed: false,
              message: `the exchange request is invalid: ${ExchangeRequest.issues(wire.left)
                .map((i) => `${i.path.map(String).join(".") || "(body)"}: ${i.message}`)
                .join("; ")}`
            })
          )
        }
        return yield* ExchangeCall.exchange(exchangeDeps, requestId, request, wire.right)
      }).pipe(
        Effect.catchTag("RequestLedgerError", (e) => Effect.die(e)),
        provide,
        Effect.withSpan("BusinessClient.exchange", spanOptions)
      )

    const transferFieldRequirements: BusinessClientService["transferFieldRequirements"] = (request) =>
      call(
        // every attempt takes a token: retries count against the limit too
        payFieldsLimiter(
          Http.send(
            withAuth(HttpClientRequest.post(`${base}/pay/fields`)).pipe(HttpClientRequest.bodyUnsafeJson(request)),
            { ...limits, success: PayFields.FieldsResponse, errorBody }
          )
        ),
        "BusinessClient.transferFieldRequirements"
      )

    return { exchange, exchangeReasons, findTransactionByRequestId, transferFieldRequirements }
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  cfg: BusinessClientConfig
): Layer.Layer<BusinessClient, ConfigError.ConfigError, HttpClient.HttpClient | RequestLedger.RequestLedger> =>
  Layer.scoped(BusinessClient, make(cfg))

/**
 * The client configured from the environment (see {@link config}).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  cfg: Config.Config<BusinessClientConfig> = config
): Layer.Layer<BusinessClient, ConfigError.ConfigError, HttpClient.HttpClient | RequestLedger.RequestLedger> =>
  Layer.scoped(BusinessClient, Effect.flatMap(cfg, make))
