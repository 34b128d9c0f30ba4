/**
 * Issue 16, done when 1: the crash test. A child process sends an exchange with a SQLite ledger and is killed with
 * SIGKILL at a point drawn from a seed: before the request is sent, after the server executed it and before the
 * client saw the answer, after the answer and before the ledger recorded it, or after the ledger recorded it. The
 * next child, on the same file, runs `resumePending` first: it must settle the killed exchange (send it if the
 * server has none, find it if it has), and the server must hold exactly one transaction for its request_id. The
 * children are bundled once (test/setup/children.ts), and each reports reaching its point before it is killed, so
 * every kill lands exactly there.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Effect } from "effect"
import fc from "fast-check"
import * as Children from "./children.js"

export const points = ["before-send", "after-send", "after-answer", "after-ledger-write"] as const
export type Point = (typeof points)[number]

interface Resumed {
  readonly pending: number
  readonly found: number
  readonly sent: number
  readonly unknown: number
  readonly results: ReadonlyArray<{ readonly tag: string; readonly requestId: string }>
}

/** what resumePending must make of an exchange killed at each point */
const expected: Record<Point, string | undefined> = {
  "before-send": "Sent",
  "after-send": "Found",
  "after-answer": "Found",
  "after-ledger-write": undefined
}

/** `kills` points from a seed: each point as often as the others (give or take one), in a random order */
export const drawPoints = (seed: number, kills: number): ReadonlyArray<Point> => {
  const base = Array.from({ length: kills }, (_, i) => points[i % points.length]!)
  return fc.sample(fc.shuffledSubarray(base, { minLength: kills, maxLength: kills }), {
    seed,
    numRuns: 1
  })[0]!
}

const getJson = <A>(url: string) => Effect.promise(() => fetch(url).then((r) => r.json() as Promise<A>))

export const crashes = (options: { readonly seed: number; readonly kills: number }) =>
  Effect.gen(function* () {
    const server = yield* Sandbox.SandboxServer
    const seed = yield* getJson<{ accounts: ReadonlyArray<{ id: string; currency: string }> }>(
      `${server.urls.control}/seed`
    )
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "payrules-crash-"))),
      (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true }))
    )
    const task = {
      ledger: `sqlite:${join(dir, "ledger.db")}`,
      baseUrl: server.urls.business,
      token: server.tenants[0]!.token,
      from: { account_id: seed.accounts[0]!.id, currency: seed.accounts[0]!.currency },
      to: { account_id: seed.accounts[1]!.id, currency: seed.accounts[1]!.currency }
    }
    const drawn = drawPoints(options.seed, options.kills)
    const id = (k: number) => `crash-${options.seed}-${k}`
    const transactionsOf = (requestId: string) =>
      Effect.map(
        getJson<ReadonlyArray<{ request_id: string; transactions: number }>>(`${server.urls.control}/ledger`),
        (entries) => entries.find((e) => e.request_id === requestId)?.transactions ?? 0
      )
    /** the resume of the exchange killed at `point`, as the next child reported it */
    const check = (k: number, point: Point, resumed: Resumed) =>
      Effect.gen(function* () {
        const tag = expected[point]
        expect(
          { kill: k, point, results: resumed.results, unknown: resumed.unknown },
          `the resume after kill ${k} at ${point}`
        ).toEqual({
          kill: k,
          point,
          results: tag === undefined ? [] : [{ tag, requestId: id(k) }],
          unknown: 0
        })
        expect(yield* transactionsOf(id(k)), `transactions of ${id(k)} (killed ${point})`).toBe(1)
      })

    for (let k = 0; k < drawn.length; k++) {
      const output = yield* Children.run("exchanger", { ...task, requestIds: [id(k)], stopAt: drawn[k] })
      expect(output.killedAt, `kill ${k}: ${output.stderr.slice(0, 500)}`).toBe(drawn[k])
      // the child first resumed what the previous one left
      const resumed = Children.line<Resumed>(output, "resumed")
      if (k === 0) expect(resumed.pending).toBe(0)
      else yield* check(k - 1, drawn[k - 1]!, resumed)
    }
    // a last process settles the last kill
    const last = yield* Children.run("exchanger", { ...task, requestIds: [] })
    expect(last.code).toBe(0)
    yield* check(drawn.length - 1, drawn[drawn.length - 1]!, Children.line<Resumed>(last, "resumed"))

    // every request_id of the run holds exactly one transaction, and the ledger holds nothing pending
    const entries = yield* getJson<ReadonlyArray<{ request_id: string; transactions: number }>>(
      `${server.urls.control}/ledger`
    )
    const ours = entries.filter((e) => e.request_id.startsWith(`crash-${options.seed}-`))
    expect(ours.map((e) => e.transactions)).toEqual(drawn.map(() => 1))
    const after = yield* Children.run("exchanger", { ...task, requestIds: [] })
    expect(Children.line<Resumed>(after, "resumed").pending).toBe(0)
    return drawn
  }).pipe(Effect.scoped, Effect.provide(Sandbox.layer({ seed: options.seed, plans: 15 })))
