/**
 * What one request costs the server, in CPU: each operation of the load benchmark driven by autocannon (50
 * connections) against the sandbox and against the plain node:http server that does the same checks
 * (./servers/baseline.ts), and each server process's user and system CPU time over the run (from /proc/<pid>/stat)
 * divided by the requests it answered. Requests per second move with everything else on a shared machine (autocannon
 * itself takes a core of two); CPU per request moves much less, so this is the number to watch while making a route
 * cheaper, and the ratio of the two servers' CPU per request is the throughput ratio one core each would give. The
 * floors (a constant answer from node:http, effect's HttpRouter and a one-endpoint HttpApi) come first, for scale.
 * Linux only.
 *
 * `BENCH_DURATION` (seconds per operation and server, default 4); `BENCH_COST=floors,reasons,payment,plans,fields,
 * exchange` (a subset); `BENCH_DIST=1` serves the built packages.
 */
import { readFileSync } from "node:fs"
import { cpus } from "node:os"
import autocannon from "autocannon"
import { type Request, requestOf, startPair } from "./pair.js"
import { type Child, spawn } from "./servers/spawn.js"

const seconds = Number(process.env.BENCH_DURATION ?? "4")
const only = new Set((process.env.BENCH_COST ?? "floors,reasons,payment,plans,fields,exchange").split(","))

/** user and system CPU time of a process, in clock ticks (1/100 s on Linux) */
const ticks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return { user: Number(fields[11]), system: Number(fields[12]) }
}

/** CPU per request in µs, user and system, of `child` serving `c` for `duration` seconds */
const measure = async (name: string, child: Child, c: Request, duration = seconds) => {
  const before = ticks(child.pid)
  const r = await autocannon({ ...requestOf(child.url, c), connections: 50, duration })
  const after = ticks(child.pid)
  const n = r.requests.total
  const user = ((after.user - before.user) * 10_000) / n
  const system = ((after.system - before.system) * 10_000) / n
  if (name !== "")
    console.log(
      `| ${name} | ${Math.round(r.requests.average)} | ${user.toFixed(1)} | ${system.toFixed(1)} | ${r.errors + r.non2xx} |`
    )
  return user + system
}

export const run = async () => {
  console.log(
    `\n#### CPU per request, 50 connections, ${seconds} s per operation and server\n\n${new Date().toISOString().slice(0, 16)}Z; ${cpus()[0]?.model ?? "cpu"} x${cpus().length}, Node ${process.version}\n`
  )
  console.log("| server and operation | req/s | user µs / request | system µs / request | errors + non-2xx |")
  console.log("| --- | ---: | ---: | ---: | ---: |")
  if (only.has("floors")) {
    for (const kind of ["node", "effect-router", "effect-httpapi"]) {
      const floor = await spawn("floor", { kind })
      await measure(`floor: ${kind}`, floor, { method: "GET", path: "/reasons", headers: {} })
      await floor.stop()
    }
  }
  const pair = await startPair()
  const ratios: Array<string> = []
  try {
    for (const c of pair.cases) {
      if (!only.has(c.key)) continue
      // a warm-up of each server first (V8 compiles the hot paths), then the measured runs
      for (const child of [pair.sandbox, pair.baseline]) await measure("", child, c, 1)
      const sandbox = await measure(`sandbox: ${c.name}`, pair.sandbox, c)
      const baseline = await measure(`node:http: ${c.name}`, pair.baseline, c)
      ratios.push(
        `| ${c.name} | ${sandbox.toFixed(1)} | ${baseline.toFixed(1)} | **${(baseline / sandbox).toFixed(2)}x** |`
      )
    }
  } finally {
    await pair.stop()
  }
  if (ratios.length > 0) {
    console.log("\nCPU per request (user + system), the sandbox beside node:http doing the same checks:\n")
    console.log("| operation | sandbox µs / request | node:http µs / request | node:http / sandbox |")
    console.log("| --- | ---: | ---: | ---: |")
    for (const row of ratios) console.log(row)
  }
}
