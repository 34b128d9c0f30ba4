/**
 * POST /exchange exactly once, and the resumption of the exchanges a ledger holds pending: the work of
 * `BusinessClient.exchange` and `BusinessClient.resumePending`.
 *
 * @internal
 */
import { ExchangeRequest, ExchangeTransaction, RequestLedger } from "@payrules/exchange"
import { FapiHeaders } from "@payrules/open-banking"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Result from "effect/Result"
import * as BusinessApi from "../BusinessApi.js"
import {
  type BusinessClientConfig,
  type BusinessClientService,
  type Exchanged,
  type Finding,
  Resumed,
  type TransactionLookup
} from "../BusinessClient.js"
import { BusinessClientError, ExchangeOutcomeUnknown, notSent, RequestIdConflict } from "./businessErrors.js"
import * as Http from "./http.js"

/** what the client built, for the exchange calls @internal */
export interface Deps {
  readonly cfg: BusinessClientConfig
  readonly base: string
  readonly ledger: RequestLedger.RequestLedgerService
  readonly limits: {
    readonly timeout: Duration.Input
    readonly maxResponseBytes: number | undefined
    readonly maxRetryAfter: Duration.Input | undefined
  }
  readonly deadline: Duration.Input
  readonly withAuth: (request: HttpClientRequest.HttpClientRequest) => HttpClientRequest.HttpClientRequest
  readonly provide: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, Exclude<R, HttpClient.HttpClient>>
  /** a ledger write after the request left: logged when it fails, never failing the call */
  readonly record: <A>(
    write: Effect.Effect<A, RequestLedger.RequestLedgerError>,
    requestId: string
  ) => Effect.Effect<void>
  readonly toError: (failure: Http.Failure, requestId?: string) => BusinessClientError
  readonly findTransactionByRequestId: BusinessClientService["findTransactionByRequestId"]
}

const spanOptions = Http.spanOptions
const errorBody = BusinessApi.BusinessErrorBody

/** the findings of a transaction the client hands out: its own warnings (an unknown state, the D5 rule) */
const exchanged = (
  requestId: string,
  transaction: ExchangeTransaction.Lenient,
  lookup?: TransactionLookup
): Exchanged => ({
  requestId,
  transaction,
  findings: [...ExchangeTransaction.warnings(transaction), ...fromLookup(lookup)]
})

/** the unreadable items of a lookup by request_id, under `"lookup"`: never dropped silently */
const fromLookup = (lookup: TransactionLookup | undefined): ReadonlyArray<Finding> =>
  lookup === undefined
    ? []
    : lookup.findings
        .filter((f) => f.rule === "UnreadableItem")
        .map((f) => ({
          ...f,
          path: ["lookup", ...f.path],
          message: `the lookup by request_id (GET /transactions): ${f.message}`
        }))

/** @internal */
export const exchange =
  (d: Deps): BusinessClientService["exchange"] =>
  (input) =>
    Effect.gen(function* () {
      // created once per logical call, before the first attempt: every retry reuses it
      const requestId = input.request_id ?? (yield* FapiHeaders.randomInteractionId)
      const request = { ...input, request_id: requestId } as ExchangeRequest.ExchangeRequest
      const wire = ExchangeRequest.encode(request)
      if (Result.isFailure(wire)) {
        return yield* Effect.fail(
          notSent(
            requestId,
            `the exchange request is invalid: ${ExchangeRequest.issues(wire.failure)
              .map((i) => `${i.path.map(String).join(".") || "(body)"}: ${i.message}`)
              .join("; ")}`
          )
        )
      }
      const registration = yield* d.ledger.register(request)
      if (registration._tag === "Conflict") {
        return yield* Effect.fail(new RequestIdConflict({ requestId, message: registration.message }))
      }
      if (registration._tag === "Replay" && Option.isSome(registration.outcome)) {
        const known = registration.outcome.value
        // a transaction in any state settles the request_id, one in a state added since too
        if (known._tag === "Succeeded") return exchanged(requestId, known.transaction)
        if (known._tag === "Rejected") {
          return yield* Effect.fail(
            new BusinessClientError({
              reason: Http.reasonOfStatus(known.status),
              status: known.status,
              raw: undefined,
              body: known.code === undefined ? undefined : { code: known.code, message: known.message },
              requestId,
              retryAfter: undefined,
              replayed: true,
              message: `${known.status}: ${known.message} (the server's stored answer to request_id ${requestId})`
            })
          )
        }
      }
      // a request_id the ledger already held without an outcome (in flight in another call or process, or left unknown)
      // may have been executed by an earlier attempt: like an unanswered attempt of this call, it makes an answer that
      // does not refuse the request itself (a 503, a 429) a question for the lookup, never a reason to free the id
      const earlier = registration._tag === "Replay"
      const attempts = yield* Ref.make(0)
      const ambiguous = yield* Ref.make(earlier ? 1 : 0)
      const attempt = Effect.andThen(
        Ref.update(attempts, (n) => n + 1),
        Http.send(
          d.withAuth(HttpClientRequest.post(`${d.base}/exchange`)).pipe(HttpClientRequest.bodyJsonUnsafe(wire.success)),
          { ...d.limits, success: ExchangeTransaction.Lenient, errorBody }
        ).pipe(Effect.tapError((f) => (f.ambiguous ? Ref.update(ambiguous, (n) => n + 1) : Effect.void)))
      )
      const unknown = (cause: BusinessClientError) =>
        Effect.gen(function* () {
          const n = yield* Ref.get(attempts)
          yield* d.record(
            d.ledger.complete(requestId, RequestLedger.Outcome.Unknown({ message: cause.message })),
            requestId
          )
          return yield* Effect.fail(
            new ExchangeOutcomeUnknown({
              requestId,
              attempts: n,
              lastError: cause,
              message: `the outcome of exchange ${requestId} is unknown after ${n} attempt(s) (${cause.message}); call exchange again with the same request_id to resume`
            })
          )
        })
      const reconcile = (cause: BusinessClientError) =>
        Effect.gen(function* () {
          const found = yield* Effect.result(d.findTransactionByRequestId(requestId))
          if (Result.isSuccess(found) && Option.isSome(found.success.transaction)) {
            const transaction = found.success.transaction.value
            yield* d.record(d.ledger.complete(requestId, RequestLedger.Outcome.Succeeded({ transaction })), requestId)
            return exchanged(requestId, transaction, found.success)
          }
          return yield* unknown(cause)
        })
      const settle = Effect.gen(function* () {
        const result = yield* Effect.result(Effect.retry(attempt, Http.retrySchedule(d.cfg.exchangeRetry)))
        if (Result.isSuccess(result)) {
          // the transaction exists, whatever its state (one added since included): the request_id is settled
          const transaction = result.success.value
          yield* d.record(d.ledger.complete(requestId, RequestLedger.Outcome.Succeeded({ transaction })), requestId)
          return exchanged(requestId, transaction)
        }
        const failure = result.failure
        const error = d.toError(failure, requestId)
        const code = error.body?.code
        if (code === BusinessApi.ErrorCode.RequestIdConflict) {
          // the server holds this id for another body: it is not ours
          yield* d.record(d.ledger.release(requestId), requestId)
          return yield* Effect.fail(new RequestIdConflict({ requestId, message: error.message }))
        }
        if (code === BusinessApi.ErrorCode.DuplicateRequest) return yield* reconcile(error)
        if (failure.replayed === true && failure.status !== undefined && failure.status >= 400) {
          // the stored refusal of this request_id: the server will answer it again, so keep it (a stored 2xx the
          // client cannot read is a transaction: the lookup below reads it)
          yield* d.record(
            d.ledger.complete(
              requestId,
              RequestLedger.Outcome.Rejected({ status: failure.status, code, message: error.message })
            ),
            requestId
          )
          return yield* Effect.fail(error)
        }
        // a 4xx that refuses this request: 408 and 429 say when to come back, not that it was refused (so a 429 whose
        // Retry-After is over the cap, which is not retried, is no refusal either), 409 that another request holds it
        const refused = failure.status !== undefined && Http.refusesRequest(failure.status)
        if (!refused && (failure.ambiguous || (yield* Ref.get(ambiguous)) > 0)) return yield* reconcile(error)
        // refused before execution (or not processed at all): nothing is stored, the id is free again
        yield* d.record(d.ledger.release(requestId), requestId)
        return yield* Effect.fail(error)
      })
      const settled = yield* Effect.timeoutOption(settle, d.deadline)
      if (Option.isSome(settled)) return settled.value
      const sent = (yield* Ref.get(attempts)) > 0
      const late = d.toError(Http.deadlineFailure(d.deadline, sent), requestId)
      if (sent || earlier) return yield* unknown(late)
      yield* d.record(d.ledger.release(requestId), requestId)
      return yield* Effect.fail(late)
    }).pipe(d.provide, Effect.withSpan("BusinessClient.exchange", undefined, spanOptions))

/** @internal */
export const resumePending =
  (d: Deps, exchange: BusinessClientService["exchange"]): BusinessClientService["resumePending"] =>
  (options) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const before = now - Duration.toMillis(Duration.fromInputUnsafe(options?.olderThan ?? Duration.zero))
      const entries = (yield* d.ledger.pending).filter((e) => e.registeredAt <= before)
      const settle = (entry: RequestLedger.Entry): Effect.Effect<Resumed> =>
        Effect.gen(function* () {
          const requestId = entry.requestId
          const request = RequestLedger.requestOf(entry)
          if (Result.isFailure(request)) {
            return Resumed.Unknown({
              requestId,
              message: `the ledger's body does not decode: ${request.failure.message}`
            })
          }
          const found = yield* Effect.result(d.findTransactionByRequestId(requestId))
          if (Result.isFailure(found)) {
            return Resumed.Unknown({ requestId, message: `the lookup by request_id failed: ${found.failure.message}` })
          }
          const lookup = found.success
          if (Option.isSome(lookup.transaction)) {
            // found in any state, one added since too: the transaction exists, so the request_id is settled
            const transaction = lookup.transaction.value
            yield* d.record(d.ledger.complete(requestId, RequestLedger.Outcome.Succeeded({ transaction })), requestId)
            return Resumed.Found(exchanged(requestId, transaction, lookup))
          }
          const sent = yield* Effect.result(exchange(request.success))
          if (Result.isSuccess(sent)) {
            return Resumed.Sent({ ...sent.success, findings: [...sent.success.findings, ...fromLookup(lookup)] })
          }
          const error = sent.failure
          switch (error._tag) {
            case "BusinessClientError":
            case "RequestIdConflict":
              return Resumed.Refused({ requestId, error })
            case "ExchangeOutcomeUnknown":
            case "RequestLedgerError":
              return Resumed.Unknown({ requestId, message: error.message })
          }
        })
      const results = yield* Effect.forEach(entries, settle, { concurrency: options?.concurrency ?? 4 })
      const count = (tag: Resumed["_tag"]) => results.filter((r) => r._tag === tag).length
      return {
        pending: entries.length,
        found: count("Found"),
        sent: count("Sent"),
        refused: count("Refused"),
        unknown: count("Unknown"),
        results
      }
    }).pipe(Effect.withSpan("BusinessClient.resumePending", undefined, spanOptions))
