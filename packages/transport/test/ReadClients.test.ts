import { describe, expect, it } from "@effect/vitest"
import { InternationalPayment } from "@payrules/open-banking"
import { MerchantClient, OpenBankingClient } from "@payrules/transport"
import { issuesOf } from "@payrules/vitest"
import { Arbitrary, Config, Duration, Effect, Exit, Fiber, Layer, Option, Redacted, Schema, Stream } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"

/** the typed failure of an exit (undefined when it succeeded or died) */
const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined => Option.getOrUndefined(Exit.findErrorOption(exit))

// The two read clients (Open Banking, merchant) against an HttpClient that answers in process, on the TestClock:
// an overall deadline per call, the base URL checked when the layer is built, and findings instead of failed reads.

type Answer = Response | "hang"

const server = (answer: (url: URL, headers: Readonly<Record<string, string>>) => Answer) => {
  const seen: Array<string> = []
  const http = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request, url) =>
      Effect.suspend(() => {
        seen.push(url.pathname)
        const a = answer(url, request.headers)
        return a === "hang" ? Effect.never : Effect.succeed(HttpClientResponse.fromWeb(request, a))
      })
    )
  )
  return { seen, http }
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

const token = Redacted.make("t")
const noRetry = { maxAttempts: 1, baseDelay: Duration.millis(10), maxDelay: Duration.millis(10), minSpacing: 0 }

const openBanking = (
  http: Layer.Layer<HttpClient.HttpClient>,
  config: Partial<OpenBankingClient.OpenBankingClientConfig> = {}
) =>
  Effect.provide(
    OpenBankingClient.OpenBankingClient,
    OpenBankingClient.layer({
      ...OpenBankingClient.defaults,
      baseUrl: "http://ob.test",
      token,
      financialId: "001580000103UAvAAM",
      ...config
    }).pipe(Layer.provide(http))
  )

const merchant = (
  http: Layer.Layer<HttpClient.HttpClient>,
  config: Partial<MerchantClient.MerchantClientConfig> = {}
) =>
  Effect.provide(
    MerchantClient.MerchantClient,
    MerchantClient.layer({ ...MerchantClient.defaults, baseUrl: "http://merchant.test", token, ...config }).pipe(
      Layer.provide(http)
    )
  )

/** a valid revolut payment, as a server sends it (drawn with the arbitrary its Schema carries) */
const samplePayment = Effect.map(
  Arbitrary.sampleEffect(Arbitrary.schema(InternationalPayment.RevolutStrict), { count: 1, seed: 7 }),
  ([drawn]) => Schema.encodeSync(InternationalPayment.RevolutStrict)(drawn!)
)

type Payment = Effect.Success<typeof samplePayment>

const withCurrencyOfTransfer = (payment: Payment, currency: string) => ({
  ...payment,
  Data: { ...payment.Data, Initiation: { ...payment.Data.Initiation, CurrencyOfTransfer: currency } }
})

const plan = (currency: string) => ({
  id: "8e1c4f0a-3b5d-4c2e-9f6a-1d2b3c4d5e6f",
  name: "Caribbean",
  state: "active",
  created_at: "2025-04-01T00:00:00Z",
  updated_at: "2025-04-01T00:00:00Z",
  variations: [
    {
      id: "0b9f7d1e-2c3a-4b5d-8e6f-7a8b9c0d1e2f",
      phases: [
        { id: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", ordinal: 1, cycle_duration: "P1M", amount: 1500, currency }
      ]
    }
  ]
})

describe("OpenBankingClient reads what a strict reading would lose, with findings (D11)", () => {
  it.effect("a 200 without the played-back interaction id: the payment and an InteractionIdNotPlayedBack finding", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server(() => json(payment))
      const client = yield* openBanking(fake.http)
      const r = yield* client.getInternationalPayment("ip-1")
      expect(r.payment.Data.InternationalPaymentId).toBe(payment.Data.InternationalPaymentId)
      expect(r.findings.filter((f) => f.path[0] === "headers")).toEqual([
        expect.objectContaining({
          severity: "warning",
          rule: "InteractionIdNotPlayedBack",
          path: ["headers", "x-fapi-interaction-id"]
        })
      ])
    })
  )

  it.effect("another interaction id than the one sent: the payment and an InteractionIdMismatch finding", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const other = "0f8e1f6c-3a4b-4c5d-9e6f-7a8b9c0d1e2f"
      const fake = server(() => json(payment, 200, { "x-fapi-interaction-id": other }))
      const client = yield* openBanking(fake.http)
      const r = yield* client.getInternationalPayment("ip-1")
      expect(r.findings.filter((f) => f.path[0] === "headers").map((f) => f.rule)).toEqual(["InteractionIdMismatch"])
    })
  )

  it.effect("the id played back: no header finding", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server((_, headers) =>
        json(payment, 200, { "x-fapi-interaction-id": headers["x-fapi-interaction-id"] ?? "" })
      )
      const client = yield* openBanking(fake.http)
      const r = yield* client.getInternationalPayment("ip-1")
      expect(r.findings.filter((f) => f.path[0] === "headers")).toEqual([])
    })
  )

  it.effect("a well-formed currency code not on the list (XYZ): the payment and a CurrencyNotListed finding", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server((_, headers) =>
        json(withCurrencyOfTransfer(payment, "XYZ"), 200, {
          "x-fapi-interaction-id": headers["x-fapi-interaction-id"] ?? ""
        })
      )
      const client = yield* openBanking(fake.http)
      const r = yield* client.getInternationalPayment("ip-1")
      expect(r.payment.Data.Initiation.CurrencyOfTransfer).toBe("XYZ")
      expect(r.findings.filter((f) => f.rule === "CurrencyNotListed").map((f) => f.path.join("."))).toEqual([
        "Data.Initiation.CurrencyOfTransfer"
      ])
    })
  )

  it.effect("a currency code that is not well-formed is still a Decode failure", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server(() => json(withCurrencyOfTransfer(payment, "xyz")))
      const client = yield* openBanking(fake.http)
      const e = yield* Effect.flip(client.getInternationalPayment("ip-1"))
      expect(e).toMatchObject({ reason: "Decode", message: expect.stringContaining("CurrencyOfTransfer") })
    })
  )

  it.effect("the call ends at its deadline, attempts and waits included (TestClock)", () =>
    Effect.gen(function* () {
      const fake = server(() => "hang")
      const client = yield* openBanking(fake.http, {
        timeout: Duration.seconds(10),
        deadline: Duration.seconds(15),
        retry: { ...noRetry, maxAttempts: 5 }
      })
      const fiber = yield* Effect.forkChild(client.getInternationalPayment("ip-1"))
      yield* TestClock.adjust(Duration.millis(14_999))
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.millis(1))
      const exit = yield* Fiber.await(fiber)
      expect(failureOf(exit)).toMatchObject({ _tag: "OpenBankingClientError", reason: "Deadline" })
      expect(fake.seen.length).toBe(2) // one attempt timed out at 10 s, the second cut by the deadline
    })
  )
})

describe("MerchantClient reads pages with findings (D11)", () => {
  it.effect("a plan in XYZ decodes; the page and the plan carry a CurrencyNotListed finding", () =>
    Effect.gen(function* () {
      const fake = server(() => json({ subscription_plans: [plan("GBP"), plan("XYZ")], next_page_token: null }))
      const client = yield* merchant(fake.http)
      const page = yield* client.listSubscriptionPlansPage({})
      expect(page.subscription_plans.map((p) => p.variations[0]!.phases[0]!.currency)).toEqual(["GBP", "XYZ"])
      expect(page.findings.map((f) => [f.rule, f.path.join(".")])).toEqual([
        ["CurrencyNotListed", "subscription_plans.1.variations.0.phases.0.currency"]
      ])
      expect(page.subscription_plans[0]!.findings).toEqual([])
      expect(page.subscription_plans[1]!.findings.map((f) => f.path.join("."))).toEqual([
        "variations.0.phases.0.currency"
      ])
      const streamed = yield* Stream.runCollect(client.listSubscriptionPlans())
      expect([...streamed].map((p) => p.findings.length)).toEqual([0, 1])
    })
  )

  it.effect("a page request ends at its deadline (TestClock)", () =>
    Effect.gen(function* () {
      const fake = server(() => "hang")
      const client = yield* merchant(fake.http, { deadline: Duration.seconds(3), retry: noRetry })
      const fiber = yield* Effect.forkChild(client.listSubscriptionPlansPage({}))
      yield* TestClock.adjust(Duration.millis(2_999))
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.millis(1))
      expect(failureOf(yield* Fiber.await(fiber))).toMatchObject({ _tag: "MerchantClientError", reason: "Deadline" })
    })
  )
})

describe("the base URL is checked when the layer is built", () => {
  const bad = ["not a url", "/api", "ftp://api.test", "http://user:secret@api.test", "http://api.test/?q=1"]

  it.effect.each(bad)("%s is refused by both layers, before any request", (baseUrl) =>
    Effect.gen(function* () {
      const fake = server(() => json({}))
      for (const error of [
        yield* Effect.flip(openBanking(fake.http, { baseUrl })),
        yield* Effect.flip(merchant(fake.http, { baseUrl }))
      ]) {
        expect(error).toBeInstanceOf(Config.ConfigError)
        expect(Schema.isSchemaError(error.cause) ? issuesOf(error.cause) : []).toEqual([
          { path: ["baseUrl"], message: expect.stringContaining("is not a base URL") }
        ])
      }
      expect(fake.seen).toEqual([])
    })
  )

  it.effect("a trailing slash is fine", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server((url) =>
        url.pathname.startsWith("/ob") ? json(payment) : json({ subscription_plans: [], next_page_token: null })
      )
      yield* (yield* openBanking(fake.http, { baseUrl: "https://api.test/ob/" })).getInternationalPayment("ip-1")
      yield* (yield* merchant(fake.http, { baseUrl: "https://api.test/m/" })).listSubscriptionPlansPage({})
      expect(fake.seen).toEqual(["/ob/international-payments/ip-1", "/m/api/subscription-plans"])
    })
  )
})
