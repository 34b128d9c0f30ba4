import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { run } from "./Process.js"
import { commandTable, matches, readmes } from "./Readme.js"

// A smoke test that starts a real process, exactly as a person types the README's command in the repository root
// (the other commands run in process: see README.test.ts).
describe("as a process, from the repository root", () => {
  it.live("pnpm demo runs the tour as the README's table says: each step's result and a one-line summary", () =>
    Effect.gen(function* () {
      const row = commandTable(readmes.cli).find((r) => r.command === "pnpm demo")!
      const r = yield* run(row.command)
      expect(r.code).toBe(row.exit)
      expect(matches(row.firstLine, r.stdout.split("\n")[0]!)).toBe(true)
      expect(r.stdout).toContain("[1] An embedded sandbox of the three APIs, on 127.0.0.1")
      expect(r.stdout).toMatch(/15 plans in 3 pages of at most 5/)
      expect(r.stdout).toContain("Metered compute (2-hour cycles)            8760 cycle(s) billed")
      expect(r.stdout).toMatch(/\[3\][^\n]*\n {2}ip_[0-9a-f-]+: AcceptedSettlementCompleted/)
      expect(r.stdout).toMatch(/received request_id tour-exchange-1 2 times and created 1 transaction/)
      expect(r.stdout).toContain("reference: reference must have at most 18 characters")
      const last = r.stdout.trim().split("\n").at(-1)!
      expect(last).toMatch(
        /^Done: 15 plans simulated .* 1 exchange sent 2 times and processed 1 time, 2 corridors validated/
      )
      expect(r.stdout).not.toContain("\u001b[")
      expect(r.stderr).toBe("")
    })
  )
})
