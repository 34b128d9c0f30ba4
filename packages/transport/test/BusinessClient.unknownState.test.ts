/**
 * Issue 34, done-when 2: `BusinessClient.exchange` against a server answering a state added to the API since
 * ("held") returns the transaction with an unknown state and a finding; the request_id ledger records it as settled;
 * `resumePending` does not send it again. The lists the client reads (GET /transactions, GET /exchange-reasons) keep
 * their readable items. A fake server (an HttpClient that answers in process), on the TestClock.
 */
import { describe, expect, it } from "@effect/vitest"
import { ExchangeRequest, ExchangeState, RequestLedger } from "@payrules/exchange"
import { BusinessClient } from "@payrules/transport"
import { BigDecimal, Effect, Fiber, Layer, Option, Redacted, Result } from "effect"
import { HttpClient, HttpClientError, type HttpClientRequest, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"

interface Seen {
  readonly method: string
  readonly path: string
  readonly body: string
}

type Answer = Response | "drop"

const fake = (answer: (seen: Seen) => Answer) => {
  const seen: Array<Seen> = []
  const http = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request: HttpClientRequest.HttpClientRequest, url) =>
      Effect.suspend(() => {
        const body = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
        const s = { method: request.method, path: url.pathname, body }
        seen.push(s)
        const a = answer(s)
        if (a === "drop") {
          return Effect.fail(
            new HttpClientError.HttpClientError({
              reason: new HttpClientError.TransportError({ request, description: "dropped" })
            })
          )
        }
        return Effect.succeed(HttpClientResponse.fromWeb(request, a))
      })
    )
  )
  const posts = () => seen.filter((s) => s.method === "POST").length
  return { seen, http, posts }
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

/** a client and the ledger it records in (in memory), on one fake server */
const setup = (http: Layer.Layer<HttpClient.HttpClient>, config: Partial<BusinessClient.BusinessClientConfig> = {}) =>
  Effect.gen(function* () {
    const ledger = yield* RequestLedger.make()
    const business = yield* Effect.provide(
      BusinessClient.BusinessClient,
      BusinessClient.layer({
        ...BusinessClient.defaults,
        baseUrl: "http://business.test",
        token: Redacted.make("t"),
        ...config
      }).pipe(Layer.provide([http, Layer.succeed(RequestLedger.RequestLedger, ledger)]))
    )
    return { business, ledger }
  })

const heldTx = {
  id: "8b0d3f3e-0c3a-4d59-9a4e-8f5c1f2b7a10",
  type: "exchange",
  state: "held",
  created_at: "2026-11-26T03:00:00Z"
}
const unknownHeld = { _tag: "Unknown", value: "held" }
const heldFinding = {
  severity: "warning",
  rule: "UnknownValue",
  path: ["state"],
  raw: "held",
  message: expect.stringContaining('state "held" is not a state this version of payrules knows')
}

const sellInput = (requestId: string): BusinessClient.ExchangeInput =>
  ({
    _tag: "Sell",
    from: { account_id: "a", currency: "GBP" },
    to: { account_id: "b", currency: "EUR" },
    amount: BigDecimal.fromStringUnsafe("10"),
    request_id: requestId
  }) as BusinessClient.ExchangeInput

const noRetry = { maxAttempts: 1, baseDelay: 10, maxDelay: 10, minSpacing: 0 }

describe("BusinessClient.exchange: a transaction in a state added since (held)", () => {
  it.effect(
    "no longer reports a failure or an unknown outcome although the money moved: the transaction, its unknown state and a finding",
    () =>
      Effect.gen(function* () {
        const server = fake(() => json(heldTx))
        const { business, ledger } = yield* setup(server.http)
        const result = yield* business.exchange(sellInput("held-1"))
        expect(result.requestId).toBe("held-1")
        expect(result.transaction.id).toBe(heldTx.id)
        expect(result.transaction.state).toEqual(unknownHeld)
        expect(result.transaction.state !== undefined && ExchangeState.isUnknown(result.transaction.state)).toBe(true)
        expect(result.findings).toEqual([heldFinding])
        // the ledger records it as settled, with its unknown state
        const entry = Option.getOrThrow(yield* ledger.lookup("held-1"))
        expect(entry.state).toBe("succeeded")
        expect(entry.outcome).toEqual(Option.some(RequestLedger.Outcome.Succeeded({ transaction: result.transaction })))
        expect(yield* ledger.pending).toEqual([])
        expect(server.posts()).toBe(1)
      })
  )

  it.effect("resumePending does not send it again, and a repeat answers from the ledger with the same finding", () =>
    Effect.gen(function* () {
      const server = fake(() => json(heldTx))
      const { business } = yield* setup(server.http)
      yield* business.exchange(sellInput("held-2"))
      const before = server.seen.length
      expect(yield* business.resumePending()).toEqual({
        pending: 0,
        found: 0,
        sent: 0,
        refused: 0,
        unknown: 0,
        results: []
      })
      const again = yield* business.exchange(sellInput("held-2"))
      expect(again.transaction.state).toEqual(unknownHeld)
      expect(again.findings).toEqual([heldFinding])
      expect(server.seen.length).toBe(before)
    })
  )

  it.effect("a lost answer whose lookup by request_id finds a held transaction settles the exchange (TestClock)", () =>
    Effect.gen(function* () {
      const server = fake((s) => (s.method === "POST" ? "drop" : json([heldTx])))
      const { business, ledger } = yield* setup(server.http, { exchangeRetry: { ...noRetry, maxAttempts: 2 } })
      const fiber = yield* Effect.forkChild(business.exchange(sellInput("held-3")))
      yield* TestClock.adjust("1 second")
      const result = yield* Fiber.join(fiber)
      expect(result.transaction.state).toEqual(unknownHeld)
      expect(result.findings).toEqual([heldFinding])
      expect(server.posts()).toBe(2)
      expect(Option.getOrThrow(yield* ledger.lookup("held-3")).state).toBe("succeeded")
      expect(yield* ledger.pending).toEqual([])
    })
  )
})

describe("BusinessClient.resumePending: a pending exchange whose lookup finds a held transaction", () => {
  it.effect("is settled as Found, with its findings; nothing is sent, and it is no longer pending", () =>
    Effect.gen(function* () {
      // a bad item beside it in the answer: the list keeps the readable one, and reports the other
      const server = fake(() => json([{ id: 7 }, heldTx]))
      const { business, ledger } = yield* setup(server.http)
      // an exchange of a process that stopped before the answer: registered, no outcome
      const request = Result.getOrThrow(
        ExchangeRequest.parse({
          from: { account_id: "a", currency: "GBP", amount: 10 },
          to: { account_id: "b", currency: "EUR" },
          request_id: "held-4"
        })
      )
      yield* ledger.register(request)
      expect((yield* ledger.pending).map((e) => e.requestId)).toEqual(["held-4"])
      const summary = yield* business.resumePending()
      expect(summary).toMatchObject({ pending: 1, found: 1, sent: 0, refused: 0, unknown: 0 })
      const found = summary.results[0]!
      expect(found._tag).toBe("Found")
      if (found._tag === "Found") {
        expect(found.transaction.state).toEqual(unknownHeld)
        expect(found.findings).toEqual([
          heldFinding,
          expect.objectContaining({ rule: "UnreadableItem", path: ["lookup", 0, "id"], index: 0, raw: { id: 7 } })
        ])
      }
      expect(server.posts()).toBe(0)
      expect(Option.getOrThrow(yield* ledger.lookup("held-4")).state).toBe("succeeded")
      expect(yield* ledger.pending).toEqual([])
      // and a second resume has nothing left to do
      expect((yield* business.resumePending()).pending).toBe(0)
      expect(server.posts()).toBe(0)
    })
  )
})

describe("the lists the business client reads keep their readable items", () => {
  it.effect("GET /transactions: one undecodable transaction no longer hides the one that reads", () =>
    Effect.gen(function* () {
      const server = fake(() => json([{ id: 7 }, heldTx]))
      const { business } = yield* setup(server.http)
      const lookup = yield* business.findTransactionByRequestId("held-5")
      expect(lookup.requestId).toBe("held-5")
      expect(Option.map(lookup.transaction, (t) => t.state)).toEqual(Option.some(unknownHeld))
      expect(lookup.transactions.map((t) => t.id)).toEqual([heldTx.id])
      expect(lookup.findings).toEqual([
        expect.objectContaining({ rule: "UnreadableItem", path: [0, "id"], index: 0, raw: { id: 7 } }),
        { ...heldFinding, path: [1, "state"] }
      ])
    })
  )

  it.effect("GET /transactions: an answer with no readable transaction finds none, and says why", () =>
    Effect.gen(function* () {
      const server = fake(() => json([{ state: "" }]))
      const { business } = yield* setup(server.http)
      const lookup = yield* business.findTransactionByRequestId("held-6")
      expect(lookup.transaction).toEqual(Option.none())
      expect(lookup.findings).toMatchObject([{ rule: "UnreadableItem", path: [0, "state"], index: 0 }])
    })
  )

  it.effect("GET /exchange-reasons: a reason without a code no longer costs the caller the others", () =>
    Effect.gen(function* () {
      const good = { code: "supplier_payment", name: "Paying a supplier" }
      const server = fake(() => json([{ name: "no code" }, good, { code: "gift_2027", name: "added since" }]))
      const { business } = yield* setup(server.http)
      const read = yield* business.exchangeReasons
      expect(read.reasons).toEqual([good, { code: "gift_2027", name: "added since" }])
      expect(read.findings).toEqual([
        expect.objectContaining({ rule: "UnreadableItem", path: [0, "code"], index: 0, raw: { name: "no code" } })
      ])
    })
  )

  it.effect("an answer that is not a list is still a Decode error: the envelope stays strict", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ reasons: [] }))
      const { business } = yield* setup(server.http, { retry: noRetry })
      const e = yield* Effect.flip(business.exchangeReasons)
      expect(e.reason).toBe("Decode")
    })
  )
})
