import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Effect } from "effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as TestClock from "effect/testing/TestClock"
import { postExchangeIn as post, type SeedSummary, seedIn, sendIn, urlsIn } from "./helpers.js"

// D10 in the sandbox, in process on the TestClock: what is stored, for how long, what a repeat and a conflict get.

const body = (seed: SeedSummary, requestId: string, amount: number, extra: object = {}, from = 0, to = 1) => ({
  from: { account_id: seed.accounts[from]!.id, currency: seed.accounts[from]!.currency, amount },
  to: { account_id: seed.accounts[to]!.id, currency: seed.accounts[to]!.currency },
  request_id: requestId,
  ...extra
})

const control = (path: string) => Effect.flatMap(urlsIn, (u) => sendIn(HttpClientRequest.get(`${u.control}${path}`)))
const advance = (ms: number) =>
  Effect.flatMap(urlsIn, (u) =>
    sendIn(HttpClientRequest.post(`${u.control}/clock`).pipe(HttpClientRequest.bodyJsonUnsafe({ advance_ms: ms })))
  )
const ledgerOf = (requestId: string) =>
  Effect.map(control("/ledger"), (r) =>
    (r.json as ReadonlyArray<{ request_id: string }>).find((e) => e.request_id === requestId)
  )
const replayed = (r: { readonly headers: Readonly<Record<string, string>> }) => r.headers["idempotent-replayed"]

const sandbox = (options: Sandbox.Options = {}) => Sandbox.layerInProcess({ seed: 17, plans: 15, ...options })

describe("sandbox idempotency: refused before execution stores nothing", () => {
  it.effect("3448 (reason required), then the corrected body with the same request_id succeeds", () =>
    Effect.gen(function* () {
      const seed = yield* seedIn
      const refused = yield* post(body(seed, "r-3448", 20_000))
      expect(refused.status).toBe(400)
      expect(refused.json).toMatchObject({ code: 3448 })
      expect(replayed(refused)).toBeUndefined()
      expect(yield* ledgerOf("r-3448")).toBeUndefined()
      // the same body again is checked again (not a replay)
      const again = yield* post(body(seed, "r-3448", 20_000))
      expect([again.status, replayed(again)]).toEqual([400, undefined])
      const corrected = yield* post(body(seed, "r-3448", 20_000, { exchange_reason_code: "supplier_payment" }))
      expect(corrected.status).toBe(200)
      expect(corrected.json).toMatchObject({ state: "completed" })
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("an unknown account, a currency that is not the account's, an unknown reason: nothing stored", () =>
    Effect.gen(function* () {
      const seed = yield* seedIn
      const cases: ReadonlyArray<readonly [object, number]> = [
        [{ ...body(seed, "v-1", 5), to: { account_id: "no-such-account", currency: "EUR" } }, 3000],
        [{ ...body(seed, "v-1", 5), to: { account_id: seed.accounts[1]!.id, currency: "USD" } }, 3000],
        [body(seed, "v-1", 20_000, { exchange_reason_code: "lottery" }), 3449]
      ]
      for (const [wrong, code] of cases) {
        const r = yield* post(wrong)
        expect([r.status, (r.json as { code: number }).code]).toEqual([400, code])
        expect(yield* ledgerOf("v-1")).toBeUndefined()
      }
      expect((yield* post(body(seed, "v-1", 5))).status).toBe(200)
    }).pipe(Effect.provide(sandbox()))
  )
})

describe("sandbox idempotency: executed answers are stored and replayed", () => {
  it.effect(
    "a transaction is replayed as first given, even when it has moved on; GET /transactions says where it is now",
    () =>
      Effect.gen(function* () {
        const seed = yield* seedIn
        // account 6 is at another institution: created, then pending after 1 s, completed after 3 s
        const first = yield* post(body(seed, "e-1", 10, {}, 0, 6))
        expect(first.json).toMatchObject({ state: "created" })
        yield* TestClock.adjust("5 seconds")
        const again = yield* post(body(seed, "e-1", 10, {}, 0, 6))
        expect(replayed(again)).toBe("true")
        expect(again.json).toEqual(first.json)
        const u = yield* urlsIn
        const now = yield* sendIn(
          HttpClientRequest.get(`${u.business}/transactions`, { urlParams: { request_id: "e-1" } })
        )
        expect(now.json).toMatchObject([{ id: (first.json as { id: string }).id, state: "completed" }])
        expect(yield* ledgerOf("e-1")).toMatchObject({ received: 2, transactions: 1, conflicts: 0 })
      }).pipe(Effect.provide(sandbox()))
  )

  it.effect("a declined exchange is executed: replayed, and another body under its id is the conflict 3021", () =>
    Effect.gen(function* () {
      const seed = yield* seedIn
      // account 7 holds 12.50 GBP
      const declined = yield* post(body(seed, "d-1", 100, {}, 7, 1))
      expect(declined.json).toMatchObject({ state: "declined", reason_code: "insufficient_balance" })
      const again = yield* post(body(seed, "d-1", 100, {}, 7, 1))
      expect([replayed(again), again.json]).toEqual(["true", declined.json])
      const other = yield* post(body(seed, "d-1", 10, {}, 7, 1))
      expect([other.status, other.json]).toMatchObject([400, { code: 3021 }])
      expect(replayed(other)).toBeUndefined()
      // the conflict changed nothing
      expect((yield* post(body(seed, "d-1", 100, {}, 7, 1))).json).toEqual(declined.json)
      expect(yield* ledgerOf("d-1")).toMatchObject({ received: 4, transactions: 1, conflicts: 1 })
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("a failure during execution (fail-during): a 500 with no transaction, replayed as it was", () =>
    Effect.gen(function* () {
      const seed = yield* seedIn
      const failed = yield* post(body(seed, "f-1", 3))
      expect([failed.status, failed.json]).toMatchObject([500, { code: 9500 }])
      const again = yield* post(body(seed, "f-1", 3))
      expect([again.status, replayed(again), again.json]).toEqual([500, "true", failed.json])
      expect(yield* ledgerOf("f-1")).toMatchObject({ received: 2, transactions: 0 })
      expect((yield* post(body(seed, "f-1", 4))).json).toMatchObject({ code: 3021 })
    }).pipe(Effect.provide(sandbox({ faults: [{ operation: "exchange", kind: "fail-during", count: 1 }] })))
  )

  it.effect('duplicates: "error" answers an identical repeat with 3020 instead of replaying it', () =>
    Effect.gen(function* () {
      const seed = yield* seedIn
      expect((yield* post(body(seed, "x-1", 3))).status).toBe(200)
      const again = yield* post(body(seed, "x-1", 3))
      expect([again.status, again.json]).toEqual([400, { code: 3020, message: "Duplicate request" }])
    }).pipe(Effect.provide(sandbox({ exchange: { duplicates: "error" } })))
  )
})

describe("sandbox idempotency: the retention window and the clock control", () => {
  it.effect("a request_id, its answer and its transaction are kept 24 hours; the clock control moves past them", () =>
    Effect.gen(function* () {
      const seed = yield* seedIn
      const first = yield* post(body(seed, "t-1", 2))
      const clock = yield* advance(24 * 3_600_000 - 1)
      expect(clock.json).toMatchObject({ offset_ms: 24 * 3_600_000 - 1 })
      expect(replayed(yield* post(body(seed, "t-1", 2)))).toBe("true")
      yield* advance(1)
      expect(yield* ledgerOf("t-1")).toBeUndefined()
      const u = yield* urlsIn
      const found = yield* sendIn(
        HttpClientRequest.get(`${u.business}/transactions`, { urlParams: { request_id: "t-1" } })
      )
      expect(found.json).toEqual([])
      // the id is free again, for any body: a new exchange
      const reused = yield* post(body(seed, "t-1", 7))
      expect(reused.status).toBe(200)
      expect((reused.json as { id: string }).id).not.toBe((first.json as { id: string }).id)
      expect((yield* control("/clock")).json).toMatchObject({ offset_ms: 24 * 3_600_000 })
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("retentionMs sets the window; under a stream of new request_ids the ledger keeps only the live ones", () =>
    Effect.gen(function* () {
      const seed = yield* seedIn
      let most = 0
      for (let minute = 0; minute < 30; minute++) {
        for (let i = 0; i < 20; i++) yield* post(body(seed, `s-${minute}-${i}`, 1))
        most = Math.max(most, ((yield* control("/ledger")).json as ReadonlyArray<unknown>).length)
        yield* TestClock.adjust("1 minute")
      }
      // a 5-minute window at 20 a minute: never more than 100 live ids, out of 600 sent
      expect(most).toBeLessThanOrEqual(100)
      yield* advance(5 * 60_000)
      expect((yield* control("/ledger")).json).toEqual([])
      // pruned, not only hidden: nothing of the 600 is held
      expect((yield* control("/stats")).json).toMatchObject({ request_ids: 0, transactions: 0 })
    }).pipe(Effect.provide(sandbox({ exchange: { retentionMs: 5 * 60_000 } })))
  )
})
