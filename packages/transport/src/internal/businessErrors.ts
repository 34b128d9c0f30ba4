/**
 * The errors of the business client.
 *
 * @internal
 */
import * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import type * as BusinessApi from "../BusinessApi.js"
import type * as Http from "./http.js"

/**
 * A failed business call: the reason, the HTTP status, the raw and the decoded error body, and the request_id of an
 * exchange. The access token is never part of it.
 *
 * @since 0.1.0
 * @category errors
 */
export class BusinessClientError extends Data.TaggedError("BusinessClientError")<{
  readonly reason: Http.Reason
  readonly status: number | undefined
  readonly raw: string | undefined
  /** the body decoded as `{ code, message, error_id? }`, when it has that shape */
  readonly body: typeof BusinessApi.BusinessErrorBody.Type | undefined
  readonly requestId: string | undefined
  /** the server's `Retry-After`, also when it was longer than the client waits (`maxRetryAfter`) */
  readonly retryAfter: Duration.Duration | undefined
  /** the server answered with the stored result of an earlier identical request (`Idempotent-Replayed: true`) */
  readonly replayed: boolean
  readonly message: string
}> {}

/**
 * The server could not tell what became of an exchange: every attempt ended without an answer (a timeout, a dropped
 * connection, a 5xx that may come after processing, the call's deadline), or with answers that say nothing about the
 * earlier attempts (429, 503), and the lookup by request_id found no transaction either. Resume by calling
 * `exchange` again with the same request, `request_id` included: the server executes a request_id at most once and
 * replays its result, so the resumed call gets the transaction, or the refusal, or executes it now, never twice;
 * once the faults stop, one call settles it.
 *
 * @since 0.1.0
 * @category errors
 */
export class ExchangeOutcomeUnknown extends Data.TaggedError("ExchangeOutcomeUnknown")<{
  readonly requestId: string
  readonly attempts: number
  readonly lastError: BusinessClientError
  readonly message: string
}> {}

/**
 * The request_id was used before for a different exchange: refused before anything is sent (D5) when the client's
 * ledger knows it, otherwise answered so by the server (code 3021).
 *
 * @since 0.1.0
 * @category errors
 */
export class RequestIdConflict extends Data.TaggedError("RequestIdConflict")<{
  readonly requestId: string
  readonly message: string
}> {}

/** a request the client refused to send (it breaks a rule of its Schema): a `BadRequest` without a status. @internal */
export const notSent = (requestId: string | undefined, message: string): BusinessClientError =>
  new BusinessClientError({
    reason: "BadRequest",
    status: undefined,
    raw: undefined,
    body: undefined,
    requestId,
    retryAfter: undefined,
    replayed: false,
    message
  })

/** a failure of the HTTP layer as the business client's error. @internal */
export const toError = (failure: Http.Failure, requestId?: string): BusinessClientError =>
  new BusinessClientError({
    reason: failure.reason,
    status: failure.status,
    raw: failure.raw,
    body: failure.body as BusinessClientError["body"],
    requestId,
    retryAfter: failure.retryAfter,
    replayed: failure.replayed === true,
    message: failure.message
  })
