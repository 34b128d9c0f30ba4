/**
 * The client of the Open Banking API: international payments, with the FAPI headers done right.
 *
 * @since 0.1.0
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { HttpDate } from "@payrules/iso8601"
import { FapiHeaders, InternationalPayment } from "@payrules/open-banking"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as DateTime from "effect/DateTime"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Http from "./internal/http.js"
import * as OpenBankingApi from "./OpenBankingApi.js"

/**
 * Why an Open Banking call failed: the HTTP reasons, or `InteractionIdMismatch` when the response does not play
 * back the `x-fapi-interaction-id` that was sent.
 *
 * @since 0.1.0
 * @category errors
 */
export type Reason = Http.Reason | "InteractionIdMismatch"

/**
 * @since 0.1.0
 * @category errors
 */
export class OpenBankingClientError extends Data.TaggedError("OpenBankingClientError")<{
  readonly reason: Reason
  readonly status: number | undefined
  readonly raw: string | undefined
  /** the body decoded as `OBErrorResponse1`, when it has that shape */
  readonly body: typeof OpenBankingApi.OBErrorResponse1.Type | undefined
  /** the interaction id this call sent */
  readonly interactionId: string
  readonly retryAfter: Duration.Duration | undefined
  readonly message: string
}> {}

/**
 * @since 0.1.0
 * @category models
 */
export interface OpenBankingClientConfig extends Http.Connection {
  /** `x-fapi-financial-id`: the account-servicing institution the requests are issued to */
  readonly financialId: string
}

/**
 * @since 0.1.0
 * @category constants
 */
export const defaults: Omit<OpenBankingClientConfig, "baseUrl" | "token" | "financialId"> = {
  timeout: Http.defaultTimeout,
  retry: Http.defaultRetry
}

/**
 * The configuration from the environment (`Config.nested` under `OPEN_BANKING`): `OPEN_BANKING_BASE_URL`,
 * `OPEN_BANKING_TOKEN` (redacted), `OPEN_BANKING_FINANCIAL_ID`, `OPEN_BANKING_TIMEOUT`,
 * `OPEN_BANKING_MAX_ATTEMPTS`.
 *
 * @since 0.1.0
 * @category config
 */
export const config: Config.Config<OpenBankingClientConfig> = Config.nested(
  Config.zipWith(Http.connectionConfig, Config.string("FINANCIAL_ID"), ({ maxAttempts, ...rest }, financialId) => ({
    ...rest,
    financialId,
    retry: { ...defaults.retry, maxAttempts }
  })),
  "OPEN_BANKING"
)

/**
 * What the third party knows of the end user, sent as the customer FAPI headers (redacted in logs and spans).
 *
 * @since 0.1.0
 * @category models
 */
export interface Customer {
  readonly ipAddress?: string | undefined
  readonly userAgent?: string | undefined
  readonly lastLoggedTime?: DateTime.DateTime | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Retrieved {
  readonly payment: InternationalPayment.Revolut
  /** the `x-fapi-interaction-id` of the exchange, for correlation with the bank */
  readonly interactionId: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface OpenBankingClientService {
  /**
   * GET /international-payments/{id}. The interaction id is the one given or a fresh UUID, created once per call;
   * the response must play it back. Decoded with the `revolut` profile (strict).
   */
  readonly getInternationalPayment: (
    id: string,
    options?: { readonly interactionId?: string | undefined; readonly customer?: Customer | undefined }
  ) => Effect.Effect<Retrieved, OpenBankingClientError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class OpenBankingClient extends Context.Tag("@payrules/transport/OpenBankingClient")<
  OpenBankingClient,
  OpenBankingClientService
>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  cfg: OpenBankingClientConfig
): Effect.Effect<OpenBankingClientService, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const http = yield* HttpClient.HttpClient
    const base = cfg.baseUrl.replace(/\/+$/, "")
    const getInternationalPayment: OpenBankingClientService["getInternationalPayment"] = (id, options) =>
      Effect.gen(function* () {
        // created once per logical call: every retry sends the same interaction id
        const interactionId = options?.interactionId ?? (yield* FapiHeaders.randomInteractionId)
        const customer = options?.customer
        const request = HttpClientRequest.get(`${base}/international-payments/${encodeURIComponent(id)}`).pipe(
          HttpClientRequest.bearerToken(cfg.token),
          HttpClientRequest.acceptJson,
          HttpClientRequest.setHeaders({
            "x-fapi-financial-id": cfg.financialId,
            "x-fapi-interaction-id": interactionId,
            ...(customer?.ipAddress === undefined ? {} : { "x-fapi-customer-ip-address": customer.ipAddress }),
            ...(customer?.userAgent === undefined ? {} : { "x-customer-user-agent": customer.userAgent }),
            ...(customer?.lastLoggedTime === undefined
              ? {}
              : { "x-fapi-customer-last-logged-time": HttpDate.format(customer.lastLoggedTime) })
          })
        )
        const fail = (f: Omit<Http.Failure, "ambiguous">, reason: Reason = f.reason) =>
          new OpenBankingClientError({
            reason,
            status: f.status,
            raw: f.raw,
            body: f.body as OpenBankingClientError["body"],
            interactionId,
            retryAfter: f.retryAfter,
            message: f.message
          })
        const answer = yield* Http.send(request, {
          timeout: cfg.timeout,
          success: InternationalPayment.RevolutStrict,
          errorBody: OpenBankingApi.OBErrorResponse1
        }).pipe(
          Effect.retry(Http.retrySchedule(cfg.retry)),
          Effect.mapError((f) => fail(f))
        )
        const played = answer.headers["x-fapi-interaction-id"]
        if (played !== interactionId) {
          return yield* fail(
            {
              reason: "Decode",
              status: answer.status,
              raw: undefined,
              body: undefined,
              retryAfter: undefined,
              headers: answer.headers,
              message: `the response carries x-fapi-interaction-id ${played ?? "(none)"} instead of ${interactionId}`
            },
            "InteractionIdMismatch"
          )
        }
        return { payment: answer.value, interactionId }
      }).pipe(
        Effect.provideService(HttpClient.HttpClient, http),
        // the token and the end user's ip address and user agent never reach a span or a log
        Effect.locallyWith(Headers.currentRedactedNames, (names) => [...names, ...FapiHeaders.redactedHeaderNames]),
        Effect.withSpan("OpenBankingClient.getInternationalPayment", {
          ...Http.spanOptions,
          attributes: { "payrules.payment_id": id }
        })
      )
    return { getInternationalPayment }
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (cfg: OpenBankingClientConfig): Layer.Layer<OpenBankingClient, never, HttpClient.HttpClient> =>
  Layer.effect(OpenBankingClient, make(cfg))

/**
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  cfg: Config.Config<OpenBankingClientConfig> = config
): Layer.Layer<OpenBankingClient, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.effect(OpenBankingClient, Effect.flatMap(cfg, make))
