import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Clock, Duration, Effect, Fiber } from "effect"
import * as TestClock from "effect/testing/TestClock"
import * as Exchanges from "../src/internal/exchanges.js"
import { balancesIn, postExchangeIn, type SeedSummary, seedIn } from "./helpers.js"

// What POST /exchange answers beyond its status: a transfer between two accounts of the same institution completes at
// once and one that leaves it settles; the conflict and the injected failure say what happened, in the message a
// client shows (and the failure's stored answer is replayed word for word); and the clock the sandbox moves forward
// for its ledger moves every reading of the time, not only the one the ledger reads today.

const options = { seed: 41, plans: 15 } as const

const exchangeOf = (from: { id: string; currency: string }, to: { id: string; currency: string }, requestId: string) =>
  postExchangeIn({
    from: { account_id: from.id, currency: from.currency, amount: 1 },
    to: { account_id: to.id, currency: to.currency },
    request_id: requestId
  })

/** two accounts in different currencies, each at the institution asked for */
const pair = (seed: SeedSummary, fromInstitution: string, toInstitution: string) => {
  const from = seed.accounts.find((a) => a.institution === fromInstitution && a.currency === "GBP")
  const to = seed.accounts.find((a) => a.institution === toInstitution && a.currency !== "GBP")
  return from === undefined || to === undefined ? undefined : { from, to }
}

describe("POST /exchange: what its answers say", () => {
  it.effect(
    "between two accounts of the same institution: completed at once; to another institution: created, settling (bug: every exchange settling)",
    () =>
      Effect.gen(function* () {
        const seed = yield* seedIn
        const same = pair(seed, "same", "same")
        const leaving = pair(seed, "same", "other")
        expect(same).toBeDefined()
        expect(leaving).toBeDefined()
        const instant = yield* exchangeOf(same!.from, same!.to, "inst-1")
        expect(instant.status).toBe(200)
        expect(instant.json).toMatchObject({ state: "completed", type: "exchange" })
        const settling = yield* exchangeOf(leaving!.from, leaving!.to, "settle-1")
        expect(settling.status).toBe(200)
        expect(settling.json).toMatchObject({ state: "created", type: "exchange" })
        expect(settling.json).not.toHaveProperty("completed_at")
      }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect("another body under a used request_id: 3021, naming the request_id", () =>
    Effect.gen(function* () {
      const seed = yield* seedIn
      const { from, to } = pair(seed, "same", "same")!
      expect((yield* exchangeOf(from, to, "conflict-7")).status).toBe(200)
      const other = yield* postExchangeIn({
        from: { account_id: from.id, currency: from.currency, amount: 2 },
        to: { account_id: to.id, currency: to.currency },
        request_id: "conflict-7"
      })
      expect(other.status).toBe(400)
      expect(other.json).toEqual({
        code: 3021,
        message: "request_id conflict-7 was already used for a different exchange"
      })
    }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect("an injected failure during execution says so, and its repeat replays the same words", () =>
    Effect.gen(function* () {
      const seed = yield* seedIn
      const { from, to } = pair(seed, "same", "same")!
      const failed = yield* exchangeOf(from, to, "fail-9")
      const expected = {
        code: 9500,
        message: "the exchange failed during execution (injected fault); this request_id keeps that answer"
      }
      expect([failed.status, failed.json]).toEqual([500, expected])
      const repeat = yield* exchangeOf(from, to, "fail-9")
      expect([repeat.status, repeat.json, repeat.headers["idempotent-replayed"]]).toEqual([500, expected, "true"])
    }).pipe(
      Effect.provide(
        Sandbox.layerInProcess({ ...options, faults: [{ operation: "exchange", kind: "fail-during", count: 1 }] })
      )
    )
  )

  it.effect(
    "bug: an amount that is 0 in the other currency at the sandbox's rate is a 400 that moves nothing and keeps the request_id free (0.01 INR completed, crediting 0 JPY)",
    () =>
      Effect.gen(function* () {
        const seed = yield* seedIn
        const inr = seed.accounts.find((a) => a.currency === "INR")!
        const jpy = seed.accounts.find((a) => a.currency === "JPY")!
        const gbp = seed.accounts.find((a) => a.currency === "GBP" && a.institution === "same")!
        const before = yield* balancesIn
        const sell = (amount: number, requestId: string) =>
          postExchangeIn({
            from: { account_id: inr.id, currency: "INR", amount },
            to: { account_id: jpy.id, currency: "JPY" },
            request_id: requestId
          })
        // 0.01 INR is 0.018 JPY, 0 yen; 0.01 INR is 0.0000948 GBP, 0 pence
        const tiny = yield* sell(0.01, "tiny-1")
        expect([tiny.status, tiny.json]).toEqual([
          400,
          {
            code: 3000,
            message:
              "from.amount 0.01 INR is 0 JPY at the sandbox's rate (rounded to the currency's minor unit): too small to exchange"
          }
        ])
        const buy = yield* postExchangeIn({
          from: { account_id: gbp.id, currency: "GBP" },
          to: { account_id: inr.id, currency: "INR", amount: 0.01 },
          request_id: "tiny-2"
        })
        expect([buy.status, buy.json]).toEqual([
          400,
          {
            code: 3000,
            message:
              "to.amount 0.01 INR is 0 GBP at the sandbox's rate (rounded to the currency's minor unit): too small to exchange"
          }
        ])
        expect(yield* balancesIn).toEqual(before)
        // the request_id stays free: the same id with an amount that converts runs
        const enough = yield* sell(1, "tiny-1")
        expect([enough.status, enough.json]).toMatchObject([200, { state: "completed" }])
      }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect(
    "bug: an exchange whose transaction cannot be written moves no money, tried once or again (it moved it each time, then failed)",
    () =>
      Effect.gen(function* () {
        const seed = yield* seedIn
        const before = yield* balancesIn
        // the caller's clock past JavaScript's dates: the transaction's created_at cannot be written
        yield* TestClock.setTime(8_640_000_000_000_001)
        const { from, to } = pair(seed, "same", "same")!
        for (let attempt = 0; attempt < 2; attempt++) {
          const r = yield* exchangeOf(from, to, "out-of-range-1")
          expect([r.status, r.json]).toEqual([500, { code: 9500, message: "unexpected failure" }])
        }
        expect(yield* balancesIn).toEqual(before)
      }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )
})

describe("the sandbox's clock, moved forward", () => {
  it.effect("moves the wall-clock readings in milliseconds and nanoseconds, and leaves monotonic time and sleeps", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(1_000)
      const base = yield* Clock.Clock
      const moved = Exchanges.shifted(base, 500)
      expect(moved.currentTimeMillisUnsafe()).toBe(1_500)
      expect(yield* moved.currentTimeMillis).toBe(1_500)
      expect(moved.currentTimeNanosUnsafe()).toBe(1_500_000_000n)
      expect(yield* moved.currentTimeNanos).toBe(1_500_000_000n)
      expect(moved.monotonicTimeNanosUnsafe()).toBe(base.monotonicTimeNanosUnsafe())
      expect(yield* moved.monotonicTimeNanos).toBe(yield* base.monotonicTimeNanos)
      // a sleep is the base clock's: it ends when the base clock's time has passed
      const sleeping = yield* Effect.forkChild(moved.sleep(Duration.seconds(2)))
      yield* TestClock.adjust(Duration.seconds(1))
      expect(sleeping.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.seconds(1))
      yield* Fiber.join(sleeping)
      expect(yield* Clock.currentTimeMillis).toBe(3_000)
    })
  )
})
