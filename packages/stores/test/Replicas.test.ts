/**
 * Issue 16, done when 2: four replicas share one PostgreSQL ledger and send 1,000 exchanges between them, a quarter
 * of the request_ids sent by two replicas at once, under 30% faults of every kind on every operation (the sandbox
 * decides each fault from its seed, the request key and the attempt). Then the faults stop, and the four resume
 * what the ledger holds pending, all at once. The oracle, on the server and in the ledger: no request_id with two
 * transactions, none lost (each has one transaction, or the server's stored refusal of a failure during execution,
 * and the ledger says the same), none unknown.
 *
 * Each replica is an Effect runtime of its own, built from fresh layers: its own PostgreSQL pool (its own
 * connections and sessions), its own ledger service, its own client with its own limiter and state. What they share
 * is what processes on several machines share: the database and the server (the sandbox, in this process, without
 * sockets: thousands of HTTP round trips between processes would cost the test seconds on a 2-core machine and
 * prove nothing more; the crash test runs real processes on a shared SQLite file).
 */

import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { Fault, Sandbox } from "@payrules/sandbox"
import { PgRequestLedger } from "@payrules/stores"
import { BusinessClient } from "@payrules/transport"
import { BigDecimal, Context, Duration, Effect, Either, Layer, Redacted } from "effect"
import { freshSchema } from "./pg.js"

const EXCHANGES = 1_000
const REPLICAS = 4

/** the request_ids of replica p: every fourth id goes to two replicas, and each replica starts at another place */
const idsOf = (p: number): ReadonlyArray<string> => {
  const ids: Array<string> = []
  for (let n = 0; n < EXCHANGES; n++) {
    const i = (n + p * 250) % EXCHANGES
    const first = i % REPLICAS
    const second = i % 4 === 0 ? (first + 1 + (i % 3)) % REPLICAS : first
    if (p === first || p === second) ids.push(`replica-${i}`)
  }
  return ids
}

const fast = {
  maxAttempts: 4,
  baseDelay: Duration.millis(5),
  maxDelay: Duration.millis(40),
  minSpacing: Duration.millis(10)
}

describe("replicas: four runtimes, each with its own PostgreSQL pool, one ledger", () => {
  it.live(
    "1,000 exchanges with overlapping request_ids at 30% faults: 0 duplicates, 0 lost, 0 unknown after resumePending",
    () =>
      Effect.gen(function* () {
        const server = yield* Sandbox.SandboxServer
        const http = yield* HttpClient.HttpClient
        const url = yield* freshSchema
        const control = <A>(path: string) =>
          Effect.flatMap(http.get(`${server.urls.control}${path}`), (r) => r.json as Effect.Effect<A, never>).pipe(
            Effect.orDie
          )
        const seed = yield* control<{ accounts: ReadonlyArray<{ id: string; currency: string }> }>("/seed")
        const before = yield* control<ReadonlyArray<{ balance: string }>>("/accounts")

        /** one replica: fresh layers, built apart from the others' */
        const replica = (timeout: Duration.DurationInput) =>
          Effect.map(
            Layer.build(
              Layer.fresh(
                BusinessClient.layer({
                  ...BusinessClient.defaults,
                  baseUrl: server.urls.business,
                  token: Redacted.make(server.tenants[0]!.token),
                  timeout,
                  retry: fast,
                  exchangeRetry: fast
                }).pipe(
                  Layer.provideMerge(PgRequestLedger.layer({ url, maxConnections: 4 })),
                  Layer.provide(Layer.succeed(HttpClient.HttpClient, http))
                )
              )
            ),
            (context) => ({
              client: Context.get(context, BusinessClient.BusinessClient),
              ledger: Context.get(context, RequestLedger.RequestLedger)
            })
          )
        // while the faults last, an answer later than 200 ms counts as lost (a delayed one comes after 300 ms)
        const replicas = yield* Effect.forEach(Array.from({ length: REPLICAS }), () => replica("200 millis"))
        const sends = replicas.map((_, p) => idsOf(p))
        expect(new Set(sends.flat()).size).toBe(EXCHANGES)
        expect(sends.flat().length).toBe(1.25 * EXCHANGES)

        const sell = (requestId: string) =>
          ({
            _tag: "Sell",
            from: { account_id: seed.accounts[0]!.id, currency: seed.accounts[0]!.currency },
            to: { account_id: seed.accounts[1]!.id, currency: seed.accounts[1]!.currency },
            amount: BigDecimal.unsafeFromString("1"),
            request_id: requestId
          }) as unknown as BusinessClient.ExchangeInput
        const first = yield* Effect.forEach(
          replicas,
          (r, p) => Effect.forEach(sends[p]!, (id) => Effect.either(r.client.exchange(sell(id))), { concurrency: 16 }),
          { concurrency: "unbounded" }
        )
        const calls = first.flat()
        const unknownFirst = calls.filter((c) => Either.isLeft(c) && c.left._tag === "ExchangeOutcomeUnknown").length
        const faulted = (yield* control<ReadonlyArray<{ fault: string | null }>>("/requests")).filter(
          (r) => r.fault !== null
        ).length

        // the faults stop; the four restart (new runtimes, as new processes) and resume the shared ledger at once
        yield* Effect.flatMap(
          http.execute(
            HttpClientRequest.put(`${server.urls.control}/faults`).pipe(HttpClientRequest.bodyUnsafeJson([]))
          ),
          (r) => r.text
        ).pipe(Effect.orDie)
        const restarted = yield* Effect.forEach(Array.from({ length: REPLICAS }), () => replica("5 seconds"))
        const resumed = yield* Effect.forEach(restarted, (r) => r.client.resumePending(), { concurrency: "unbounded" })
        expect(resumed.map((r) => r.unknown)).toEqual([0, 0, 0, 0])
        console.log(
          `replicas: ${unknownFirst} calls ended unknown, ${resumed.map((r) => r.pending).join("/")} pending at the resumes`
        )

        // the oracle: the server's ledger and the shared one agree, request_id by request_id
        const onServer = new Map(
          (yield* control<ReadonlyArray<{ request_id: string; transactions: number; transaction_id: string | null }>>(
            "/ledger"
          )).map((e) => [e.request_id, e])
        )
        const entries = yield* replicas[0]!.ledger.entries
        expect(entries.length).toBe(EXCHANGES)
        const problems: Array<string> = []
        let transactions = 0
        for (const entry of entries) {
          const held = onServer.get(entry.requestId)
          const count = held?.transactions ?? 0
          transactions += count
          if (count > 1) problems.push(`${entry.requestId}: ${count} transactions`)
          if (entry.state === "succeeded") {
            const id =
              entry.outcome._tag === "Some" && entry.outcome.value._tag === "Succeeded"
                ? entry.outcome.value.transaction.id
                : undefined
            if (count !== 1 || id !== held?.transaction_id) {
              problems.push(`${entry.requestId}: succeeded as ${id}, the server holds ${count}`)
            }
          } else if (entry.state === "refused") {
            if (count !== 0) problems.push(`${entry.requestId}: refused, the server holds ${count}`)
          } else {
            problems.push(`${entry.requestId}: ${entry.state} after resumePending`)
          }
        }
        expect(problems).toEqual([])
        const after = yield* control<ReadonlyArray<{ balance: string }>>("/accounts")
        const moved = BigDecimal.subtract(
          BigDecimal.unsafeFromString(before[0]!.balance),
          BigDecimal.unsafeFromString(after[0]!.balance)
        )
        expect(BigDecimal.format(moved)).toBe(String(transactions))
        // the faults were there (every kind), and the resumes settled what the calls left unknown
        expect(faulted).toBeGreaterThan(300)
        expect(transactions).toBeGreaterThan(0.9 * EXCHANGES)
        expect(calls.length).toBe(sends.flat().length)
        expect(resumed.reduce((n, r) => n + r.found + r.sent + r.refused, 0)).toBeGreaterThanOrEqual(
          resumed.reduce((n, r) => n + r.pending, 0)
        )
      }).pipe(
        Effect.scoped,
        Effect.provide(
          Sandbox.layerInProcess({
            seed: 1602,
            plans: 15,
            faults: Fault.mixed("*", 0.3, ["fail-before", "drop-after", "delay-after", "rate-limit", "fail-during"], {
              delayMs: 300,
              retryAfterSeconds: 0
            })
          })
        )
      )
  )
})
