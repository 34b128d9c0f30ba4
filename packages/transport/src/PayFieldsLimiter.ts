/**
 * The limiter of POST /pay/fields: the API allows 450 requests in any 60-second window per account, and answers 429
 * past that. Every attempt of `BusinessClient.transferFieldRequirements` (retries included) takes a permit first.
 *
 * This module holds the service and its in-process layer, the default: it counts the requests of one process. For
 * several processes (replicas) that share one account, `@payrules/stores` has a layer on Redis that counts them
 * together with the same guarantee.
 *
 * @since 0.2.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as RateLimiter from "effect/RateLimiter"
import type * as Scope from "effect/Scope"

/**
 * A limit: at most `limit` requests in any `window`.
 *
 * @since 0.2.0
 * @category models
 */
export interface Limit {
  readonly limit: number
  readonly window: Duration.DurationInput
}

/**
 * The limit of POST /pay/fields: 450 requests in any 60-second window.
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultLimit: Limit = { limit: 450, window: Duration.minutes(1) }

/**
 * A permit could not be had: the shared store of the limiter failed (Redis is unreachable, say). Nothing was sent.
 *
 * @since 0.2.0
 * @category errors
 */
export class PayFieldsLimiterError extends Data.TaggedError("PayFieldsLimiterError")<{
  readonly reason: "StoreFailed"
  readonly message: string
  readonly cause?: unknown
}> {}

/**
 * @since 0.2.0
 * @category models
 */
export interface PayFieldsLimiterService {
  /** waits until one more request keeps every window under the limit, and counts it */
  readonly take: Effect.Effect<void, PayFieldsLimiterError>
}

/**
 * @since 0.2.0
 * @category tags
 */
export class PayFieldsLimiter extends Context.Tag("@payrules/transport/PayFieldsLimiter")<
  PayFieldsLimiter,
  PayFieldsLimiterService
>() {}

/**
 * The parameters of a token bucket that keep at most `limit` requests in any `window`: a small burst `b`, refilled
 * one token every `ceil(window / (limit - b - 1))`. (A bucket of `limit` tokens refilled over the window would start
 * full and let through about twice the limit in the first window.) `worstCase` is the most requests it lets into one
 * window: the burst, plus the refills of one window, plus one refill landing on its edge.
 *
 * @since 0.2.0
 * @category rate limits
 */
export const tokenBucketFor = (
  limit: number,
  window: Duration.DurationInput
): { readonly limit: number; readonly interval: Duration.Duration; readonly worstCase: number } => {
  const windowMs = Duration.toMillis(Duration.decode(window))
  const burst = Math.max(1, Math.floor(limit / 45))
  const millisPerToken = Math.ceil(windowMs / Math.max(1, limit - burst - 1))
  return {
    limit: burst,
    interval: Duration.millis(burst * millisPerToken),
    worstCase: burst + Math.floor(windowMs / millisPerToken) + 1
  }
}

/**
 * The in-process limiter: effect's token-bucket `RateLimiter` with the parameters of {@link tokenBucketFor}, shared
 * by every fiber that uses it.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (limit: Limit = defaultLimit): Effect.Effect<PayFieldsLimiterService, never, Scope.Scope> =>
  Effect.map(
    RateLimiter.make({ ...tokenBucketFor(limit.limit, limit.window), algorithm: "token-bucket" }),
    (limiter) => ({ take: limiter(Effect.void) })
  )

/**
 * The in-process limiter as a layer (what `BusinessClient` builds for itself when none is provided).
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (limit: Limit = defaultLimit): Layer.Layer<PayFieldsLimiter> =>
  Layer.scoped(PayFieldsLimiter, make(limit))
