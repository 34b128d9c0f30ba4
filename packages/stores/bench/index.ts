/**
 * `pnpm bench` for the stores: request_id ledger throughput, one `register` and one `complete` per exchange (what a
 * client writes for each exchange it sends), for the in-memory ledger, a SQLite file and PostgreSQL, side by side;
 * one at a time (a single caller's latency) and 16 at a time (a busy service). PostgreSQL is the server of
 * `PAYRULES_POSTGRES_URL`, or one that scripts/services.sh starts for the run (as the tests do). Benchmarks never run
 * in tests and never fail on a number.
 */
import { mkdtempSync, rmSync } from "node:fs"
import * as os from "node:os"
import { join } from "node:path"
import { ExchangeRequest, RequestLedger } from "@payrules/exchange"
import * as PgRequestLedger from "@payrules/stores/PgRequestLedger"
import * as SqliteRequestLedger from "@payrules/stores/SqliteRequestLedger"
import startServices from "@payrules/vitest/services"
import { Context, Effect, Layer, Result } from "effect"

const quick = process.env.BENCH_QUICK === "1"
const ROUNDS = quick ? 2 : 5
const PER_ROUND = quick ? 200 : 2_000

const body = (requestId: string) =>
  Result.getOrThrow(
    ExchangeRequest.parse({
      from: { account_id: "a-gbp", currency: "GBP", amount: 10.5 },
      to: { account_id: "a-eur", currency: "EUR" },
      request_id: requestId
    })
  )
const transaction = { id: "0b6f1f0e-3c3a-4d2b-9a51-5f1f1e9b7c11", type: "exchange", state: "completed" as const }

/** register + complete of `n` new request_ids, `concurrency` at a time: exchanges per second */
const measure = (ledger: RequestLedger.RequestLedgerService, round: string, n: number, concurrency: number) =>
  Effect.gen(function* () {
    const requests = Array.from({ length: n }, (_, i) => body(`${round}-${i}`))
    const started = performance.now()
    yield* Effect.forEach(
      requests,
      (request) =>
        Effect.andThen(
          ledger.register(request),
          ledger.complete(request.request_id, RequestLedger.Outcome.Succeeded({ transaction }))
        ),
      { concurrency, discard: true }
    )
    return n / ((performance.now() - started) / 1000)
  })

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const stores = (dir: string, postgres: string) =>
  [
    ["memory", RequestLedger.layer],
    ["SQLite (file, WAL)", SqliteRequestLedger.layer({ filename: join(dir, "bench.db") })],
    ["PostgreSQL (pool of 10)", PgRequestLedger.layer({ url: postgres })]
  ] as const

const run = Effect.gen(function* () {
  const dir = mkdtempSync(join(os.tmpdir(), "payrules-bench-"))
  const stop = startServices()
  const postgres = process.env.PAYRULES_POSTGRES_URL
  try {
    if (postgres === undefined) throw new Error(process.env.PAYRULES_SERVICES_UNAVAILABLE ?? "no PostgreSQL")
    const rows: Array<{ name: string; serial: number; concurrent: number }> = []
    for (const [name, layer] of stores(dir, postgres)) {
      const result = yield* Effect.scoped(
        Effect.gen(function* () {
          const ledger = Context.get(yield* Layer.build(layer), RequestLedger.RequestLedger)
          yield* measure(ledger, `warm-${name}`, PER_ROUND / 4, 16)
          const serial: Array<number> = []
          const concurrent: Array<number> = []
          for (let r = 0; r < ROUNDS; r++) {
            serial.push(yield* measure(ledger, `s-${r}-${Date.now()}`, PER_ROUND, 1))
            concurrent.push(yield* measure(ledger, `c-${r}-${Date.now()}`, PER_ROUND, 16))
          }
          return { name, serial: median(serial), concurrent: median(concurrent) }
        })
      )
      rows.push(result)
    }
    const memory = rows[0]!
    const fmt = (n: number) => Math.round(n).toLocaleString("en-US")
    console.log("")
    console.log("#### Request ledger: register + complete per exchange, exchanges per second (median of rounds)")
    console.log("")
    console.log(
      `${new Date().toISOString().slice(0, 10)}; ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}; Node ${process.version}; ${ROUNDS} rounds of ${PER_ROUND}`
    )
    console.log("")
    console.log("| store | 1 at a time | memory / this | 16 at a time | memory / this |")
    console.log("| --- | ---: | ---: | ---: | ---: |")
    for (const row of rows) {
      console.log(
        `| ${row.name} | ${fmt(row.serial)} | ${(memory.serial / row.serial).toFixed(1)}x | ${fmt(row.concurrent)} | ${(memory.concurrent / row.concurrent).toFixed(1)}x |`
      )
    }
  } finally {
    stop?.()
    rmSync(dir, { recursive: true, force: true })
  }
})

await Effect.runPromise(run)
