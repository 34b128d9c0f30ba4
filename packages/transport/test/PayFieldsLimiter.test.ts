import { describe, expect, it } from "@effect/vitest"
import { PayFieldsLimiter } from "@payrules/transport"
import { Clock, type Context, Duration, Effect, Fiber, Layer } from "effect"
import { RateLimiter } from "effect/persistence"
import { TestClock } from "effect/testing"

// The limiter of POST /pay/fields on effect's RateLimiter (effect/persistence), on the TestClock.

/** the instants (TestClock milliseconds) at which `n` permits are granted to `fibers` fibers taking them at once */
const grants = (n: number, fibers: number) =>
  Effect.gen(function* () {
    const limiter = yield* PayFieldsLimiter.PayFieldsLimiter
    const times: Array<number> = []
    const fiber = yield* Effect.forkChild(
      Effect.forEach(
        Array.from({ length: n }, (_, i) => i),
        () => Effect.flatMap(limiter.take, () => Effect.map(Clock.currentTimeMillis, (t) => void times.push(t))),
        { concurrency: fibers, discard: true }
      )
    )
    for (let waited = 0; waited < 10 * 60 && fiber.pollUnsafe() === undefined; waited++) {
      yield* TestClock.adjust("1 second")
    }
    yield* Fiber.join(fiber)
    return times.sort((a, b) => a - b)
  })

/** the most instants in any half-open window of `windowMs` */
const busiestWindow = (times: ReadonlyArray<number>, windowMs: number): number => {
  let most = 0
  let start = 0
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= windowMs) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}

describe("PayFieldsLimiter.tokenBucketFor", () => {
  it("450 a minute: a burst of 10, one token every 137 ms, at most 448 in any window", () => {
    const bucket = PayFieldsLimiter.tokenBucketFor(450, "1 minute")
    expect(bucket.limit).toBe(10)
    expect(Duration.toMillis(bucket.interval)).toBe(1370)
    expect(bucket.worstCase).toBe(448)
    expect(bucket.worstCase).toBeLessThanOrEqual(450)
  })

  it("20 in 10 seconds: a burst of 1, one token every 556 ms, at most 19 in any window", () => {
    const bucket = PayFieldsLimiter.tokenBucketFor(20, "10 seconds")
    expect([bucket.limit, Duration.toMillis(bucket.interval), bucket.worstCase]).toEqual([1, 556, 19])
  })
})

describe("PayFieldsLimiter.layer: the in-process limiter (TestClock)", () => {
  it.effect("600 permits to 32 fibers: never more than 450 in any 60-second window, and not much slower", () =>
    Effect.gen(function* () {
      const times = yield* grants(600, 32)
      expect(times).toHaveLength(600)
      expect(busiestWindow(times, 60_000)).toBeLessThanOrEqual(
        PayFieldsLimiter.tokenBucketFor(450, "1 minute").worstCase
      )
      // the burst goes at once, then one permit every 137 ms
      expect(times.filter((t) => t === 0)).toHaveLength(10)
      expect(times[599]).toBe(590 * 137)
    }).pipe(Effect.provide(PayFieldsLimiter.layer()))
  )

  it.effect("a smaller limit is kept as well: 20 in any 10 seconds", () =>
    Effect.gen(function* () {
      const limit = { limit: 20, window: Duration.seconds(10) }
      const times = yield* grants(100, 8).pipe(Effect.provide(PayFieldsLimiter.layer(limit)))
      expect(busiestWindow(times, 10_000)).toBeLessThanOrEqual(20)
      expect(busiestWindow(times, 10_000)).toBeLessThanOrEqual(
        PayFieldsLimiter.tokenBucketFor(20, "10 seconds").worstCase
      )
    })
  )
})

describe("PayFieldsLimiter.layerWithStore", () => {
  /** a limiter over `store` with the given options, as a process with its own layer would build it */
  const limiterOver = (store: Context.Context<RateLimiter.RateLimiterStore>) => (options?: PayFieldsLimiter.Options) =>
    Effect.provide(
      Effect.service(PayFieldsLimiter.PayFieldsLimiter),
      PayFieldsLimiter.layerWithStore(Layer.succeedContext(store), options)
    )

  /** the next permit of a spent burst waits for a refill: not granted after 136 ms, granted at 137 ms */
  const waitsForRefill = (limiter: PayFieldsLimiter.PayFieldsLimiter["Service"]) =>
    Effect.gen(function* () {
      const waiting = yield* Effect.forkChild(limiter.take)
      yield* TestClock.adjust(Duration.millis(136))
      expect(waiting.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.millis(1))
      yield* Fiber.join(waiting)
    })

  it.effect("two limiters over one store and one key share the limit; other keys count apart", () =>
    Effect.gen(function* () {
      const over = limiterOver(yield* Layer.build(RateLimiter.layerStoreMemory))
      const [a, b, c] = [
        yield* over({ key: "account-1" }),
        yield* over({ key: "account-1" }),
        yield* over({ key: "account-2" })
      ]
      // the burst of 10 is shared by a and b: the 11th permit of the key waits for a refill; c has its own burst
      for (let i = 0; i < 5; i++) yield* a.take
      for (let i = 0; i < 5; i++) yield* b.take
      for (let i = 0; i < 10; i++) yield* c.take
      yield* waitsForRefill(a)
    }).pipe(Effect.scoped)
  )

  it.effect("without a key, limiters count under pay-fields: a process given that key shares their limit", () =>
    Effect.gen(function* () {
      const over = limiterOver(yield* Layer.build(RateLimiter.layerStoreMemory))
      expect(PayFieldsLimiter.defaultKey).toBe("pay-fields")
      const [a, b] = [yield* over(), yield* over({ key: "pay-fields" })]
      // the default limit (450 a minute): a burst of 10, shared
      for (let i = 0; i < 5; i++) yield* a.take
      for (let i = 0; i < 5; i++) yield* b.take
      yield* waitsForRefill(a)
    }).pipe(Effect.scoped)
  )

  it.effect("a store that fails fails the permit with PayFieldsLimiterError (StoreFailed)", () =>
    Effect.gen(function* () {
      const failure = new RateLimiter.RateLimiterError({
        reason: new RateLimiter.RateLimitStoreError({ message: "connection refused" })
      })
      const broken = Layer.succeed(RateLimiter.RateLimiterStore, {
        fixedWindow: () => Effect.fail(failure),
        tokenBucket: () => Effect.fail(failure),
        adaptiveConsume: () => Effect.fail(failure),
        adaptiveFeedback: () => Effect.fail(failure)
      })
      const limiter = yield* Effect.provide(
        Effect.service(PayFieldsLimiter.PayFieldsLimiter),
        PayFieldsLimiter.layerWithStore(broken)
      )
      const e = yield* Effect.flip(limiter.take)
      expect(e).toBeInstanceOf(PayFieldsLimiter.PayFieldsLimiterError)
      expect(e).toMatchObject({ _tag: "PayFieldsLimiterError", reason: "StoreFailed", cause: failure })
      expect(e.message).toContain("connection refused")
    })
  )
})
