/**
 * The limit of POST /pay/fields shared by every process that uses one Redis: a `PayFieldsLimiter` (the service of
 * `@payrules/transport`) on `@effect/experimental`'s `RateLimiter` with its Redis store (ioredis). Replicas of a
 * service that share an account share its limit: together they never send more than 450 requests in any 60-second
 * window, where three in-process limiters would send up to 1,350.
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
 * agree; only their waits are measured locally.
 *
 * @since 0.1.0
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as RedisStore from "@effect/experimental/RateLimiter/Redis"
import { PayFieldsLimiter } from "@payrules/transport"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type { RedisOptions } from "ioredis"

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
  readonly margin?: Duration.DurationInput | undefined
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
 * @since 0.1.0
 * @category rate limits
 */
export const parametersFor = (
  limit: PayFieldsLimiter.Limit,
  margin: Duration.DurationInput = defaultMargin
): {
  readonly burst: number
  readonly refillMillis: number
  readonly window: Duration.Duration
  readonly worstCase: number
} => {
  const windowMs = Duration.toMillis(Duration.decode(limit.window))
  const marginMs = Duration.toMillis(Duration.decode(margin))
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
 * The connection options of ioredis for a `redis://` URL.
 *
 * @since 0.1.0
 * @category constructors
 */
export const redisOptions = (url: string | Redacted.Redacted): RedisOptions => {
  const parsed = new URL(Redacted.isRedacted(url) ? Redacted.value(url) : url)
  const db = parsed.pathname.replace(/^\//, "")
  return {
    host: parsed.hostname,
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(db === "" ? {} : { db: Number(db) }),
    ...(parsed.protocol === "rediss:" ? { tls: {} } : {}),
    // a Redis that is down fails a permit after a few tries instead of queueing it for ever
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000
  }
}

/**
 * The limiter over the `RateLimiter` of the context.
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
    const consume = limiter.consume({
      algorithm: "fixed-window",
      onExceeded: "delay",
      limit: p.burst,
      window: p.window,
      key: options.key ?? "pay-fields"
    })
    return {
      take: Effect.flatMap(
        Effect.mapError(
          consume,
          (cause) =>
            new PayFieldsLimiter.PayFieldsLimiterError({
              reason: "StoreFailed",
              message: `the shared limit of POST /pay/fields could not be read from Redis: ${cause.message}`,
              cause
            })
        ),
        ({ delay }) => (Duration.isZero(delay) ? Effect.void : Effect.sleep(delay))
      )
    }
  })

/**
 * The `PayFieldsLimiter` on Redis: one connection for the life of the layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<PayFieldsLimiter.PayFieldsLimiter> =>
  Layer.effect(PayFieldsLimiter.PayFieldsLimiter, make(options)).pipe(
    Layer.provide(RateLimiter.layer),
    Layer.provide(
      RedisStore.layerStore({ ...redisOptions(options.url), prefix: options.prefix ?? "payrules:ratelimit:" })
    )
  )
