import { describe, expect, it, layer } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { Sandbox } from "@payrules/sandbox"
import { BusinessClient, MerchantClient, OpenBankingClient } from "@payrules/transport"
import { BigDecimal, ConfigProvider, Duration, Effect, Fiber, Layer, Option, Redacted } from "effect"
import { FetchHttpClient, HttpClient, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import { control, fastRetry, type Seed, setFaults, tenantToken } from "./layers.js"

const sell = (seed: Seed, requestId: string): BusinessClient.ExchangeInput => ({
  _tag: "Sell",
  from: { account_id: seed.accounts[0]!.id, currency: "GBP" as never },
  to: { account_id: seed.accounts[1]!.id, currency: "EUR" as never },
  amount: BigDecimal.fromStringUnsafe("2"),
  request_id: requestId
})

describe("client configuration", () => {
  it.effect("layerConfig reads each family from the environment, the token as a redacted value", () =>
    Effect.gen(function* () {
      const provider = ConfigProvider.fromEnvRecord({
        BUSINESS_BASE_URL: "https://b.example",
        BUSINESS_TOKEN: "secret-b",
        BUSINESS_MAX_ATTEMPTS: "5",
        MERCHANT_BASE_URL: "https://m.example",
        MERCHANT_TOKEN: "secret-m",
        OPEN_BANKING_BASE_URL: "https://ob.example",
        OPEN_BANKING_TOKEN: "secret-ob",
        OPEN_BANKING_FINANCIAL_ID: "001580000103UAvAAM"
      })
      const business = yield* BusinessClient.config.parse(provider)
      expect(business.baseUrl).toBe("https://b.example")
      expect(Redacted.value(business.token)).toBe("secret-b")
      expect(String(business.token)).not.toContain("secret-b")
      expect(business.exchangeRetry).toMatchObject({ maxAttempts: 5, minSpacing: Duration.seconds(1) })
      expect((yield* MerchantClient.config.parse(provider)).apiVersion).toBe("2024-09-01")
      expect((yield* OpenBankingClient.config.parse(provider)).financialId).toBe("001580000103UAvAAM")
      const built = yield* Effect.provide(
        BusinessClient.BusinessClient,
        BusinessClient.layerConfig().pipe(
          Layer.provide([FetchHttpClient.layer, RequestLedger.layer]),
          Layer.provide(ConfigProvider.layer(provider))
        )
      )
      expect(typeof built.exchange).toBe("function")
    })
  )
})

describe("POST /exchange spacing", () => {
  it.effect("retries of an exchange are at least 1 s apart, with the same request_id", () =>
    Effect.gen(function* () {
      const sent: Array<{ readonly body: string }> = []
      const http = Layer.succeed(
        HttpClient.HttpClient,
        HttpClient.make((request) =>
          Effect.sync(() => {
            sent.push({ body: new TextDecoder().decode((request.body as { body: Uint8Array }).body) })
            return HttpClientResponse.fromWeb(
              request,
              sent.length < 3
                ? Response.json({ code: 9503, message: "unavailable" }, { status: 503 })
                : Response.json({ id: "tx_1", type: "exchange", state: "completed" })
            )
          })
        )
      )
      const client = yield* Effect.provide(
        BusinessClient.BusinessClient,
        BusinessClient.layer({
          ...BusinessClient.defaults,
          baseUrl: "http://business.test",
          token: Redacted.make("t")
        }).pipe(Layer.provide([http, RequestLedger.layer]))
      )
      const fiber = yield* Effect.forkChild(
        client.exchange(
          sell(
            {
              accounts: [
                { id: "a", currency: "GBP", institution: "same" },
                { id: "b", currency: "EUR", institution: "same" }
              ]
            },
            "spaced-1"
          )
        )
      )
      yield* TestClock.adjust(Duration.millis(999))
      expect(sent).toHaveLength(1)
      yield* TestClock.adjust(Duration.millis(1))
      expect(sent).toHaveLength(2)
      yield* TestClock.adjust(Duration.millis(999))
      expect(sent).toHaveLength(2)
      yield* TestClock.adjust(Duration.seconds(5))
      const tx = yield* Fiber.join(fiber)
      expect(tx.transaction.state).toBe("completed")
      expect(new Set(sent.map((s) => s.body)).size).toBe(1)
      expect(JSON.parse(sent[0]!.body)).toMatchObject({ request_id: "spaced-1" })
    })
  )
})

const tokenless = (s: Sandbox.Running) =>
  Layer.mergeAll(
    MerchantClient.layer({
      ...MerchantClient.defaults,
      baseUrl: s.urls.merchant,
      token: Redacted.make(""),
      retry: fastRetry
    }),
    OpenBankingClient.layer({
      ...OpenBankingClient.defaults,
      baseUrl: s.urls.openBanking,
      token: Redacted.make(""),
      financialId: "001580000103UAvAAM",
      retry: fastRetry
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))

const duplicatesAsErrors = Layer.unwrap(
  Effect.map(Sandbox.SandboxServer, (s) =>
    BusinessClient.layer({
      ...BusinessClient.defaults,
      baseUrl: s.urls.business,
      token: tenantToken(s),
      timeout: Duration.seconds(1),
      retry: fastRetry,
      exchangeRetry: fastRetry
    })
  )
).pipe(
  Layer.provide(RequestLedger.layer),
  Layer.provideMerge(FetchHttpClient.layer),
  Layer.provideMerge(Sandbox.layer({ seed: 82, plans: 15, exchange: { duplicates: "error" } }))
)

// one sandbox for the file, one that answers repeats with 3020 (the tests do not interfere)
layer(duplicatesAsErrors, { excludeTestServices: true })("against a sandbox", (it) => {
  it.effect("401 surfaces as Unauthorized in the merchant and Open Banking clients", () =>
    Effect.gen(function* () {
      const s = yield* Sandbox.SandboxServer
      const { merchant, openBanking } = yield* Effect.all({
        merchant: MerchantClient.MerchantClient,
        openBanking: OpenBankingClient.OpenBankingClient
      }).pipe(Effect.provide(tokenless(s)))
      expect(yield* Effect.flip(merchant.listSubscriptionPlansPage({}))).toMatchObject({
        reason: "Unauthorized",
        status: 401,
        body: { code: "unauthorized" }
      })
      expect(yield* Effect.flip(openBanking.getInternationalPayment("ip_x"))).toMatchObject({
        reason: "Unauthorized",
        status: 401,
        body: { Code: "401 Unauthorized" }
      })
    })
  )

  it.effect(
    "a Duplicate request answer is reconciled with findTransactionByRequestId: the call succeeds with the one transaction",
    () =>
      Effect.gen(function* () {
        const client = yield* BusinessClient.BusinessClient
        const seed = yield* control<Seed>("/seed")
        // the first attempt is processed and its answer lost; the retry is refused as a duplicate (3020)
        yield* setFaults([{ operation: "exchange", kind: "drop-after", count: 1 }])
        const tx = yield* client.exchange(sell(seed, "dup-reconcile-1"))
        expect(tx.transaction.state).toBe("completed")
        const requests = yield* control<ReadonlyArray<{ operation: string | null; status: number }>>("/requests")
        expect(requests.filter((r) => r.operation === "exchange").map((r) => r.status)).toEqual([200, 400])
        expect(requests.some((r) => r.operation === "findTransactions" && r.status === 200)).toBe(true)
        const ledger = yield* control<ReadonlyArray<{ request_id: string; transactions: number }>>("/ledger")
        expect(ledger.find((e) => e.request_id === "dup-reconcile-1")?.transactions).toBe(1)
        expect(Option.isSome((yield* client.findTransactionByRequestId("dup-reconcile-1")).transaction)).toBe(true)
      })
  )
})
