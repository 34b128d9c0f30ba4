/**
 * `--ledger` and `payrules resume`: a durable ledger outlives the command, and `resume` settles what a stopped
 * command left in flight; a bad `--ledger` is one line.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ExchangeRequest, RequestLedger } from "@payrules/exchange"
import { Sandbox } from "@payrules/sandbox"
import { SqliteRequestLedger } from "@payrules/stores"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { payrules } from "./Harness.js"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "payrules-cli-ledger-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("payrules exchange --ledger and payrules resume (in process)", () => {
  it.live("a SQLite ledger resolves against the person's directory, and outlives the command", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const exchange = yield* payrules(["exchange", "--sell", "25", "--ledger", "sqlite:./ledger.db"], { cwd: dir })
      expect([exchange.code, exchange.stderr]).toEqual([0, ""])
      expect(exchange.stdout).toMatch(/^transaction [0-9a-f-]{36}: completed/)
      const entries = yield* Effect.scoped(
        Effect.flatMap(
          Layer.build(SqliteRequestLedger.layer({ filename: join(dir, "ledger.db") })),
          (context) => Context.get(context, RequestLedger.RequestLedger).entries
        )
      )
      expect(entries.map((e) => e.state)).toEqual(["succeeded"])
      const resume = yield* payrules(["resume", "--ledger", "sqlite:ledger.db"], { cwd: dir })
      expect([resume.code, resume.stdout.trim()]).toEqual([0, `nothing pending in sqlite:${join(dir, "ledger.db")}`])
    }).pipe(Effect.scoped)
  )

  it.live("resume sends again what a stopped command left in flight, with its request_id", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const filename = join(dir, "ledger.db")
      // the accounts of the embedded sandbox (seed 1), which resume starts
      const seed = yield* Effect.flatMap(Effect.service(Sandbox.SandboxServer), (s) =>
        Effect.promise(() => fetch(`${s.urls.control}/seed`).then((r) => r.json()))
      ).pipe(Effect.provide(Sandbox.layer({ seed: 1, plans: 15 })))
      const accounts = (seed as { accounts: ReadonlyArray<{ id: string; currency: string }> }).accounts
      const gbp = accounts.find((a) => a.currency === "GBP")!
      const eur = accounts.find((a) => a.currency === "EUR")!
      // a command stopped after registering its exchange, before the answer
      const request = Result.getOrThrow(
        ExchangeRequest.parse({
          from: { account_id: gbp.id, currency: "GBP", amount: 12 },
          to: { account_id: eur.id, currency: "EUR" },
          request_id: "stopped-1"
        })
      )
      yield* Effect.scoped(
        Effect.flatMap(Layer.build(SqliteRequestLedger.layer({ filename })), (context) =>
          Context.get(context, RequestLedger.RequestLedger).register(request)
        )
      )
      const resume = yield* payrules(["resume", "--ledger", `sqlite:${filename}`])
      expect(resume.code).toBe(0)
      expect(resume.stdout.split("\n").slice(0, 2)).toEqual([
        `1 pending in sqlite:${filename}: 0 found, 1 sent again, 0 refused, 0 still unknown`,
        expect.stringMatching(/^stopped-1: sent again, transaction [0-9a-f-]{36} \(completed\)$/)
      ])
    }).pipe(Effect.scoped)
  )

  it.live("a bad --ledger is one line, before anything starts", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      for (const [value, reason] of [
        ["mysql://db/payrules", '--ledger: "mysql://db/payrules" has the scheme mysql'],
        ["sqlite:", '--ledger: "sqlite:" names no file'],
        ["", '--ledger: "" is not a ledger'],
        ["postgres://", '--ledger: "postgres://" names no host'],
        ["sqlite:missing/dir/ledger.db", "the request ledger could not open the SQLite file"]
      ] as const) {
        const r = yield* payrules(["exchange", "--sell", "25", "--ledger", value], { cwd: dir })
        expect([value, r.code, r.stdout]).toEqual([value, 1, ""])
        const lines = r.stderr.trim().split("\n")
        expect([value, lines.length]).toEqual([value, 1])
        expect(lines[0]).toContain(reason)
      }
      const resume = yield* payrules(["resume", "--ledger", "redis://x"], { cwd: dir })
      expect([resume.code, resume.stderr.trim()]).toEqual([
        1,
        'error: --ledger: "redis://x" has the scheme redis: give memory, sqlite:<file> or postgres://user@host:port/database'
      ])
    }).pipe(Effect.scoped)
  )
})
