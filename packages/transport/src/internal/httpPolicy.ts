/**
 * How a client calls: its connection settings, retries (with `Retry-After` up to a cap), the deadline of a call and
 * the check of its base URL.
 *
 * @internal
 */
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Url from "effect/http/Url"
import * as UrlParams from "effect/http/UrlParams"
import type * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import type * as Tracer from "effect/Tracer"
import { deadlineFailure, type Failure, isRetryable } from "./httpFailure.js"

/** The default size limit of a response body: 1 MiB. @internal */
export const defaultMaxResponseBytes = 1_048_576

/** The longest `Retry-After` a client waits by default: 60 s. @internal */
export const defaultMaxRetryAfter: Duration.Duration = Duration.seconds(60)

/** The default deadline of one call, all attempts and waits included: 2 minutes. @internal */
export const defaultDeadline: Duration.Duration = Duration.minutes(2)

/**
 * Bounds a whole call (every attempt and every wait) by its deadline.
 *
 * @internal
 */
export const withDeadline = <A, R>(
  self: Effect.Effect<A, Failure, R>,
  deadline: Duration.Input | undefined
): Effect.Effect<A, Failure, R> =>
  Effect.timeoutOrElse(self, {
    duration: deadline ?? defaultDeadline,
    orElse: () => Effect.fail(deadlineFailure(deadline ?? defaultDeadline, true))
  })

/**
 * The base URL of a client, checked when the client is built: an absolute `http:` or `https:` URL without
 * credentials, query or fragment. Answers it without a trailing slash, or a `ConfigError` whose issue is at
 * `baseUrl`.
 *
 * @internal
 */
export const parseBaseUrl = (raw: string): Effect.Effect<string, Config.ConfigError> => {
  const refuse = (why: string) =>
    Effect.fail(
      new Config.ConfigError(
        new Schema.SchemaError(
          new SchemaIssue.Pointer(
            ["baseUrl"],
            new SchemaIssue.InvalidValue({
              message: `${JSON.stringify(raw.slice(0, 200))} is not a base URL: ${why}`
            })
          )
        )
      )
    )
  if (Result.isFailure(Url.make(raw, UrlParams.empty, undefined))) return refuse("it does not parse as a URL")
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
  readonly baseDelay: Duration.Input
  /** the longest backoff (default 5 s) */
  readonly maxDelay: Duration.Input
  /** the shortest time between two attempts, whatever the backoff (default 0) */
  readonly minSpacing: Duration.Input
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
  readonly timeout: Duration.Input
  /** retries of the calls: 3 attempts, 0.5 s doubling to 5 s, with jitter */
  readonly retry: RetryPolicy
  /** the longest `Retry-After` to wait for (default 60 s); a longer one fails the call at once */
  readonly maxRetryAfter?: Duration.Input | undefined
  /** the deadline of one call, all attempts and waits included (default 2 minutes) */
  readonly deadline?: Duration.Input | undefined
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
  baseUrl: Config.String("BASE_URL"),
  token: Config.Redacted("TOKEN"),
  timeout: Config.Duration("TIMEOUT").pipe(Config.withDefault(defaultTimeout)),
  maxAttempts: Config.Int("MAX_ATTEMPTS").pipe(Config.withDefault(defaultRetry.maxAttempts)),
  deadline: Config.Duration("DEADLINE").pipe(Config.withDefault(defaultDeadline)),
  maxRetryAfter: Config.Duration("MAX_RETRY_AFTER").pipe(Config.withDefault(defaultMaxRetryAfter)),
  maxResponseBytes: Config.Int("MAX_RESPONSE_BYTES").pipe(Config.withDefault(defaultMaxResponseBytes))
})

/**
 * Exponential backoff with jitter, capped, for at most `maxAttempts - 1` retries of retryable failures, and never
 * sooner than the server's `Retry-After` nor than `minSpacing`. (A `Retry-After` longer than the client's cap makes
 * the failure not retryable in {@link send}.)
 *
 * @internal
 */
export const retrySchedule = (policy: RetryPolicy): Schedule.Schedule<Duration.Duration, Failure> => {
  const maxDelay = Duration.fromInputUnsafe(policy.maxDelay)
  const minSpacing = Duration.fromInputUnsafe(policy.minSpacing)
  return Schedule.exponential(policy.baseDelay, 2).pipe(
    Schedule.setInputType<Failure>(),
    Schedule.jittered,
    Schedule.modifyDelay(({ duration }) => Effect.succeed(Duration.min(duration, maxDelay))),
    Schedule.upTo({ times: Math.max(0, policy.maxAttempts - 1) }),
    Schedule.while(({ input }) => isRetryable(input)),
    Schedule.modifyDelay(({ duration, input }) =>
      Effect.succeed(Duration.max(Duration.max(duration, input.retryAfter ?? Duration.zero), minSpacing))
    )
  )
}

/**
 * The trace options of the clients' spans (`Effect.withSpan`'s third argument): no stack trace captured per call (an `Error().stack` costs more than the rest
 * of the client's work on a request); the operation's name says where it comes from.
 *
 * @internal
 */
export const spanOptions: Tracer.TraceOptions = { captureStackTrace: false }
