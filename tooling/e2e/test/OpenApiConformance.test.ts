/**
 * Every response of the four operations from a seeded sandbox validates against the sandbox's own OpenAPI document,
 * with the `format` keywords checked (ajv 8 and ajv-formats): all seeded plans (every page), all seeded payments,
 * /pay/fields for every corridor, and 20 exchanges.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClientRequest } from "effect/http"
import { control, withSandbox } from "./layers.js"
import { makeValidator, type SeedSummary, send, tokenOf } from "./openApi.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i
const PLANS = 260

layer(withSandbox({ seed: 19, plans: PLANS }), { excludeTestServices: true })(
  "the sandbox's responses against its OpenAPI documents, formats checked",
  (it) => {
    const validator = makeValidator()
    const setup = Effect.map(control<SeedSummary>("/seed"), (seed) => ({ seed, token: tokenOf(seed) }))

    it.effect("ajv checks every format the documents use (none is skipped as unknown)", () =>
      Effect.sync(() => {
        const used = new Set<string>()
        for (const doc of validator.documents.values()) {
          for (const f of JSON.stringify(doc).matchAll(/"format":"([^"]+)"/g)) used.add(f[1]!)
        }
        expect([...used].sort()).toEqual(["date-time", "duration", "int32", "ipv4", "ipv6", "uri", "uuid"])
        for (const format of used) expect(validator.ajv.formats[format], format).toBeDefined()
      })
    )

    it.effect("the validator refuses what the formats refuse (a plan id that is not a UUID, a bad duration)", () =>
      Effect.sync(() => {
        const page = (id: string, cycle: string) => ({
          next_page_token: null,
          subscription_plans: [
            {
              id,
              name: "p",
              state: "active",
              created_at: "2025-01-01T00:00:00Z",
              updated_at: "2025-01-01T00:00:00Z",
              variations: [
                {
                  id: "0b9f7d1e-2c3a-4b5d-8e6f-7a8b9c0d1e2f",
                  phases: [{ id: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", ordinal: 1, cycle_duration: cycle }]
                }
              ]
            }
          ]
        })
        const check = (body: unknown) => validator.check("merchant", "/api/subscription-plans", "get", 200, body)
        expect(check(page("8e1c4f0a-3b5d-4c2e-9f6a-1d2b3c4d5e6f", "P1M"))).toEqual([])
        expect(check(page("pln_8e1c4f0a-3b5d-4c2e-9f6a-1d2b3c4d5e6f", "P1M")).join()).toContain("format")
        expect(check(page("8e1c4f0a-3b5d-4c2e-9f6a-1d2b3c4d5e6f", "p1m")).join()).toContain("format")
        expect(validator.check("merchant", "/api/subscription-plans", "get", 503, {})).toEqual([
          "GET /api/subscription-plans answered 503, a status the document does not declare"
        ])
      })
    )

    it.effect("GET /api/subscription-plans: every page of every seeded plan", () =>
      Effect.gen(function* () {
        const { token } = yield* setup
        let pageToken: string | undefined
        let plans = 0
        let pages = 0
        do {
          const r = yield* send(
            "merchant",
            HttpClientRequest.get("/api/subscription-plans", {
              urlParams: { limit: "50", ...(pageToken === undefined ? {} : { page_token: pageToken }) },
              headers: { authorization: `Bearer ${token}`, "revolut-api-version": "2024-09-01" }
            })
          )
          expect(r.status).toBe(200)
          expect(validator.check("merchant", "/api/subscription-plans", "get", r.status, r.body)).toEqual([])
          const page = r.body as {
            readonly next_page_token?: string | null
            readonly subscription_plans: ReadonlyArray<{
              readonly id: string
              readonly variations: ReadonlyArray<{
                readonly id: string
                readonly phases: ReadonlyArray<{ id: string }>
              }>
            }>
          }
          for (const plan of page.subscription_plans) {
            // the official document's format: uuid, for plans, variations and phases (D12)
            expect(plan.id).toMatch(UUID)
            for (const v of plan.variations) {
              expect(v.id).toMatch(UUID)
              for (const p of v.phases) expect(p.id).toMatch(UUID)
            }
          }
          plans += page.subscription_plans.length
          pages++
          pageToken = page.next_page_token ?? undefined
        } while (pageToken !== undefined)
        expect([plans, pages]).toEqual([PLANS, Math.ceil(PLANS / 50)])
      })
    )

    it.effect("GET /international-payments/{id}: every seeded payment", () =>
      Effect.gen(function* () {
        const { seed, token } = yield* setup
        expect(seed.payments.length).toBeGreaterThan(0)
        for (const [i, payment] of seed.payments.entries()) {
          const interactionId = `93bac548-d2de-4546-b106-${(0x880a50184600 + i).toString(16)}`
          const r = yield* send(
            "open-banking",
            HttpClientRequest.get(`/international-payments/${encodeURIComponent(payment.id)}`, {
              headers: {
                authorization: `Bearer ${token}`,
                "x-fapi-financial-id": "001580000103UAvAAM",
                "x-fapi-interaction-id": interactionId
              }
            })
          )
          expect(r.status).toBe(200)
          expect(
            validator.check("open-banking", "/international-payments/{InternationalPaymentId}", "get", r.status, r.body)
          ).toEqual([])
          expect(r.headers["x-fapi-interaction-id"]).toBe(interactionId)
        }
      })
    )

    it.effect("POST /pay/fields: every corridor, by account and by card", () =>
      Effect.gen(function* () {
        const { seed, token } = yield* setup
        const receivers = seed.counterparties.flatMap((c) => [
          ...c.accounts.map((a) => ({ corridor: a.corridor, receiver: { counterparty_id: c.id, account_id: a.id } })),
          ...c.cards.map((card) => ({ corridor: "CARD", receiver: { counterparty_id: c.id, card_id: card.id } }))
        ])
        const corridors = new Set<string>()
        for (const { corridor, receiver } of receivers) {
          const r = yield* send(
            "business",
            HttpClientRequest.post("/pay/fields", { headers: { authorization: `Bearer ${token}` } }).pipe(
              HttpClientRequest.bodyJsonUnsafe({ account_id: seed.accounts[0]!.id, receiver })
            )
          )
          expect(r.status).toBe(200)
          expect(validator.check("business", "/pay/fields", "post", r.status, r.body)).toEqual([])
          corridors.add(corridor)
        }
        expect([...corridors].sort()).toEqual([
          "CARD",
          "CH-CHF-QR",
          "EU-EUR-SEPA",
          "GB-GBP-FPS",
          "IN-INR",
          "US-USD-SWIFT"
        ])
      })
    )

    it.effect(
      "POST /exchange: 20 exchanges between the seeded accounts, sells and buys, same and other institution",
      () =>
        Effect.gen(function* () {
          const { seed, token } = yield* setup
          const accounts = seed.accounts
          const states = new Set<string>()
          for (let i = 0; i < 20; i++) {
            const from = accounts[i % accounts.length]!
            const to = accounts.filter((a) => a.currency !== from.currency)[i % 3]!
            const side = i % 2 === 0 ? "from" : "to"
            const amount = from.currency === "JPY" || (side === "to" && to.currency === "JPY") ? 1000 : 10 + i / 4
            const body = {
              from: { account_id: from.id, currency: from.currency, ...(side === "from" ? { amount } : {}) },
              to: { account_id: to.id, currency: to.currency, ...(side === "to" ? { amount } : {}) },
              request_id: `conformance-${i}`,
              reference: `conformance ${i}`
            }
            const r = yield* send(
              "business",
              HttpClientRequest.post("/exchange", { headers: { authorization: `Bearer ${token}` } }).pipe(
                HttpClientRequest.bodyJsonUnsafe(body)
              )
            )
            expect(validator.check("business", "/exchange", "post", r.status, r.body), JSON.stringify(body)).toEqual([])
            if (r.status === 200) {
              const tx = r.body as { readonly id: string; readonly state: string }
              // the official document types the transaction id as format: uuid (ours does not say so: see the README)
              expect(tx.id).toMatch(UUID)
              states.add(tx.state)
            }
          }
          expect(states.size).toBeGreaterThan(0)
        })
    )
  }
)
