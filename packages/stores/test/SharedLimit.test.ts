/**
 * Issue 16, done when 3, with real processes: four child processes, each a client with the Redis limiter on one
 * key, make 2,000 POST /pay/fields calls between them over HTTP to one sandbox on a socket, which allows 450 in any
 * window and answers 429 past that. The window is shortened for the test (800 ms instead of 60 s), with a margin of
 * 500 ms for the time between a permit and the request's arrival at the server; the limiter's guarantee does not
 * depend on the window's length (the first test checks the parameters for other windows and margins).
 *
 * The limiter paces the four well below what they could send, so the run takes about six seconds whatever the
 * machine's load, and a loaded machine only adds to the time between a permit and the arrival, which the margin
 * covers.
 */
import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import * as RedisPayFieldsLimiter from "@payrules/stores/RedisPayFieldsLimiter"
import { redisUrl } from "@payrules/vitest/Services"
import { Duration, Effect } from "effect"
import * as Children from "./children.js"

const LIMIT = 450
const WINDOW_MS = 800
const MARGIN_MS = 500
const REPLICAS = 4
const CALLS = 2_000

/** the most requests in any window of `windowMs` (half-open, as the sandbox counts them) */
const busiest = (times: ReadonlyArray<number>, windowMs: number): number => {
  const sorted = [...times].sort((a, b) => a - b)
  let most = 0
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++
    most = Math.max(most, i - j + 1)
  }
  return most
}

const getJson = <A>(url: string) => Effect.promise(() => fetch(url).then((r) => r.json() as Promise<A>))

describe("the /pay/fields limit shared through Redis, by processes", () => {
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
    expect(test).toMatchObject({ burst: 10, refillMillis: 3 })
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
    `4 processes, 2,000 calls: the sandbox never sees more than ${LIMIT} in any ${WINDOW_MS} ms window, and no 429`,
    () =>
      Effect.gen(function* () {
        const server = yield* Sandbox.SandboxServer
        const seed = yield* getJson<{
          accounts: ReadonlyArray<{ id: string }>
          counterparties: ReadonlyArray<{
            id: string
            accounts: ReadonlyArray<unknown>
            cards: ReadonlyArray<{ id: string }>
          }>
        }>(`${server.urls.control}/seed`)
        const card = seed.counterparties.find((c) => c.cards.length > 0 && c.accounts.length === 0)!
        const task = {
          baseUrl: server.urls.business,
          token: server.tenants[0]!.token,
          redisUrl: redisUrl(),
          key: `shared-limit-processes-${process.pid}-${Date.now()}`,
          limit: LIMIT,
          windowMs: WINDOW_MS,
          marginMs: MARGIN_MS,
          request: {
            account_id: seed.accounts[0]!.id,
            receiver: { counterparty_id: card.id, card_id: card.cards[0]!.id }
          },
          calls: CALLS / REPLICAS,
          concurrency: 16
        }
        const outputs = yield* Effect.forEach(Array.from({ length: REPLICAS }), () => Children.run("fielder", task), {
          concurrency: "unbounded"
        })
        const done = outputs.map((output) => {
          expect(output.code, output.stderr.slice(0, 2_000)).toBe(0)
          return Children.line<{ readonly ok: number; readonly failed: ReadonlyArray<string> }>(output, "done")
        })
        expect(done.flatMap((d) => d.failed)).toEqual([])
        expect(done.map((d) => d.ok)).toEqual([500, 500, 500, 500])

        const log = (yield* getJson<ReadonlyArray<{ operation: string | null; at: number; status: number }>>(
          `${server.urls.control}/requests`
        )).filter((r) => r.operation === "transferFieldRequirements")
        expect(log).toHaveLength(CALLS)
        expect(log.filter((r) => r.status === 429)).toHaveLength(0)
        const most = busiest(
          log.map((r) => r.at),
          WINDOW_MS
        )
        console.log(`shared limit, processes: at most ${most} requests in any ${WINDOW_MS} ms window`)
        expect(most).toBeLessThanOrEqual(LIMIT)
      }).pipe(
        Effect.scoped,
        Effect.provide(Sandbox.layer({ seed: 1604, plans: 15, payFieldsLimit: { limit: LIMIT, windowMs: WINDOW_MS } }))
      )
  )
})
