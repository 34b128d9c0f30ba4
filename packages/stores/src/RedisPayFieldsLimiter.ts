/**
 * The limit of POST /pay/fields shared by every process that uses one Redis: a `PayFieldsLimiter` (the service of
 * `@payrules/transport`) on effect's `RateLimiter` (`effect/persistence`) with its Redis store, over
 * `@effect/platform-node`'s `NodeRedis` (the `redis` client). Replicas of a service that share an account share its
 * limit: together they never send more than 450 requests in any 60-second window, where three in-process limiters
 * would send up to 1,350.
 *
 * The store's `fixed-window` algorithm in `delay` mode, with a small limit `b` over a short window `b × r`, gives the
 * k-th request of a run the slot `T0 + floor((k - 1) / b) × b × r` (T0: the first request of the run, on Redis's
 * clock) and lets it go at that slot or when it comes, whichever is later; a run ends when Redis expires the key,
 * `r` after the last slot. So each request goes no later than `T0 + (k - 1) × r`, the points `T0 + (k - 1) × r` of
 * all requests (of one run, then of the next) are at least `r` apart, and each request goes at most `(b - 1) × r`
 * before its point. A window of length `W` at the server, where requests arrive up to `D` after they go, therefore
 * holds at most `ceil((W + D) / r) + b - 1` of them. {@link parametersFor} picks `b = max(1, floor(limit / 45))` and
 * the smallest whole `r` for which that count stays within the limit when `D` is at most `margin`: 10 requests
 * every 1,390 ms (`r` = 139 ms) for 450 per minute with a 1-second margin, at most 448 in any window, 431 a minute
 * in a steady stream. The slots are counted by Redis (its key's time to live), so the processes' clocks need not
 * agree; only their waits are measured locally. (`PayFieldsLimiter.layerWithStore(RateLimiter.layerStoreRedis())`
 * of `@payrules/transport` shares a limit through Redis too, with a token bucket; that bucket reads each process's
 * clock and leaves no margin for the time between a permit and the request's arrival, which this limiter covers.)
 *
 * @since 0.1.0
 */
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import * as PayFieldsLimiter from "@payrules/transport/PayFieldsLimiter"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as RateLimiter from "effect/persistence/RateLimiter"
import * as Redis from "effect/persistence/Redis"
import * as Redacted from "effect/Redacted"
import type { RedisClientOptions } from "redis"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** `redis://[user:password@]host:port[/db]` (a `Redacted` keeps the password out of logs) */
  readonly url: string | Redacted.Redacted
  /** the limit to keep (default 450 in any 60 s, the limit of POST /pay/fields) */
  readonly limit?: PayFieldsLimiter.Limit | undefined
  /**
   * the most time between a permit and the request's arrival at the server that the limit allows for (default 1
   * second): the network, a busy event loop, a garbage collection
   */
  readonly margin?: Duration.Input | undefined
  /**
   * the counter's name: one per account (the API counts per access token). Processes with the same key share the
   * limit (default `"pay-fields"`)
   */
  readonly key?: string | undefined
  /** the prefix of the counter's Redis key (default `"payrules:ratelimit:"`) */
  readonly prefix?: string | undefined
}

/**
 * The default margin: 1 second.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMargin: Duration.Duration = Duration.seconds(1)

/**
 * The parameters of the Redis limiter for a limit and a margin (see the module's documentation for the proof):
 * `burst` requests per slot of `burst × refillMillis`, and the most requests a window of the limit can hold at the
 * server when requests arrive at most `margin` after their permit (`worstCase`, never more than `limit`).
 *
 * @example
 * ```ts
 * import { RedisPayFieldsLimiter } from "@payrules/stores"
 *
 * const p = RedisPayFieldsLimiter.parametersFor({ limit: 450, window: "1 minute" })
 * // p.burst === 10, p.refillMillis === 139, p.worstCase === 448
 * ```
 *
 * @since 0.1.0
 * @category rate limits
 */
export const parametersFor = (
  limit: PayFieldsLimiter.Limit,
  margin: Duration.Input = defaultMargin
): {
  readonly burst: number
  readonly refillMillis: number
  readonly window: Duration.Duration
  readonly worstCase: number
} => {
  const windowMs = Duration.toMillis(limit.window)
  const marginMs = Duration.toMillis(margin)
  const burst = Math.max(1, Math.min(Math.floor(limit.limit / 45), limit.limit))
  const refillMillis = Math.max(1, Math.ceil((windowMs + marginMs) / Math.max(1, limit.limit - burst + 1)))
  return {
    burst,
    refillMillis,
    window: Duration.millis(burst * refillMillis),
    worstCase: Math.ceil((windowMs + marginMs) / refillMillis) + burst - 1
  }
}

/**
 * The options of the `redis` client (`createClient`, what `NodeRedis.layer` takes) for a `redis://` or `rediss://`
 * URL: a connection that gives up after 5 seconds, and commands that fail at once while the connection is down (the
 * client reconnects meanwhile), so a Redis that is down fails a permit instead of queueing it for ever.
 *
 * @since 0.1.0
 * @category constructors
 */
export const redisOptions = (url: string | Redacted.Redacted): RedisClientOptions => ({
  url: Redacted.isRedacted(url) ? Redacted.value(url) : url,
  socket: { connectTimeout: 5_000 },
  disableOfflineQueue: true
})

/** the URL with its password masked, for messages */
const masked = (url: string | Redacted.Redacted): string => {
  try {
    const parsed = new URL(Redacted.isRedacted(url) ? Redacted.value(url) : url)
    if (parsed.password !== "") parsed.password = "***"
    return parsed.toString()
  } catch {
    return "<not a URL>"
  }
}

/** what failed, as the driver says it */
const detail = (cause: unknown): string =>
  cause instanceof Error ? cause.message || cause.name : cause === undefined ? "" : String(cause)

/**
 * The limiter over the `RateLimiter` of the context (`RateLimiter.layer` over a `RateLimiterStore`, such as
 * `RateLimiter.layerStoreRedis()`): the `fixed-window` algorithm in `delay` mode with the parameters of
 * {@link parametersFor}. A store that fails fails the permit with a `PayFieldsLimiterError` (`StoreFailed`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Omit<Options, "url">
): Effect.Effect<PayFieldsLimiter.PayFieldsLimiterService, never, RateLimiter.RateLimiter> =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter.RateLimiter
    const p = parametersFor(options.limit ?? PayFieldsLimiter.defaultLimit, options.margin)
    const permit = RateLimiter.sleep(limiter, {
      algorithm: "fixed-window",
      limit: p.burst,
      window: p.window,
      key: options.key ?? PayFieldsLimiter.defaultKey
    })
    return {
      take: Effect.asVoid(
        Effect.mapError(permit, (cause) => {
          const why = cause.reason._tag === "RateLimitStoreError" ? detail(cause.reason.cause) : ""
          return new PayFieldsLimiter.PayFieldsLimiterError({
            reason: "StoreFailed",
            message: `the shared limit of POST /pay/fields could not be read from Redis: ${cause.message}${
              why === "" ? "" : ` (${why})`
            }`,
            cause
          })
        })
      )
    }
  })

/**
 * `Redis.Redis` on a `redis` client connected to `url` (`NodeRedis.layer` with {@link redisOptions}), for one
 * connection shared by the limiters of the layer; a Redis that cannot be reached when the layer is built, or a URL
 * the client cannot read, fails it with a `PayFieldsLimiterError` (`StoreFailed`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedis = (
  url: string | Redacted.Redacted
): Layer.Layer<Redis.Redis | NodeRedis.NodeRedis, PayFieldsLimiter.PayFieldsLimiterError> =>
  Layer.effectContext(
    Effect.mapError(
      Layer.build(NodeRedis.layer(redisOptions(url))).pipe(
        // a URL the client cannot read throws when the client is made: a failure too, without the thrown error (a
        // TypeError whose `input` is the URL, password and all)
        Effect.catchDefect((defect) => Effect.fail(new Redis.RedisError({ cause: new Error(detail(defect)) })))
      ),
      (cause) =>
        new PayFieldsLimiter.PayFieldsLimiterError({
          reason: "StoreFailed",
          message: `the shared limit of POST /pay/fields could not connect to Redis at ${masked(url)}: ${
            detail(cause.cause) || cause.message
          }`,
          cause
        })
    )
  )

/**
 * The `PayFieldsLimiter` on Redis: one connection for the life of the layer, which fails with a
 * `PayFieldsLimiterError` (`StoreFailed`) when Redis cannot be reached.
 *
 * @example
 * ```ts
 * import { RedisPayFieldsLimiter } from "@payrules/stores"
 *
 * const limiter = RedisPayFieldsLimiter.layer({ url: "redis://127.0.0.1:6379", key: "pay-fields:account-1" })
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options
): Layer.Layer<PayFieldsLimiter.PayFieldsLimiter, PayFieldsLimiter.PayFieldsLimiterError> =>
  Layer.effect(PayFieldsLimiter.PayFieldsLimiter, make(options)).pipe(
    Layer.provide(RateLimiter.layer),
    Layer.provide(RateLimiter.layerStoreRedis({ prefix: options.prefix ?? "payrules:ratelimit:" })),
    Layer.provide(layerRedis(options.url))
  )
