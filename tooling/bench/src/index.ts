/**
 * Benchmark harness: each case measures ours and the peer libraries in one process, interleaved in rounds, and
 * reports the median operations per second of each and the ratio ours / peer.
 *
 * @since 0.0.0
 */
import * as os from "node:os"
import { measure } from "mitata"

/**
 * @since 0.0.0
 */
export interface Contender {
  readonly name: string
  /** the operation; its result is kept alive so that it cannot be optimised away */
  readonly fn: () => unknown
  /** true for payrules' own implementation; each case has exactly one */
  readonly ours?: boolean
  /** checked once before timing: a contender that computes something else is an error, not a fast result */
  readonly check?: () => boolean
}

/**
 * @since 0.0.0
 */
export interface Case {
  readonly name: string
  readonly contenders: ReadonlyArray<Contender>
  /** what one operation is, e.g. "parse of one string" */
  readonly unit?: string
}

/**
 * @since 0.0.0
 */
export interface Options {
  /** rounds per case; each round measures every contender once, in a rotated order (default 5, or 2 when quick) */
  readonly rounds?: number
  /** CPU time per contender per round, in milliseconds (default 300, or 20 when quick) */
  readonly sliceMs?: number
  /** only cases whose name matches */
  readonly filter?: RegExp
  /** where the table goes (default console.log) */
  readonly print?: (line: string) => void
}

/**
 * @since 0.0.0
 */
export interface Row {
  readonly caseName: string
  readonly contender: string
  readonly ours: boolean
  readonly opsPerSecond: number
  /** ours / this contender; 1 for ours */
  readonly ratio: number
}

/**
 * `BENCH_QUICK=1` shortens every slice (smoke runs and tests); `BENCH_FILTER=regex` selects cases.
 *
 * @since 0.0.0
 */
export const envOptions = (): Options => {
  const quick = process.env.BENCH_QUICK === "1"
  const filter = process.env.BENCH_FILTER
  return {
    ...(quick ? { rounds: 2, sliceMs: 20 } : {}),
    ...(filter ? { filter: new RegExp(filter) } : {})
  }
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/**
 * Formats operations per second for a table: `2.41 M/s`, `812 k/s`, `95.2 /s`.
 *
 * @since 0.0.0
 */
export const formatOps = (ops: number): string => {
  if (ops >= 1e6) return `${(ops / 1e6).toFixed(2)} M/s`
  if (ops >= 1e3) return `${(ops / 1e3).toFixed(1)} k/s`
  return `${ops.toFixed(1)} /s`
}

/**
 * The machine line printed with every table: CPU model, core count, Node version and date.
 *
 * @since 0.0.0
 */
export const machine = (): string => {
  const cpus = os.cpus()
  return `${cpus[0]?.model ?? "unknown CPU"} x${cpus.length}, Node ${process.version}, ${new Date()
    .toISOString()
    .slice(0, 10)}`
}

/**
 * Runs the cases and prints one markdown table per suite.
 *
 * @since 0.0.0
 */
export const run = async (
  title: string,
  cases: ReadonlyArray<Case>,
  options: Options = envOptions()
): Promise<ReadonlyArray<Row>> => {
  const rounds = options.rounds ?? 5
  const sliceNs = (options.sliceMs ?? 300) * 1e6
  const print = options.print ?? ((line: string) => console.log(line))
  const rows: Array<Row> = []
  print(`\n### ${title}\n`)
  print(`${machine()}; median of ${rounds} interleaved rounds\n`)
  print("| case | contender | median ops/s | ours / this |")
  print("| --- | --- | ---: | ---: |")
  for (const c of cases) {
    if (options.filter !== undefined && !options.filter.test(c.name)) continue
    const ours = c.contenders.filter((x) => x.ours === true)
    if (ours.length !== 1) throw new Error(`case ${c.name}: exactly one contender must be ours`)
    for (const contender of c.contenders) {
      if (contender.check !== undefined && !contender.check()) {
        throw new Error(`case ${c.name}: ${contender.name} does not compute the expected result`)
      }
    }
    const samples = new Map<string, Array<number>>(c.contenders.map((x) => [x.name, []]))
    for (let r = 0; r < rounds; r++) {
      // rotate the order each round so that no contender always runs first (JIT and GC state)
      const order = c.contenders.map((_, i) => c.contenders[(i + r) % c.contenders.length]!)
      for (const contender of order) {
        const stats = await measure(contender.fn, { min_cpu_time: sliceNs })
        samples.get(contender.name)!.push(1e9 / stats.p50)
      }
    }
    const oursOps = median(samples.get(ours[0]!.name)!)
    for (const contender of c.contenders) {
      const ops = median(samples.get(contender.name)!)
      const row: Row = {
        caseName: c.name,
        contender: contender.name,
        ours: contender.ours === true,
        opsPerSecond: ops,
        ratio: oursOps / ops
      }
      rows.push(row)
      const label = row.ours ? `**${contender.name}** (ours)` : contender.name
      print(`| ${c.name} | ${label} | ${formatOps(ops)} | ${row.ours ? "1.00" : `${row.ratio.toFixed(2)}x`} |`)
    }
  }
  return rows
}
