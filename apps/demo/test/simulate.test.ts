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
import { listedEvents, maxListedCycles } from "../src/commands/Simulate.js"
import * as Render from "../src/render/Schedule.js"
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

  it.live("bug: a plan billing more cycles than the table and JSON list is refused, naming the horizon's option", () =>
    Effect.gen(function* () {
      // 2-hour cycles: 274 months bill 100,080 cycles, just past the cap of 100,000 (a plan billed every second over
      // 3 months, 7.9 million, ran out of memory); refused from the totals, before any event is walked
      const compute = ["--plan", "test/fixtures/compute-plan.json", "--start", "2024-01-17T09:00:00Z"]
      expect(maxListedCycles).toBe(100_000)
      for (const format of ["table", "json"]) {
        const r = yield* payrules(["simulate", ...compute, "--months", "274", "--format", format])
        expect(r.code).toBe(1)
        expect(r.stdout).toBe("")
        expect(r.stderr).toBe(
          `error: --months: the plan bills 100,080 cycles up to the horizon, and ${format === "json" ? "the JSON" : "the table"} lists at most 100,000: give a nearer horizon (fewer --months, or an earlier --until), or --format svg\n`
        )
      }
      const until = yield* payrules(["simulate", ...compute, "--until", "2046-11-17T09:00:00Z"])
      expect(until.code).toBe(1)
      expect(until.stderr).toMatch(/^error: --until: the plan bills 100,080 cycles up to the horizon/)
      const svg = yield* payrules(["simulate", ...compute, "--months", "274", "--format", "svg"])
      expect(svg.code).toBe(0)
      expect(svg.stdout).toMatch(/^<svg/)
    })
  )

  it.effect("bug: the events are walked only up to the cap, and one cycle past it stops the walk", () =>
    Effect.gen(function* () {
      const decoded = Schema.decodeUnknownSync(SubscriptionPlan.SubscriptionPlan)(
        JSON.parse(readFileSync(join(packageDir, "test/fixtures/compute-plan.json"), "utf8"))
      )
      const start = DateTime.makeUnsafe("2024-01-17T00:00:00Z")
      const until = DateTime.add(start, { days: 1 })
      const placed = Result.getOrThrow(Render.place(decoded, { start, until }))
      expect(placed.totals.cycles).toBe(12)
      const all = Render.eventsUpTo(placed.timeline, until, 12)
      expect(all._tag === "Some" ? Render.billed(all.value).length : -1).toBe(12)
      expect(Render.eventsUpTo(placed.timeline, until, 11)._tag).toBe("None")
      const s = { horizon: "--months" as const, until, format: "table" as const }
      expect((yield* Effect.flip(listedEvents(s, placed, 11))).message).toBe(
        "--months: the plan bills 12 cycles up to the horizon, and the table lists at most 11: give a nearer horizon (fewer --months, or an earlier --until), or --format svg"
      )
      // cycles the totals miss are still capped by the walk
      const walked = yield* Effect.flip(listedEvents(s, { ...placed, totals: { ...placed.totals, cycles: 0 } }, 11))
      expect(walked.message).toMatch(/bills more than 11 cycles/)
    })
  )

  it.live("bug: years outside 1000-9999 are written as ISO 8601 writes them, in the table and on the axis", () =>
    Effect.gen(function* () {
      const late = yield* payrules([
        "simulate",
        "--plan",
        plan,
        "--no-trial",
        "--start=9999-12-01T00:00:00Z",
        "--months",
        "2"
      ])
      expect(late.code).toBe(0)
      const lines = late.stdout.split("\n")
      expect(lines).toContain("  9999-12-01 00:00     CycleBilled         intro #1  £4.99  until +010000-01-01 00:00")
      expect(lines).toContain("  +010000-01-01 00:00  CycleBilled         intro #2  £4.99  until +010000-02-01 00:00")
      const axis = lines.find((l) => l.includes("9999-12-01") && !l.includes(":"))!
      expect(axis.trim().split(/ +/)).toEqual(["9999-12-01", "+010000-02-01"])
      // the axis ends where the bars end, as it does for the years 1000-9999
      expect(axis.length).toBe(lines.find((l) => l.includes("│"))!.lastIndexOf("│"))
      const early = yield* payrules([
        "simulate",
        "--plan",
        plan,
        "--no-trial",
        "--start=0001-01-01T00:00:00Z",
        "--months",
        "2"
      ])
      expect(early.stdout).toContain("  0001-01-01 00:00  CycleBilled         intro #1  £4.99  until 0001-02-01 00:00")
      expect(early.stdout).toMatch(/^ +0001-01-01 +0001-03-01$/m)
      expect(early.stdout).not.toMatch(/(^|\s)1-0[123]-01/)
      // as the JSON has always written them
      const json = yield* payrules([
        "simulate",
        "--plan",
        plan,
        "--no-trial",
        "--start=0001-01-01T00:00:00Z",
        "--months",
        "2",
        "--format",
        "json"
      ])
      expect(json.stdout).toContain('"at": "0001-01-01T00:00:00.000+00:00"')
    })
  )

  it("the wall clock's year: four digits from 0000 to 9999, else a sign and six", () => {
    const yearOf = (year: number) => {
      const d = new Date(Date.UTC(2000, 5, 1))
      d.setUTCFullYear(year)
      return Render.wallClock(DateTime.makeUnsafe(d.getTime())).split("-06-01")[0]
    }
    expect([0, 1, 999, 1000, 9999, 10000, -1, 275760, -271821].map(yearOf)).toEqual([
      "0000",
      "0001",
      "0999",
      "1000",
      "9999",
      "+010000",
      "-000001",
      "+275760",
      "-271821"
    ])
  })
})
