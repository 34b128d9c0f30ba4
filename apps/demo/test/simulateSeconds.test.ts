import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Render from "../src/render/Schedule.js"
import { packageDir, payrules } from "./Harness.js"

// The simulate table wrote its instants to the minute: every cycle of a plan billed every 1 to 59 seconds read
// `00:00 until 00:00`.

/** a plan file of one phase billed every `cycle` (an ISO 8601 duration), without a trial */
const planEvery = (cycle: string): string => {
  const pro = JSON.parse(readFileSync(join(packageDir, "test/fixtures/pro-plan.json"), "utf8")) as Record<
    string,
    unknown
  >
  const { trial_duration: _, ...plan } = pro
  const dir = mkdtempSync(join(tmpdir(), "payrules-seconds-"))
  const file = join(dir, "plan.json")
  const phase = { id: "fast", ordinal: 1, cycle_duration: cycle, amount: 1, currency: "GBP" }
  writeFileSync(file, JSON.stringify({ ...plan, name: "Fast", variations: [{ id: "v", phases: [phase] }] }))
  return file
}

const rows = (stdout: string) => stdout.split("\n").filter((l) => /^ {2}[-+\d]/.test(l) && l.includes("  "))

describe("simulate's table writes seconds when an instant needs them", () => {
  it.live("bug: a plan billed every 30 seconds: each cycle to the second, and the start and horizon too", () =>
    Effect.gen(function* () {
      const args = ["simulate", "--plan", planEvery("PT30S"), "--start", "2024-01-17T09:00:00Z"]
      const r = yield* payrules([...args, "--until", "2024-01-17T09:01:30Z"])
      expect(r.code).toBe(0)
      expect(rows(r.stdout)).toEqual([
        "  2024-01-17 09:00:00  PhaseEntered        phase fast (ordinal 1)",
        "  2024-01-17 09:00:00  CycleBilled         fast #1  £0.01  until 2024-01-17 09:00:30",
        "  2024-01-17 09:00:30  CycleBilled         fast #2  £0.01  until 2024-01-17 09:01:00",
        "  2024-01-17 09:01:00  CycleBilled         fast #3  £0.01  until 2024-01-17 09:01:30",
        "  2024-01-17 09:01:30  HorizonReached      end of the simulation"
      ])
    })
  )

  it.live("bug: an instant off the whole second: the table writes milliseconds", () =>
    Effect.gen(function* () {
      const args = ["simulate", "--plan", planEvery("PT1M"), "--start", "2024-01-17T09:00:00.250Z"]
      const r = yield* payrules([...args, "--until", "2024-01-17T09:02:00Z", "--zone", "Europe/London"])
      expect(r.code).toBe(0)
      expect(rows(r.stdout)).toEqual([
        "  2024-01-17 09:00:00.250  PhaseEntered        phase fast (ordinal 1)",
        "  2024-01-17 09:00:00.250  CycleBilled         fast #1  £0.01  until 2024-01-17 09:01:00.250",
        "  2024-01-17 09:01:00.250  CycleBilled         fast #2  £0.01  until 2024-01-17 09:02:00.250",
        "  2024-01-17 09:02:00.000  HorizonReached      end of the simulation"
      ])
    })
  )

  it.live("instants on whole minutes: the table is as it was, to the minute", () =>
    Effect.gen(function* () {
      const args = ["simulate", "--plan", planEvery("PT1M"), "--start", "2024-01-17T09:00:00Z"]
      const r = yield* payrules([...args, "--until", "2024-01-17T09:01:00Z"])
      expect(rows(r.stdout)).toEqual([
        "  2024-01-17 09:00  PhaseEntered        phase fast (ordinal 1)",
        "  2024-01-17 09:00  CycleBilled         fast #1  £0.01  until 2024-01-17 09:01",
        "  2024-01-17 09:01  HorizonReached      end of the simulation"
      ])
    })
  )

  it("precision and wall clock: seconds on the zone's wall clock, a local mean time's offset seconds included", () => {
    const at = (iso: string, timeZone = "UTC") => DateTime.makeZonedUnsafe(Date.parse(iso), { timeZone })
    expect(Render.precisionOf([at("2024-01-17T09:00:00Z"), at("2024-01-17T09:01:00Z")])).toBe("minute")
    expect(Render.precisionOf([at("2024-01-17T09:00:00Z"), at("2024-01-17T09:00:59Z")])).toBe("second")
    expect(Render.precisionOf([at("2024-01-17T09:00:01Z"), at("2024-01-17T09:00:00.001Z")])).toBe("millisecond")
    expect(Render.wallClockTo(at("2024-01-17T09:00:05.040Z", "Asia/Kolkata"), "millisecond")).toBe(
      "2024-01-17 14:30:05.040"
    )
    // London kept its local mean time (-0:01:15) until 1847: midnight UTC was 23:58:45 there
    const lmt = at("1800-01-01T00:00:00Z", "Europe/London")
    expect(Render.precisionOf([lmt])).toBe("second")
    expect(Render.wallClockTo(lmt, "second")).toBe("1799-12-31 23:58:45")
    // a fixed offset, and a year before 0
    const offset = DateTime.makeZonedUnsafe(Date.parse("2024-01-17T09:00:30Z"), { timeZone: "+05:45" })
    expect(Render.wallClockTo(offset, "second")).toBe("2024-01-17 14:45:30")
    const bce = DateTime.makeUnsafe(Date.UTC(-1, 0, 1, 0, 0, 7))
    expect(Render.wallClockTo(bce, "second")).toBe(`${Render.wallClock(bce)}:07`)
  })
})
