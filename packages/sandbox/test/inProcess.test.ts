import { describe, expect, it } from "@effect/vitest"
import { Fault, Sandbox } from "@payrules/sandbox"
import * as VirtualTime from "@payrules/vitest/VirtualTime"
import { Duration, Effect, Fiber } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as TestClock from "effect/testing/TestClock"
import {
  authOf,
  exchangeIn as exchange,
  type SeedSummary,
  seedIn as seedOf,
  sendIn as send,
  server,
  urlsIn as urls
} from "./helpers.js"

// The sandbox in this process: requests go through the whole server without a socket, on the test's clock.

const sell = (seed: SeedSummary, requestId: string, amount: number) => ({
  from: { account_id: seed.accounts[0]!.id, currency: seed.accounts[0]!.currency, amount },
  to: { account_id: seed.accounts[1]!.id, currency: seed.accounts[1]!.currency },
  request_id: requestId
})

describe("fault decisions: a hash of (seed, operation, request key, attempt)", () => {
  const faults = Fault.mixed("*", 0.5, ["fail-before", "rate-limit", "drop-after"], { retryAfterSeconds: 0 })
  // each request id is sent three times: the three attempts of a client
  const ids = Array.from({ length: 60 }, (_, i) => `req-${i}`)
  const outcomes = (order: ReadonlyArray<string>, concurrency: number, seedNumber = 5) =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const seen = new Map<string, Array<number>>()
      yield* Effect.forEach(
        [...order, ...order, ...order],
        (id) => Effect.map(exchange(seed, id), (status) => void seen.set(id, [...(seen.get(id) ?? []), status])),
        { concurrency }
      )
      return Object.fromEntries([...seen].sort(([a], [b]) => a.localeCompare(b)))
    }).pipe(Effect.provide(Sandbox.layerInProcess({ seed: seedNumber, plans: 15, faults })))

  it.effect("the same seed gives each request the same faults, in any order and any interleaving", () =>
    Effect.gen(function* () {
      const inOrder = yield* outcomes(ids, 1)
      expect(yield* outcomes([...ids].reverse(), 1)).toEqual(inOrder)
      expect(yield* outcomes(ids, 16)).toEqual(inOrder)
      const statuses = Object.values(inOrder).flat()
      // every kind fired, and some attempts went through
      for (const status of [0, 200, 429, 503]) expect(statuses).toContain(status)
    })
  )

  it.effect("another seed gives other faults", () =>
    Effect.gen(function* () {
      const five = yield* outcomes(ids, 1)
      expect(yield* outcomes(ids, 1, 6)).not.toEqual(five)
    })
  )

  it.effect("count rules take the next N requests in arrival order", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const statuses: Array<number> = []
      for (const id of ["c-1", "c-2", "c-3"]) statuses.push(yield* exchange(seed, id))
      expect(statuses).toEqual([503, 503, 200])
    }).pipe(
      Effect.provide(
        Sandbox.layerInProcess({
          seed: 5,
          plans: 15,
          faults: [{ operation: "exchange", kind: "fail-before", count: 2 }]
        })
      )
    )
  )
})

describe("the /pay/fields window on the TestClock", () => {
  it.effect("5 per minute per token: the 6th waits for the oldest to leave the window", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const u = yield* urls
      const card = seed.counterparties.find((c) => c.cards.length > 0 && c.accounts.length === 0)!
      const fields = send(
        HttpClientRequest.post(`${u.business}/pay/fields`).pipe(
          HttpClientRequest.bodyJsonUnsafe({
            account_id: seed.accounts[0]!.id,
            receiver: { counterparty_id: card.id, card_id: card.cards[0]!.id }
          })
        )
      )
      const statuses: Array<number> = []
      for (let i = 0; i < 5; i++) {
        statuses.push((yield* fields).status)
        yield* TestClock.adjust("10 seconds")
      }
      // at 50 s: the first request, at 0 s, leaves the window at 60 s
      const limited = yield* fields
      expect([...statuses, limited.status]).toEqual([200, 200, 200, 200, 200, 429])
      expect(limited.headers["retry-after"]).toBe("10")
      expect(limited.json).toMatchObject({ message: "at most 5 requests per 60 s" })
      // the limit is of /pay/fields alone: the token's other calls go on
      for (let i = 0; i < 6; i++) {
        expect((yield* send(HttpClientRequest.get(`${u.business}/exchange-reasons`))).status).toBe(200)
      }
      yield* TestClock.adjust(Duration.millis(9_999))
      expect((yield* fields).status).toBe(429)
      yield* TestClock.adjust(Duration.millis(1))
      expect((yield* fields).status).toBe(200)
      expect((yield* fields).status).toBe(429)
    }).pipe(
      Effect.provide(Sandbox.layerInProcess({ seed: 9, plans: 15, payFieldsLimit: { limit: 5, windowMs: 60_000 } }))
    )
  )

  it.effect("a delay-after fault answers after its delay, on the caller's clock", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const fiber = yield* Effect.forkChild(exchange(seed, "slow-1"))
      yield* TestClock.adjust(Duration.millis(4_999))
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Fiber.join(fiber)).toBe(200)
    }).pipe(
      Effect.provide(
        Sandbox.layerInProcess({
          seed: 5,
          plans: 15,
          faults: [{ operation: "exchange", kind: "delay-after", count: 1, delayMs: 5_000 }]
        })
      )
    )
  )
})

// on virtual time: the timeouts, the delayed answers and the retries of 300 exchanges take no time of the machine
describe("sandbox: exactly once under 30% faults (in process, virtual time)", () => {
  it.effect(
    "300 exchanges resent naively with the same request_id make one transaction each, and balances add up",
    () =>
      VirtualTime.run(
        Effect.gen(function* () {
          const http = yield* HttpClient.HttpClient
          const s = yield* server
          const get = (path: string) =>
            Effect.flatMap(http.get(`${s.urls.control}${path}`), (r) => r.json as Effect.Effect<unknown, unknown>).pipe(
              Effect.orDie
            )
          const seed = (yield* get("/seed")) as SeedSummary
          const before = (yield* get("/accounts")) as ReadonlyArray<{ balance: string }>
          // a client that resends the same body after any failure, a timeout or a dropped connection included
          const send = (i: number) => {
            const request = HttpClientRequest.post(`${s.urls.business}/exchange`).pipe(
              HttpClientRequest.setHeaders(authOf(s)),
              HttpClientRequest.bodyJsonUnsafe(sell(seed, `naive-${i}`, 10))
            )
            const attempt = (n: number): Effect.Effect<number> =>
              http.execute(request).pipe(
                Effect.flatMap((r) => (r.status === 200 ? Effect.succeed(n) : Effect.fail("refused"))),
                Effect.timeoutOrElse({ duration: "1 second", orElse: () => Effect.fail("timeout") }),
                Effect.catch(() => (n < 50 ? attempt(n + 1) : Effect.die(new Error(`naive-${i} never succeeded`))))
              )
            return attempt(1)
          }
          const attempts = yield* Effect.forEach(
            Array.from({ length: 300 }, (_, i) => i),
            send,
            { concurrency: 16 }
          )
          expect(attempts.some((a) => a > 1)).toBe(true)
          const ledger = (yield* get("/ledger")) as ReadonlyArray<{
            request_id: string
            transactions: number
            received: number
          }>
          const naive = ledger.filter((e) => e.request_id.startsWith("naive-"))
          expect(naive).toHaveLength(300)
          for (const e of naive) expect(e.transactions).toBe(1)
          expect(naive.some((e) => e.received > 1)).toBe(true)
          const after = (yield* get("/accounts")) as ReadonlyArray<{ balance: string }>
          const delta = (i: number) => Number(after[i]!.balance) - Number(before[i]!.balance)
          expect(delta(0)).toBeCloseTo(-3000, 6)
          expect(delta(1)).toBeCloseTo(3510, 6)
          const requests = (yield* get("/requests")) as ReadonlyArray<{ fault: string | null }>
          for (const kind of ["fail-before", "drop-after", "delay-after", "rate-limit"]) {
            expect(requests.some((r) => r.fault === kind)).toBe(true)
          }
        }).pipe(
          Effect.provide(
            Sandbox.layerInProcess({
              seed: 21,
              plans: 15,
              faults: Fault.mixed("exchange", 0.3, undefined, { delayMs: 3_000 })
            })
          )
        )
        // the clock moved: at least one answer was delayed past the client's 1-second timeout
      ).pipe(Effect.map(({ elapsed }) => expect(Duration.toMillis(elapsed)).toBeGreaterThanOrEqual(1_000)))
  )
})
