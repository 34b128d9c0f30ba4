import { describe, expect, it, layer } from "@effect/vitest"
import { FapiHeaders, InternationalPayment } from "@payrules/open-banking"
import { Sandbox } from "@payrules/sandbox"
import { OpenBankingClient } from "@payrules/transport"
import { Arbitrary, DateTime, Effect, Layer, Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientResponse } from "effect/http"
import { control, fastRetry, setFaults, tenantToken, token, withSandbox } from "./layers.js"

interface Seeded {
  readonly payments: ReadonlyArray<{ readonly id: string; readonly status: string }>
}

layer(withSandbox({ seed: 61, plans: 15 }), { excludeTestServices: true })(
  "OpenBankingClient against the sandbox",
  (it) => {
    it.effect("reads a payment, sending a fresh interaction id that the server plays back", () =>
      Effect.gen(function* () {
        const client = yield* OpenBankingClient.OpenBankingClient
        const { payments } = yield* control<Seeded>("/seed")
        for (const p of payments) {
          const r = yield* client.getInternationalPayment(p.id, {
            customer: {
              ipAddress: "104.25.212.99",
              userAgent: "Mozilla/5.0",
              lastLoggedTime: DateTime.makeUnsafe("2017-09-10T19:43:31Z")
            }
          })
          expect(r.payment.Data.Status).toBe(p.status)
          expect(FapiHeaders.isInteractionId(r.interactionId)).toBe(true)
        }
        const chosen = "93bac548-d2de-4546-b106-880a5018460d"
        const again = yield* client.getInternationalPayment(payments[0]!.id, { interactionId: chosen })
        expect(again.interactionId).toBe(chosen)
      })
    )

    it.effect("each declared error status surfaces as its tagged reason with the OBErrorResponse1 body", () =>
      Effect.gen(function* () {
        const client = yield* OpenBankingClient.OpenBankingClient
        const { payments } = yield* control<Seeded>("/seed")
        const unknown = yield* Effect.flip(client.getInternationalPayment("ip_unknown"))
        expect(unknown).toMatchObject({ _tag: "OpenBankingClientError", reason: "BadRequest", status: 400 })
        expect(unknown.body?.Errors[0]?.ErrorCode).toBe("UK.OBIE.Resource.NotFound")
        expect(unknown.body?.Id).toBe(unknown.interactionId)
        yield* setFaults([
          { operation: "getInternationalPayment", kind: "rate-limit", count: 10, retryAfterSeconds: 0 }
        ])
        expect(yield* Effect.flip(client.getInternationalPayment(payments[0]!.id))).toMatchObject({
          reason: "TooManyRequests",
          status: 429
        })
        yield* setFaults([{ operation: "getInternationalPayment", kind: "fail-before", count: 10, status: 500 }])
        expect(yield* Effect.flip(client.getInternationalPayment(payments[0]!.id))).toMatchObject({
          reason: "ServerError",
          status: 500
        })
        yield* setFaults([])
        const s = yield* Sandbox.SandboxServer
        const other = yield* Effect.provide(
          OpenBankingClient.OpenBankingClient,
          OpenBankingClient.layer({
            ...OpenBankingClient.defaults,
            baseUrl: s.urls.openBanking,
            token: tenantToken(s),
            financialId: "0015800000jfwxXAAQ"
          }).pipe(Layer.provide(FetchHttpClient.layer))
        )
        expect(yield* Effect.flip(other.getInternationalPayment(payments[0]!.id))).toMatchObject({
          reason: "Forbidden",
          status: 403
        })
      })
    )
  }
)

/** a valid revolut payment, as a server sends it (drawn with the arbitrary its Schema carries) */
const validPayment = Effect.map(
  Arbitrary.sampleEffect(Arbitrary.schema(InternationalPayment.RevolutStrict), { count: 1, seed: 7 }),
  ([drawn]) => Schema.encodeSync(InternationalPayment.RevolutStrict)(drawn!)
)

describe("OpenBankingClient without a sandbox", () => {
  it.effect("reads the payment with an InteractionIdMismatch finding when the response plays back another id", () =>
    Effect.gen(function* () {
      const payment = yield* validPayment
      const client = yield* Effect.provide(
        OpenBankingClient.OpenBankingClient,
        OpenBankingClient.layer({
          ...OpenBankingClient.defaults,
          baseUrl: "http://ob.test",
          token,
          financialId: "x",
          retry: fastRetry
        }).pipe(
          Layer.provide(
            Layer.succeed(
              HttpClient.HttpClient,
              HttpClient.make((request) =>
                Effect.sync(() =>
                  HttpClientResponse.fromWeb(
                    request,
                    Response.json(payment, {
                      status: 200,
                      headers: { "x-fapi-interaction-id": "00000000-0000-4000-8000-000000000000" }
                    })
                  )
                )
              )
            )
          )
        )
      )
      const r = yield* client.getInternationalPayment("ip_1")
      expect(r.payment.Data.InternationalPaymentId).toBe(payment.Data.InternationalPaymentId)
      expect(r.findings.filter((f) => f.path[0] === "headers").map((f) => f.rule)).toEqual(["InteractionIdMismatch"])
    })
  )
})
