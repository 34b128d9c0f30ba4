/**
 * One exchange, exactly once (issue 14): the ledger first, then the attempts with one request_id, and what their
 * answers mean: a transaction, a refusal (replayed: kept in the ledger; fresh: the id is freed), a conflict, or, when
 * the server could not tell, a lookup by request_id and then `ExchangeOutcomeUnknown`. The whole call ends by its
 * deadline.
 *
 * @internal
 */
import type { ExchangeRequest, ExchangeTransaction } from "@payrules/exchange"
import { RequestLedger } from "@payrules/exchange"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as BusinessApi from "../BusinessApi.js"
import { BusinessClientError, ExchangeOutcomeUnknown, RequestIdConflict, toError } from "./businessErrors.js"
import * as Http from "./http.js"

/** @internal */
export interface Deps {
  readonly ledger: RequestLedger.RequestLedgerService
  /** one POST /exchange of the wire body */
  readonly post: (wire: unknown) => Effect.Effect<Http.Answer<ExchangeTransaction.ExchangeTransaction>, Http.Failure>
  readonly findTransactionByRequestId: (
    requestId: string
  ) => Effect.Effect<Option.Option<ExchangeTransaction.ExchangeTransaction>, BusinessClientError>
  readonly retry: Http.RetryPolicy
  readonly deadline: Duration.DurationInput
}

/** @internal */
export const exchange = (
  deps: Deps,
  requestId: string,
  request: ExchangeRequest.ExchangeRequest,
  wire: unknown
): Effect.Effect<
  ExchangeTransaction.ExchangeTransaction,
  BusinessClientError | ExchangeOutcomeUnknown | RequestIdConflict | RequestLedger.RequestLedgerError
> =>
  Effect.gen(function* () {
    const { deadline, findTransactionByRequestId, ledger } = deps
    const registration = yield* ledger.register(request)
    if (registration._tag === "Conflict") {
      return yield* Effect.fail(new RequestIdConflict({ requestId, message: registration.message }))
    }
    if (registration._tag === "Replay" && Option.isSome(registration.outcome)) {
      const known = registration.outcome.value
      if (known._tag === "Succeeded") return known.transaction
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
    const attempts = yield* Ref.make(0)
    const ambiguous = yield* Ref.make(0)
    const attempt = Effect.zipRight(
      Ref.update(attempts, (n) => n + 1),
      deps.post(wire).pipe(Effect.tapError((f) => (f.ambiguous ? Ref.update(ambiguous, (n) => n + 1) : Effect.void)))
    )
    const unknown = (cause: BusinessClientError) =>
      Effect.gen(function* () {
        const n = yield* Ref.get(attempts)
        yield* ledger.complete(requestId, RequestLedger.Outcome.Unknown({ message: cause.message }))
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
        const found = yield* Effect.either(findTransactionByRequestId(requestId))
        if (Either.isRight(found) && Option.isSome(found.right)) {
          yield* ledger.complete(requestId, RequestLedger.Outcome.Succeeded({ transaction: found.right.value }))
          return found.right.value
        }
        return yield* unknown(cause)
      })
    const settle = Effect.gen(function* () {
      const result = yield* Effect.either(Effect.retry(attempt, Http.retrySchedule(deps.retry)))
      if (Either.isRight(result)) {
        yield* ledger.complete(requestId, RequestLedger.Outcome.Succeeded({ transaction: result.right.value }))
        return result.right.value
      }
      const failure = result.left
      const error = toError(failure, requestId)
      const code = error.body?.code
      if (code === BusinessApi.ErrorCode.RequestIdConflict) {
        // the server holds this id for another body: it is not ours
        yield* ledger.release(requestId)
        return yield* Effect.fail(new RequestIdConflict({ requestId, message: error.message }))
      }
      if (code === BusinessApi.ErrorCode.DuplicateRequest) return yield* reconcile(error)
      if (failure.replayed === true && failure.status !== undefined) {
        // the stored result of this request_id: the server will answer it again, so keep it
        yield* ledger.complete(
          requestId,
          RequestLedger.Outcome.Rejected({ status: failure.status, code, message: error.message })
        )
        return yield* Effect.fail(error)
      }
      const refused =
        failure.status !== undefined && failure.status >= 400 && failure.status < 500 && !Http.isRetryable(failure)
      if (!refused && (failure.ambiguous || (yield* Ref.get(ambiguous)) > 0)) return yield* reconcile(error)
      // refused before execution (or not processed at all): nothing is stored, the id is free again
      yield* ledger.release(requestId)
      return yield* Effect.fail(error)
    })
    const settled = yield* Effect.timeoutOption(settle, deadline)
    if (Option.isSome(settled)) return settled.value
    const sent = (yield* Ref.get(attempts)) > 0
    const late = toError(Http.deadlineFailure(deadline, sent), requestId)
    if (sent) return yield* unknown(late)
    yield* ledger.release(requestId)
    return yield* Effect.fail(late)
  })
