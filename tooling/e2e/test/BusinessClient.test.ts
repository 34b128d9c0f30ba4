import { expect, layer } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { Sandbox } from "@payrules/sandbox"
import { BusinessClient } from "@payrules/transport"
import { BigDecimal, Effect, Layer, Option, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { control, type Seed, setFaults, withSandbox } from "./layers.js"

type Currency = BusinessClient.ExchangeInput["from"]["currency"]

const sell = (seed: Seed, amount: string, requestId?: string): BusinessClient.ExchangeInput => ({
  _tag: "Sell",
  from: { account_id: seed.accounts[0]!.id, currency: seed.accounts[0]!.currency as Currency },
  to: { account_id: seed.accounts[1]!.id, currency: seed.accounts[1]!.currency as Currency },
  amount: BigDecimal.fromStringUnsafe(amount),
  ...(requestId === undefined ? {} : { request_id: requestId })
})

interface LedgerEntry {
  readonly request_id: string
  readonly received: number
  readonly transactions: number
}

/** the answers of the next four exchange attempts (all a client makes) are lost, and the lookups fail too */
const loseEveryAnswer = setFaults([
  { operation: "exchange", kind: "drop-after", count: 4 },
  { operation: "findTransactions", kind: "fail-before", count: 4 }
])

layer(withSandbox({ seed: 31, plans: 15 }), { excludeTestServices: true })(
  "BusinessClient against the sandbox",
  (it) => {
    it.effect("exchanges, lists reasons and finds a transaction by request_id", () =>
      Effect.gen(function* () {
        const client = yield* BusinessClient.BusinessClient
        const seed = yield* control<Seed>("/seed")
        const { findings, transaction: tx } = yield* client.exchange(sell(seed, "12.34", "happy-1"))
        expect(tx.state).toBe("completed")
        expect(findings).toEqual([])
        const found = yield* client.findTransactionByRequestId("happy-1")
        expect(Option.map(found.transaction, (t) => t.id)).toEqual(Option.some(tx.id))
        expect((yield* client.findTransactionByRequestId("nobody")).transaction).toEqual(Option.none())
        const reasons = yield* client.exchangeReasons
        expect(reasons.reasons.map((r) => r.code)).toContain("supplier_payment")
        expect(reasons.findings).toEqual([])
      })
    )

    it.effect("creates the request_id once per call when none is given", () =>
      Effect.gen(function* () {
        const client = yield* BusinessClient.BusinessClient
        const seed = yield* control<Seed>("/seed")
        yield* setFaults([{ operation: "exchange", kind: "fail-before", count: 2 }])
        const tx = yield* client.exchange(sell(seed, "5"))
        expect(tx.transaction.state).toBe("completed")
        const ledger = yield* control<ReadonlyArray<LedgerEntry>>("/ledger")
        const entry = ledger.find(
          (e) =>
            e.transactions === 1 &&
            ledger.filter((x) => x.request_id === e.request_id).length === 1 &&
            /^[0-9a-f-]{36}$/.test(e.request_id)
        )
        expect(entry).toBeDefined()
      })
    )

    it.effect("each declared error status surfaces as its tagged reason", () =>
      Effect.gen(function* () {
        const client = yield* BusinessClient.BusinessClient
        const seed = yield* control<Seed>("/seed")
        const reasonOf = (e: unknown) => e as { reason: string; status: number | undefined }
        const big = yield* Effect.flip(client.exchange(sell(seed, "50000", "too-big")))
        expect(big._tag).toBe("BusinessClientError")
        expect(reasonOf(big)).toMatchObject({ reason: "BadRequest", status: 400 })
        expect((big as BusinessClient.BusinessClientError).body).toMatchObject({ code: 3448 })
        yield* setFaults([{ operation: "exchangeReasons", kind: "rate-limit", count: 10, retryAfterSeconds: 0 }])
        expect(reasonOf(yield* Effect.flip(client.exchangeReasons))).toMatchObject({
          reason: "TooManyRequests",
          status: 429
        })
        yield* setFaults([{ operation: "exchangeReasons", kind: "fail-before", count: 10 }])
        expect(reasonOf(yield* Effect.flip(client.exchangeReasons))).toMatchObject({
          reason: "ServerError",
          status: 503
        })
        yield* setFaults([])
        const s = yield* Sandbox.SandboxServer
        const anonymous = yield* Effect.provide(
          BusinessClient.BusinessClient,
          BusinessClient.layer({ ...BusinessClient.defaults, baseUrl: s.urls.business, token: Redacted.make("") }).pipe(
            Layer.provide([FetchHttpClient.layer, RequestLedger.layer])
          )
        )
        expect(reasonOf(yield* Effect.flip(anonymous.exchangeReasons))).toMatchObject({
          reason: "Unauthorized",
          status: 401
        })
      })
    )

    it.effect(
      "when every attempt is lost and the lookup fails too: ExchangeOutcomeUnknown, then one transaction on resume",
      () =>
        Effect.gen(function* () {
          const client = yield* BusinessClient.BusinessClient
          const seed = yield* control<Seed>("/seed")
          yield* loseEveryAnswer
          const request = sell(seed, "3", "lost-1")
          const unknown = yield* Effect.flip(client.exchange(request))
          expect(unknown._tag).toBe("ExchangeOutcomeUnknown")
          expect(unknown).toMatchObject({ requestId: "lost-1", attempts: 4 })
          expect(unknown.message).toContain("call exchange again with the same request_id")
          const resumed = yield* client.exchange(request)
          expect(resumed.transaction.state).toBe("completed")
          const ledger = yield* control<ReadonlyArray<LedgerEntry>>("/ledger")
          expect(ledger.find((x) => x.request_id === "lost-1")).toMatchObject({ received: 5, transactions: 1 })
        })
    )

    it.effect(
      "issue 14's reproduction: a refused exchange whose answer was lost ends with the refusal 3448 on the first resume; the corrected body then succeeds with the same request_id",
      () =>
        Effect.gen(function* () {
          const client = yield* BusinessClient.BusinessClient
          const seed = yield* control<Seed>("/seed")
          // every attempt of the first call is processed (refused: no exchange reason) and its answer lost, and the
          // lookup fails too: the client cannot tell what happened
          yield* loseEveryAnswer
          const request = sell(seed, "20000", "repro-14")
          const first = yield* Effect.flip(client.exchange(request))
          expect(first).toMatchObject({ _tag: "ExchangeOutcomeUnknown", requestId: "repro-14" })
          // the faults are spent: the first resume gets the refusal, definite and typed, with the server's code
          const resumed = yield* Effect.flip(client.exchange(request))
          expect(resumed).toMatchObject({ _tag: "BusinessClientError", reason: "BadRequest", body: { code: 3448 } })
          // a refusal before execution stored nothing: the same request_id carries the corrected body
          const corrected = yield* client.exchange({ ...request, exchange_reason_code: "supplier_payment" })
          expect(corrected.transaction.state).toBe("completed")
          const ledger = yield* control<ReadonlyArray<LedgerEntry>>("/ledger")
          expect(ledger.find((x) => x.request_id === "repro-14")).toMatchObject({ received: 1, transactions: 1 })
        })
    )

    it.effect("with one lost answer, the retry gets the refusal itself: the call ends with 3448, not unknown", () =>
      Effect.gen(function* () {
        const client = yield* BusinessClient.BusinessClient
        const seed = yield* control<Seed>("/seed")
        yield* setFaults([{ operation: "exchange", kind: "drop-after", count: 1 }])
        const refused = yield* Effect.flip(client.exchange(sell(seed, "20000", "repro-14b")))
        expect(refused).toMatchObject({ _tag: "BusinessClientError", body: { code: 3448 }, replayed: false })
        const again = yield* Effect.flip(client.exchange(sell(seed, "20000", "repro-14b")))
        expect(again).toMatchObject({ _tag: "BusinessClientError", body: { code: 3448 } })
      })
    )

    it.effect("refuses a reused request_id with a different body before sending anything", () =>
      Effect.gen(function* () {
        const client = yield* BusinessClient.BusinessClient
        const seed = yield* control<Seed>("/seed")
        yield* client.exchange(sell(seed, "1", "reuse-1"))
        const e = yield* Effect.flip(client.exchange(sell(seed, "2", "reuse-1")))
        expect(e._tag).toBe("RequestIdConflict")
        const ledger = yield* control<ReadonlyArray<LedgerEntry>>("/ledger")
        expect(ledger.find((x) => x.request_id === "reuse-1")).toMatchObject({ received: 1, transactions: 1 })
      })
    )
  }
)
