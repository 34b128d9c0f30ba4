import { expect } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { SubscriptionPlan } from "@payrules/subscriptions"
import { layerBlock } from "@payrules/vitest/Lazy"
import { Effect, Result, Schema } from "effect"
import { authOf, call, server } from "./helpers.js"

const version = { "revolut-api-version": "2024-09-01" }
const decodePage = Schema.decodeUnknownResult(SubscriptionPlan.PlanListPage)

layerBlock(() => Sandbox.layer({ seed: 3, plans: 1_050 }))("sandbox: GET /api/subscription-plans", (it) => {
  const plans = (query: string, h?: Record<string, string>) =>
    Effect.flatMap(server, (s) =>
      call(`${s.urls.merchant}/api/subscription-plans${query}`, { headers: h ?? { ...authOf(s), ...version } })
    )

  it.effect("pages through every plan with opaque tokens, repeating the filters", () =>
    Effect.gen(function* () {
      const seen = new Set<string>()
      let token: string | undefined
      let pages = 0
      do {
        const r = yield* plans(`?limit=100${token === undefined ? "" : `&page_token=${encodeURIComponent(token)}`}`)
        expect(r.status).toBe(200)
        const page = Result.getOrThrow(decodePage(r.json))
        for (const p of page.subscription_plans) seen.add(p.id)
        token = page.next_page_token ?? undefined
        pages++
      } while (token !== undefined)
      expect(seen.size).toBe(1_050)
      expect(pages).toBe(11)
    })
  )

  it.effect("filters by creation date; a token of other filters is refused (400)", () =>
    Effect.gen(function* () {
      const q = "from=2023-01-01T00:00:00Z&to=2023-12-31T23:59:59Z"
      const first = yield* plans(`?limit=10&${q}`)
      const page = Result.getOrThrow(decodePage(first.json))
      for (const p of page.subscription_plans)
        expect(p.created_at.epochMilliseconds).toBeGreaterThanOrEqual(Date.UTC(2023, 0, 1))
      const token = encodeURIComponent(page.next_page_token!)
      const same = yield* plans(`?limit=10&${q}&page_token=${token}`)
      expect(same.status).toBe(200)
      const dropped = yield* plans(`?limit=10&page_token=${token}`)
      expect(dropped.status).toBe(400)
      expect(dropped.json).toMatchObject({
        code: "bad_request",
        message: expect.stringContaining("repeat the from and to")
      })
      const garbage = yield* plans(`?page_token=not-a-token`)
      expect(garbage.status).toBe(400)
    })
  )

  it.effect("limit outside 1..500 is a 400 with the merchant error body", () =>
    Effect.gen(function* () {
      for (const limit of ["0", "501", "-3", "ten", "1.5"]) {
        const r = yield* plans(`?limit=${limit}`)
        expect([limit, r.status]).toEqual([limit, 400])
        expect(r.json).toMatchObject({ code: "bad_request", timestamp: expect.any(Number) })
      }
      expect((yield* plans("?limit=500")).status).toBe(200)
      expect((yield* plans("?limit=1")).status).toBe(200)
    })
  )

  it.effect(
    "bug: a limit that is not decimal digits is a 400 naming limit (it was read as JavaScript's Number() reads it)",
    () =>
      Effect.gen(function* () {
        // each of these was served as limit=10
        for (const limit of ["0x0a", "1e1", "10.0", "+10", "%2B10", "%0A10", "10%20"]) {
          const r = yield* plans(`?limit=${limit}`)
          expect([limit, r.status, r.json]).toEqual([
            limit,
            400,
            {
              code: "bad_request",
              message: "limit: limit is a whole number of at least 1",
              timestamp: expect.any(Number)
            }
          ])
        }
        const page = Result.getOrThrow(decodePage((yield* plans("?limit=010")).json))
        expect(page.subscription_plans).toHaveLength(10)
      })
  )

  it.effect(
    "bug: a query parameter given twice is a 400 that says it is given twice (it said the value was wrong)",
    () =>
      Effect.gen(function* () {
        for (const [query, name] of [
          ["?limit=5&limit=5", "limit"],
          ["?limit=5&limit=7&limit=9", "limit"],
          ["?from=2024-01-01T00:00:00Z&from=2025-01-01T00:00:00Z", "from"],
          ["?page_token=a&page_token=a", "page_token"]
        ] as const) {
          const r = yield* plans(query)
          const times = query.split(`${name}=`).length - 1
          expect([query, r.status, r.json]).toEqual([
            query,
            400,
            {
              code: "bad_request",
              message: `${name}: given ${times} times; give it once`,
              timestamp: expect.any(Number)
            }
          ])
        }
        // the same in the other families' error shapes
        const s = yield* server
        const transactions = yield* call(`${s.urls.business}/transactions?request_id=a&request_id=b`, {
          headers: authOf(s)
        })
        expect([transactions.status, transactions.json]).toEqual([
          400,
          { code: 3000, message: "request_id: given 2 times; give it once" }
        ])
        // a parameter the operation does not read may repeat (it is ignored), and a wrong value given once says why
        expect((yield* plans("?limit=5&other=1&other=2")).status).toBe(200)
        expect((yield* plans("?limit=ten")).json).toMatchObject({
          message: "limit: limit is a whole number of at least 1"
        })
      })
  )

  it.effect("401 without a token", () =>
    Effect.gen(function* () {
      const r = yield* plans("", { "revolut-api-version": "2024-09-01" })
      expect(r.status).toBe(401)
      expect(r.json).toMatchObject({ code: "unauthorized" })
    })
  )

  it.effect("400 without Revolut-Api-Version", () =>
    Effect.gen(function* () {
      const r = yield* plans("", authOf(yield* server))
      expect(r.status).toBe(400)
      expect(r.json).toMatchObject({ code: "bad_request", message: expect.stringContaining("revolut-api-version") })
    })
  )

  it.effect("405 with Allow for another method; 406 when Accept excludes JSON", () =>
    Effect.gen(function* () {
      const s = yield* server
      const headers = { ...authOf(s), ...version }
      const del = yield* call(`${s.urls.merchant}/api/subscription-plans`, { method: "DELETE", headers })
      expect(del.status).toBe(405)
      expect(del.headers.get("allow")).toBe("GET, HEAD")
      const html = yield* plans("", { ...headers, accept: "text/html" })
      expect(html.status).toBe(406)
      expect((yield* plans("", { ...headers, accept: "text/html, application/json;q=0.5" })).status).toBe(200)
      expect((yield* plans("", { ...headers, accept: "application/json;q=0" })).status).toBe(406)
      // what JSON satisfies: any type, any application type, a +json type, in any case, among others, q above 0
      for (const accept of [
        "",
        "*/*",
        "*/*;q=0.1",
        "application/*",
        "application/problem+json",
        "Application/JSON",
        "text/html;q=0.9, application/*;q=0.8",
        "text/html,application/json; q=0.5",
        // spaces around the ; (bug: the type read with its trailing space, so refused)
        "application/json ; q=0.5",
        "text/html, application/json ;charset=utf-8"
      ]) {
        expect([accept, (yield* plans("", { ...headers, accept })).status]).toEqual([accept, 200])
      }
      for (const accept of [
        "text/plain",
        "*/*;q=0",
        "text/html, application/json ; q=0",
        "application/json;q=0.0",
        "application/xml, text/*"
      ]) {
        expect([accept, (yield* plans("", { ...headers, accept })).status]).toEqual([accept, 406])
      }
    })
  )
})
