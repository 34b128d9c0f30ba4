/**
 * Issue 14, done when 3: POST /exchange against a sandbox (in its own process) with no stored request_id and with
 * 100,000, and the sandbox's heap before the keys were added and after they were pruned (the clock control moves the
 * sandbox's time past the 24-hour retention window).
 */
import * as http from "node:http"
import { performance } from "node:perf_hooks"
import { Sandbox } from "@payrules/sandbox"
import autocannon from "autocannon"
import { spawn } from "./servers/spawn.js"

interface Stats {
  readonly heap_used: number
  readonly rss: number
  readonly request_ids: number
  readonly transactions: number
}

const MB = 1_048_576

export const run = async (print: (line: string) => void = console.log) => {
  const options = { seed: 93, plans: 15 }
  const sandbox = await spawn("sandbox", options)
  // the first seeded tenant's token (derived from the seed)
  const authorization = `Bearer ${Sandbox.tenants(options)[0]!.token}`
  try {
    const control = (path: string, init?: RequestInit) =>
      fetch(`${sandbox.url}/__sandbox${path}`, init).then((r) => r.json())
    const seed = (await control("/seed")) as { accounts: ReadonlyArray<{ id: string }> }
    const stats = () => control("/stats") as Promise<Stats>
    // many requests, each with a new request_id (every request stores a key)
    const exchange = (options: {
      readonly connections: number
      readonly duration?: number
      readonly amount?: number
    }) =>
      autocannon({
        url: `${sandbox.url}/business/exchange`,
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({
          from: { account_id: seed.accounts[0]!.id, currency: "GBP", amount: 0.01 },
          to: { account_id: seed.accounts[1]!.id, currency: "EUR" },
          request_id: "[<id>]"
        }),
        idReplacement: true,
        connections: options.connections,
        ...(options.amount === undefined ? { duration: options.duration ?? 5 } : { amount: options.amount })
      })
    // one request at a time over one kept-alive connection, each timed: n latencies in milliseconds
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    let serial = 0
    const one = () =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({
          from: { account_id: seed.accounts[0]!.id, currency: "GBP", amount: 0.01 },
          to: { account_id: seed.accounts[1]!.id, currency: "EUR" },
          request_id: `timed-${process.pid}-${serial++}`
        })
        const started = performance.now()
        const request = http.request(
          `${sandbox.url}/business/exchange`,
          {
            method: "POST",
            agent,
            headers: { authorization, "content-type": "application/json" }
          },
          (response) => {
            response.resume()
            response.on("end", () =>
              response.statusCode === 200
                ? resolve(performance.now() - started)
                : reject(new Error(`POST /exchange answered ${response.statusCode}`))
            )
          }
        )
        request.on("error", reject)
        request.end(body)
      })
    const latency = async (n = 3_000) => {
      const times: Array<number> = []
      for (let i = 0; i < n; i++) times.push(await one())
      times.sort((a, b) => a - b)
      return {
        p50: times[Math.floor(n * 0.5)]!,
        p99: times[Math.floor(n * 0.99)]!,
        mean: times.reduce((a, b) => a + b, 0) / n
      }
    }
    await exchange({ connections: 8, duration: 2 })
    await control("/clock", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_ms: 25 * 3_600_000 })
    })
    await fetch(`${sandbox.url}/__sandbox/requests`, { method: "DELETE" })
    const empty = await stats()
    const before = await latency()
    const filled = await stats()
    const fill = await exchange({ connections: 32, amount: 100_000 - filled.request_ids })
    const full = await stats()
    const after = await latency()
    await fetch(`${sandbox.url}/__sandbox/requests`, { method: "DELETE" })
    await control("/clock", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_ms: 25 * 3_600_000 })
    })
    const pruned = await stats()
    const row = (name: string, a: string, b: string, ratio: string) => `| ${name} | ${a} | ${b} | ${ratio} |`
    print("")
    print("#### POST /exchange with no stored request_id and with 100,000 (sandbox in its own process)")
    print("")
    print(
      `${new Date().toISOString().slice(0, 10)}; ${fill.requests.total} keys added at ${Math.round(fill.requests.average)} req/s`
    )
    print("")
    print("| measure | ~0 keys | 100,000 keys | ratio |")
    print("| --- | ---: | ---: | ---: |")
    print(row("request_ids held", String(filled.request_ids), String(full.request_ids), ""))
    for (const key of ["p50", "p99", "mean"] as const) {
      print(
        row(
          `latency ${key}`,
          `${before[key].toFixed(3)} ms`,
          `${after[key].toFixed(3)} ms`,
          `${(after[key] / before[key]).toFixed(2)}x`
        )
      )
    }
    print("")
    print("| heap (after a full GC) | before the keys | with 100,000 | after pruning | pruned / before |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(
      `| heap used | ${(empty.heap_used / MB).toFixed(1)} MB | ${(full.heap_used / MB).toFixed(1)} MB | ${(pruned.heap_used / MB).toFixed(1)} MB | ${(pruned.heap_used / empty.heap_used).toFixed(2)}x |`
    )
    print(`| request_ids held | ${empty.request_ids} | ${full.request_ids} | ${pruned.request_ids} | |`)
  } finally {
    await sandbox.stop()
  }
}
