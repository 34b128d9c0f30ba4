import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { payrules, payrulesUntilFirstLine } from "./Harness.js"
import { commandTable, examples, follows, launch, matches, readmes } from "./Readme.js"

/** Run as a process by process-tour.test.ts (the tour retries an exchange after a real second). */
const asProcessOnly = (command: string) => command === "pnpm demo"

const rows = [...commandTable(readmes.root), ...commandTable(readmes.cli)]
const shown = [...examples(readmes.root), ...examples(readmes.cli)].filter((e) => e.command.startsWith("pnpm "))

describe("the READMEs' commands, run as written from the repository root (in process)", () => {
  it("the comparison: … for any text in a line, ... for any lines", () => {
    expect(matches("ip_… (x-fapi-interaction-id …)", "ip_1 (x-fapi-interaction-id 2f)")).toBe(true)
    expect(matches("15 plans", "15 plans!")).toBe(false)
    expect(follows(["a", "...", "d"], ["a", "b", "c", "d"])).toBe(true)
    expect(follows(["a", "...", "d"], ["a", "b", "c"])).toBe(false)
    expect(follows(["a", "b"], ["a", "b", "c"])).toBe(false)
  })

  it("the tables list every command, and the test knows how to run each line", () => {
    expect(rows.length).toBeGreaterThanOrEqual(10)
    for (const row of rows) {
      expect([row.command, launch(row.command) !== undefined]).toEqual([row.command, true])
      expect([row.command, [0, 1, "running"].includes(row.exit)]).toEqual([row.command, true])
    }
    const commands = new Set(
      rows.flatMap(
        (r) =>
          launch(r.command)
            ?.args.filter((a) => !a.startsWith("-"))
            .slice(0, 1) ?? []
      )
    )
    for (const name of ["tour", "plans", "simulate", "validate-payment", "exchange", "payment", "serve"]) {
      expect([name, commands.has(name)]).toEqual([name, true])
    }
  })

  for (const row of rows.filter((r) => !asProcessOnly(r.command))) {
    it.live(`${row.command}`, () =>
      Effect.gen(function* () {
        const { args, cwd } = launch(row.command)!
        const r = row.exit === "running" ? yield* payrulesUntilFirstLine(args, { cwd }) : yield* payrules(args, { cwd })
        expect(r.code).toBe(row.exit === "running" ? 130 : row.exit)
        const first = r.output[0] ?? ""
        expect(matches(row.firstLine, first), `first line: ${first}`).toBe(true)
      })
    )
  }

  for (const example of shown) {
    it.live(`example: ${example.command}`, () =>
      Effect.gen(function* () {
        const { args, cwd } = launch(example.command)!
        const r = yield* payrules(args, { cwd })
        const lines = [...r.output]
        while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop()
        expect(follows(example.output, lines), lines.join("\n")).toBe(true)
      })
    )
  }
})
