/**
 * The client of the Open Banking API: international payments, with the FAPI headers done right.
 *
 * @since 0.1.0
 */
import { HttpDate } from "@payrules/iso8601"
import { ItemList, Reader } from "@payrules/lenient"
import { FapiHeaders, InternationalPayment, InternationalPaymentCheck } from "@payrules/open-banking"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as DateTime from "effect/DateTime"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Headers from "effect/http/Headers"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Http from "./internal/http.js"
import * as OpenBankingApi from "./OpenBankingApi.js"

/**
 * Why an Open Banking call failed: the HTTP reasons. (An interaction id that the response does not play back is a
 * finding of the result, not a failure: see {@link Retrieved}.)
 *
 * @since 0.1.0
 * @category errors
 */
export type Reason = Http.Reason

/**
 * A finding of an error answer (D11, issue 34): an item of its `Errors` array that does not decode as an `OBError1`
 * (a missing `Message`, an `ErrorCode` that is not a string, not an object at all). It is left out of `body.Errors`,
 * which keeps the items that decode; `index` is its position in the array as sent, `path` the path of what broke from
 * the root of the body (`["Errors", 1, "ErrorCode"]`), `raw` the item as sent.
 *
 * @since 0.2.0
 * @category models
 */
export type ErrorBodyFinding = ItemList.Finding

/**
 * `OBErrorResponse1` as the client reads an error answer (D11, issue 34): `Code`, `Message` and `Id` strictly, the
 * `Errors` array as a list whose items are read one by one afterwards, so that one malformed error item does not cost
 * the caller the body. `ErrorCode` is open: any string (`UK.OBIE.Field.Missing`, or a code added since) is kept as
 * sent; never match on `Message`.
 *
 * @since 0.2.0
 * @category schemas
 */
export const ErrorBodyEnvelope = Schema.Struct({
  Code: Schema.String,
  Id: Schema.optionalKey(Schema.String),
  Message: Schema.String,
  Errors: Schema.Array(Schema.Unknown)
}).annotate({ identifier: "OBErrorResponse1Envelope" })

const readErrorItems = ItemList.decode(OpenBankingApi.OBError1, { prefix: ["Errors"] })

/**
 * Reads the `Errors` of an error body decoded with {@link ErrorBodyEnvelope}: the body with the items that decode,
 * and an `UnreadableItem` finding for each one that does not.
 *
 * @since 0.2.0
 * @category decoding
 */
export const readErrorBody = (
  envelope: typeof ErrorBodyEnvelope.Type
): {
  readonly body: typeof OpenBankingApi.OBErrorResponse1.Type
  readonly findings: ReadonlyArray<ErrorBodyFinding>
} => {
  const { items, unreadable } = readErrorItems(envelope.Errors)
  return {
    body: { ...envelope, Errors: items },
    findings: unreadable.map((u) =>
      ItemList.finding(
        u,
        `the error at Errors[${u.index}] could not be read and was left out (${u.message} at ${u.path.map(String).join(".")})`
      )
    )
  }
}

/**
 * @since 0.1.0
 * @category errors
 */
export class OpenBankingClientError extends Data.TaggedError("OpenBankingClientError")<{
  readonly reason: Reason
  readonly status: number | undefined
  readonly raw: string | undefined
  /**
   * the body decoded as `OBErrorResponse1`, when its envelope has that shape (`Code`, `Message`, an `Errors` array):
   * `Errors` holds the items that decode, each one that does not is in `findings`
   */
  readonly body: typeof OpenBankingApi.OBErrorResponse1.Type | undefined
  /** an `UnreadableItem` for each item of the body's `Errors` that does not decode (since 0.2.0) */
  readonly findings: ReadonlyArray<ErrorBodyFinding>
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
  deadline: Http.defaultDeadline,
  maxRetryAfter: Http.defaultMaxRetryAfter,
  maxResponseBytes: Http.defaultMaxResponseBytes,
  retry: Http.defaultRetry
}

/**
 * The configuration from the environment (`Config.nested` under `OPEN_BANKING`): `OPEN_BANKING_BASE_URL`,
 * `OPEN_BANKING_TOKEN` (redacted), `OPEN_BANKING_FINANCIAL_ID`, `OPEN_BANKING_TIMEOUT`,
 * `OPEN_BANKING_MAX_ATTEMPTS`, `OPEN_BANKING_DEADLINE`, `OPEN_BANKING_MAX_RETRY_AFTER`,
 * `OPEN_BANKING_MAX_RESPONSE_BYTES`.
 *
 * @since 0.1.0
 * @category config
 */
export const config: Config.Config<OpenBankingClientConfig> = Config.nested(
  Config.all([Http.connectionConfig, Config.String("FINANCIAL_ID")]).pipe(
    Config.map(([{ maxAttempts, ...rest }, financialId]) => ({
      ...rest,
      financialId,
      retry: { ...defaults.retry, maxAttempts }
    }))
  ),
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
 * A finding of a retrieved payment: of its body (`InternationalPaymentCheck`, paths from `Data`) or of the response
 * headers (`FapiHeaders.checkResponse`, paths from `headers`). Same shape: severity, rule, path, message.
 *
 * @since 0.1.0
 * @category models
 */
export type Finding = InternationalPaymentCheck.Finding | FapiHeaders.Finding

/**
 * A retrieved payment, with what a strict reading would have refused or dropped reported beside it (D11).
 *
 * @since 0.1.0
 * @category models
 */
export interface Retrieved {
  /**
   * the payment, decoded leniently (`InternationalPayment.RevolutLenient`, after a try of the strict Schema, which
   * reads an answer of known values faster and to the same payment): a well-formed value of an enumeration
   * that this version does not know (a status added since, a new RateType, ChargeBearer or account SchemeName) is
   * kept as `{ _tag: "Unknown", value }`, with an `UnknownValue` finding; the read never fails on it
   */
  readonly payment: InternationalPayment.Revolut
  /** the `x-fapi-interaction-id` this call sent, for correlation with the bank */
  readonly interactionId: string
  /**
   * the findings of the headers (an interaction id not played back), then those of the body
   * (`InternationalPaymentCheck.check` in the `revolut` profile: an enum value this version does not know, a currency
   * not on the ISO 4217 list, a missing DebtorAccount, the cross-field rules), warnings and errors alike: a finding
   * never fails the call
   */
  readonly findings: ReadonlyArray<Finding>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface OpenBankingClientService {
  /**
   * GET /international-payments/{id}. The interaction id is the one given or a fresh UUID, created once per call;
   * a response that does not play it back is still read, with a finding. Decoded with the `revolut` profile,
   * leniently, then checked (`check`: what the caller knows, such as the debtor account's currency). The whole
   * call, retries and waits included, ends by the `deadline`. An error answer's body is read leniently too: its
   * `Errors` keep the items that decode, and the error's `findings` report the others.
   */
  readonly getInternationalPayment: (
    id: string,
    options?: {
      readonly interactionId?: string | undefined
      readonly customer?: Customer | undefined
      readonly check?: Omit<InternationalPaymentCheck.Options, "profile"> | undefined
    }
  ) => Effect.Effect<Retrieved, OpenBankingClientError>
}

/**
 * @since 0.1.0
 * @category services
 */
export class OpenBankingClient extends Context.Service<OpenBankingClient, OpenBankingClientService>()(
  "@payrules/transport/OpenBankingClient"
) {}

/**
 * Builds the client; it needs an `HttpClient`. A base URL that is not an absolute http(s) URL (or carries
 * credentials, a query or a fragment) is refused here, with a `ConfigError`, not at the first call.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  cfg: OpenBankingClientConfig
): Effect.Effect<OpenBankingClientService, Config.ConfigError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const base = yield* Http.parseBaseUrl(cfg.baseUrl)
    const http = yield* HttpClient.HttpClient
    // the answer this client reads, compiled where dynamic code is allowed (see Http.jit): with the strict Schema
    // first, as an answer of known values (nearly every one) reads faster without the open enums, with the same value
    const readPayment = Reader.closedFirst(
      Http.jit(InternationalPayment.RevolutStrict),
      Http.jit(InternationalPayment.RevolutLenient)
    )
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
        const fail = (f: Http.Failure) => {
          const read = f.body === undefined ? undefined : readErrorBody(f.body as typeof ErrorBodyEnvelope.Type)
          return new OpenBankingClientError({
            reason: f.reason,
            status: f.status,
            raw: f.raw,
            body: read?.body,
            findings: read?.findings ?? [],
            interactionId,
            retryAfter: f.retryAfter,
            message: f.message
          })
        }
        const answer = yield* Http.send(request, {
          timeout: cfg.timeout,
          maxResponseBytes: cfg.maxResponseBytes,
          maxRetryAfter: cfg.maxRetryAfter,
          success: readPayment,
          errorBody: ErrorBodyEnvelope
        }).pipe(
          Effect.retry(Http.retrySchedule(cfg.retry)),
          (retried) => Http.withDeadline(retried, cfg.deadline),
          Effect.mapError((f) => fail(f))
        )
        const findings: ReadonlyArray<Finding> = [
          ...FapiHeaders.checkResponse(interactionId, answer.headers),
          ...InternationalPaymentCheck.check(answer.value, { ...options?.check, profile: "revolut" })
        ]
        return { payment: answer.value, interactionId, findings }
      }).pipe(
        Effect.provideService(HttpClient.HttpClient, http),
        // the token and the end user's ip address and user agent never reach a span or a log
        Effect.updateService(Headers.CurrentRedactedNames, (names) => [...names, ...FapiHeaders.redactedHeaderNames]),
        Effect.withSpan(
          "OpenBankingClient.getInternationalPayment",
          { attributes: { "payrules.payment_id": id } },
          Http.spanOptions
        )
      )
    return { getInternationalPayment }
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  cfg: OpenBankingClientConfig
): Layer.Layer<OpenBankingClient, Config.ConfigError, HttpClient.HttpClient> =>
  Layer.effect(OpenBankingClient, make(cfg))

/**
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  cfg: Config.Config<OpenBankingClientConfig> = config
): Layer.Layer<OpenBankingClient, Config.ConfigError, HttpClient.HttpClient> =>
  Layer.effect(OpenBankingClient, Effect.flatMap(cfg, make))
