/**
 * One HTTP exchange of a client: send, read the status and the whole body, decode the success body with the
 * operation's Schema, or classify the failure. Retries, rate limits and idempotency are layered on top, per
 * operation.
 *
 * @internal
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { HttpDate } from "@payrules/iso8601"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import type * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"

/**
 * Why a call failed: by HTTP status, or `Decode` (a response that does not match the Schema), or `Transport` (no
 * answer: connection refused or dropped, timeout).
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

/** @internal */
export interface Failure {
  readonly reason: Reason
  readonly status: number | undefined
  /** the response body as received */
  readonly raw: string | undefined
  /** the body decoded with the family's error Schema, when it matches */
  readonly body: unknown
  readonly retryAfter: Duration.Duration | undefined
  readonly headers: Readonly<Record<string, string>>
  readonly message: string
  /** a timeout or a dropped connection: the server may have processed the request */
  readonly ambiguous: boolean
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

/** Transport failures, 408, 429, 500, 502, 503 and 504 are worth another attempt. @internal */
export const isRetryable = (f: Failure): boolean =>
  f.reason === "Transport" || (f.status !== undefined && retryableStatuses.has(f.status))

/** `Retry-After` in seconds or as an HTTP date. @internal */
export const retryAfterOf = (value: string | undefined, now: number): Duration.Duration | undefined => {
  if (value === undefined || value.trim() === "") return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Duration.seconds(Number(trimmed))
  return Either.match(HttpDate.parse(trimmed), {
    onLeft: () => undefined,
    onRight: (date) => Duration.millis(Math.max(0, date.epochMillis - now))
  })
}

/** @internal */
export interface Answer<A> {
  readonly value: A
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
}

/**
 * Sends one request and decodes the answer. A 2xx body is decoded with `success`; any other status is a `Failure`
 * with the raw body and, when it matches, the body decoded with `errorBody`. Never throws: a body that is not JSON
 * or does not match is a `Decode` failure with the path and the message of the first issue.
 *
 * @internal
 */
export const send = <A, I, EA, EI>(
  request: HttpClientRequest.HttpClientRequest,
  options: {
    readonly timeout: Duration.DurationInput
    readonly success: Schema.Schema<A, I, never>
    readonly errorBody: Schema.Schema<EA, EI, never>
  }
): Effect.Effect<Answer<A>, Failure, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const transport = (message: string): Failure => ({
      reason: "Transport",
      status: undefined,
      raw: undefined,
      body: undefined,
      retryAfter: undefined,
      headers: {},
      message,
      ambiguous: true
    })
    const received = yield* client.execute(request).pipe(
      Effect.flatMap((response) => Effect.map(response.text, (text) => ({ response, text }))),
      Effect.scoped,
      Effect.timeoutFail({
        duration: options.timeout,
        onTimeout: () => transport(`no answer within ${Duration.format(Duration.decode(options.timeout))}`)
      }),
      Effect.catchAll((e) =>
        Effect.fail(
          "reason" in e && e.reason === "Transport" && "ambiguous" in e
            ? e
            : transport(`the request failed: ${e.message}`)
        )
      )
    )
    const { response, text } = received
    const headers = response.headers as Readonly<Record<string, string>>
    let json: unknown
    let parsed = true
    try {
      json = text === "" ? undefined : JSON.parse(text)
    } catch {
      parsed = false
    }
    if (response.status >= 200 && response.status < 300) {
      const undecodable = (message: string): Failure => ({
        reason: "Decode",
        status: response.status,
        raw: text,
        body: undefined,
        retryAfter: undefined,
        headers,
        message,
        ambiguous: false
      })
      if (!parsed) return yield* Effect.fail(undecodable("the response body is not JSON"))
      const decoded = Schema.decodeUnknownEither(options.success)(json, { errors: "all" })
      if (Either.isLeft(decoded)) {
        const issue = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)[0]
        return yield* Effect.fail(
          undecodable(
            `the response does not match the schema at ${
              issue === undefined || issue.path.length === 0 ? "(body)" : issue.path.map(String).join(".")
            }: ${issue?.message ?? decoded.left.message}`
          )
        )
      }
      return { value: decoded.right, status: response.status, headers }
    }
    const now = yield* Clock.currentTimeMillis
    const body = parsed ? Option.getOrUndefined(Schema.decodeUnknownOption(options.errorBody)(json)) : undefined
    const detail =
      typeof body === "object" && body !== null && "message" in body && typeof body.message === "string"
        ? body.message
        : typeof body === "object" && body !== null && "Message" in body && typeof body.Message === "string"
          ? body.Message
          : text.slice(0, 200)
    return yield* Effect.fail<Failure>({
      reason: reasonOfStatus(response.status),
      status: response.status,
      raw: text,
      body,
      retryAfter: retryAfterOf(headers["retry-after"], now),
      headers,
      message: `${response.status}: ${detail}`,
      ambiguous: response.status >= 500 && response.status !== 501 && response.status !== 503
    })
  })

/**
 * Retry settings of one operation.
 *
 * @internal
 */
export interface RetryPolicy {
  /** attempts in all, the first included (default 3) */
  readonly maxAttempts: number
  /** the first backoff (default 0.5 s), doubling */
  readonly baseDelay: Duration.DurationInput
  /** the longest backoff (default 5 s) */
  readonly maxDelay: Duration.DurationInput
  /** the shortest time between two attempts, whatever the backoff (default 0) */
  readonly minSpacing: Duration.DurationInput
}

/**
 * The retry policy every client starts from: three attempts, backoff from 0.5 s doubling up to 5 s.
 *
 * @internal
 */
export const defaultRetry: RetryPolicy = {
  maxAttempts: 3,
  baseDelay: Duration.millis(500),
  maxDelay: Duration.seconds(5),
  minSpacing: Duration.zero
}

/**
 * The per-request timeout every client starts from.
 *
 * @internal
 */
export const defaultTimeout: Duration.Duration = Duration.seconds(10)

/**
 * Where and how every client connects.
 *
 * @internal
 */
export interface Connection {
  readonly baseUrl: string
  readonly token: Redacted.Redacted<string>
  /** the timeout of one attempt (default 10 s) */
  readonly timeout: Duration.DurationInput
  /** retries of the calls: 3 attempts, 0.5 s doubling to 5 s, with jitter */
  readonly retry: RetryPolicy
}

/**
 * What every client reads from its environment prefix: `BASE_URL`, `TOKEN` (redacted), `TIMEOUT` and
 * `MAX_ATTEMPTS`, with the defaults above.
 *
 * @internal
 */
export const connectionConfig = Config.all({
  baseUrl: Config.string("BASE_URL"),
  token: Config.redacted("TOKEN"),
  timeout: Config.duration("TIMEOUT").pipe(Config.withDefault(defaultTimeout)),
  maxAttempts: Config.integer("MAX_ATTEMPTS").pipe(Config.withDefault(defaultRetry.maxAttempts))
})

/**
 * Exponential backoff with jitter, capped, for at most `maxAttempts - 1` retries of retryable failures, and never
 * sooner than the server's `Retry-After` nor than `minSpacing`.
 *
 * @internal
 */
export const retrySchedule = (policy: RetryPolicy) =>
  Schedule.exponential(policy.baseDelay, 2).pipe(
    Schedule.jittered,
    Schedule.modifyDelay((_, delay) => Duration.min(delay, Duration.decode(policy.maxDelay))),
    Schedule.intersect(Schedule.recurs(Math.max(0, policy.maxAttempts - 1))),
    Schedule.intersect(Schedule.identity<Failure>()),
    Schedule.whileInput(isRetryable),
    Schedule.modifyDelay(([, failure], delay) =>
      Duration.max(Duration.max(delay, failure.retryAfter ?? Duration.zero), Duration.decode(policy.minSpacing))
    )
  )

/**
 * The options of the clients' spans: no stack trace captured per call (an `Error().stack` costs more than the rest
 * of the client's work on a request); the operation's name says where it comes from.
 *
 * @internal
 */
export const spanOptions = { captureStackTrace: false } as const
