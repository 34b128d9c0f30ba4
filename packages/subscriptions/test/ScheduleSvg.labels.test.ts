/**
 * The label layout and the wording of the SVG timeline on small cases worked by hand: where a label ends up, which
 * labels are kept when they crowd, and how amounts, totals and instants read.
 */
import { describe, expect, it } from "@effect/vitest"
import { Schedule, ScheduleSvg } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Labels from "../src/internal/render/labels.js"
import * as Text from "../src/internal/render/text.js"
import { variation } from "./fixtures.js"

// 100 pixels from x = 100, 6 pixels a character: "ab" is 12 wide
const line: Labels.Line = { min: 100, max: 200, fontSize: 10, gap: 4 }
const at = (x: number, text = "ab", optional?: boolean): Labels.Candidate =>
  optional === undefined ? { x, text } : { x, text, optional }
const xs = (placed: ReadonlyArray<Labels.Placed> | undefined) => placed?.map((p) => p.x)

describe("a label sticking out of the line is moved inside it", () => {
  it("by half its width at either end; one inside stays where it is", () => {
    expect(Labels.fitAll(line, [at(95)])).toEqual([{ x: 106, text: "ab", width: 12 }])
    expect(xs(Labels.fitAll(line, [at(199)]))).toEqual([194])
    expect(xs(Labels.fitAll(line, [at(150)]))).toEqual([150])
    expect(xs(Labels.thin(line, [at(0), at(300)]))).toEqual([106, 194])
  })
})

describe("fitAll: every required label, or none (the caller zooms out)", () => {
  it("two labels exactly the gap apart fit; a hair closer, the level is refused", () => {
    // centres 16 apart: 12 of text, 4 of gap
    expect(xs(Labels.fitAll(line, [at(130), at(146)]))).toEqual([130, 146])
    expect(Labels.fitAll(line, [at(130), at(145.9)])).toBeUndefined()
    // the order they come in does not matter: they are compared left to right
    expect(xs(Labels.fitAll(line, [at(170), at(110), at(140)]))).toEqual([110, 140, 170])
    expect(Labels.fitAll(line, [at(170), at(110), at(160)])).toBeUndefined()
  })

  it("a label as wide as the line fits; a wider one is refused", () => {
    expect(xs(Labels.fitAll(line, [at(150, "x".repeat(10))]))).toEqual([150])
    expect(Labels.fitAll(line, [at(150, "x".repeat(17))])).toBeUndefined()
    expect(Labels.fitAll({ ...line, min: 0, max: 60 }, [at(10, "x".repeat(10))])).toEqual([
      { x: 30, text: "x".repeat(10), width: 60 }
    ])
  })

  it("an optional label is placed only where it keeps the gap to every other, and never refuses the level", () => {
    expect(xs(Labels.fitAll(line, [at(130), at(150, "ab", true)]))).toEqual([130, 150])
    expect(xs(Labels.fitAll(line, [at(130), at(145, "ab", true)]))).toEqual([130])
    // it must clear the labels on both sides, the required ones and the optional ones already placed
    expect(xs(Labels.fitAll(line, [at(110), at(180), at(130, "ab", true), at(140, "ab", true)]))).toEqual([
      110, 130, 180
    ])
    expect(xs(Labels.fitAll(line, [at(150), at(130, "ab", true), at(170, "ab", true)]))).toEqual([130, 150, 170])
    // to the left of the required ones: the result is still in order
    expect(xs(Labels.fitAll(line, [at(180), at(110, "ab", true)]))).toEqual([110, 180])
    // too wide for the line: left out
    expect(xs(Labels.fitAll(line, [at(120), at(150, "x".repeat(17), true)]))).toEqual([120])
    expect(Labels.fitAll(line, [at(150, "x".repeat(17), true)])).toEqual([])
    // as wide as the line: kept
    expect(xs(Labels.fitAll({ ...line, min: 0, max: 60 }, [at(10, "x".repeat(10), true)]))).toEqual([30])
    // only optional labels: those that fit
    expect(xs(Labels.fitAll(line, [at(150, "ab", true)]))).toEqual([150])
    expect(Labels.fitAll(line, [])).toEqual([])
  })
})

describe("thin: the labels that fit, from left to right", () => {
  it("keeps a label when it clears the last one kept, not the last one seen", () => {
    expect(xs(Labels.thin(line, [at(110), at(115), at(125), at(126), at(142)]))).toEqual([110, 126, 142])
    expect(xs(Labels.thin(line, [at(142), at(126), at(110)]))).toEqual([110, 126, 142])
  })

  it("drops a label wider than the line, keeping the others", () => {
    expect(xs(Labels.thin(line, [at(150, "x".repeat(17)), at(150)]))).toEqual([150])
    expect(xs(Labels.thin(line, [at(150, "x".repeat(10))]))).toEqual([150])
    // exactly as wide as the line: kept
    expect(xs(Labels.thin({ ...line, min: 0, max: 60 }, [at(10, "x".repeat(10))]))).toEqual([30])
    expect(Labels.thin(line, [])).toEqual([])
  })
})

describe("byZoom: the finest level whose labels all fit", () => {
  it("the first level that fits, or the coarsest thinned, or nothing without levels", () => {
    const crowded = [at(130), at(135), at(160)]
    expect(
      Labels.byZoom(line, [
        ["fine", crowded],
        ["coarse", [at(150)]]
      ])
    ).toEqual({
      level: "coarse",
      labels: [{ x: 150, text: "ab", width: 12 }]
    })
    expect(
      Labels.byZoom(line, [
        ["fine", [at(120)]],
        ["coarse", [at(150)]]
      ])?.level
    ).toBe("fine")
    const thinned = Labels.byZoom(line, [["only", crowded]])
    expect(thinned?.level).toBe("only")
    expect(xs(thinned?.labels)).toEqual([130, 160])
    expect(Labels.byZoom(line, [])).toBeUndefined()
  })
})

describe("how amounts, totals and instants read", () => {
  const start = DateTime.makeZonedUnsafe("2024-01-01T00:00:00Z", { timeZone: "Europe/London" })
  const totalsOf = (v: ReturnType<typeof variation>, cycles: number) =>
    ScheduleSvg.totalsLine(Result.getOrThrow(Schedule.totals(v, { start, until: { cycles } })))

  it("totals: a sum per currency joined by +, and the cycles with no amount counted apart", () => {
    const mixed = variation([
      { id: "gbp", cycle_count: 2, amount: 999, currency: "GBP" },
      { id: "free", cycle_count: 3 },
      { id: "eur", cycle_count: null, amount: 150_000, currency: "EUR" }
    ])
    expect(totalsOf(mixed, 7)).toBe("7 cycle(s) billed: £19.98 + €3,000.00; 3 cycle(s) with no amount")
    expect(totalsOf(mixed, 2)).toBe("2 cycle(s) billed: £19.98")
    const free = variation([{ id: "free", cycle_count: null }])
    expect(totalsOf(free, 4)).toBe("4 cycle(s) billed; 4 cycle(s) with no amount")
  })

  it("bug: a sum past 2^53 minor units read as raw minor units (15000000000000000 GBP for £150 trillion)", () => {
    const big = variation([{ id: "big", cycle_count: null, amount: 5_000_000_000_000_000, currency: "GBP" }])
    expect(totalsOf(big, 3)).toBe("3 cycle(s) billed: £150,000,000,000,000.00")
    const yen = variation([{ id: "yen", cycle_count: null, amount: Number.MAX_SAFE_INTEGER, currency: "JPY" }])
    expect(totalsOf(yen, 2)).toBe(
      `2 cycle(s) billed: JP¥${(2n * BigInt(Number.MAX_SAFE_INTEGER)).toLocaleString("en-GB")}`
    )
  })

  it("an amount in a currency with no format: the number and the code, for one cycle and for sums", () => {
    expect(Text.minor(1500, "XYZ")).toBe("1500 XYZ")
    expect(Text.minor(12_345_678_901_234_567_890n, "XYZ")).toBe("12345678901234567890 XYZ")
    expect(Text.minor(150_000n, "JPY")).toBe("JP¥150,000")
    expect(ScheduleSvg.price(Option.some(0), Option.some("GBP"))).toBe("£0.00")
  })

  it("the wall clock of an instant in the zone of a date-time: named, offset or UTC", () => {
    const hour = 3_600_000
    expect(Text.wallClockIn(DateTime.makeUnsafe(0), 13 * hour + 5 * 60_000)).toBe("1970-01-01 13:05")
    expect(Text.wallClockIn(DateTime.makeZonedUnsafe(0, { timeZone: "+05:30" }), 0)).toBe("1970-01-01 05:30")
    expect(Text.wallClockIn(start, Date.UTC(2024, 6, 1, 23, 0))).toBe("2024-07-02 00:00")
    // midnight reads 00:00, not 24:00
    expect(ScheduleSvg.wallClock(DateTime.makeZonedUnsafe(Date.UTC(2024, 0, 2), { timeZone: "UTC" }))).toBe(
      "2024-01-02 00:00"
    )
    // a year before 1000 on a named zone's wall clock: four digits of DateTime.toParts' year, not the formatter's
    // (bug: "999-12-31 12:00", three digits)
    expect(ScheduleSvg.wallClock(DateTime.makeZonedUnsafe(Date.UTC(999, 11, 31, 12), { timeZone: "UTC" }))).toBe(
      "0999-12-31 12:00"
    )
  })
})
