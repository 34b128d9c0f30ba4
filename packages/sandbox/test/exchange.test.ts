import { describe, expect } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { layerBlock } from "@payrules/vitest/Lazy"
import { Effect } from "effect"
import { authOf, call, postJson, type SeedSummary, seedOf, server } from "./helpers.js"

const sell = (seed: SeedSummary, requestId: string, amount: number, fromIndex = 0, toIndex = 1, extra = {}) => ({
  from: { account_id: seed.accounts[fromIndex]!.id, currency: seed.accounts[fromIndex]!.currency, amount },
  to: { account_id: seed.accounts[toIndex]!.id, currency: seed.accounts[toIndex]!.currency },
  request_id: requestId,
  ...extra
})

const exchange = (body: unknown) => Effect.flatMap(server, (s) => postJson(`${s.urls.business}/exchange`, body))

layerBlock(() => Sandbox.layer({ seed: 11, plans: 15 }))("sandbox: POST /exchange", (it) => {
  it.effect("sells and buys between accounts of the holder, completing at once at the same institution", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const sold = yield* exchange(sell(seed, "sell-1", 100))
      expect(sold.status).toBe(200)
      // a UUID, as the official document types the transaction id
      expect(sold.json).toMatchObject({
        type: "exchange",
        state: "completed",
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      })
      const bought = yield* exchange({
        from: { account_id: seed.accounts[0]!.id, currency: "GBP" },
        to: { account_id: seed.accounts[1]!.id, currency: "EUR", amount: 117 },
        request_id: "buy-1"
      })
      expect(bought.json).toMatchObject({ state: "completed" })
    })
  )

  it.effect("validates the body with @payrules/exchange: each rule at its path (400)", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{ ...sell(seed, "v1", 10), to: { ...sell(seed, "v1", 10).to, amount: 5 } }, "to.amount"],
        [{ ...sell(seed, "v2", 10), from: { ...sell(seed, "v2", 10).from, amount: undefined } }, "from.amount"],
        [sell(seed, "v3", 10.123), "from.amount"],
        [sell(seed, "v4", 0), "from.amount"],
        [sell(seed, "x".repeat(41), 10), "request_id"],
        [sell(seed, "v6", 10, 0, 7), "to.currency"]
      ]
      for (const [body, path] of cases) {
        const r = yield* exchange(body)
        expect(r.status).toBe(400)
        expect(r.json).toMatchObject({ code: 3000, message: expect.stringContaining(path) })
      }
    })
  )

  it.effect("requires an exchange reason above the threshold (3448), from the published list (3449)", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const big = yield* exchange(sell(seed, "big-1", 20_000))
      expect(big.status).toBe(400)
      expect(big.json).toMatchObject({ code: 3448 })
      const unknown = yield* exchange(sell(seed, "big-2", 20_000, 0, 1, { exchange_reason_code: "lottery" }))
      expect(unknown.json).toMatchObject({ code: 3449 })
      const ok = yield* exchange(sell(seed, "big-3", 20_000, 0, 1, { exchange_reason_code: "supplier_payment" }))
      expect(ok.status).toBe(200)
      const reasons = yield* Effect.flatMap(server, (s) =>
        call(`${s.urls.business}/exchange-reasons`, { headers: authOf(s) })
      )
      expect(reasons.json).toEqual(expect.arrayContaining([{ code: "supplier_payment", name: "Paying a supplier" }]))
    })
  )

  it.effect("declines on insufficient balance, with a reason_code", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const r = yield* exchange(sell(seed, "poor-1", 100, 7, 1))
      expect(r.status).toBe(200)
      expect(r.json).toMatchObject({ state: "declined", reason_code: "insufficient_balance" })
    })
  )

  it.effect(
    "a repeated request_id with the same body replays the first answer (Idempotent-Replayed), no new transaction",
    () =>
      Effect.gen(function* () {
        const seed = yield* seedOf
        const first = yield* exchange(sell(seed, "dup-1", 25))
        expect(first.headers.get("idempotent-replayed")).toBeNull()
        const again = yield* exchange(sell(seed, "dup-1", 25))
        expect(again.status).toBe(200)
        expect(again.headers.get("idempotent-replayed")).toBe("true")
        expect(again.json).toEqual(first.json)
        const other = yield* exchange(sell(seed, "dup-1", 26))
        expect(other.status).toBe(400)
        expect(other.json).toMatchObject({ code: 3021 })
        const ledger = yield* Effect.flatMap(server, (s) => call(`${s.urls.control}/ledger`))
        expect(ledger.json).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ request_id: "dup-1", received: 3, transactions: 1, conflicts: 1 })
          ])
        )
        const found = yield* Effect.flatMap(server, (s) =>
          call(`${s.urls.business}/transactions?request_id=dup-1`, { headers: authOf(s) })
        )
        expect(found.json).toEqual([first.json])
        const none = yield* Effect.flatMap(server, (s) =>
          call(`${s.urls.business}/transactions?request_id=never`, { headers: authOf(s) })
        )
        expect(none.json).toEqual([])
      })
  )

  it.effect("401 without a token; 400 for a body that is not JSON", () =>
    Effect.gen(function* () {
      const s = yield* server
      const seed = yield* seedOf
      expect((yield* postJson(`${s.urls.business}/exchange`, sell(seed, "a-1", 1), {})).status).toBe(401)
      const bad = yield* postJson(`${s.urls.business}/exchange`, "{not json")
      expect(bad.status).toBe(400)
      expect(bad.json).toMatchObject({ code: 3000, message: "the request body is not valid JSON" })
    })
  )
})

layerBlock(() => Sandbox.layer({ seed: 12, plans: 15, exchange: { duplicates: "error" } }))(
  "sandbox: duplicates as errors",
  (it) => {
    it.effect("a repeated request_id answers 400 code 3020 Duplicate request, and still no second transaction", () =>
      Effect.gen(function* () {
        const seed = yield* seedOf
        expect((yield* exchange(sell(seed, "e-1", 10))).status).toBe(200)
        const again = yield* exchange(sell(seed, "e-1", 10))
        expect(again.status).toBe(400)
        expect(again.json).toEqual({ code: 3020, message: "Duplicate request" })
      })
    )
  }
)

describe("sandbox: exchange states over time", () => {
  const other = (settlement: { pendingAfterMs: number; completedAfterMs: number }) =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      // account 6 is at another institution: its exchanges settle over time
      const r = yield* exchange(sell(seed, "slow-1", 10, 0, 6))
      return r.json as { state: string; completed_at?: string }
    }).pipe(Effect.provide(Sandbox.layer({ seed: 13, plans: 15, exchange: { settlement } })))

  layerBlock(() => Sandbox.layer({ seed: 13, plans: 15 }))("with another institution", (it) => {
    it.effect("created, then pending, then completed on the configured schedule (D5 path)", () =>
      Effect.gen(function* () {
        expect((yield* other({ pendingAfterMs: 3_600_000, completedAfterMs: 7_200_000 })).state).toBe("created")
        expect((yield* other({ pendingAfterMs: 0, completedAfterMs: 7_200_000 })).state).toBe("pending")
        const done = yield* other({ pendingAfterMs: 0, completedAfterMs: 0 })
        expect(done.state).toBe("completed")
        expect(done.completed_at).toBeDefined()
      })
    )
  })
})
