/**
 * What one request costs the server, in CPU: each operation of the load benchmark driven by autocannon (50
 * connections), and the server process's user and system CPU time over the run (from /proc/<pid>/stat) divided by
 * the requests it answered. Requests per second move with everything else on a shared machine; CPU per request moves
 * much less, so this is the number to watch while making a route cheaper. The floors (a constant answer from
 * node:http, effect's HttpRouter and a one-endpoint HttpApi) come first, for scale. Linux only.
 *
 * `BENCH_DURATION` (seconds per operation, default 4); `BENCH_COST=floors,reasons,payment,plans,fields,exchange`
 * (a subset, in that order); `BENCH_DIST=1` serves the built packages.
 */
import { readFileSync } from "node:fs"
import { Sandbox } from "@payrules/sandbox"
import autocannon from "autocannon"
import { type Child, spawn } from "./servers/spawn.js"

const seconds = Number(process.env.BENCH_DURATION ?? "4")
const only = new Set((process.env.BENCH_COST ?? "floors,reasons,payment,plans,fields,exchange").split(","))

/** user and system CPU time of a process, in clock ticks (1/100 s on Linux) */
const ticks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return { user: Number(fields[11]), system: Number(fields[12]) }
}

const measure = async (
  name: string,
  child: Child,
  path: string,
  headers: Record<string, string>,
  request: { readonly method?: "POST"; readonly body?: string; readonly idReplacement?: boolean } = {}
) => {
  const before = ticks(child.pid)
  const r = await autocannon({ url: `${child.url}${path}`, headers, connections: 50, duration: seconds, ...request })
  const after = ticks(child.pid)
  const n = r.requests.total
  const per = (t: number) => ((t * 10_000) / n).toFixed(1)
  console.log(
    `| ${name} | ${Math.round(r.requests.average)} | ${per(after.user - before.user)} | ${per(after.system - before.system)} | ${r.errors + r.non2xx} |`
  )
}

export const run = async () => {
  const options = { seed: 95, plans: 1200, payFieldsLimit: { limit: 1e9, windowMs: 60_000 } }
  const token = `Bearer ${Sandbox.tenants(options)[0]!.tokens[0]}`
  console.log(`\n#### CPU per request, 50 connections, ${seconds} s per operation\n`)
  console.log("| server and operation | req/s | user µs / request | system µs / request | errors + non-2xx |")
  console.log("| --- | ---: | ---: | ---: | ---: |")
  if (only.has("floors")) {
    for (const kind of ["node", "effect-router", "effect-httpapi"]) {
      const floor = await spawn("floor", { kind })
      await measure(`floor: ${kind}`, floor, "/reasons", {})
      await floor.stop()
    }
  }
  const sandbox = await spawn("sandbox", options)
  try {
    const seed = (await (await fetch(`${sandbox.url}/__sandbox/seed`)).json()) as {
      accounts: ReadonlyArray<{ id: string; currency: string }>
      counterparties: ReadonlyArray<{ id: string; accounts: ReadonlyArray<{ id: string; corridor: string }> }>
      payments: ReadonlyArray<{ id: string }>
    }
    const business = { authorization: token }
    const json = { ...business, "content-type": "application/json" }
    if (only.has("reasons"))
      await measure("sandbox: GET exchange-reasons", sandbox, "/business/exchange-reasons", business)
    if (only.has("payment")) {
      await measure("sandbox: GET payment", sandbox, `/open-banking/international-payments/${seed.payments[0]!.id}`, {
        authorization: token,
        "x-fapi-financial-id": "001580000103UAvAAM"
      })
    }
    if (only.has("plans")) {
      await measure("sandbox: GET plans (limit 10)", sandbox, "/merchant/api/subscription-plans?limit=10", {
        authorization: token,
        "revolut-api-version": "2024-09-01"
      })
    }
    if (only.has("fields")) {
      const swift = seed.counterparties.find((c) => c.accounts[0]?.corridor === "US-USD-SWIFT")!
      await measure("sandbox: POST /pay/fields", sandbox, "/business/pay/fields", json, {
        method: "POST",
        body: JSON.stringify({
          account_id: seed.accounts[0]!.id,
          receiver: { counterparty_id: swift.id, account_id: swift.accounts[0]!.id }
        })
      })
    }
    if (only.has("exchange")) {
      const from = seed.accounts[0]!
      const to = seed.accounts.find((a) => a.currency !== from.currency)!
      await measure("sandbox: POST exchange", sandbox, "/business/exchange", json, {
        method: "POST",
        idReplacement: true,
        body: JSON.stringify({
          from: { account_id: from.id, currency: from.currency, amount: 1 },
          to: { account_id: to.id, currency: to.currency },
          request_id: "cost-[<id>]"
        })
      })
    }
  } finally {
    await sandbox.stop()
  }
}
