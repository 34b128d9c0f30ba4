/**
 * Issue 16, done when 2, with real processes: four child processes share one PostgreSQL ledger and send 1,000
 * exchanges between them over HTTP to a sandbox on a socket, a quarter of the request_ids sent by two processes at
 * once, under 30% faults of every kind on every operation (a delayed answer comes after the client's timeout, a
 * dropped one never comes: both leave the call unknown). Then the faults stop, and four new processes resume what
 * the ledger holds pending, all at once. The oracle (`judge`), on the server and in the ledger: no request_id
 * with two transactions, none lost, none unknown.
 *
 * The children are the bundled program of the crash test (test/children/exchanger.ts), on node:http; each has its own
 * PostgreSQL pool, ledger service and client. What they share is what replicas on several machines share: the
 * database and the server.
 */
import { describe, expect, it } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { Fault, Sandbox } from "@payrules/sandbox"
import * as PgRequestLedger from "@payrules/stores/PgRequestLedger"
import { BigDecimal, Effect } from "effect"
import * as Children from "./children.js"
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

/** one line of the sandbox's `GET /__sandbox/ledger` */
interface ServerEntry {
  readonly request_id: string
  readonly transactions: number
  readonly transaction_id: string | null
}

/**
 * The oracle, request_id by request_id: no request_id with two transactions; a succeeded entry holds the one
 * transaction the server holds; a refused one has none on the server; nothing is left in flight or unknown.
 */
const judge = (
  entries: ReadonlyArray<RequestLedger.Entry>,
  server: ReadonlyArray<ServerEntry>
): { readonly problems: ReadonlyArray<string>; readonly transactions: number } => {
  const onServer = new Map(server.map((e) => [e.request_id, e]))
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
  return { problems, transactions }
}

interface Done {
  readonly requestId: string
  readonly tag: string
}

interface Resumed {
  readonly pending: number
  readonly found: number
  readonly sent: number
  readonly refused: number
  readonly unknown: number
}

const getJson = <A>(url: string) => Effect.promise(() => fetch(url).then((r) => r.json() as Promise<A>))

describe("replicas as processes: four children, one PostgreSQL ledger", () => {
  it.live(
    "1,000 exchanges with overlapping request_ids at 30% faults: 0 duplicates, 0 lost, 0 unknown after resumePending",
    () =>
      Effect.gen(function* () {
        const server = yield* Sandbox.SandboxServer
        const url = yield* freshSchema
        const seed = yield* getJson<{ accounts: ReadonlyArray<{ id: string; currency: string }> }>(
          `${server.urls.control}/seed`
        )
        const before = yield* getJson<ReadonlyArray<{ balance: string }>>(`${server.urls.control}/accounts`)
        const task = {
          ledger: url,
          baseUrl: server.urls.business,
          token: server.tenants[0]!.token,
          from: { account_id: seed.accounts[0]!.id, currency: seed.accounts[0]!.currency },
          to: { account_id: seed.accounts[1]!.id, currency: seed.accounts[1]!.currency },
          timeoutMs: 1_000
        }
        const sends = Array.from({ length: REPLICAS }, (_, p) => idsOf(p))
        expect(new Set(sends.flat()).size).toBe(EXCHANGES)

        // the first four: no resume at start (the others' calls in flight are not theirs to settle)
        const first = yield* Effect.forEach(
          sends,
          (requestIds) => Children.run("exchanger", { ...task, requestIds, concurrency: 16, noResume: true }),
          { concurrency: "unbounded" }
        )
        const done = first.flatMap((output) => {
          expect(output.code, output.stderr.slice(0, 2_000)).toBe(0)
          return Children.line<ReadonlyArray<Done>>(output, "done")
        })
        expect(done.length).toBe(sends.flat().length)
        const unknownFirst = done.filter((d) => d.tag === "ExchangeOutcomeUnknown").length
        const faulted = (yield* getJson<ReadonlyArray<{ fault: string | null }>>(
          `${server.urls.control}/requests`
        )).filter((r) => r.fault !== null).length

        // the faults stop; four new processes resume the shared ledger at once
        const off = yield* Effect.promise(() =>
          fetch(`${server.urls.control}/faults`, {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: "[]"
          })
        )
        expect(off.ok).toBe(true)
        const restarted = yield* Effect.forEach(
          Array.from({ length: REPLICAS }),
          () => Children.run("exchanger", { ...task, requestIds: [], timeoutMs: 5_000 }),
          { concurrency: "unbounded" }
        )
        const resumed = restarted.map((output) => {
          expect(output.code, output.stderr.slice(0, 2_000)).toBe(0)
          return Children.line<Resumed>(output, "resumed")
        })
        expect(resumed.map((r) => r.unknown)).toEqual([0, 0, 0, 0])
        console.log(
          `replica processes: ${unknownFirst} of ${done.length} calls ended unknown, ${faulted} faults, ${resumed.map((r) => r.pending).join("/")} pending at the resumes`
        )

        // the oracle: the server's ledger and the shared one agree, request_id by request_id
        const entries = yield* RequestLedger.RequestLedger.use((ledger) => ledger.entries).pipe(
          Effect.provide(PgRequestLedger.layer({ url, maxConnections: 1 })),
          Effect.orDie
        )
        expect(entries.length).toBe(EXCHANGES)
        const { problems, transactions } = judge(
          entries,
          yield* getJson<ReadonlyArray<ServerEntry>>(`${server.urls.control}/ledger`)
        )
        expect(problems).toEqual([])
        const after = yield* getJson<ReadonlyArray<{ balance: string }>>(`${server.urls.control}/accounts`)
        const moved = BigDecimal.subtract(
          BigDecimal.fromStringUnsafe(before[0]!.balance),
          BigDecimal.fromStringUnsafe(after[0]!.balance)
        )
        expect(BigDecimal.format(moved)).toBe(String(transactions))
        // the faults were there, and the calls they left unknown were settled by the resumes (how many calls end
        // unknown depends on timing: an answer delayed past the timeout, a retry that meets the other process's attempt)
        expect(faulted).toBeGreaterThan(300)
        expect(transactions).toBeGreaterThan(0.9 * EXCHANGES)
        expect(resumed.reduce((n, r) => n + r.found + r.sent + r.refused, 0)).toBeGreaterThanOrEqual(
          resumed.reduce((n, r) => n + r.pending, 0)
        )
      }).pipe(
        Effect.scoped,
        Effect.provide(
          Sandbox.layer({
            seed: 1603,
            plans: 15,
            faults: Fault.mixed("*", 0.3, ["fail-before", "drop-after", "delay-after", "rate-limit", "fail-during"], {
              delayMs: 1_200,
              retryAfterSeconds: 0
            })
          })
        )
      )
  )
})
