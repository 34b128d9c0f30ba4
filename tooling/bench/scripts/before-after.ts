/**
 * The benchmarks of one package, here and in another checkout of payrules (the effect 3 version, say), run one after
 * the other and again (`BENCH_PAIRS` pairs, default 2: before, after, before, after), each on this workspace's Node so
 * that only the code differs. Prints one Markdown table: per case and contender, the median ops/s of the runs before
 * and after, after / before, and the ratio ours / peer before and after.
 *
 *   pnpm --filter @payrules/bench before-after <other checkout> <package dir> [bench command]
 *   pnpm --filter @payrules/bench before-after /work/baseline packages/iso8601
 *   pnpm --filter @payrules/bench before-after /work/baseline tooling/e2e "BENCH_ONLY=client"
 *
 * The extra argument sets environment variables of the bench (`NAME=value` separated by spaces). Each run prints the
 * tables of `run(...)` from `@payrules/bench`; rows are matched by case and contender name.
 */
import { execFileSync } from "node:child_process"
import { resolve } from "node:path"
import { fileURLToPath } from "node:url"

const [otherArg, packageDir, envArg = ""] = process.argv.slice(2)
if (otherArg === undefined || packageDir === undefined) {
  console.error("usage: before-after <other checkout> <package dir> [NAME=value ...]")
  process.exit(2)
}
const here = resolve(fileURLToPath(new URL("../../..", import.meta.url)))
const other = resolve(otherArg)
const pairs = Number(process.env.BENCH_PAIRS ?? "2")
const extraEnv = Object.fromEntries(
  envArg
    .split(/\s+/)
    .filter((kv) => kv.includes("="))
    .map((kv) => kv.split("=", 2))
)

interface Row {
  readonly title: string
  readonly caseName: string
  readonly contender: string
  readonly ops: number
  readonly ours: boolean
}

const units: Record<string, number> = { "/s": 1, "k/s": 1e3, "M/s": 1e6, "G/s": 1e9 }

/** the rows of the tables a bench printed */
const parse = (output: string): ReadonlyArray<Row> => {
  const rows: Array<Row> = []
  let title = ""
  for (const line of output.split("\n")) {
    if (line.startsWith("### ")) title = line.slice(4).trim()
    const m = /^\| (.+?) \| (.+?) \| ([\d.]+) ([kMG]?\/s) \| /.exec(line)
    if (m === null) continue
    const ours = m[2]!.includes("(ours)")
    const contender = m[2]!.replace(/\*\*/g, "").replace(" (ours)", "").trim()
    rows.push({ title, caseName: m[1]!.trim(), contender, ours, ops: Number(m[3]) * units[m[4]!]! })
  }
  return rows
}

const runIn = (root: string): ReadonlyArray<Row> => {
  const output = execFileSync(
    process.execPath,
    ["--conditions=@payrules/source", "--import", "tsx", "bench/index.ts"],
    {
      cwd: resolve(root, packageDir),
      env: { ...process.env, ...extraEnv },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 1 << 26
    }
  )
  return parse(output)
}

const before: Array<ReadonlyArray<Row>> = []
const after: Array<ReadonlyArray<Row>> = []
for (let i = 0; i < pairs; i++) {
  console.error(`before-after: pair ${i + 1} of ${pairs}: ${other}`)
  before.push(runIn(other))
  console.error(`before-after: pair ${i + 1} of ${pairs}: ${here}`)
  after.push(runIn(here))
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
const key = (r: Row) => `${r.title}\u0000${r.caseName}\u0000${r.contender}`
const medians = (runs: ReadonlyArray<ReadonlyArray<Row>>) => {
  const all = new Map<string, Array<number>>()
  for (const run of runs) for (const r of run) all.set(key(r), [...(all.get(key(r)) ?? []), r.ops])
  return new Map([...all].map(([k, v]) => [k, median(v)]))
}
const b = medians(before)
const a = medians(after)
const oursOf = (m: Map<string, number>, rows: ReadonlyArray<Row>, r: Row) => {
  const ours = rows.find((x) => x.title === r.title && x.caseName === r.caseName && x.ours)
  return ours === undefined ? undefined : m.get(key(ours))
}
const format = (ops: number | undefined) =>
  ops === undefined
    ? "-"
    : ops >= 1e6
      ? `${(ops / 1e6).toFixed(2)} M/s`
      : ops >= 1e3
        ? `${(ops / 1e3).toFixed(1)} k/s`
        : `${ops.toFixed(1)} /s`

console.log(`\nBefore: ${other}; after: ${here}; ${pairs} run(s) each, alternating, Node ${process.version}\n`)
console.log("| suite | case | contender | before | after | after / before | ours / this, before | ours / this, after |")
console.log("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
const rows = after[0] ?? []
const seen = new Set<string>()
for (const r of [...rows, ...(before[0] ?? []).filter((x) => !rows.some((y) => key(y) === key(x)))]) {
  if (seen.has(key(r))) continue
  seen.add(key(r))
  const opsBefore = b.get(key(r))
  const opsAfter = a.get(key(r))
  const change = opsBefore !== undefined && opsAfter !== undefined ? `${(opsAfter / opsBefore).toFixed(2)}x` : "-"
  const ratio = (m: Map<string, number>, runs: ReadonlyArray<ReadonlyArray<Row>>, ops: number | undefined) => {
    const ours = oursOf(m, runs[0] ?? [], r)
    return r.ours ? "1.00" : ours === undefined || ops === undefined ? "-" : `${(ours / ops).toFixed(2)}x`
  }
  console.log(
    `| ${r.title} | ${r.caseName} | ${r.ours ? `**${r.contender}** (ours)` : r.contender} | ${format(opsBefore)} | ${format(opsAfter)} | ${change} | ${ratio(b, before, opsBefore)} | ${ratio(a, after, opsAfter)} |`
  )
}
