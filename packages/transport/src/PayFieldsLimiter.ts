/**
 * The limiter of POST /pay/fields: the API allows 450 requests in any 60-second window per account, and answers 429
 * past that. Every attempt of `BusinessClient.transferFieldRequirements` (retries included) takes a permit first.
 *
 * This module holds the service and its layers. The limiter is effect's `RateLimiter` (`effect/persistence`) with
 * the token bucket of {@link tokenBucketFor}, over a `RateLimiterStore`: {@link layer} keeps the count in process
 * (`RateLimiter.layerStoreMemory`, the default: it counts the requests of one process); {@link layerWithStore}
 * takes any other store, such as `RateLimiter.layerStoreRedis`, which several processes (replicas) that share one
 * account share, with the same guarantee (`@payrules/stores` has such a layer).
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as RateLimiter from "effect/persistence/RateLimiter"

/**
 * A limit: at most `limit` requests in any `window`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Limit {
  readonly limit: number
  readonly window: Duration.Input
}

/**
 * The limit of POST /pay/fields: 450 requests in any 60-second window.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultLimit: Limit = { limit: 450, window: Duration.minutes(1) }

/**
 * The key the limiter counts under in its store when none is given: `"pay-fields"`. Processes whose limiters share
 * a store and a key share the limit.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultKey = "pay-fields"

/**
 * A permit could not be had: the store of the limiter failed (Redis is unreachable, say). Nothing was sent.
 *
 * @since 0.1.0
 * @category errors
 */
export class PayFieldsLimiterError extends Data.TaggedError("PayFieldsLimiterError")<{
  readonly reason: "StoreFailed"
  readonly message: string
  readonly cause?: unknown
}> {}

/**
 * @since 0.1.0
 * @category models
 */
export interface PayFieldsLimiterService {
  /** waits until one more request keeps every window under the limit, and counts it */
  readonly take: Effect.Effect<void, PayFieldsLimiterError>
}

/**
 * @since 0.1.0
 * @category services
 */
export class PayFieldsLimiter extends Context.Service<PayFieldsLimiter, PayFieldsLimiterService>()(
  "@payrules/transport/PayFieldsLimiter"
) {}

/**
 * The parameters of a token bucket that keep at most `limit` requests in any `window`: a small burst `b`, refilled
 * one token every `ceil(window / (limit - b - 1))`. (A bucket of `limit` tokens refilled over the window would start
 * full and let through about twice the limit in the first window.) `limit` and `interval` are the bucket's size and
 * the time it takes to refill entirely (`b` tokens), what `RateLimiter.consume` takes as `limit` and `window`;
 * `worstCase` is the most requests it lets into one window: the burst, plus the refills of one window, plus one
 * refill landing on its edge.
 *
 * @example
 * ```ts
 * import { PayFieldsLimiter } from "@payrules/transport"
 *
 * const bucket = PayFieldsLimiter.tokenBucketFor(450, "1 minute")
 * // bucket.limit === 10, Duration.toMillis(bucket.interval) === 1370, bucket.worstCase === 448
 * ```
 *
 * @since 0.1.0
 * @category rate limits
 */
export const tokenBucketFor = (
  limit: number,
  window: Duration.Input
): { readonly limit: number; readonly interval: Duration.Duration; readonly worstCase: number } => {
  const windowMs = Duration.toMillis(Duration.fromInputUnsafe(window))
  const burst = Math.max(1, Math.floor(limit / 45))
  const millisPerToken = Math.ceil(windowMs / Math.max(1, limit - burst - 1))
  return {
    limit: burst,
    interval: Duration.millis(burst * millisPerToken),
    worstCase: burst + Math.floor(windowMs / millisPerToken) + 1
  }
}

/**
 * What a limiter over a store is told: the limit to keep (default {@link defaultLimit}) and the key it counts
 * under (default {@link defaultKey}; one per account: the API counts per access token).
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly limit?: Limit | undefined
  readonly key?: string | undefined
}

/**
 * The limiter over the `RateLimiterStore` of the context: effect's token-bucket `RateLimiter` with the parameters
 * of {@link tokenBucketFor}, in `delay` mode (a permit waits for its turn, it is never refused); a store that fails
 * fails the permit with a `PayFieldsLimiterError` (`StoreFailed`). Every fiber that uses the service, and every
 * process that shares the store and the key, counts against the same limit.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeWithStore = (
  options?: Options
): Effect.Effect<PayFieldsLimiterService, never, RateLimiter.RateLimiterStore> =>
  Effect.map(RateLimiter.make, (limiter) => {
    const limit = options?.limit ?? defaultLimit
    const bucket = tokenBucketFor(limit.limit, limit.window)
    const permit = RateLimiter.sleep(limiter, {
      algorithm: "token-bucket",
      limit: bucket.limit,
      window: bucket.interval,
      key: options?.key ?? defaultKey
    })
    return {
      take: Effect.asVoid(
        Effect.mapError(
          permit,
          (cause) =>
            new PayFieldsLimiterError({
              reason: "StoreFailed",
              message: `the limit of POST /pay/fields could not be read from its store: ${cause.message}`,
              cause
            })
        )
      )
    }
  })

/**
 * The in-process limiter ({@link makeWithStore} over a store of its own in memory, which reads effect's `Clock`),
 * shared by every fiber that uses it. (It needs no `Scope` any more; an effect that provides one still compiles.)
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (limit: Limit = defaultLimit): Effect.Effect<PayFieldsLimiterService> =>
  Effect.provide(makeWithStore({ limit }), RateLimiter.layerStoreMemory)

/**
 * The in-process limiter as a layer (what `BusinessClient` builds for itself when none is provided).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (limit: Limit = defaultLimit): Layer.Layer<PayFieldsLimiter> =>
  Layer.effect(PayFieldsLimiter, make(limit))

/**
 * The limiter over a store of your choice, such as `RateLimiter.layerStoreRedis()` (with a `Redis` layer), so that
 * several processes keep one limit together.
 *
 * @example
 * ```ts
 * import { PayFieldsLimiter } from "@payrules/transport"
 * import { RateLimiter } from "effect/persistence"
 *
 * // in memory, as PayFieldsLimiter.layer() does; RateLimiter.layerStoreRedis() shares the count between processes
 * const limiter = PayFieldsLimiter.layerWithStore(RateLimiter.layerStoreMemory, { key: "pay-fields:account-1" })
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWithStore = <E, R>(
  store: Layer.Layer<RateLimiter.RateLimiterStore, E, R>,
  options?: Options
): Layer.Layer<PayFieldsLimiter, E, R> =>
  Layer.effect(PayFieldsLimiter, makeWithStore(options)).pipe(Layer.provide(store))
