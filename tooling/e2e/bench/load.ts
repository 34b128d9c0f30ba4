/**
 * Issue 17: the sandbox under load, beside a plain node:http server doing the same JSON work (./servers/baseline.ts),
 * each in its own process, both driven in one run by autocannon at 50 and 200 connections. Prints requests per
 * second, p50 and p99 latency, errors, timeouts and RSS for both, and the ratio; in the same table, the one-endpoint
 * floors of effect (an `HttpRouter` with one route, a one-endpoint `HttpApi`) beside node:http serving the same
 * constant answer (./servers/floor.ts); then the sandbox's RSS before the load, after it, and after pruning, GET plans
 * with 100 and with 10,000 plans seeded, and the floor table: a constant answer from node:http, from effect's
 * `HttpServer.serve`, from an `HttpRouter` and from a one-endpoint `HttpApi`.
 *
 * `BENCH_DURATION` (seconds per run, default 10).
 */
import { cpus, loadavg } from "node:os"
import autocannon from "autocannon"
import { json, type Request, requestOf, sandboxOptions, startPair, token } from "./pair.js"
import type { Kind as FloorKind } from "./servers/floor.js"
import { type Child, spawn } from "./servers/spawn.js"

const duration = Number(process.env.BENCH_DURATION ?? "10")
const MB = 1_048_576

interface Result {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly timeouts: number
  readonly non2xx: number
}

const load = async (url: string, c: Request, connections: number, seconds = duration): Promise<Result> => {
  const r = await autocannon({ ...requestOf(url, c), connections, duration: seconds })
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx
  }
}

const rssOf = async (child: Child, kind: "sandbox" | "baseline") =>
  (await json<{ rss: number }>(`${child.url}${kind === "sandbox" ? "/__sandbox/stats" : "/__stats"}`)).rss

export const run = async (print: (line: string) => void = console.log) => {
  const pair = await startPair()
  const { sandbox, baseline, cases } = pair
  const rows: Array<string> = []
  let heading = ""
  let rss = ""
  try {
    // a short warm-up of every case on both, then the sandbox's RSS before the load
    for (const c of cases) for (const url of [sandbox.url, baseline.url]) await load(url, c, 10, 1)
    const rssBefore = await rssOf(sandbox, "sandbox")
    const load1 = loadavg()[0]!

    for (const c of cases) {
      for (const connections of [50, 200]) {
        // alternate which server goes first
        const first = rows.length % 2 === 0
        const a = await load(first ? sandbox.url : baseline.url, c, connections)
        const b = await load(first ? baseline.url : sandbox.url, c, connections)
        const [s, p] = first ? [a, b] : [b, a]
        const [sRss, pRss] = [await rssOf(sandbox, "sandbox"), await rssOf(baseline, "baseline")]
        rows.push(
          `| ${c.name} | ${connections} | ${Math.round(s.rps)} | ${Math.round(p.rps)} | **${(s.rps / p.rps).toFixed(2)}x** | ${s.p50} / ${s.p99} ms | ${p.p50} / ${p.p99} ms | ${s.errors + s.non2xx} / ${p.errors + p.non2xx} | ${s.timeouts} / ${p.timeouts} | ${(sRss / MB).toFixed(0)} / ${(pRss / MB).toFixed(0)} MB |`
        )
      }
    }
    const load2 = loadavg()[0]!
    const rssAfter = await rssOf(sandbox, "sandbox")
    await fetch(`${sandbox.url}/__sandbox/requests`, { method: "DELETE" })
    await json(`${sandbox.url}/__sandbox/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_ms: 25 * 3_600_000 })
    })
    // read the RSS every 2 s until it stops falling, for 30 s at most (each read of /__sandbox/stats runs a
    // memory-reducing collection first, which gives back the heap pages V8 pools after a load)
    let rssPruned = await rssOf(sandbox, "sandbox")
    let waited = 0
    for (; waited < 30; waited += 2) {
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      const now = await rssOf(sandbox, "sandbox")
      if (now >= rssPruned * 0.98 && waited >= 6) break
      rssPruned = Math.min(rssPruned, now)
    }

    heading = `${new Date().toISOString().slice(0, 10)}; ${cpus()[0]?.model ?? "cpu"} x${cpus().length}, Node ${process.version}; autocannon ${duration} s per run; load average ${load1.toFixed(2)} before, ${load2.toFixed(2)} after`
    rss = `Sandbox RSS: ${(rssBefore / MB).toFixed(0)} MB before the load, ${(rssAfter / MB).toFixed(0)} MB after it, ${(rssPruned / MB).toFixed(0)} MB after pruning, ${waited + 2} s later (${(rssPruned / rssBefore).toFixed(2)}x of before).`
  } finally {
    await pair.stop()
  }

  // the one-endpoint floors of effect, in the same table: each beside node:http serving the same constant answer
  const floors = await measureFloors([50, 200])
  for (const [kind, name] of [
    ["effect-router", "floor: effect HttpRouter, one route"],
    ["effect-httpapi", "floor: effect HttpApi, one endpoint"]
  ] as const) {
    for (const connections of [50, 200]) {
      const e = floors.get(`${kind} ${connections}`)!
      const n = floors.get(`node ${connections}`)!
      rows.push(
        `| ${name} | ${connections} | ${Math.round(e.rps)} | ${Math.round(n.rps)} | **${(e.rps / n.rps).toFixed(2)}x** | ${e.p50} / ${e.p99} ms | ${n.p50} / ${n.p99} ms | ${e.errors + e.non2xx} / ${n.errors + n.non2xx} | ${e.timeouts} / ${n.timeouts} | |`
      )
    }
  }

  print("")
  print("#### The sandbox under load, beside a plain node:http server doing the same JSON work")
  print("")
  print(heading)
  print("")
  print(
    "| operation | connections | sandbox req/s | node:http req/s | ratio | sandbox p50 / p99 | node:http p50 / p99 | errors + non-2xx (s / n) | timeouts (s / n) | RSS (s / n) |"
  )
  print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
  for (const row of rows) print(row)
  print("")
  print(
    "The floor rows serve a constant JSON answer: effect's server (sandbox column) beside node:http (node:http column)."
  )
  print("")
  print(rss)

  // GET plans with 100 and with 10,000 plans seeded
  const sizes: Array<string> = []
  for (const plans of [100, 10_000]) {
    const s = await spawn("sandbox", sandboxOptions(plans))
    try {
      const merchant = { authorization: token, "revolut-api-version": "2024-09-01" }
      const plain: Request = {
        method: "GET",
        path: "/merchant/api/subscription-plans?limit=10",
        headers: merchant
      }
      const filtered: Request = {
        ...plain,
        path: "/merchant/api/subscription-plans?limit=10&from=2024-01-01T00:00:00Z&to=2024-12-31T23:59:59Z"
      }
      await load(s.url, plain, 10, 1)
      const a = await load(s.url, plain, 50)
      const b = await load(s.url, filtered, 50)
      sizes.push(
        `| ${plans} | ${Math.round(a.rps)} | ${a.p50} / ${a.p99} ms | ${Math.round(b.rps)} | ${b.p50} / ${b.p99} ms |`
      )
    } finally {
      await s.stop()
    }
  }
  print("")
  print("#### GET plans (limit 10) with 100 and with 10,000 plans seeded, 50 connections")
  print("")
  print("| plans | req/s | p50 / p99 | req/s, from and to (2024) | p50 / p99 |")
  print("| ---: | ---: | ---: | ---: | ---: |")
  for (const row of sizes) print(row)

  printFloors(floors, [50, 200], print)
}

const floorKinds: ReadonlyArray<FloorKind> = ["node", "effect-server", "effect-router", "effect-httpapi"]

/**
 * Each floor server at each number of connections, by `${kind} ${connections}`. The servers run side by side (each in
 * its own process, idle while another is loaded), and the order alternates from one number of connections to the next,
 * so that a change in the machine's load does not fall on one of them only.
 */
const measureFloors = async (connections: ReadonlyArray<number>): Promise<Map<string, Result>> => {
  const results = new Map<string, Result>()
  const servers: Array<readonly [FloorKind, Child]> = []
  try {
    for (const kind of floorKinds) servers.push([kind, await spawn("floor", { kind })])
    const c: Request = { method: "GET", path: "/reasons", headers: {} }
    for (const [, f] of servers) await load(f.url, c, 10, 1)
    for (const [i, n] of connections.entries()) {
      for (const [kind, f] of i % 2 === 0 ? servers : [...servers].reverse()) {
        results.set(`${kind} ${n}`, await load(f.url, c, n))
      }
    }
  } finally {
    for (const [, f] of servers) await f.stop()
  }
  return results
}

const printFloors = (
  results: ReadonlyMap<string, Result>,
  connections: ReadonlyArray<number>,
  print: (line: string) => void
) => {
  print("")
  print("#### The floor: a constant JSON answer")
  print("")
  print("| server | connections | req/s | / node:http | p50 / p99 | errors + non-2xx |")
  print("| --- | ---: | ---: | ---: | ---: | ---: |")
  for (const kind of floorKinds) {
    for (const n of connections) {
      const r = results.get(`${kind} ${n}`)!
      const node = results.get(`node ${n}`)!
      print(
        `| ${kind} | ${n} | ${Math.round(r.rps)} | ${(r.rps / node.rps).toFixed(2)}x | ${r.p50} / ${r.p99} ms | ${r.errors + r.non2xx} |`
      )
    }
  }
}

/**
 * The floor alone: what node:http, effect's `HttpServer.serve`, an `HttpRouter` with one route and a one-endpoint
 * `HttpApi` do with a constant answer, at 50 and 200 connections.
 */
export const floor = async (print: (line: string) => void = console.log) => {
  const connections = [50, 200]
  printFloors(await measureFloors(connections), connections, print)
}
