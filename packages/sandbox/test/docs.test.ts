import { expect } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { layerBlock } from "@payrules/vitest/Lazy"
import { Effect } from "effect"
import { call, server } from "./helpers.js"

layerBlock(() => Sandbox.layer({ seed: 4, plans: 15 }))("sandbox: /docs", (it) => {
  it.effect("renders the OpenAPI document of the three APIs and the control endpoints, without a CDN", () =>
    Effect.gen(function* () {
      const s = yield* server
      const docs = yield* call(s.urls.docs)
      expect(docs.status).toBe(200)
      expect(docs.headers.get("content-type")).toContain("text/html")
      for (const path of [
        "/open-banking/international-payments/{InternationalPaymentId}",
        "/merchant/api/subscription-plans",
        "/business/exchange",
        "/business/pay/fields",
        "/business/exchange-reasons",
        "/business/transactions",
        "/__sandbox/ledger"
      ]) {
        expect(docs.text).toContain(JSON.stringify(path).slice(1, -1))
      }
      expect(docs.text).not.toMatch(/<script[^>]+src="https?:/)
    })
  )
})
