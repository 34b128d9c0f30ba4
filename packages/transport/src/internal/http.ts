/**
 * One HTTP exchange of a client: send, read the status and the body (up to a size limit), decode the success body
 * with the operation's Schema, or classify the failure. Retries (with `Retry-After` up to a cap), deadlines, rate
 * limits and idempotency are layered on top, per operation.
 *
 * @internal
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as UrlParams from "@effect/platform/UrlParams"
import { HttpDate } from "@payrules/iso8601"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import type * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"

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
  /** a timeout or a dropped connection: the server may have processed the request */
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

/**
 * Transport failures, 408, 429, 500, 502, 503 and 504 are worth another attempt; a replayed answer is not (the server
 * would replay it again), nor one whose `Retry-After` is longer than the client waits.
 *
 * @internal
 */
export const isRetryable = (f: Failure): boolean =>
  f.retryable ??
  (f.replayed !== true && (f.reason === "Transport" || (f.status !== undefined && retryableStatuses.has(f.status))))

/** At most this much of a raw body is kept in an error (4 KiB of text). @internal */
export const maxRawLength = 4096

const clip = (text: string): string =>
  text.length <= maxRawLength
    ? text
    : `${text.slice(0, maxRawLength)}... (${text.length - maxRawLength} more characters)`

/** The default size limit of a response body: 1 MiB. @internal */
export const defaultMaxResponseBytes = 1_048_576

/** The longest `Retry-After` a client waits by default: 60 s. @internal */
export const defaultMaxRetryAfter: Duration.Duration = Duration.seconds(60)

/** The default deadline of one call, all attempts and waits included: 2 minutes. @internal */
export const defaultDeadline: Duration.Duration = Duration.minutes(2)

/** The header by which a server says that an answer is the stored result of an earlier identical request. @internal */
export const replayedHeader = "idempotent-replayed"

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
  /** the server answered with the stored result of an earlier identical request */
  readonly replayed: boolean
}

type Body = { readonly _tag: "Text"; readonly text: string } | { readonly _tag: "TooLarge"; readonly head: string }

/**
 * The body as text, reading no more than `limit` bytes: a `Content-Length` over the limit is refused before reading,
 * and a body without one is read chunk by chunk until it passes the limit.
 */
const readBody = <E>(
  response: HttpClientResponse.HttpClientResponse,
  limit: number,
  onError: (e: unknown) => E
): Effect.Effect<Body, E> => {
  const declared = response.headers["content-length"]
  if (declared !== undefined && /^\d+$/.test(declared)) {
    return Number(declared) > limit
      ? Effect.succeed({ _tag: "TooLarge", head: "" })
      : Effect.mapBoth(response.text, { onFailure: onError, onSuccess: (text) => ({ _tag: "Text", text }) })
  }
  return Effect.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let size = 0
    let over = false
    return Stream.runForEachWhile(response.stream, (chunk) =>
      Effect.sync(() => {
        size += chunk.length
        if (size > limit) over = true
        else chunks.push(chunk)
        return !over
      })
    ).pipe(
      Effect.zipRight(
        Effect.suspend(() => Stream.runFold(Stream.decodeText(Stream.fromIterable(chunks)), "", (a, b) => a + b))
      ),
      Effect.mapError(onError),
      Effect.map(
        (text): Body => (over ? { _tag: "TooLarge", head: text.slice(0, maxRawLength) } : { _tag: "Text", text })
      )
    )
  })
}

/**
 * Sends one request and decodes the answer. A 2xx body is decoded with `success`; any other status is a `Failure`
 * with the raw body (at most {@link maxRawLength} characters) and, when it matches, the body decoded with
 * `errorBody`. A body over `maxResponseBytes` (default 1 MiB) is a `ResponseTooLarge` failure, read no further; a
 * `Retry-After` over `maxRetryAfter` (default 60 s) makes the failure final. Never throws: a body that is not JSON or
 * does not match is a `Decode` failure with the path and the message of the first issue.
 *
 * @internal
 */
export const send = <A, I, EA, EI>(
  request: HttpClientRequest.HttpClientRequest,
  options: {
    readonly timeout: Duration.DurationInput
    readonly success: Schema.Schema<A, I, never>
    readonly errorBody: Schema.Schema<EA, EI, never>
    readonly maxResponseBytes?: number | undefined
    readonly maxRetryAfter?: Duration.DurationInput | undefined
  }
): Effect.Effect<Answer<A>, Failure, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const limit = options.maxResponseBytes ?? defaultMaxResponseBytes
    const transport = (message: string, sent = true): Failure => ({
      reason: "Transport",
      status: undefined,
      raw: undefined,
      body: undefined,
      retryAfter: undefined,
      headers: {},
      message,
      // a request that never left (a URL that does not parse, a body that does not encode) was not processed
      ambiguous: sent,
      retryable: sent
    })
    const received = yield* client.execute(request).pipe(
      Effect.flatMap((response) =>
        Effect.map(
          readBody(response, limit, (e) => transport(`the response could not be read: ${String(e)}`)),
          (body) => ({ response, body })
        )
      ),
      Effect.scoped,
      Effect.timeoutFail({
        duration: options.timeout,
        onTimeout: () => transport(`no answer within ${Duration.format(Duration.decode(options.timeout))}`)
      }),
      Effect.catchAll((e) =>
        Effect.fail(
          "reason" in e && e.reason === "Transport" && "ambiguous" in e
            ? e
            : transport(
                `the request failed: ${e.message}`,
                !("_tag" in e && e._tag === "RequestError" && (e.reason === "InvalidUrl" || e.reason === "Encode"))
              )
        )
      )
    )
    const { response, body: read } = received
    const headers = response.headers as Readonly<Record<string, string>>
    const replayed = headers[replayedHeader]?.trim().toLowerCase() === "true"
    // the server processed the request: a success, or a server error that may come after processing
    const processed = (response.status >= 200 && response.status < 300) || ambiguousStatus(response.status)
    if (read._tag === "TooLarge") {
      return yield* Effect.fail<Failure>({
        reason: "ResponseTooLarge",
        status: response.status,
        raw: read.head === "" ? undefined : read.head,
        body: undefined,
        retryAfter: undefined,
        headers,
        message: `${response.status}: the response body is larger than ${limit} bytes${
          headers["content-length"] === undefined ? "" : ` (Content-Length ${headers["content-length"]})`
        }; it was not read`,
        ambiguous: processed,
        replayed,
        retryable: false
      })
    }
    const text = read.text
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
        raw: clip(text),
        body: undefined,
        retryAfter: undefined,
        headers,
        message,
        ambiguous: false,
        replayed
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
      return { value: decoded.right, status: response.status, headers, replayed }
    }
    const now = yield* Clock.currentTimeMillis
    const body = parsed ? Option.getOrUndefined(Schema.decodeUnknownOption(options.errorBody)(json)) : undefined
    const detail =
      typeof body === "object" && body !== null && "message" in body && typeof body.message === "string"
        ? body.message
        : typeof body === "object" && body !== null && "Message" in body && typeof body.Message === "string"
          ? body.Message
          : text.slice(0, 200)
    const retryAfter = retryAfterOf(headers["retry-after"], now)
    const cap = Duration.decode(options.maxRetryAfter ?? defaultMaxRetryAfter)
    const tooLong = retryAfter !== undefined && Duration.greaterThan(retryAfter, cap)
    return yield* Effect.fail<Failure>({
      reason: reasonOfStatus(response.status),
      status: response.status,
      raw: clip(text),
      body,
      retryAfter,
      headers,
      message: tooLong
        ? `${response.status}: ${detail}; the server asks to wait ${Duration.format(retryAfter)}, longer than this client waits (maxRetryAfter ${Duration.format(cap)})`
        : `${response.status}: ${detail}`,
      ambiguous: !replayed && ambiguousStatus(response.status),
      replayed,
      ...(tooLong ? { retryable: false } : {})
    })
  })

/** 5xx but 501 (not implemented) and 503 (unavailable: not processed): the request may have been processed */
const ambiguousStatus = (status: number) => status >= 500 && status !== 501 && status !== 503

/**
 * A failure of the whole call: its deadline passed (all attempts and waits included).
 *
 * @internal
 */
export const deadlineFailure = (deadline: Duration.DurationInput, ambiguous: boolean): Failure => ({
  reason: "Deadline",
  status: undefined,
  raw: undefined,
  body: undefined,
  retryAfter: undefined,
  headers: {},
  message: `the call did not finish within its deadline of ${Duration.format(Duration.decode(deadline))}`,
  ambiguous,
  retryable: false
})

/**
 * Bounds a whole call (every attempt and every wait) by its deadline.
 *
 * @internal
 */
export const withDeadline = <A, R>(
  self: Effect.Effect<A, Failure, R>,
  deadline: Duration.DurationInput | undefined
): Effect.Effect<A, Failure, R> =>
  Effect.timeoutFail(self, {
    duration: deadline ?? defaultDeadline,
    onTimeout: () => deadlineFailure(deadline ?? defaultDeadline, true)
  })

/**
 * The base URL of a client, checked when the client is built: an absolute `http:` or `https:` URL without
 * credentials, query or fragment. Answers it without a trailing slash, or a `ConfigError` at `baseUrl`.
 *
 * @internal
 */
export const parseBaseUrl = (raw: string): Effect.Effect<string, ConfigError.ConfigError> => {
  const refuse = (why: string) =>
    Effect.fail(ConfigError.InvalidData(["baseUrl"], `${JSON.stringify(raw.slice(0, 200))} is not a base URL: ${why}`))
  if (Either.isLeft(UrlParams.makeUrl(raw, [], Option.none()))) return refuse("it does not parse as a URL")
  const parts = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)([?#].*)?$/.exec(raw)
  if (parts === null) return refuse("it is not an absolute URL")
  const scheme = parts[1]!.toLowerCase()
  if (scheme !== "http" && scheme !== "https") return refuse(`the scheme is ${scheme}, not http or https`)
  if (parts[2]!.includes("@")) return refuse("it carries credentials (pass the token separately)")
  if (parts[4] !== undefined) return refuse("it has a query or a fragment")
  return Effect.succeed(raw.replace(/\/+$/, ""))
}

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
  /** the longest `Retry-After` to wait for (default 60 s); a longer one fails the call at once */
  readonly maxRetryAfter?: Duration.DurationInput | undefined
  /** the deadline of one call, all attempts and waits included (default 2 minutes) */
  readonly deadline?: Duration.DurationInput | undefined
  /** the largest response body read (default 1 MiB); a larger one is a `ResponseTooLarge` failure */
  readonly maxResponseBytes?: number | undefined
}

/**
 * What every client reads from its environment prefix: `BASE_URL`, `TOKEN` (redacted), `TIMEOUT`, `MAX_ATTEMPTS`,
 * `DEADLINE`, `MAX_RETRY_AFTER` and `MAX_RESPONSE_BYTES`, with the defaults above.
 *
 * @internal
 */
export const connectionConfig = Config.all({
  baseUrl: Config.string("BASE_URL"),
  token: Config.redacted("TOKEN"),
  timeout: Config.duration("TIMEOUT").pipe(Config.withDefault(defaultTimeout)),
  maxAttempts: Config.integer("MAX_ATTEMPTS").pipe(Config.withDefault(defaultRetry.maxAttempts)),
  deadline: Config.duration("DEADLINE").pipe(Config.withDefault(defaultDeadline)),
  maxRetryAfter: Config.duration("MAX_RETRY_AFTER").pipe(Config.withDefault(defaultMaxRetryAfter)),
  maxResponseBytes: Config.integer("MAX_RESPONSE_BYTES").pipe(Config.withDefault(defaultMaxResponseBytes))
})

/**
 * Exponential backoff with jitter, capped, for at most `maxAttempts - 1` retries of retryable failures, and never
 * sooner than the server's `Retry-After` nor than `minSpacing`. (A `Retry-After` longer than the client's cap makes
 * the failure not retryable in {@link send}.)
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
