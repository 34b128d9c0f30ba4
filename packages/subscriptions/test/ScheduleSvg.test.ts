import { describe, expect, it } from "@effect/vitest"
import { Calendar, IsoDuration } from "@payrules/iso8601"
import { Schedule, ScheduleSvg } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import { pipe } from "effect/Function"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import fc from "fast-check"
import { XMLValidator } from "fast-xml-parser"
import * as Labels from "../src/internal/render/labels.js"
import * as Picture from "../src/internal/render/picture.js"
import * as Svg from "../src/internal/render/svg.js"
import * as Text from "../src/internal/render/text.js"
import { decodePlan, decodeVariation, startInstant, variationWire, zone } from "./fixtures.js"
import { overlapping, renderPng, size, textBoxes } from "./Picture.js"

const plan = (name: string, phases: ReadonlyArray<Record<string, unknown>>, trial?: string) =>
  decodePlan({
    id: `pln_${name}`,
    name,
    state: "active",
    created_at: "2024-01-01T00:00:00Z",
    updated_at: "2024-01-01T00:00:00Z",
    ...(trial === undefined ? {} : { trial_duration: trial }),
    variations: [{ id: "var", phases: phases.map((p, i) => ({ id: `ph_${i + 1}`, ordinal: i + 1, ...p })) }]
  })

/** the plans the command line's README draws (its test fixtures): 2-hour cycles, and the 3-phase Pro plan with a trial */
const compute = plan("Metered compute", [{ id: "metered", cycle_duration: "PT2H", amount: 25, currency: "EUR" }])
const pro = plan(
  "Pro",
  [
    { id: "intro", cycle_duration: "P1M", cycle_count: 3, amount: 499, currency: "GBP" },
    { id: "standard", cycle_duration: "P1M", cycle_count: 12, amount: 999, currency: "GBP" },
    { id: "loyal", cycle_duration: "P1M", amount: 799, currency: "GBP" }
  ],
  "P14D"
)
const threePhases = plan("Three phases", [
  { id: "launch", cycle_duration: "P1W", cycle_count: 2, amount: 100, currency: "GBP" },
  { id: "ramp", cycle_duration: "P1M", cycle_count: 2, amount: 500, currency: "GBP" },
  { id: "full", cycle_duration: "P1M", cycle_count: 6, amount: 900, currency: "GBP" }
])

const start = DateTime.makeZonedUnsafe("2024-01-17T09:00:00Z", { timeZone: "Europe/London" })
const months = (n: number, from: DateTime.DateTime = start) =>
  Calendar.addToUnsafe(from, IsoDuration.makeUnsafe({ months: n }))

const timelineOf = (p: typeof compute, from: DateTime.DateTime = start) =>
  Result.getOrThrow(
    Result.flatMap(Schedule.forPlan(p, { start: from }), (r) => Schedule.compile(r.variation, r.options))
  )

const svgOf = (p: typeof compute, until: DateTime.DateTime) =>
  ScheduleSvg.render(timelineOf(p), { until, title: `${p.name} (${p.id}), Europe/London` })

/** Every text box inside the picture, declared as wide as its characters, and no two overlapping. */
const expectReadable = (svg: string) => {
  expect(XMLValidator.validate(svg)).toBe(true)
  const { height, width } = size(svg)
  const boxes = textBoxes(svg)
  expect(boxes.length).toBeGreaterThan(3)
  for (const b of boxes) {
    expect(b.length).toBeCloseTo([...b.text].length * b.fontSize * Labels.CHARACTER_WIDTH, 1)
    expect(b.left, b.text).toBeGreaterThanOrEqual(0)
    expect(b.right, b.text).toBeLessThanOrEqual(width)
    expect(b.top, b.text).toBeGreaterThanOrEqual(0)
    expect(b.bottom, b.text).toBeLessThanOrEqual(height)
  }
  expect(overlapping(boxes)).toEqual([])
  return boxes
}

describe("the SVG timeline", () => {
  it("the 2-hour plan over 24 months: amounts summed where cycles are too dense, drawn to PNG", () => {
    const svg = svgOf(compute, months(24))
    const boxes = expectReadable(svg)
    const amounts = [...svg.matchAll(/class="amount" data-level="(\w+)"/g)].map((m) => m[1])
    expect(new Set(amounts)).toEqual(new Set(["quarter"]))
    expect(boxes.map((b) => b.text)).toContain("sum per quarter")
    expect(boxes.filter((b) => b.text === "€0.25")).toHaveLength(0)
    expect(boxes.map((b) => b.text)).toContain("8772 cycle(s) billed: €2,193.00")
    const png = renderPng(svg)
    expect([png.width, png.height]).toEqual([size(svg).width, size(svg).height])
    expect(png.png.subarray(1, 4).toString()).toBe("PNG")
  })

  it("the 3-phase plans: one amount per cycle where there is room, drawn to PNG", () => {
    const svg = svgOf(pro, months(24))
    const boxes = expectReadable(svg)
    expect(boxes.filter((b) => b.text === "£9.99")).toHaveLength(12)
    expect(boxes.filter((b) => b.text === "£4.99")).toHaveLength(3)
    expect(renderPng(svg).width).toBe(1000)
    const three = svgOf(threePhases, months(24))
    expectReadable(three)
    expect(three).toContain('class="stop"')
    expect(renderPng(three).height).toBe(size(three).height)
  })

  it("a tick per cycle where they are 3 pixels apart, thinned where denser, each titled with its cycle", () => {
    const monthly = svgOf(pro, months(24))
    expect(monthly.match(/class="cycle"/g)).toHaveLength(24)
    expect(monthly).toContain("<title>standard #1 2024-04-30 09:00 £9.99</title>")
    // 8,761 cycles over 830 pixels: one tick every 3 pixels at most
    const dense = svgOf(compute, months(24))
    const ticks = [...dense.matchAll(/<line class="cycle" x1="([\d.]+)"/g)].map((m) => Number(m[1]))
    expect(ticks.length).toBeGreaterThan(250)
    expect(ticks.length).toBeLessThanOrEqual(Math.ceil(830 / 3) + 1)
    expect(ticks.slice(1).every((x, i) => x - ticks[i]! >= 3 - 0.1)).toBe(true)
    expect(dense).toContain("<title>metered #1 2024-01-17 09:00 €0.25</title>")
  })

  it("at every zoom, for plans of every shape, no text overlaps", () => {
    for (const span of [1, 6, 24, 120]) {
      expectReadable(svgOf(compute, months(span)))
      expectReadable(svgOf(threePhases, months(span)))
      expectReadable(svgOf(pro, months(span)))
    }
    expectReadable(svgOf(compute, DateTime.add(start, { days: 1 })))
    fc.assert(
      fc.property(variationWire, startInstant, zone, fc.constantFrom(1, 3, 24, 120), (wire, ms, z, span) => {
        const from = DateTime.makeZonedUnsafe(ms, { timeZone: z })
        const timeline = Result.getOrThrow(Schedule.compile(decodeVariation(wire), { start: from }))
        expectReadable(ScheduleSvg.render(timeline, { until: months(span, from), title: "generated" }))
      }),
      { numRuns: 40 }
    )
  })

  it("render is pipeable", () => {
    const timeline = timelineOf(pro)
    const options = { until: months(6), title: "Pro" }
    expect(pipe(timeline, ScheduleSvg.render(options))).toBe(ScheduleSvg.render(timeline, options))
  })
})

describe("the picture says what the events say", () => {
  /** the bands as the events delimit them: what the timeline was drawn from before it was read in closed form */
  const bandsOfEvents = (events: ReadonlyArray<Schedule.Event>) => {
    const out: Array<{ label: string; start: number; end: number; cycles: number }> = []
    let open: { label: string; start: number; cycles: number } | undefined
    const close = (at: number) => {
      if (open !== undefined) out.push({ ...open, end: at })
      open = undefined
    }
    for (const e of events) {
      if (e._tag === "TrialStarted") open = { label: "trial", start: e.at.epochMilliseconds, cycles: 0 }
      else if (e._tag === "PhaseEntered") {
        close(e.at.epochMilliseconds)
        open = { label: e.phaseId, start: e.at.epochMilliseconds, cycles: 0 }
      } else if (e._tag === "CycleBilled") open!.cycles++
      else close(e.at.epochMilliseconds)
    }
    return out
  }

  /** the wall-clock bucket of an instant, as the picture groups amounts: a day, a week from Monday, a month... */
  const key = (level: ScheduleSvg.Level, at: DateTime.DateTime): string => {
    const p = DateTime.toParts(at)
    const days = Date.UTC(p.year, p.month - 1, p.day) / 86_400_000
    switch (level) {
      case "day":
        return `${days}`
      case "week":
        return `${Math.floor((days + 3) / 7)}`
      case "month":
        return `${p.year}-${p.month}`
      case "quarter":
        return `${p.year}-${Math.ceil(p.month / 3)}`
      case "year":
        return `${p.year}`
      default:
        return ""
    }
  }

  const arbitrary = fc.record({
    wire: variationWire,
    ms: startInstant,
    zone: fc.constantFrom("UTC", "Europe/London", "America/New_York", "Australia/Lord_Howe", "America/Santiago"),
    days: fc.integer({ min: 1, max: 800 }),
    trial: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
    anchor: fc.constantFrom<Schedule.Anchor>("phase-start", "subscription-start")
  })

  it("bands, cycle counts, every cycle's start and end, the totals, and the stop", () => {
    fc.assert(
      fc.property(arbitrary, ({ anchor, days, ms, trial, wire, zone }) => {
        const from = DateTime.makeZonedUnsafe(ms, { timeZone: zone })
        const until = DateTime.add(from, { days })
        const options = {
          start: from,
          anchor,
          ...(trial === undefined ? {} : { trial: IsoDuration.makeUnsafe({ days: trial }) })
        }
        const timeline = Result.getOrThrow(Schedule.compile(decodeVariation(wire), options))
        const events = [...Schedule.events(timeline, until)]
        const pic = Picture.picture(timeline, until)
        expect(pic.bands.map((b) => ({ label: b.label, start: b.start, end: b.end, cycles: b.cycles }))).toEqual(
          bandsOfEvents(events)
        )
        const billed = events.filter(Schedule.Event.$is("CycleBilled"))
        for (const b of pic.bands) {
          if (b.placed === undefined) continue
          const mine = billed.filter((c) => c.phaseId === b.label)
          for (const [j, c] of mine.entries()) {
            expect(Picture.cycleStart(b.placed, j)).toBe(c.start.epochMilliseconds)
            expect(Picture.cycleEnd(b.placed, j)).toBe(c.end.epochMilliseconds)
            expect(Picture.cycleStartAt(b.placed, j).epochMilliseconds).toBe(c.start.epochMilliseconds)
            expect(Picture.firstAtOrAfter(b, c.start.epochMilliseconds)).toBe(j)
            expect(Picture.firstAtOrAfter(b, c.start.epochMilliseconds + 1)).toBe(j + 1)
          }
        }
        const last = events[events.length - 1]!
        expect(pic.end.epochMilliseconds).toBe(last.at.epochMilliseconds)
        expect(pic.stopped).toBe(last._tag === "SubscriptionStopped")
        expect(pic.totals.cycles).toBe(billed.length)
      }),
      { numRuns: 150 }
    )
  })

  it("the cycles of each label: those that start in one wall-clock day, week, month, quarter or year", () => {
    const levels: ReadonlyArray<ScheduleSvg.Level> = ["cycle", "day", "week", "month", "quarter", "year", "phase"]
    fc.assert(
      fc.property(arbitrary, ({ anchor, days, ms, wire, zone }) => {
        const from = DateTime.makeZonedUnsafe(ms, { timeZone: zone })
        const until = DateTime.add(from, { days })
        const timeline = Result.getOrThrow(Schedule.compile(decodeVariation(wire), { start: from, anchor }))
        const billed = [...Schedule.events(timeline, until)].filter(Schedule.Event.$is("CycleBilled"))
        for (const b of Picture.picture(timeline, until).bands) {
          if (b.placed === undefined) continue
          const starts = billed.filter((c) => c.phaseId === b.label).map((c) => c.start)
          for (const level of levels) {
            // consecutive cycles of the same bucket, by the wall-clock parts of each cycle's start
            const expected: Array<readonly [number, number]> = []
            starts.forEach((s, j) => {
              const k = level === "cycle" ? `${j}` : key(level, s)
              const prev = expected[expected.length - 1]
              if (prev !== undefined && (level === "phase" || key(level, starts[prev[0]]!) === k) && level !== "cycle")
                expected[expected.length - 1] = [prev[0], j + 1]
              else expected.push([j, j + 1])
            })
            expect(Svg.groups(level, b, b.placed), `${level} ${b.label}`).toEqual(expected)
          }
        }
      }),
      { numRuns: 60 }
    )
  })
})

describe("wording", () => {
  it("the wall clock is what DateTime.toParts says, in every zone, from a date-time or from an instant, years as ISO 8601 writes them", () => {
    const parts = (dt: DateTime.DateTime) => {
      const p = DateTime.toParts(dt)
      const two = (n: number) => String(n).padStart(2, "0")
      const year =
        p.year >= 0 && p.year <= 9999
          ? String(p.year).padStart(4, "0")
          : `${p.year < 0 ? "-" : "+"}${String(Math.abs(p.year)).padStart(6, "0")}`
      return `${year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}`
    }
    const zones = ["UTC", "Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "+05:30"]
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }), startInstant),
        fc.constantFrom(...zones),
        (ms, z) => {
          const dt = DateTime.makeZonedUnsafe(ms, { timeZone: z })
          expect(ScheduleSvg.wallClock(dt)).toBe(parts(dt))
          expect(Text.wallClockIn(dt, ms + 7_200_000)).toBe(
            parts(DateTime.makeZonedUnsafe(ms + 7_200_000, { timeZone: z }))
          )
        }
      ),
      { numRuns: 500 }
    )
    for (const ms of [-8.64e15 + 86_400_000, 8.64e15 - 86_400_000, Date.UTC(999, 0, 1), Date.UTC(10_000, 0, 1)]) {
      const dt = DateTime.makeZonedUnsafe(ms, { timeZone: "Europe/London" })
      expect(ScheduleSvg.wallClock(dt)).toBe(parts(dt))
    }
    expect(ScheduleSvg.wallClock(DateTime.makeUnsafe(0))).toBe("1970-01-01 00:00")
  })

  it("wall clock, prices and totals", () => {
    expect(ScheduleSvg.wallClock(start)).toBe("2024-01-17 09:00")
    expect(ScheduleSvg.price(Option.some(999), Option.some("GBP"))).toBe("£9.99")
    expect(ScheduleSvg.price(Option.some(1500), Option.some("XYZ"))).toBe("1500 XYZ")
    expect(ScheduleSvg.price(Option.some(999), Option.none())).toBe("999 (no currency)")
    expect(ScheduleSvg.price(Option.none(), Option.some("GBP"))).toBe("amount unknown")
    const totals = Result.getOrThrow(
      Result.flatMap(Schedule.forPlan(pro, { start, until: months(24) }), (r) =>
        Schedule.totals(r.variation, r.options)
      )
    )
    expect(ScheduleSvg.totalsLine(totals)).toBe("24 cycle(s) billed: £206.76")
  })
})

describe("label layout", () => {
  const line: Labels.Line = { min: 100, max: 900, fontSize: 9, gap: 6 }
  // fast-check: the layout's invariants over any labels, a grammar of inputs rather than a Schema
  const candidates = fc.array(
    fc.record({
      x: fc.double({ min: -100, max: 1100, noNaN: true }),
      text: fc.string({ minLength: 1, maxLength: 12 }),
      optional: fc.boolean()
    }),
    { maxLength: 60 }
  )
  const apart = (placed: ReadonlyArray<Labels.Placed>) =>
    placed.every((p, i) => {
      const next = placed[i + 1]
      return (
        p.x - p.width / 2 >= line.min - 1e-9 &&
        p.x + p.width / 2 <= line.max + 1e-9 &&
        (next === undefined || next.x - next.width / 2 - (p.x + p.width / 2) >= line.gap - 1e-9)
      )
    })

  it("thin keeps labels inside the line and apart, whatever the input", () => {
    fc.assert(fc.property(candidates, (cs) => apart(Labels.thin(line, cs))))
  })

  it("fitAll places every required label, apart and inside, or refuses", () => {
    fc.assert(
      fc.property(candidates, (cs) => {
        const placed = Labels.fitAll(line, cs)
        if (placed === undefined) return true
        return apart(placed) && placed.length >= cs.filter((c) => c.optional !== true).length
      })
    )
  })

  it("byZoom takes the finest level that fits", () => {
    fc.assert(
      fc.property(candidates, candidates, (fine, coarse) => {
        const chosen = Labels.byZoom(line, [
          ["fine", fine],
          ["coarse", coarse]
        ])
        if (chosen === undefined) return false
        if (Labels.fitAll(line, fine) !== undefined) return chosen.level === "fine"
        return chosen.level === "coarse" && apart(chosen.labels)
      })
    )
  })
})
