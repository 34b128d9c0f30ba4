/**
 * Why a call of a client failed, and what that says: whether the server may have processed it, whether another
 * attempt may help, when to come back.
 *
 * @internal
 */
import { HttpDate } from "@payrules/iso8601"
import * as Duration from "effect/Duration"
import * as Result from "effect/Result"

/**
 * Why a call failed: by HTTP status, or `Decode` (a response that does not match the Schema), `Transport` (no
 * answer: connection refused or dropped, timeout), `ResponseTooLarge` (a body over the size limit, read no further)
 * or `Deadline` (the call's overall deadline passed, all attempts and waits included).
 *
 * @internal
 */
export type Reason =
  | "BadRequest"
  | "Unauthorized"
  | "Forbidden"
  | "NotFound"
  | "MethodNotAllowed"
  | "NotAcceptable"
  | "TooManyRequests"
  | "ServerError"
  | "Decode"
  | "Transport"
  | "ResponseTooLarge"
  | "Deadline"

/** @internal */
export interface Failure {
  readonly reason: Reason
  readonly status: number | undefined
  /** the response body as received, at most {@link maxRawLength} characters of it */
  readonly raw: string | undefined
  /** the body decoded with the family's error Schema, when it matches */
  readonly body: unknown
  readonly retryAfter: Duration.Duration | undefined
  readonly headers: Readonly<Record<string, string>>
  readonly message: string
  /**
   * the server may have processed the request: a timeout, a dropped connection, a 5xx that may come after
   * processing, or a 2xx the client cannot read (it did)
   */
  readonly ambiguous: boolean
  /** the server answered with the stored result of an earlier identical request (`Idempotent-Replayed: true`) */
  readonly replayed?: boolean | undefined
  /** whether another attempt may help, when it is not what {@link isRetryable} says by default */
  readonly retryable?: boolean | undefined
}

/** @internal */
export const reasonOfStatus = (status: number): Reason => {
  switch (status) {
    case 400:
    case 409:
    case 422:
      return "BadRequest"
    case 401:
      return "Unauthorized"
    case 403:
      return "Forbidden"
    case 404:
      return "NotFound"
    case 405:
      return "MethodNotAllowed"
    case 406:
      return "NotAcceptable"
    case 408:
    case 429:
      return "TooManyRequests"
    default:
      return status >= 500 ? "ServerError" : "BadRequest"
  }
}

const retryableStatuses = new Set([408, 429, 500, 502, 503, 504])

/** the reason phrases of RFC 9110 (and 6585's 428, 429, 431), for an answer that says nothing itself */
const phrases: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  426: "Upgrade Required",
  428: "Precondition Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported"
}

/**
 * What a failed answer says, for its message: its own text, or when it sent none (a 431 from Node's parser, a proxy's
 * bare 502) the status's reason phrase.
 *
 * @internal
 */
export const detailOf = (status: number, text: string): string =>
  text.trim() !== "" ? text : `${phrases[status] ?? "no message"} (the answer has no body)`

/**
 * Transport failures, 408, 429, 500, 502, 503 and 504 are worth another attempt; a replayed answer is not (the server
 * would replay it again), nor one whose `Retry-After` is longer than the client waits.
 *
 * @internal
 */
export const isRetryable = (f: Failure): boolean =>
  f.retryable ??
  (f.replayed !== true && (f.reason === "Transport" || (f.status !== undefined && retryableStatuses.has(f.status))))

/**
 * A 4xx that refuses the request itself (its body, its credentials, its target): every one but 408 and 429, which
 * say when to come back rather than that the request was refused, however long the wait they ask for, and 409, a
 * conflict with the resource's current state (what a server with idempotency keys answers while another request with
 * the same key is in flight).
 *
 * @internal
 */
export const refusesRequest = (status: number): boolean =>
  status >= 400 && status < 500 && status !== 409 && !retryableStatuses.has(status)

/** At most this much of a raw body is kept in an error (4 KiB of text). @internal */
export const maxRawLength = 4096

/** A raw body cut to {@link maxRawLength} characters, saying how much was cut. @internal */
export const clip = (text: string): string =>
  text.length <= maxRawLength
    ? text
    : `${text.slice(0, maxRawLength)}... (${text.length - maxRawLength} more characters)`

/** The header by which a server says that an answer is the stored result of an earlier identical request. @internal */
export const replayedHeader = "idempotent-replayed"

/**
 * `Retry-After` in seconds or as an HTTP date, in any of the three forms a recipient must read (RFC 9110 section
 * 5.6.7: the IMF-fixdate, and the obsolete RFC 850 and asctime forms). @internal
 */
export const retryAfterOf = (value: string | undefined, now: number): Duration.Duration | undefined => {
  if (value === undefined || value.trim() === "") return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Duration.seconds(Number(trimmed))
  return Result.match(HttpDate.parseReceived(trimmed, now), {
    onFailure: () => undefined,
    onSuccess: (date) => Duration.millis(Math.max(0, date.epochMilliseconds - now))
  })
}

/**
 * 5xx but 501 (not implemented) and 503 (unavailable: not processed): the request may have been processed.
 *
 * @internal
 */
export const ambiguousStatus = (status: number) => status >= 500 && status !== 501 && status !== 503

/**
 * A failure of the whole call: its deadline passed (all attempts and waits included).
 *
 * @internal
 */
export const deadlineFailure = (deadline: Duration.Input, ambiguous: boolean): Failure => ({
  reason: "Deadline",
  status: undefined,
  raw: undefined,
  body: undefined,
  retryAfter: undefined,
  headers: {},
  message: `the call did not finish within its deadline of ${Duration.format(Duration.fromInputUnsafe(deadline))}`,
  ambiguous,
  retryable: false
})
