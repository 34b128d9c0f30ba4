import { expect, layer } from "@effect/vitest"
import { OffsetDateTime } from "@payrules/iso8601"
import { MerchantClient } from "@payrules/transport"
import { Effect, Stream } from "effect"
import { control, withSandbox } from "./layers.js"

interface Logged {
  readonly path: string
  readonly operation: string | null
  readonly query: Readonly<Record<string, string>>
  readonly status: number
}

layer(withSandbox({ seed: 5, plans: 1_120 }), { excludeTestServices: true })(
  "MerchantClient against the sandbox",
  (it) => {
    it.effect("streams every plan across pages, repeating the filters on each page request", () =>
      Effect.gen(function* () {
        const client = yield* MerchantClient.MerchantClient
        const all = yield* client.listSubscriptionPlans({ limit: 50 }).pipe(Stream.runCollect)
        expect(all).toHaveLength(1_120)
        expect(new Set(all.map((p) => p.id)).size).toBe(1_120)

        const filtered = yield* client
          .listSubscriptionPlans({
            limit: 20,
            from: OffsetDateTime.parseUnsafe("2023-01-01T00:00:00Z"),
            to: OffsetDateTime.parseUnsafe("2024-06-30T23:59:59Z")
          })
          .pipe(Stream.runCollect)
        expect(filtered.length).toBeGreaterThan(100)
        const log = yield* control<ReadonlyArray<Logged>>("/requests")
        const pages = log.filter((r) => r.operation === "listSubscriptionPlans" && r.query.limit === "20")
        expect(pages.length).toBe(Math.ceil(filtered.length / 20))
        for (const page of pages) {
          expect(page.status).toBe(200)
          expect(page.query.from).toBe("2023-01-01T00:00:00Z")
          expect(page.query.to).toBe("2024-06-30T23:59:59Z")
        }
        expect(pages.slice(1).every((p) => p.query.page_token !== undefined)).toBe(true)
      })
    )

    it.effect("a declared error surfaces as its tagged reason, with the status and the decoded body", () =>
      Effect.gen(function* () {
        const client = yield* MerchantClient.MerchantClient
        const e = yield* Effect.flip(client.listSubscriptionPlansPage({ page_token: "forged" }))
        expect(e._tag).toBe("MerchantClientError")
        expect(e.reason).toBe("BadRequest")
        expect(e.status).toBe(400)
        expect(e.body).toMatchObject({ code: "bad_request" })
        expect(e.raw).toContain("bad_request")
      })
    )
  }
)
