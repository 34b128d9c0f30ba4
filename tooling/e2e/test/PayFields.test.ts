import { describe, expect, it } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { Sandbox } from "@payrules/sandbox"
import { BusinessClient } from "@payrules/transport"
import * as VirtualTime from "@payrules/vitest/VirtualTime"
import { Duration, Effect, Layer } from "effect"
import { control, fastRetry, tenantToken } from "./layers.js"

interface Seeded {
  readonly accounts: ReadonlyArray<{ readonly id: string }>
  readonly counterparties: ReadonlyArray<{
    readonly id: string
    readonly name: string
    readonly accounts: ReadonlyArray<{ readonly id: string; readonly corridor: string }>
    readonly cards: ReadonlyArray<{ readonly id: string }>
  }>
}

const clientLayer = (sandbox: Sandbox.Options) =>
  Layer.unwrap(
    Effect.map(Sandbox.SandboxServer, (s) =>
      BusinessClient.layer({
        ...BusinessClient.defaults,
        baseUrl: s.urls.business,
        token: tenantToken(s),
        retry: fastRetry
      })
    )
  ).pipe(Layer.provide(RequestLedger.layer), Layer.provideMerge(Sandbox.layerInProcess(sandbox)))

describe("BusinessClient.transferFieldRequirements (in process, virtual time)", () => {
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
    }).pipe(Effect.provide(clientLayer({ seed: 71, plans: 15 })))
  )

  it.effect(
    "32 concurrent fibers, 960 calls at the production numbers (450 per 60 s): the sandbox never sees more than 450 in any 60 s, and never answers 429",
    () =>
      Effect.gen(function* () {
        const { value: log, elapsed } = yield* VirtualTime.run(
          Effect.gen(function* () {
            const client = yield* BusinessClient.BusinessClient
            const seed = yield* control<Seeded>("/seed")
            const card = seed.counterparties.find((c) => c.cards.length > 0 && c.accounts.length === 0)!
            const request = {
              account_id: seed.accounts[0]!.id,
              receiver: { counterparty_id: card.id, card_id: card.cards[0]!.id }
            }
            yield* Effect.forEach(
              Array.from({ length: 32 }, (_, i) => i),
              () =>
                Effect.forEach(
                  Array.from({ length: 30 }, (_, i) => i),
                  () => client.transferFieldRequirements(request)
                ),
              { concurrency: "unbounded" }
            )
            return (yield* control<ReadonlyArray<{ operation: string | null; at: number; status: number }>>(
              "/requests"
            )).filter((r) => r.operation === "transferFieldRequirements")
          }).pipe(Effect.provide(clientLayer({ seed: 72, plans: 15 })))
        )
        expect(log).toHaveLength(960)
        expect(log.filter((r) => r.status === 429)).toHaveLength(0)
        const windowMs = 60_000
        const times = log.map((r) => r.at).sort((a, b) => a - b)
        let most = 0
        for (let i = 0, j = 0; i < times.length; i++) {
          while (times[i]! - times[j]! >= windowMs) j++
          most = Math.max(most, i - j + 1)
        }
        expect(most).toBeLessThanOrEqual(450)
        // the limiter spreads the calls: 960 take more than two windows
        expect(Duration.toMillis(elapsed)).toBeGreaterThan(2 * windowMs)
      })
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
