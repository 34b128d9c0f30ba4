/**
 * Issue 16, done when 3: four replicas, each with the Redis limiter on one key, make 2,000 POST /pay/fields calls
 * between them against one sandbox that allows 450 in any window and answers 429 past that. The window is shortened
 * for the test (500 ms instead of 60 s, with a margin of 380 ms for the time between a permit and the arrival), so
 * the run takes seconds; the limiter's guarantee does not depend on the window's length (see parametersFor).
 *
 * Each replica is an Effect runtime of its own, built from fresh layers: its own Redis connection, its own client.
 * They share what processes share: Redis and the server (the sandbox, in this process and on the real clock, with
 * no sockets between: 2,000 HTTP round trips between processes cost more CPU than a loaded 2-core machine gives the
 * sandbox, which would then pace the calls itself, and the limiter would prove nothing).
 */

import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { Sandbox } from "@payrules/sandbox"
import { RedisPayFieldsLimiter } from "@payrules/stores"
import { BusinessClient } from "@payrules/transport"
import { redisUrl } from "@payrules/vitest/Services"
import { Context, Duration, Effect, Either, Layer, Redacted } from "effect"

const LIMIT = 450
const WINDOW_MS = 500
const MARGIN_MS = 380
const REPLICAS = 4
const CALLS = 2_000

/** the most requests in any window of `windowMs` (half-open, as the sandbox counts them) */
const busiest = (times: ReadonlyArray<number>, windowMs: number) => {
  const sorted = [...times].sort((a, b) => a - b)
  let most = 0
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++
    most = Math.max(most, i - j + 1)
  }
  return most
}

describe("the /pay/fields limit shared through Redis", () => {
  it("the parameters keep every window within the limit, with the margin", () => {
    expect(RedisPayFieldsLimiter.parametersFor({ limit: 450, window: Duration.minutes(1) })).toMatchObject({
      burst: 10,
      refillMillis: 139,
      worstCase: 448
    })
    const test = RedisPayFieldsLimiter.parametersFor(
      { limit: LIMIT, window: Duration.millis(WINDOW_MS) },
      Duration.millis(MARGIN_MS)
    )
    expect(test).toMatchObject({ burst: 10, refillMillis: 2 })
    expect(test.worstCase).toBeLessThanOrEqual(LIMIT)
    for (const [limit, window, margin] of [
      [450, 60_000, 0],
      [450, 60_000, 5_000],
      [45, 1_000, 100],
      [3, 60_000, 1_000],
      [10_000, 60_000, 1_000]
    ] as const) {
      const p = RedisPayFieldsLimiter.parametersFor({ limit, window: Duration.millis(window) }, Duration.millis(margin))
      expect(p.worstCase, `${limit} per ${window} ms`).toBeLessThanOrEqual(limit)
    }
  })

  it.live(
    `4 replicas, 2,000 calls: the sandbox never sees more than ${LIMIT} in any ${WINDOW_MS} ms window, and no 429`,
    () =>
      Effect.gen(function* () {
        const server = yield* Sandbox.SandboxServer
        const http = yield* HttpClient.HttpClient
        const getJson = <A>(url: string) =>
          Effect.orDie(Effect.flatMap(http.get(url), (r) => r.json as Effect.Effect<A, never>))
        const seed = yield* getJson<{
          accounts: ReadonlyArray<{ id: string }>
          counterparties: ReadonlyArray<{
            id: string
            accounts: ReadonlyArray<unknown>
            cards: ReadonlyArray<{ id: string }>
          }>
        }>(`${server.urls.control}/seed`)
        const card = seed.counterparties.find((c) => c.cards.length > 0 && c.accounts.length === 0)!
        const request = {
          account_id: seed.accounts[0]!.id,
          receiver: { counterparty_id: card.id, card_id: card.cards[0]!.id }
        }
        const key = `shared-limit-${process.pid}-${Date.now()}`
        /** one replica: fresh layers (its own Redis connection), built apart from the others' */
        const replica = Effect.map(
          Layer.build(
            Layer.fresh(
              BusinessClient.layer({
                ...BusinessClient.defaults,
                baseUrl: server.urls.business,
                token: Redacted.make(server.tenants[0]!.token),
                // one attempt: a 429 would be retried, and the server's log must show every one
                retry: { maxAttempts: 1, baseDelay: 5, maxDelay: 5, minSpacing: 0 }
              }).pipe(
                Layer.provide(
                  Layer.mergeAll(
                    RequestLedger.layer,
                    Layer.succeed(HttpClient.HttpClient, http),
                    RedisPayFieldsLimiter.layer({
                      url: redisUrl(),
                      key,
                      limit: { limit: LIMIT, window: Duration.millis(WINDOW_MS) },
                      margin: Duration.millis(MARGIN_MS)
                    })
                  )
                )
              )
            )
          ),
          Context.get(BusinessClient.BusinessClient)
        )
        const replicas = yield* Effect.forEach(Array.from({ length: REPLICAS }), () => replica)
        const results = yield* Effect.forEach(
          replicas,
          (client) =>
            Effect.forEach(
              Array.from({ length: CALLS / REPLICAS }),
              () => Effect.either(client.transferFieldRequirements(request)),
              { concurrency: 16 }
            ),
          { concurrency: "unbounded" }
        )
        expect(
          results
            .flat()
            .filter(Either.isLeft)
            .map((e) => e.left.message)
        ).toEqual([])
        const log = (yield* getJson<ReadonlyArray<{ operation: string | null; at: number; status: number }>>(
          `${server.urls.control}/requests`
        )).filter((r) => r.operation === "transferFieldRequirements")
        expect(log).toHaveLength(CALLS)
        expect(log.filter((r) => r.status === 429)).toHaveLength(0)
        const most = busiest(
          log.map((r) => r.at),
          WINDOW_MS
        )
        console.log(`shared limit: at most ${most} requests in any ${WINDOW_MS} ms window`)
        expect(most).toBeLessThanOrEqual(LIMIT)
      }).pipe(
        Effect.scoped,
        Effect.provide(
          Sandbox.layerInProcess({ seed: 1603, plans: 15, payFieldsLimit: { limit: LIMIT, windowMs: WINDOW_MS } })
        )
      )
  )
})
