import * as Result from "effect/Result"
export const ab = (cases: Record<string, [(u: unknown) => any, unknown]>, N = 50000, rounds = 30) => {
  const names = Object.keys(cases)
  for (const n of names) { const [f, v] = cases[n]!; const r = f(v); if (Result.isResult(r) && !Result.isSuccess(r)) throw new Error(n + " fails " + r.failure) }
  const best: Record<string, number> = {}
  for (let r = 0; r < rounds; r++) for (const n of names) {
    const [f, v] = cases[n]!
    const t = process.cpuUsage()
    for (let i = 0; i < N; i++) f(v)
    const u = process.cpuUsage(t)
    const us = (u.user + u.system) / N
    best[n] = Math.min(best[n] ?? Infinity, us)
  }
  for (const n of names) console.log(n.padEnd(44), best[n]!.toFixed(3), "µs")
}
