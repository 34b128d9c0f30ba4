/**
 * The client of the business API: exchanges that happen exactly once under retries and faults, exchange reasons,
 * the transaction lookup, and transfer field requirements under the API's rate limit.
 *
 * @since 0.1.0
 */
import { ExchangeReason, ExchangeRequest, ExchangeTransaction, RequestLedger } from "@payrules/exchange"
import { PayFields } from "@payrules/transfers"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as BusinessApi from "./BusinessApi.js"
import {
  type BusinessClientError,
  type ExchangeOutcomeUnknown,
  notSent,
  type RequestIdConflict,
  toError
} from "./internal/businessErrors.js"
import * as Exchanges from "./internal/exchange.js"
import * as Http from "./internal/http.js"
import * as PayFieldsLimiter from "./PayFieldsLimiter.js"

const validRequestId = Schema.decodeUnknownResult(ExchangeRequest.RequestId)
const encodeFieldsRequest = Schema.encodeUnknownResult(PayFields.FieldsRequest)

/**
 * Why a business call failed.
 *
 * @since 0.1.0
 * @category errors
 */
export type Reason = Http.Reason

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
  readonly payFieldsLimit: { readonly limit: number; readonly window: Duration.Input }
}

/**
 * the answers of GET /transactions and GET /exchange-reasons, as the client reads them (D11, issue 34): the list
 * itself strictly, its items one by one (`ExchangeTransaction.readList`, `ExchangeReason.readList`)
 */
const itemList = Schema.Array(Schema.Unknown)

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
 * A finding of a business read (D11, issue 34): what a strict reading would have refused, reported beside the data,
 * never a failed read. The exchange package's finding, with the shape of the other clients' findings (severity,
 * rule, path, message): `UnknownValue` (a transaction state added to the API since, at `["state"]`), `ReasonCode`
 * (the D5 rule on `reason_code`), `UnreadableItem` (an item of a list that does not decode, with its index and raw
 * value; the list keeps the others).
 *
 * @since 0.2.0
 * @category models
 */
export type Finding = ExchangeTransaction.Warning

/**
 * An exchange as the client reads it: the transaction, the request_id it was sent with, and the findings beside it.
 *
 * @since 0.2.0
 * @category models
 */
export interface Exchanged {
  /**
   * the transaction, read leniently (`ExchangeTransaction.Lenient`). Its state may be one added to the API since this
   * version (`{ _tag: "Unknown", value: "held" }`, with an `UnknownValue` finding): the transaction exists, so the
   * request_id is settled (the ledger records it as succeeded, and it is never sent again), and its state is
   * reported as unknown
   */
  readonly transaction: ExchangeTransaction.Lenient
  /** the request_id the exchange was sent with: the one given, or the one the client created */
  readonly requestId: string
  /**
   * the findings of the transaction (`ExchangeTransaction.warnings`: an unknown state, the D5 rule), paths from the
   * transaction; when the transaction came from the lookup by request_id, also that lookup's unreadable items, paths
   * under `"lookup"` (`["lookup", 1, "id"]`). A finding never fails the call
   */
  readonly findings: ReadonlyArray<Finding>
}

/**
 * What GET /transactions?request_id= found: the transaction the request created, if the answer holds one the client
 * can read, and the findings of the answer (paths from the list: `[0, "state"]`).
 *
 * @since 0.2.0
 * @category models
 */
export interface TransactionLookup {
  readonly requestId: string
  /** the first transaction of the answer that decodes, in any state (a state added since too) */
  readonly transaction: Option.Option<ExchangeTransaction.Lenient>
  /** every transaction of the answer that decodes, in its order (one, for a request_id the server executed) */
  readonly transactions: ReadonlyArray<ExchangeTransaction.Lenient>
  /** each transaction's findings, and an `UnreadableItem` for each item that does not decode */
  readonly findings: ReadonlyArray<Finding>
}

/**
 * The answer of GET /exchange-reasons as the client reads it: every reason that decodes, and an `UnreadableItem`
 * finding for each one that does not (paths from the list: `[1, "code"]`).
 *
 * @since 0.2.0
 * @category models
 */
export interface ExchangeReasons {
  readonly reasons: ReadonlyArray<ExchangeReason.ExchangeReason>
  readonly findings: ReadonlyArray<Finding>
}

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
   *
   * A ledger that cannot register the exchange (a durable store that is unreachable) fails the call with its
   * `RequestLedgerError` before anything is sent. Once the request has left, the answer is the call's result even
   * if the ledger cannot record it (a warning is logged): the entry stays in flight, and `resumePending` settles it.
   *
   * The answer is read leniently (D11, issue 34; since 0.2.0 it comes with its `findings`, see {@link Exchanged}): a
   * transaction in a state added to the API since (`"held"`) is the call's result, with its state as
   * `{ _tag: "Unknown", value: "held" }` and an `UnknownValue` finding. The transaction exists, so the ledger
   * records the request_id as succeeded (settled): `resumePending` never sends it again.
   */
  readonly exchange: (
    request: ExchangeInput
  ) => Effect.Effect<
    Exchanged,
    BusinessClientError | ExchangeOutcomeUnknown | RequestIdConflict | RequestLedger.RequestLedgerError
  >
  /**
   * Settles every exchange that the `RequestLedger` holds in flight or unknown: those of a process that stopped
   * before the answer (with a durable ledger: a SQLite file, PostgreSQL), and those that ended with
   * `ExchangeOutcomeUnknown`. Each one is looked up by request_id first; when the server has a transaction for it,
   * in any state (one added to the API since too), it is settled; when it has none, it is sent again with the same
   * request_id and the same body (the body the ledger stored), which the server executes at most once. Answers what
   * became of each.
   *
   * @since 0.1.0
   */
  readonly resumePending: (options?: ResumeOptions) => Effect.Effect<ResumeSummary, RequestLedger.RequestLedgerError>
  /**
   * GET /exchange-reasons: the reasons that decode, and a finding for each that does not (since 0.2.0: one bad entry
   * no longer fails the call)
   */
  readonly exchangeReasons: Effect.Effect<ExchangeReasons, BusinessClientError>
  /**
   * GET /transactions?request_id=: the transaction a request created, if any, with the findings of the answer (since
   * 0.2.0: the list keeps its readable items, and a transaction in a state added since is found). A request_id that
   * breaks `ExchangeRequest.RequestId` (empty, over 40 characters, a control character) is refused before anything
   * is sent (`reason: "BadRequest"`, no status).
   */
  readonly findTransactionByRequestId: (requestId: string) => Effect.Effect<TransactionLookup, BusinessClientError>
  /**
   * POST /pay/fields: the fields a payment to this receiver needs. Every attempt of every fiber takes a permit of
   * the `PayFieldsLimiter` of the context, or, when there is none, of a limiter of its own that keeps the process
   * under `payFieldsLimit` (450 in any 60-second window); 429 answers are retried after `Retry-After`. A shared
   * limiter whose store fails fails the call with `PayFieldsLimiterError` (nothing is sent).
   *
   * The answer is read leniently (`PayFields.decodeLenient`, D11, since 0.2.0): its envelope strictly, its rules one
   * by one. A rule that does not decode is left out of `fields` and reported in `findings` (`UnreadableItem`, with its
   * index, path and raw value), never a failed call. `FieldValidator.compile` of the whole answer refuses such a rule
   * (`UnreadableRule`); compile `fields` alone to go on without it.
   */
  readonly transferFieldRequirements: (
    request: PayFields.FieldsRequest
  ) => Effect.Effect<PayFields.FieldsRead, BusinessClientError | PayFieldsLimiter.PayFieldsLimiterError>
}

/**
 * The parameters of effect's token-bucket `RateLimiter` that keep at most `limit` requests in any `window` (see
 * `PayFieldsLimiter.tokenBucketFor`, where the limiter of /pay/fields now lives).
 *
 * @since 0.1.0
 * @category rate limits
 */
export const tokenBucketFor: (
  limit: number,
  window: Duration.Input
) => { readonly limit: number; readonly interval: Duration.Duration; readonly worstCase: number } =
  PayFieldsLimiter.tokenBucketFor

/**
 * What {@link BusinessClientService.resumePending} made of one pending exchange:
 *
 * - `Found`: the server had its transaction (the lookup by request_id found it), in any state (one added since too);
 * - `Sent`: the server had none, so it was sent again with the same request_id, and answered with its transaction;
 * - `Refused`: the server answered with a definite refusal (its stored answer to the request_id, or a refusal
 *   before execution that stored nothing: the id is free again);
 * - `Unknown`: still no telling answer (the server is unreachable or faulty): call `resumePending` again later.
 *
 * `Found` and `Sent` carry the findings of what was read (see {@link Exchanged}; since 0.2.0).
 *
 * @since 0.1.0
 * @category models
 */
export type Resumed = Data.TaggedEnum<{
  Found: {
    readonly requestId: string
    readonly transaction: ExchangeTransaction.Lenient
    readonly findings: ReadonlyArray<Finding>
  }
  Sent: {
    readonly requestId: string
    readonly transaction: ExchangeTransaction.Lenient
    readonly findings: ReadonlyArray<Finding>
  }
  Refused: { readonly requestId: string; readonly error: BusinessClientError | RequestIdConflict }
  Unknown: { readonly requestId: string; readonly message: string }
}>

/**
 * Constructors and matchers of {@link Resumed}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const Resumed = Data.taggedEnum<Resumed>()

/**
 * The answer of {@link BusinessClientService.resumePending}: how many exchanges were pending, what became of each,
 * oldest first.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResumeSummary {
  readonly pending: number
  readonly found: number
  readonly sent: number
  readonly refused: number
  readonly unknown: number
  readonly results: ReadonlyArray<Resumed>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ResumeOptions {
  /**
   * only the exchanges registered at least this long ago (default: all). Replicas that share a ledger and resume
   * when they start pass more than the client's `deadline` (2 minutes by default), so a call still running in
   * another process is left to it (resuming it would be safe, the server executes a request_id once, but wasted)
   */
  readonly olderThan?: Duration.Input | undefined
  /** how many exchanges are settled at once (default 4) */
  readonly concurrency?: number | undefined
}

/**
 * @since 0.1.0
 * @category services
 */
export class BusinessClient extends Context.Service<BusinessClient, BusinessClientService>()(
  "@payrules/transport/BusinessClient"
) {}

const spanOptions = Http.spanOptions

/**
 * Builds the client from a configuration; it needs an `HttpClient` (Node, fetch, ...) and a `RequestLedger`, and
 * uses the `PayFieldsLimiter` of the context when there is one (otherwise a limiter of its own). A base
 * URL that is not an absolute http(s) URL (or carries credentials, a query or a fragment) is refused here, with a
 * `ConfigError`, not at the first call.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  cfg: BusinessClientConfig
): Effect.Effect<BusinessClientService, Config.ConfigError, HttpClient.HttpClient | RequestLedger.RequestLedger> =>
  Effect.gen(function* () {
    const base = yield* Http.parseBaseUrl(cfg.baseUrl)
    const http = yield* HttpClient.HttpClient
    const ledger = yield* RequestLedger.RequestLedger
    // the answers this client reads, compiled where dynamic code is allowed (see Http.jit)
    // /pay/fields: the envelope is a plain list; each rule is decoded on its own (PayFields.decodeLenient)
    Http.jit(PayFields.FieldRequirement)
    Http.jit(ExchangeTransaction.Lenient)
    const shared = yield* Effect.serviceOption(PayFieldsLimiter.PayFieldsLimiter)
    const payFieldsLimiter = Option.isSome(shared) ? shared.value : yield* PayFieldsLimiter.make(cfg.payFieldsLimit)
    /** a ledger write after the request left: its failure must not hide the answer; the entry stays pending */
    const record = <A>(write: Effect.Effect<A, RequestLedger.RequestLedgerError>, requestId: string) =>
      Effect.catch(Effect.asVoid(write), (e) =>
        Effect.logWarning(
          `the request ledger could not record what became of exchange ${requestId}; it stays pending (resumePending settles it): ${e.message}`
        )
      )
    const withAuth = (request: HttpClientRequest.HttpClientRequest) =>
      request.pipe(HttpClientRequest.bearerToken(cfg.token), HttpClientRequest.acceptJson)
    const provide = Effect.provideService(HttpClient.HttpClient, http)
    const errorBody = BusinessApi.BusinessErrorBody
    const limits = { timeout: cfg.timeout, maxResponseBytes: cfg.maxResponseBytes, maxRetryAfter: cfg.maxRetryAfter }
    const deadline = cfg.deadline ?? Http.defaultDeadline

    const findOnce = (requestId: string) =>
      Http.send(withAuth(HttpClientRequest.get(`${base}/transactions`, { urlParams: { request_id: requestId } })), {
        ...limits,
        success: itemList,
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
          requestId === undefined ? undefined : { attributes: { "payrules.request_id": requestId } },
          spanOptions
        )
      )

    const findTransactionByRequestId: BusinessClientService["findTransactionByRequestId"] = (requestId) => {
      const valid = validRequestId(requestId)
      return Result.isFailure(valid)
        ? Effect.fail(notSent(requestId, `not sent: ${Http.firstIssue(valid.failure).message}`))
        : Effect.map(
            call(findOnce(requestId), "BusinessClient.findTransactionByRequestId", requestId),
            (list): TransactionLookup => {
              const read = ExchangeTransaction.readList(list)
              return {
                requestId,
                transaction: Option.fromUndefinedOr(read.transactions[0]),
                transactions: read.transactions,
                findings: read.warnings
              }
            }
          )
    }

    const exchangeReasons: BusinessClientService["exchangeReasons"] = Effect.map(
      call(
        Http.send(withAuth(HttpClientRequest.get(`${base}/exchange-reasons`)), {
          ...limits,
          success: itemList,
          errorBody
        }),
        "BusinessClient.exchangeReasons"
      ),
      (list): ExchangeReasons => {
        const read = ExchangeReason.readList(list)
        return { reasons: read.reasons, findings: read.warnings }
      }
    )

    const deps: Exchanges.Deps = {
      cfg,
      base,
      ledger,
      limits,
      deadline,
      withAuth,
      provide,
      record,
      toError,
      findTransactionByRequestId
    }
    const exchange = Exchanges.exchange(deps)
    const resumePending = Exchanges.resumePending(deps, exchange)

    const transferFieldRequirements: BusinessClientService["transferFieldRequirements"] = (input) => {
      // checked before anything is sent or a permit taken (both receiver methods, an empty id, a value of another
      // type through a cast), and sent as its Schema writes it: the fields of a FieldsRequest, nothing else
      const checked = encodeFieldsRequest(input)
      if (Result.isFailure(checked)) {
        const issue = Http.firstIssue(checked.failure)
        return Effect.fail(notSent(undefined, `the /pay/fields request is invalid: ${issue.path}: ${issue.message}`))
      }
      const request = checked.success
      // every attempt takes a permit: retries count against the limit too. A limiter that fails ends the call
      // (carried beside the answer, so that the retry schedule sees only HTTP failures)
      const attempt = Effect.flatMap(
        Effect.result(payFieldsLimiter.take),
        (
          permit
        ): Effect.Effect<
          Result.Result<
            Http.Answer<typeof PayFields.FieldsResponseEnvelope.Type>,
            PayFieldsLimiter.PayFieldsLimiterError
          >,
          Http.Failure,
          HttpClient.HttpClient
        > =>
          Result.isFailure(permit)
            ? Effect.succeed(Result.fail(permit.failure))
            : Effect.map(
                Http.send(
                  withAuth(HttpClientRequest.post(`${base}/pay/fields`)).pipe(
                    HttpClientRequest.bodyJsonUnsafe(request)
                  ),
                  { ...limits, success: PayFields.FieldsResponseEnvelope, errorBody }
                ),
                (answer) => Result.succeed(answer)
              )
      )
      return attempt.pipe(
        Effect.retry(Http.retrySchedule(cfg.retry)),
        (retried) => Http.withDeadline(retried, deadline),
        Effect.mapError((f) => toError(f)),
        Effect.flatMap(
          Result.match({
            onFailure: (e) => Effect.fail(e),
            // the rules one by one: each one that does not decode is a finding beside the others (D11)
            onSuccess: (answer) => Effect.succeed(PayFields.readFields(answer.value))
          })
        ),
        provide,
        Effect.withSpan("BusinessClient.transferFieldRequirements", undefined, spanOptions)
      )
    }

    return { exchange, resumePending, exchangeReasons, findTransactionByRequestId, transferFieldRequirements }
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  cfg: BusinessClientConfig
): Layer.Layer<BusinessClient, Config.ConfigError, HttpClient.HttpClient | RequestLedger.RequestLedger> =>
  Layer.effect(BusinessClient, make(cfg))

/**
 * The client configured from the environment (see {@link config}).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  cfg: Config.Config<BusinessClientConfig> = config
): Layer.Layer<BusinessClient, Config.ConfigError, HttpClient.HttpClient | RequestLedger.RequestLedger> =>
  Layer.effect(BusinessClient, Effect.flatMap(cfg, make))
