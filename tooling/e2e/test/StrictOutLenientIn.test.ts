/**
 * D11 end to end: what the clients read decodes every well-formed value, with findings beside it; what they send
 * stays strict. The server here is an `HttpClient` that answers in process with what a real server might send.
 */
import { describe, expect, it } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { InternationalPayment } from "@payrules/open-banking"
import { PlanCheck, SubscriptionPlan } from "@payrules/subscriptions"
import { PayBody } from "@payrules/transfers"
import { BusinessClient, MerchantClient, OpenBankingClient } from "@payrules/transport"
import { Arbitrary, BigDecimal, Effect, Layer, Result, Schema, Stream } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { fastRetry, token } from "./layers.js"

/** a server that answers every request with `answer`, counting requests */
const server = (answer: () => Response) => {
  const sent = { count: 0 }
  const http = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) =>
      Effect.sync(() => {
        sent.count++
        return HttpClientResponse.fromWeb(request, answer())
      })
    )
  )
  return { sent, http }
}

const json = (body: unknown) => Response.json(body, { status: 200 })

/** a valid revolut payment, as a server sends it (drawn with the arbitrary its Schema carries) */
const samplePayment = Effect.map(
  Arbitrary.sampleEffect(Arbitrary.schema(InternationalPayment.RevolutStrict), { count: 1, seed: 11 }),
  ([drawn]) => Schema.encodeSync(InternationalPayment.RevolutStrict)(drawn!)
)

const planIn = (currency: string) => ({
  id: "8e1c4f0a-3b5d-4c2e-9f6a-1d2b3c4d5e6f",
  name: "Next year's currency",
  state: "active",
  created_at: "2026-04-01T00:00:00Z",
  updated_at: "2026-04-01T00:00:00Z",
  variations: [
    {
      id: "0b9f7d1e-2c3a-4b5d-8e6f-7a8b9c0d1e2f",
      phases: [
        { id: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", ordinal: 1, cycle_duration: "P1M", amount: 1500, currency }
      ]
    }
  ]
})

describe("lenient in: the read returns the data and a finding", () => {
  it.effect("a payment response without the played-back x-fapi-interaction-id: the payment and a finding", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server(() => json(payment))
      const client = yield* Effect.provide(
        OpenBankingClient.OpenBankingClient,
        OpenBankingClient.layer({
          ...OpenBankingClient.defaults,
          baseUrl: "http://ob.test",
          token,
          financialId: "001580000103UAvAAM",
          retry: fastRetry
        }).pipe(Layer.provide(fake.http))
      )
      const r = yield* client.getInternationalPayment(payment.Data.InternationalPaymentId)
      expect(r.payment.Data.InternationalPaymentId).toBe(payment.Data.InternationalPaymentId)
      expect(r.findings).toContainEqual(
        expect.objectContaining({
          severity: "warning",
          rule: "InteractionIdNotPlayedBack",
          path: ["headers", "x-fapi-interaction-id"]
        })
      )
      expect(fake.sent.count).toBe(1) // read once: a finding is not a failure, so nothing is retried
    })
  )

  it.effect("a plan with a well-formed unlisted currency (XYZ): the plan and a CurrencyNotListed finding", () =>
    Effect.gen(function* () {
      const fake = server(() => json({ subscription_plans: [planIn("XYZ")], next_page_token: null }))
      const client = yield* Effect.provide(
        MerchantClient.MerchantClient,
        MerchantClient.layer({ ...MerchantClient.defaults, baseUrl: "http://merchant.test", token }).pipe(
          Layer.provide(fake.http)
        )
      )
      const [plan] = [...(yield* Stream.runCollect(client.listSubscriptionPlans()))]
      expect(plan!.variations[0]!.phases[0]!.currency).toBe("XYZ")
      expect(plan!.findings).toEqual([
        expect.objectContaining({
          severity: "warning",
          rule: "CurrencyNotListed",
          path: ["variations", 0, "phases", 0, "currency"]
        })
      ])
    })
  )
})

describe("strict out: the same values in what we send are refused", () => {
  it.effect("an exchange in XYZ is refused by the client before anything is sent", () =>
    Effect.gen(function* () {
      const fake = server(() => json({}))
      const business = yield* Effect.provide(
        BusinessClient.BusinessClient,
        BusinessClient.layer({ ...BusinessClient.defaults, baseUrl: "http://business.test", token }).pipe(
          Layer.provide([fake.http, RequestLedger.layer])
        )
      )
      const refused = yield* Effect.flip(
        business.exchange({
          _tag: "Sell",
          from: { account_id: "a", currency: "GBP" },
          to: { account_id: "b", currency: "XYZ" },
          amount: BigDecimal.fromStringUnsafe("10.00"),
          request_id: "strict-out-1"
        } as BusinessClient.ExchangeInput)
      )
      expect(refused).toMatchObject({ _tag: "BusinessClientError", reason: "BadRequest" })
      expect(refused.message).toContain("XYZ is not an ISO 4217 currency code")
      expect(fake.sent.count).toBe(0)
    })
  )

  it("a payment body in XYZ is refused by PayBody", () => {
    const body = Schema.decodeUnknownResult(PayBody.PayBody)({
      request_id: "r-1",
      account_id: "a",
      receiver: { counterparty_id: "c" },
      amount: 10,
      currency: "XYZ"
    })
    expect(Result.isFailure(body) && body.failure.message).toContain("XYZ is not an ISO 4217 currency code")
  })

  it.effect("a plan or a payment in XYZ is refused by the strict Schemas (for what you build and send)", () =>
    Effect.gen(function* () {
      expect(Result.isFailure(Schema.decodeUnknownResult(SubscriptionPlan.SubscriptionPlan)(planIn("XYZ")))).toBe(true)
      const payment = yield* samplePayment
      const xyz = {
        ...payment,
        Data: { ...payment.Data, Initiation: { ...payment.Data.Initiation, CurrencyOfTransfer: "XYZ" } }
      }
      expect(Result.isFailure(InternationalPayment.decode("revolut", xyz, { mode: "strict" }))).toBe(true)
      // and the lenient readers take them, with the finding
      expect(
        Result.getOrThrow(PlanCheck.decodeAndCheck({ subscription_plans: [planIn("XYZ")] })).findings
      ).toHaveLength(1)
    })
  )
})
