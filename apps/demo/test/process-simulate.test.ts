import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { run } from "./Process.js"
import { commandTable, matches, readmes } from "./Readme.js"

// A smoke test that starts a real process, exactly as a person types the README's command in the repository root
// (the other commands run in process: see README.test.ts).
describe("as a process, from the repository root", () => {
  it.live("pnpm payrules simulate takes the plan's path from the repository root, as the README's table says", () =>
    Effect.gen(function* () {
      const row = commandTable(readmes.cli).find((r) => r.command.startsWith("pnpm payrules simulate --plan apps/"))!
      const r = yield* run(row.command)
      expect([r.code, r.stderr]).toEqual([row.exit, ""])
      expect(matches(row.firstLine, r.stdout.split("\n")[0]!)).toBe(true)
      expect(r.stdout).toContain("2024-02-29 09:00  CycleBilled         intro #2  £4.99  until 2024-03-31 09:00")
      expect(r.stdout).toContain("12 cycle(s) billed: £104.88")
      expect(r.stdout).not.toContain("\u001b[")
    })
  )
})
