import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Schedule, ScheduleSvg, SubscriptionPlan } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { packageDir, payrules, rootDir } from "./Harness.js"

const plan = "test/fixtures/pro-plan.json"
const common = ["--plan", plan, "--start", "2024-01-17T09:00:00Z", "--zone", "Europe/London"]

interface JsonEvent {
  readonly type: string
  readonly phase?: string
  readonly cycle?: number
  readonly amount?: number
}

describe("payrules simulate (in process)", () => {
  it.live("prints a table, a timeline and the totals", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["simulate", ...common, "--months", "8"])
      expect(r.code).toBe(0)
      expect(r.stdout.split("\n")[0]).toBe("Pro (pln_pro), Europe/London")
      expect(r.stdout).toContain("2024-02-29 09:00  CycleBilled         intro #2  £4.99  until 2024-03-31 09:00")
      expect(r.stdout).toMatch(/intro +│ *█+ *│ 3 cycle\(s\)/)
      expect(r.stdout).toContain("8 cycle(s) billed: £64.92")
    })
  )

  it.live("paths resolve against the directory the command was run in", () =>
    Effect.gen(function* () {
      const fromRoot = yield* payrules(
        ["simulate", "--plan", "apps/demo/test/fixtures/pro-plan.json", "--months", "2"],
        {
          cwd: rootDir
        }
      )
      expect(fromRoot.code).toBe(0)
      expect(fromRoot.stdout.split("\n")[0]).toMatch(/^Pro \(pln_pro\), UTC$/)
      const wrong = yield* payrules(["simulate", "--plan", plan], { cwd: rootDir })
      expect(wrong.stderr.trim()).toBe(`error: --plan ${plan}: no such file`)
      const dir = mkdtempSync(join(tmpdir(), "payrules-"))
      const out = yield* payrules(
        ["simulate", "--plan", join(packageDir, plan), "--format", "svg", "--out", "plan.svg", "--months", "3"],
        { cwd: dir }
      )
      expect(out.stdout.trim()).toBe("wrote plan.svg")
      expect(existsSync(join(dir, "plan.svg"))).toBe(true)
      expect(existsSync(join(packageDir, "plan.svg"))).toBe(false)
    })
  )

  it.live("JSON events number the cycles from 1 in each phase, as the table does", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["simulate", ...common, "--months", "24", "--format", "json"])
      expect(r.code).toBe(0)
      const doc = JSON.parse(r.stdout) as { events: ReadonlyArray<JsonEvent> }
      const billed = doc.events.filter((e) => e.type === "CycleBilled")
      const intro = billed.filter((e) => e.phase === "intro")
      const standard = billed.filter((e) => e.phase === "standard")
      expect(intro.map((e) => e.cycle)).toEqual([1, 2, 3])
      expect(standard.map((e) => e.cycle)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
      expect(doc.events.at(-1)?.type).toBe("HorizonReached")
      const table = yield* payrules(["simulate", ...common, "--months", "24"])
      const numbers = [...table.stdout.matchAll(/CycleBilled +(\w+) #(\d+)/g)].map((m) => [m[1], Number(m[2])])
      expect(numbers).toEqual(billed.map((e) => [e.phase, e.cycle]))
    })
  )

  it.live("writes an SVG that parses as XML, with one band per phase and cycles numbered from 1", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "payrules-"))
      const out = join(dir, "plan.svg")
      const r = yield* payrules(["simulate", ...common, "--months", "24", "--format", "svg", "--out", out])
      expect(r.code).toBe(0)
      const text = readFileSync(out, "utf8")
      expect(XMLValidator.validate(text)).toBe(true)
      const svg = new XMLParser({ ignoreAttributes: false }).parse(text).svg as {
        g: ReadonlyArray<Record<string, string>>
      }
      const bands = svg.g.filter((g) => g["@_class"] === "phase-band").map((g) => g["@_data-phase"])
      expect(bands).toEqual(["intro", "standard", "loyal"])
      expect(svg.g.filter((g) => g["@_class"] === "trial")).toHaveLength(1)
      expect(text).toContain("<title>intro #1 2024-01-31 09:00 £4.99</title>")
      expect(text).not.toContain("#0 ")
    })
  )

  it.live("the SVG is @payrules/subscriptions' ScheduleSvg, the timeline the playground shows", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["simulate", ...common, "--months", "24", "--format", "svg"])
      const decoded = Schema.decodeUnknownSync(SubscriptionPlan.SubscriptionPlan)(
        JSON.parse(readFileSync(join(packageDir, plan), "utf8"))
      )
      const start = DateTime.makeZonedUnsafe("2024-01-17T09:00:00Z", { timeZone: "Europe/London" })
      const until = DateTime.add(start, { months: 24 })
      const timeline = Result.getOrThrow(
        Result.flatMap(Schedule.forPlan(decoded, { start, until }), (p) => Schedule.compile(p.variation, p.options))
      )
      expect(r.stdout.trimEnd()).toBe(ScheduleSvg.render(timeline, { until, title: "Pro (pln_pro), Europe/London" }))
    })
  )

  it.live("--no-trial and --anchor are applied", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["simulate", ...common, "--months", "3", "--no-trial", "--format", "json"])
      const doc = JSON.parse(r.stdout) as { events: ReadonlyArray<JsonEvent> }
      expect(doc.events[0]?.type).toBe("PhaseEntered")
      // the standard phase starts on April 30: from its own start it bills on the 30th, from the subscription's
      // first billing day (January 31) on the last day of each month
      const byPhase = yield* payrules(["simulate", ...common, "--months", "6"])
      expect(byPhase.stdout).toContain("standard #1  £9.99  until 2024-05-30 09:00")
      const bySubscription = yield* payrules(["simulate", ...common, "--months", "6", "--anchor", "subscription-start"])
      expect(bySubscription.stdout).toContain("standard #1  £9.99  until 2024-05-31 09:00")
    })
  )

  it.live("--help describes the options", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["simulate", "--help"])
      expect(r.code).toBe(0)
      for (const option of [
        "--plan",
        "--variation",
        "--start",
        "--zone",
        "--months",
        "--until",
        "--trial",
        "--no-trial",
        "--anchor",
        "--format",
        "--out",
        "--base-url"
      ]) {
        expect(r.stdout).toContain(option)
      }
    })
  )
})
