import { describe, expect, it } from "@effect/vitest"
import { FapiHeaders, InternationalPayment } from "@payrules/open-banking"
import { Sandbox } from "@payrules/sandbox"
import { layerBlock } from "@payrules/vitest/Lazy"
import { Effect, Random, Result } from "effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { authOf, call, lazily, seedIn, sendIn, server, untraced, urlsIn } from "./helpers.js"

const headers = lazily(() => ({
  authorization: `Bearer ${Sandbox.tenants({ seed: 8, plans: 15 })[0]!.token}`,
  "x-fapi-financial-id": "001580000103UAvAAM"
}))
const interaction = "93bac548-d2de-4546-b106-880a5018460d"

interface Seeded {
  readonly payments: ReadonlyArray<{ readonly id: string; readonly status: string }>
}

const seeded = Effect.flatMap(server, (s) => Effect.map(call(`${s.urls.control}/seed`), (r) => r.json as Seeded))
const get = (id: string, h: Record<string, string> = headers(), init: RequestInit = {}) =>
  Effect.flatMap(server, (s) => call(`${s.urls.openBanking}/international-payments/${id}`, { headers: h, ...init }))

layerBlock(() => Sandbox.layer({ seed: 8, plans: 15 }))("sandbox: GET /international-payments/{id}", (it) => {
  it.effect("serves payments in every status of the revolut profile, with every creditor scheme", () =>
    Effect.gen(function* () {
      const { payments } = yield* seeded
      expect(new Set(payments.map((p) => p.status))).toEqual(
        new Set(["Pending", "Rejected", "AcceptedSettlementInProcess", "AcceptedSettlementCompleted"])
      )
      const schemes = new Set<string>()
      for (const p of payments) {
        const r = yield* get(p.id)
        expect(r.status).toBe(200)
        const payment = Result.getOrThrow(InternationalPayment.decode("revolut", r.json, { mode: "strict" }))
        expect(payment.Data.Status).toBe(p.status)
        // strict decoding reads only known scheme names (the type also admits the lenient reader's unknown ones)
        const scheme = payment.Data.Initiation.CreditorAccount.SchemeName
        if (typeof scheme === "string") schemes.add(scheme)
      }
      expect(schemes.size).toBe(4)
    })
  )

  it.effect("plays back x-fapi-interaction-id, or generates one, on every response including errors", () =>
    Effect.gen(function* () {
      const { payments } = yield* seeded
      const sent = yield* get(payments[0]!.id, { ...headers(), "x-fapi-interaction-id": interaction })
      expect(sent.headers.get("x-fapi-interaction-id")).toBe(interaction)
      const generated = yield* get(payments[0]!.id)
      expect(FapiHeaders.isInteractionId(generated.headers.get("x-fapi-interaction-id") ?? "")).toBe(true)
      const error = yield* get("unknown", { ...headers(), "x-fapi-interaction-id": interaction })
      expect(error.headers.get("x-fapi-interaction-id")).toBe(interaction)
      expect(error.json).toMatchObject({ Id: interaction })
      const invalid = yield* get(payments[0]!.id, { ...headers(), "x-fapi-interaction-id": "not-a-uuid" })
      expect(invalid.status).toBe(400)
      expect(FapiHeaders.isInteractionId(invalid.headers.get("x-fapi-interaction-id") ?? "")).toBe(true)
    })
  )

  it.effect("an unknown payment id is a 400 (Open Banking rule), as OBErrorResponse1", () =>
    Effect.gen(function* () {
      const r = yield* get("ip_missing")
      expect(r.status).toBe(400)
      expect(r.json).toMatchObject({
        Code: "400 Bad Request",
        Errors: [{ ErrorCode: "UK.OBIE.Resource.NotFound", Path: "InternationalPaymentId" }]
      })
    })
  )

  it.effect("401 without Authorization; 400 without x-fapi-financial-id; 403 for another institution", () =>
    Effect.gen(function* () {
      const { payments } = yield* seeded
      const id = payments[0]!.id
      expect((yield* get(id, { "x-fapi-financial-id": headers()["x-fapi-financial-id"] })).status).toBe(401)
      const missing = yield* get(id, { authorization: headers().authorization })
      expect(missing.status).toBe(400)
      expect(missing.json).toMatchObject({
        Errors: [{ ErrorCode: "UK.OBIE.Header.Missing", Path: "x-fapi-financial-id" }]
      })
      const other = yield* get(id, { ...headers(), "x-fapi-financial-id": "0015800000jfwxXAAQ" })
      expect(other.status).toBe(403)
    })
  )

  it.effect("validates the other FAPI headers: a bad IP address or HTTP date is a 400", () =>
    Effect.gen(function* () {
      const { payments } = yield* seeded
      const id = payments[0]!.id
      expect((yield* get(id, { ...headers(), "x-fapi-customer-ip-address": "104.25.212.99" })).status).toBe(200)
      expect((yield* get(id, { ...headers(), "x-fapi-customer-ip-address": "999.1.1.1" })).status).toBe(400)
      expect(
        (yield* get(id, { ...headers(), "x-fapi-customer-last-logged-time": "Sun, 10 Sep 2017 19:43:31 GMT" })).status
      ).toBe(200)
      expect(
        (yield* get(id, { ...headers(), "x-fapi-customer-last-logged-time": "Mon, 10 Sep 2017 19:43:31 GMT" })).status
      ).toBe(400)
    })
  )

  it.effect("405 for another method, 406 when Accept excludes JSON", () =>
    Effect.gen(function* () {
      const { payments } = yield* seeded
      const post = yield* get(payments[0]!.id, headers(), { method: "POST" })
      expect(post.status).toBe(405)
      expect(post.headers.get("allow")).toBe("GET, HEAD")
      expect(post.json).toMatchObject({ Code: "405 Method Not Allowed" })
      expect((yield* get(payments[0]!.id, { ...headers(), accept: "application/xml" })).status).toBe(406)
    })
  )

  it.effect(
    "bug: HEAD of each GET operation is its GET's status and headers without a body, over HTTP (it was 401, without WWW-Authenticate, for a tenant's token)",
    () =>
      Effect.gen(function* () {
        const s = yield* server
        const { payments } = yield* seeded
        const targets = [
          { url: `${s.urls.openBanking}/international-payments/${payments[0]!.id}`, headers: headers() },
          {
            url: `${s.urls.merchant}/api/subscription-plans?limit=2`,
            headers: { ...authOf(s), "revolut-api-version": "2024-09-01" }
          },
          { url: `${s.urls.business}/exchange-reasons`, headers: authOf(s) }
        ]
        for (const { url, headers } of targets) {
          const got = yield* call(url, { headers })
          const head = yield* call(url, { headers, method: "HEAD" })
          expect([url, head.status, head.text]).toEqual([url, 200, ""])
          expect(head.headers.get("content-type")).toBe(got.headers.get("content-type"))
          expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(got.text)))
        }
        // without a token, HEAD is refused as GET is
        const refused = yield* call(targets[2]!.url, { method: "HEAD" })
        expect([refused.status, refused.headers.get("www-authenticate")]).toEqual([
          401,
          'Bearer realm="payrules-sandbox"'
        ])
      })
  )

  it.effect(
    "bug: an empty InternationalPaymentId is the operation's 400, naming it (it was a 401 that blamed the credentials)",
    () =>
      Effect.gen(function* () {
        const r = yield* get("")
        expect(r.status).toBe(400)
        expect(r.json).toMatchObject({
          Code: "400 Bad Request",
          Message: "the path names no international payment: its InternationalPaymentId is empty",
          Errors: [{ ErrorCode: "UK.OBIE.Resource.NotFound", Path: "InternationalPaymentId" }]
        })
      })
  )

  it.effect("429 with Retry-After and 500 when the operation is faulted", () =>
    Effect.gen(function* () {
      const s = yield* server
      const { payments } = yield* seeded
      const put = (rules: unknown) =>
        call(`${s.urls.control}/faults`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(rules)
        })
      yield* put([{ operation: "getInternationalPayment", kind: "rate-limit", count: 1, retryAfterSeconds: 7 }])
      const limited = yield* get(payments[0]!.id)
      expect(limited.status).toBe(429)
      expect(limited.headers.get("retry-after")).toBe("7")
      yield* put([{ operation: "getInternationalPayment", kind: "fail-before", count: 1, status: 500 }])
      const failed = yield* get(payments[0]!.id)
      expect(failed.status).toBe(500)
      expect(failed.json).toMatchObject({
        Code: "500 Internal Server Error",
        Errors: [{ ErrorCode: "UK.OBIE.UnexpectedError" }]
      })
      expect((yield* get(payments[0]!.id)).status).toBe(200)
    })
  )
})

describe("sandbox: the interaction id it generates (in process)", () => {
  it.effect("is the one @payrules/open-banking draws from effect's Random: the same for the same seed", () =>
    Effect.gen(function* () {
      const { payments } = yield* seedIn
      const u = yield* urlsIn
      const get = sendIn(
        HttpClientRequest.get(`${u.openBanking}/international-payments/${payments[0]!.id}`).pipe(
          HttpClientRequest.setHeader("x-fapi-financial-id", headers()["x-fapi-financial-id"])
        )
      ).pipe(Effect.map((r) => r.headers["x-fapi-interaction-id"]))
      const expected = yield* FapiHeaders.interactionIdFor({}).pipe(Random.withSeed(42))
      expect(yield* get.pipe(Random.withSeed(42))).toBe(expected)
      expect(yield* get.pipe(Random.withSeed(42))).toBe(expected)
      const other = yield* get.pipe(Random.withSeed(43))
      expect(other).not.toBe(expected)
      expect(FapiHeaders.isInteractionId(other!)).toBe(true)
    }).pipe(untraced, Effect.provide(Sandbox.layerInProcess({ seed: 8, plans: 15 })))
  )
})
