import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Effect } from "effect"
import * as TestClock from "effect/testing/TestClock"
import * as RateLimit from "../src/internal/rateLimit.js"
import { lazily, payFieldsIn, untraced } from "./helpers.js"

// The /pay/fields limit per tenant (issue 15): 450 answers per 60 s across all of a tenant's tokens however its
// requests are spread; unknown tokens are refused before the limiter and leave nothing in it; idle keys are dropped.

/** a reproducible stream of numbers in [0, 1) (mulberry32) */
const numbers = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

describe("the sliding window, per key", () => {
  it.effect("450 of 1,000 requests in a window, whatever their times within it", () =>
    Effect.gen(function* () {
      for (const seed of [1, 2, 3, 4, 5]) {
        const limiter = RateLimit.make(450, 60_000)
        const next = numbers(seed)
        const times = Array.from({ length: 1_000 }, () => Math.floor(next() * 59_999)).sort((a, b) => a - b)
        let granted = 0
        for (const t of times) if ((yield* limiter.take("tenant", t)) === undefined) granted++
        expect(granted).toBe(450)
      }
    })
  )

  it.effect("a key whose window is empty is dropped as other keys are used, two per request at most", () =>
    Effect.gen(function* () {
      const limiter = RateLimit.make(450, 60_000)
      for (let i = 0; i < 1_000; i++) yield* limiter.take(`k${i}`, 0)
      expect(yield* limiter.size).toEqual({ keys: 1_000, times: 1_000 })
      // still in the window: nothing is dropped
      yield* limiter.take("active", 59_999)
      expect((yield* limiter.size).keys).toBe(1_001)
      // the window of the first 1,000 keys is empty from 60,000 ms on
      yield* limiter.take("active", 60_000)
      expect((yield* limiter.size).keys).toBe(999)
      for (let i = 0; i < 499; i++) yield* limiter.take("active", 60_000 + i)
      // 501 requests of one key at the limit of 450
      expect(yield* limiter.size).toEqual({ keys: 1, times: 450 })
    })
  )

  it.effect("a key in use keeps its window; one that comes back after its window starts afresh", () =>
    Effect.gen(function* () {
      const limiter = RateLimit.make(2, 1_000)
      expect([yield* limiter.take("a", 0), yield* limiter.take("a", 10), yield* limiter.take("a", 20)]).toEqual([
        undefined,
        undefined,
        1
      ])
      for (let i = 0; i < 10; i++) yield* limiter.take(`idle-${i}`, 500)
      // a is not idle: its window (0, 10) is full until 1,000
      expect(yield* limiter.take("b", 999)).toBeUndefined()
      expect(yield* limiter.take("a", 999)).toBe(1)
      expect(yield* limiter.take("a", 1_010)).toBeUndefined()
      // a's window started again with one time
      expect(yield* limiter.size).toEqual({ keys: 12, times: 12 })
    })
  )
})

describe("the /pay/fields limit of a running sandbox (in process, TestClock)", () => {
  const options = { seed: 35, plans: 15 } as const
  const tenantsOf = lazily(() => Sandbox.tenants(options))
  const A = () => tenantsOf()[0]!

  it.effect("a tenant with two tokens gets exactly 450 answers per 60 s, however it spreads 1,000 requests", () =>
    Effect.gen(function* () {
      const { fields } = yield* payFieldsIn
      const [first, second] = A().tokens
      // the module tests above vary the times; here the tokens: in runs of random length, 30% on the first token
      const next = numbers(10)
      const counts = new Map<string, number>()
      let token = first!
      for (let i = 0; i < 1_000; i++) {
        if (next() < 0.2) token = next() < 0.3 ? first! : second!
        const status = yield* fields(token)
        counts.set(
          `${token === first ? "first" : "second"} ${status}`,
          (counts.get(`${token === first ? "first" : "second"} ${status}`) ?? 0) + 1
        )
        // 1,000 requests over 50 s: all in one window
        if (i % 10 === 9) yield* TestClock.adjust("500 millis")
      }
      const of = (status: number) => (counts.get(`first ${status}`) ?? 0) + (counts.get(`second ${status}`) ?? 0)
      expect([of(200), of(429)]).toEqual([450, 550])
      // both tokens were used, and both were answered and refused
      for (const key of ["first 200", "second 200", "first 429", "second 429"])
        expect(counts.get(key)).toBeGreaterThan(0)
      // a window later: 450 again, across both tokens
      yield* TestClock.adjust("60 seconds")
      let again = 0
      for (let i = 0; i < 451; i++) if ((yield* fields(i % 2 === 0 ? first! : second!)) === 200) again++
      expect(again).toBe(450)
    }).pipe(untraced, Effect.provide(Sandbox.layerInProcess(options)))
  )
})
