/**
 * BusinessClient.resumePending and the PayFieldsLimiter service, against the sandbox in this process: the ledger's
 * pending exchanges are looked up, sent again when the server has none, and reported; a limiter of the context
 * replaces the client's own.
 */
import { describe, expect, it } from "@effect/vitest"
import { type ExchangeRequest, RequestLedger } from "@payrules/exchange"
import { Sandbox } from "@payrules/sandbox"
import { BusinessClient, PayFieldsLimiter } from "@payrules/transport"
import * as VirtualTime from "@payrules/vitest/VirtualTime"
import { BigDecimal, Duration, Effect, Exit, Fiber, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { control, fastRetry, type Seed, setFaults, tenantToken } from "./layers.js"

type Currency = BusinessClient.ExchangeInput["from"]["currency"]

const sell = (seed: Seed, amount: string, requestId: string): BusinessClient.ExchangeInput => ({
  _tag: "Sell",
  from: { account_id: seed.accounts[0]!.id, currency: seed.accounts[0]!.currency as Currency },
  to: { account_id: seed.accounts[1]!.id, currency: seed.accounts[1]!.currency as Currency },
  amount: BigDecimal.fromStringUnsafe(amount),
  request_id: requestId
})

const asRequest = (input: BusinessClient.ExchangeInput) => input as ExchangeRequest.ExchangeRequest

/** the client with one ledger for the test, over the sandbox in this process */
const withClient = (extra: Layer.Layer<never> = Layer.empty) =>
  Layer.unwrap(
    Effect.map(Sandbox.SandboxServer, (s) =>
      BusinessClient.layer({
        ...BusinessClient.defaults,
        baseUrl: s.urls.business,
        token: tenantToken(s),
        timeout: "1 second",
        retry: fastRetry,
        exchangeRetry: fastRetry
      })
    )
  ).pipe(
    Layer.provideMerge(RequestLedger.layer),
    Layer.provide(extra),
    Layer.provideMerge(Sandbox.layerInProcess({ seed: 41, plans: 15 }))
  )

interface LedgerEntry {
  readonly request_id: string
  readonly received: number
  readonly transactions: number
}

describe("BusinessClient.resumePending (in process, TestClock)", () => {
  it.effect("settles what the ledger holds pending: found on the server, sent again, refused; nothing twice", () =>
    Effect.gen(function* () {
      const client = yield* BusinessClient.BusinessClient
      const ledger = yield* RequestLedger.RequestLedger
      const seed = yield* control<Seed>("/seed")
      // 1. its answers lost, and the lookups failing: the call ends unknown, the server holds the transaction
      yield* setFaults([
        { operation: "exchange", kind: "drop-after", count: 4 },
        { operation: "findTransactions", kind: "fail-before", count: 4 }
      ])
      const lost = yield* Effect.flip(client.exchange(sell(seed, "3", "resume-lost")))
      expect(lost._tag).toBe("ExchangeOutcomeUnknown")
      yield* setFaults([])
      // 2. registered, never sent (a process that stopped before sending)
      yield* ledger.register(asRequest(sell(seed, "4", "resume-unsent")))
      // 3. registered, never sent, and refused by the server when sent: 20,000 GBP with no exchange reason
      yield* ledger.register(asRequest(sell(seed, "20000", "resume-refused")))
      // 4. settled: not pending
      yield* client.exchange(sell(seed, "5", "resume-done"))

      expect((yield* ledger.pending).map((e) => [e.requestId, e.state])).toEqual([
        ["resume-lost", "unknown"],
        ["resume-unsent", "in-flight"],
        ["resume-refused", "in-flight"]
      ])
      const summary = yield* client.resumePending()
      expect(summary).toMatchObject({ pending: 3, found: 1, sent: 1, refused: 1, unknown: 0 })
      expect(summary.results.map((r) => [r._tag, r.requestId])).toEqual([
        ["Found", "resume-lost"],
        ["Sent", "resume-unsent"],
        ["Refused", "resume-refused"]
      ])
      const refused = summary.results[2]!
      if (refused._tag === "Refused") expect(refused.error).toMatchObject({ body: { code: 3448 } })
      expect(yield* ledger.pending).toEqual([])
      // the refusal stored nothing: the id is free again
      expect(yield* ledger.lookup("resume-refused")).toEqual(Option.none())
      const onServer = new Map(
        (yield* control<ReadonlyArray<LedgerEntry>>("/ledger")).map((e) => [e.request_id, e.transactions])
      )
      expect([...onServer.entries()].filter(([id]) => id.startsWith("resume-")).sort()).toEqual([
        ["resume-done", 1],
        ["resume-lost", 1],
        ["resume-unsent", 1]
      ])
      // a second resume finds nothing to do
      expect(yield* client.resumePending()).toMatchObject({ pending: 0, results: [] })
    }).pipe(Effect.provide(withClient()), VirtualTime.run)
  )

  it.effect("olderThan leaves the exchanges registered more recently (calls that may still be running elsewhere)", () =>
    Effect.gen(function* () {
      const client = yield* BusinessClient.BusinessClient
      const ledger = yield* RequestLedger.RequestLedger
      const seed = yield* control<Seed>("/seed")
      yield* ledger.register(asRequest(sell(seed, "1", "old-one")))
      yield* TestClock.adjust("10 minutes")
      yield* ledger.register(asRequest(sell(seed, "1", "new-one")))
      const summary = yield* client.resumePending({ olderThan: "5 minutes" })
      expect(summary.results.map((r) => [r._tag, r.requestId])).toEqual([["Sent", "old-one"]])
      expect((yield* ledger.pending).map((e) => e.requestId)).toEqual(["new-one"])
    }).pipe(Effect.provide(withClient()))
  )

  it.effect("while the server stays faulty, what it cannot settle is reported Unknown and stays pending", () =>
    Effect.gen(function* () {
      const client = yield* BusinessClient.BusinessClient
      const ledger = yield* RequestLedger.RequestLedger
      const seed = yield* control<Seed>("/seed")
      yield* ledger.register(asRequest(sell(seed, "1", "stuck")))
      yield* setFaults([{ operation: "*", kind: "fail-before", status: 503, probability: 1 }])
      const summary = yield* Effect.forkChild(client.resumePending())
      yield* TestClock.adjust("5 minutes")
      const result = yield* Fiber.await(summary)
      expect(result._tag).toBe("Success")
      if (result._tag === "Success") expect(result.value).toMatchObject({ pending: 1, unknown: 1 })
      expect((yield* ledger.pending).map((e) => e.requestId)).toEqual(["stuck"])
    }).pipe(Effect.provide(withClient()))
  )
})

describe("the PayFieldsLimiter of the context", () => {
  const seeded = Effect.gen(function* () {
    const seed = yield* control<{
      accounts: ReadonlyArray<{ id: string }>
      counterparties: ReadonlyArray<{
        id: string
        accounts: ReadonlyArray<unknown>
        cards: ReadonlyArray<{ id: string }>
      }>
    }>("/seed")
    const card = seed.counterparties.find((c) => c.cards.length > 0 && c.accounts.length === 0)!
    return { account_id: seed.accounts[0]!.id, receiver: { counterparty_id: card.id, card_id: card.cards[0]!.id } }
  })

  it.effect("takes a permit from it for every attempt", () => {
    let taken = 0
    const counting = Layer.succeed(PayFieldsLimiter.PayFieldsLimiter, {
      take: Effect.sync(() => {
        taken++
      })
    })
    return Effect.gen(function* () {
      const client = yield* BusinessClient.BusinessClient
      const request = yield* seeded
      yield* setFaults([{ operation: "transferFieldRequirements", kind: "fail-before", status: 503, count: 1 }])
      yield* client.transferFieldRequirements(request)
      yield* client.transferFieldRequirements(request)
      expect(taken).toBe(3)
    }).pipe(Effect.provide(withClient(counting)), VirtualTime.run)
  })

  it.effect("a limiter that fails ends the call with PayFieldsLimiterError, and nothing is sent", () => {
    const failing = Layer.succeed(PayFieldsLimiter.PayFieldsLimiter, {
      take: Effect.fail(new PayFieldsLimiter.PayFieldsLimiterError({ reason: "StoreFailed", message: "Redis is down" }))
    })
    return Effect.gen(function* () {
      const client = yield* BusinessClient.BusinessClient
      const request = yield* seeded
      const error = yield* Effect.flip(client.transferFieldRequirements(request))
      expect(error).toMatchObject({ _tag: "PayFieldsLimiterError", reason: "StoreFailed" })
      const log = yield* control<ReadonlyArray<{ operation: string | null }>>("/requests")
      expect(log.filter((r) => r.operation === "transferFieldRequirements")).toEqual([])
    }).pipe(Effect.provide(withClient(failing)))
  })

  it.effect("the in-process layer keeps the production numbers' token bucket", () =>
    Effect.gen(function* () {
      expect(PayFieldsLimiter.tokenBucketFor(450, Duration.minutes(1))).toMatchObject({ limit: 10, worstCase: 448 })
      expect(BusinessClient.tokenBucketFor).toBe(PayFieldsLimiter.tokenBucketFor)
      const limiter = yield* PayFieldsLimiter.PayFieldsLimiter
      const fiber = yield* Effect.forkChild(Effect.forEach(Array.from({ length: 12 }), () => limiter.take))
      yield* TestClock.adjust(Duration.millis(136))
      // the burst of 10 went at once; the 11th waits for a refill of 10 × 137 ms
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.millis(2 * 137))
      expect(Exit.isSuccess(yield* Fiber.await(fiber))).toBe(true)
    }).pipe(Effect.provide(PayFieldsLimiter.layer()))
  )
})
