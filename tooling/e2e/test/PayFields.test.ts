import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { expect, layer } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { Sandbox } from "@payrules/sandbox"
import { BusinessClient } from "@payrules/transport"
import { Duration, Effect, Layer } from "effect"
import { control, fastRetry, token } from "./layers.js"

interface Seeded {
  readonly accounts: ReadonlyArray<{ readonly id: string }>
  readonly counterparties: ReadonlyArray<{
    readonly id: string
    readonly name: string
    readonly accounts: ReadonlyArray<{ readonly id: string; readonly corridor: string }>
    readonly cards: ReadonlyArray<{ readonly id: string }>
  }>
}

// the production numbers are 450 per 60 s; the test scales the window to 600 ms and the limit to 45
const limit = 45
const windowMs = 600

const clientLayer = Layer.unwrapEffect(
  Effect.map(Sandbox.SandboxServer, (s) =>
    BusinessClient.layer({
      ...BusinessClient.defaults,
      baseUrl: s.urls.business,
      token,
      retry: fastRetry,
      payFieldsLimit: { limit, window: Duration.millis(windowMs) }
    })
  )
).pipe(
  Layer.provide([FetchHttpClient.layer, RequestLedger.layer]),
  Layer.provideMerge(Sandbox.layer({ seed: 71, plans: 15, payFieldsLimit: { limit, windowMs } }))
)

layer(clientLayer, { excludeTestServices: true })("BusinessClient.transferFieldRequirements", (it) => {
  it.effect("answers the rules of a corridor, and 404 as NotFound", () =>
    Effect.gen(function* () {
      const client = yield* BusinessClient.BusinessClient
      const seed = yield* control<Seeded>("/seed")
      const swift = seed.counterparties.find((c) => c.accounts[0]?.corridor === "US-USD-SWIFT")!
      const response = yield* client.transferFieldRequirements({
        account_id: seed.accounts[0]!.id,
        receiver: { counterparty_id: swift.id, account_id: swift.accounts[0]!.id }
      })
      expect(response.fields.map((f) => f.name)).toContain("charge_bearer")
      const missing = yield* Effect.flip(
        client.transferFieldRequirements({ account_id: seed.accounts[0]!.id, receiver: { counterparty_id: "nobody" } })
      )
      expect(missing).toMatchObject({ reason: "NotFound", status: 404, body: { code: 3404 } })
    })
  )

  it.effect(
    "32 concurrent fibers: the sandbox never sees more than the limit in any window, and never answers 429",
    () =>
      Effect.gen(function* () {
        const client = yield* BusinessClient.BusinessClient
        const seed = yield* control<Seeded>("/seed")
        yield* Effect.flatMap(Sandbox.SandboxServer, (s) =>
          Effect.promise(() => fetch(`${s.urls.control}/requests`, { method: "DELETE" }))
        )
        const card = seed.counterparties.find((c) => c.cards.length > 0 && c.accounts.length === 0)!
        const request = {
          account_id: seed.accounts[0]!.id,
          receiver: { counterparty_id: card.id, card_id: card.cards[0]!.id }
        }
        yield* Effect.forEach(
          Array.from({ length: 32 }, (_, i) => i),
          () =>
            Effect.forEach(
              Array.from({ length: 8 }, (_, i) => i),
              () => client.transferFieldRequirements(request)
            ),
          { concurrency: "unbounded" }
        )
        const log = (yield* control<ReadonlyArray<{ operation: string | null; at: number; status: number }>>(
          "/requests"
        )).filter((r) => r.operation === "transferFieldRequirements")
        expect(log).toHaveLength(256)
        expect(log.filter((r) => r.status === 429)).toHaveLength(0)
        const times = log.map((r) => r.at).sort((a, b) => a - b)
        let most = 0
        for (let i = 0, j = 0; i < times.length; i++) {
          while (times[i]! - times[j]! >= windowMs) j++
          most = Math.max(most, i - j + 1)
        }
        expect(most).toBeLessThanOrEqual(limit)
      }),
    { timeout: 60_000 }
  )

  it("the token bucket's worst case stays under the limit", () => {
    for (const [l, w] of [
      [450, 60_000],
      [45, 600],
      [10, 1_000],
      [1000, 60_000],
      [3, 60_000]
    ] as const) {
      expect(BusinessClient.tokenBucketFor(l, Duration.millis(w)).worstCase).toBeLessThanOrEqual(l)
    }
    expect(BusinessClient.tokenBucketFor(450, Duration.minutes(1))).toMatchObject({ limit: 10, worstCase: 448 })
  })
})
