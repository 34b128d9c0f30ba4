/**
 * What a reader sees in the SVG timeline, element by element: where each band, tick, amount, axis label and marker
 * sits, what it says, and in which colour. Small hand-checked schedules pin the exact picture; properties over
 * generated plans pin what holds for every one (positions follow time, sums add up, ticks thin as promised).
 */
import { describe, expect, it } from "@effect/vitest"
import { IsoDuration } from "@payrules/iso8601"
import { Schedule, ScheduleSvg } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import * as Result from "effect/Result"
import fc from "fast-check"
import { XMLValidator } from "fast-xml-parser"
import * as Labels from "../src/internal/render/labels.js"
import * as Svg from "../src/internal/render/svg.js"
import { decodeVariation, startInstant, variation, variationWire, zone } from "./fixtures.js"
import { overlapping, size, textBoxes } from "./Picture.js"

// a small DOM-free reading of the picture: the elements it draws, by their attributes

const attributesOf = (s: string): Record<string, string> =>
  Object.fromEntries([...s.matchAll(/([\w:-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]))

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")

interface Text {
  readonly attributes: Record<string, string>
  readonly text: string
  readonly x: number
  readonly y: number
}

const texts = (svg: string): ReadonlyArray<Text> =>
  [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map((m) => {
    const attributes = attributesOf(m[1]!)
    return { attributes, text: unescape(m[2]!), x: Number(attributes.x), y: Number(attributes.y) }
  })

interface BandElement {
  readonly kind: string
  readonly phase: string
  readonly rect: Record<string, string>
  readonly title: string
  readonly label: Text
}

const bands = (svg: string): ReadonlyArray<BandElement> =>
  [
    ...svg.matchAll(
      /<g class="([\w-]+)" data-phase="([^"]*)"><rect ([^>]*)><title>([^<]*)<\/title><\/rect>(<text[^>]*>[^<]*<\/text>)<\/g>/g
    )
  ].map((m) => ({
    kind: m[1]!,
    phase: unescape(m[2]!),
    rect: attributesOf(m[3]!),
    title: unescape(m[4]!),
    label: texts(m[5]!)[0]!
  }))

interface Tick {
  readonly x: number
  readonly y1: number
  readonly y2: number
  readonly title: string
}

const ticks = (svg: string): ReadonlyArray<Tick> =>
  [...svg.matchAll(/<line class="cycle" ([^>]*)><title>([^<]*)<\/title><\/line>/g)].map((m) => {
    const a = attributesOf(m[1]!)
    expect(a.x1).toBe(a.x2)
    return { x: Number(a.x1), y1: Number(a.y1), y2: Number(a.y2), title: unescape(m[2]!) }
  })

const amounts = (svg: string) => texts(svg).filter((t) => t.attributes.class === "amount")
const captions = (svg: string) => texts(svg).filter((t) => t.attributes.class === "amount-caption")
const axisLabels = (svg: string) => texts(svg).filter((t) => t.attributes.class === "axis")

/** the short vertical lines of the axis, under its labels */
const axisTicks = (svg: string) =>
  [...svg.matchAll(/<line (x1="[\d.]+" y1="\d+" x2="[\d.]+" y2="\d+") stroke="#888"\/>/g)]
    .map((m) => attributesOf(m[1]!))
    .filter((a) => a.y1 !== a.y2)

const marker = (svg: string) => {
  const m = /<g class="(stop|horizon)"><line ([^>]*)\/>(<text[^>]*>[^<]*<\/text>)<\/g>/.exec(svg)!
  return { kind: m[1]!, line: attributesOf(m[2]!), caption: texts(m[3]!)[0]! }
}

/** minor units read back from a formatted amount (`£1,234.56` → 123456, `¥1,500` → 1500) */
const minorOf = (s: string) => Number(s.replace(/[^\d]/g, ""))

const utc = (iso: string) => DateTime.makeZonedUnsafe(iso, { timeZone: "UTC" })

const render = (v: ReturnType<typeof variation>, from: DateTime.DateTime, until: DateTime.DateTime, title = "t") =>
  ScheduleSvg.render(Result.getOrThrow(Schedule.compile(v, { start: from })), { until, title })

/** two monthly phases of three cycles from 2024-01-01 (UTC): 182 days, 830 pixels, stopped on 2024-07-01 */
const twoPhases = variation([
  { id: "a", cycle_duration: "P1M", cycle_count: 3, amount: 499, currency: "GBP" },
  { id: "b", cycle_duration: "P1M", cycle_count: 3, amount: 999, currency: "GBP" }
])
const jan1 = utc("2024-01-01T00:00:00Z")
/** where an instant of the two-phase picture is drawn: 830 pixels for 182 days from x = 140 */
const x182 = (days: number) => (140 + (days / 182) * 830).toFixed(1)

describe("the SVG timeline of a hand-checked schedule (two phases of three months)", () => {
  // drawn in each test, not when the suite is collected (what a test covers is what it draws)
  const svg = () => render(twoPhases, jan1, utc("2024-12-31T00:00:00Z"), "Two phases")

  it("the picture is 1000 pixels wide and as tall as its rows: the viewBox fits every element", () => {
    expect(XMLValidator.validate(svg())).toBe(true)
    // 60 above the first row, 46 per band, 70 for the axis and the totals
    expect(size(svg())).toEqual({ width: 1000, height: 222 })
    expect(svg()).toContain('viewBox="0 0 1000 222"')
    expect(svg()).toContain('<rect width="1000" height="222" fill="#fff"/>')
    for (const b of textBoxes(svg())) {
      expect(b.left, b.text).toBeGreaterThanOrEqual(0)
      expect(b.right, b.text).toBeLessThanOrEqual(1000)
      expect(b.bottom, b.text).toBeLessThanOrEqual(222)
    }
    expect(texts(svg())[0]).toMatchObject({ text: "Two phases", x: 20, y: 28 })
    expect(texts(svg())[0]!.attributes).toMatchObject({ class: "title", "font-size": "14" })
  })

  it("each phase's band spans its dates, one row each, in the palette's colours", () => {
    expect(bands(svg()).map((b) => [b.kind, b.phase, b.rect.x, b.rect.y, b.rect.width, b.rect.fill, b.title])).toEqual([
      ["phase-band", "a", "140.0", "60", "415.0", "#4e79a7", "a: 2024-01-01 00:00 to 2024-04-01 00:00"],
      ["phase-band", "b", "555.0", "106", "415.0", "#f28e2b", "b: 2024-04-01 00:00 to 2024-07-01 00:00"]
    ])
    // the phase's name left of its band, right-aligned, on the band's middle
    expect(bands(svg()).map((b) => [b.label.text, b.label.x, b.label.y, b.label.attributes["text-anchor"]])).toEqual([
      ["a", 132, 76, "end"],
      ["b", 132, 122, "end"]
    ])
  })

  it("a tick per cycle at its start, across its band, titled with the phase, the cycle, the date and the amount", () => {
    expect(ticks(svg())).toEqual([
      { x: 140, y1: 58, y2: 88, title: "a #1 2024-01-01 00:00 £4.99" },
      { x: Number(x182(31)), y1: 58, y2: 88, title: "a #2 2024-02-01 00:00 £4.99" },
      { x: Number(x182(60)), y1: 58, y2: 88, title: "a #3 2024-03-01 00:00 £4.99" },
      { x: 555, y1: 104, y2: 134, title: "b #1 2024-04-01 00:00 £9.99" },
      { x: Number(x182(121)), y1: 104, y2: 134, title: "b #2 2024-05-01 00:00 £9.99" },
      { x: Number(x182(152)), y1: 104, y2: 134, title: "b #3 2024-06-01 00:00 £9.99" }
    ])
  })

  it("each cycle's amount under the middle of its cycle, captioned 'each cycle'", () => {
    const mid = (from: number, to: number) => (140 + ((from + to) / 2 / 182) * 830).toFixed(1)
    expect(amounts(svg()).map((t) => [t.text, t.attributes.x, t.y, t.attributes["data-level"]])).toEqual([
      ["£4.99", mid(0, 31), 100, "cycle"],
      ["£4.99", mid(31, 60), 100, "cycle"],
      ["£4.99", mid(60, 91), 100, "cycle"],
      ["£9.99", mid(91, 121), 146, "cycle"],
      ["£9.99", mid(121, 152), 146, "cycle"],
      ["£9.99", mid(152, 182), 146, "cycle"]
    ])
    expect(captions(svg()).map((t) => [t.text, t.x, t.y, t.attributes["text-anchor"], t.attributes.fill])).toEqual([
      ["each cycle", 132, 100, "end", "#666"],
      ["each cycle", 132, 146, "end", "#666"]
    ])
  })

  it("the axis: a line under the rows and a label per month, at the month's start", () => {
    expect(svg()).toContain('<line x1="140" y1="162" x2="970" y2="162" stroke="#888"/>')
    const days = [0, 31, 60, 91, 121, 152, 182]
    expect(axisLabels(svg()).map((t) => [t.text, t.attributes.x, t.y])).toEqual(
      ["2024-01", "2024-02", "2024-03", "2024-04", "2024-05", "2024-06", "2024-07"].map((m, i) => [
        m,
        x182(days[i]!),
        180
      ])
    )
    expect(axisTicks(svg()).map((a) => [a.x1, a.y1, a.y2])).toEqual(days.map((d) => [x182(d), "162", "167"]))
  })

  it("the stop: a solid red line at the picture's end, captioned with the date, and the totals at the bottom", () => {
    expect(marker(svg())).toEqual({
      kind: "stop",
      line: {
        x1: "970.0",
        y1: "50",
        x2: "970.0",
        y2: "162",
        stroke: "#c00",
        "stroke-dasharray": "0",
        "stroke-width": "2"
      },
      caption: expect.objectContaining({ text: "stopped 2024-07-01 00:00", x: 970, y: 46 })
    })
    expect(marker(svg()).caption.attributes).toMatchObject({ fill: "#c00", "text-anchor": "end", "font-size": "12" })
    const last = texts(svg())[texts(svg()).length - 1]!
    expect([last.text, last.x, last.y, last.attributes.fill]).toEqual(["6 cycle(s) billed: £44.94", 140, 210, "#444"])
  })
})

describe("the SVG timeline cut by its horizon", () => {
  // one endless monthly phase, the horizon one day into its 17th cycle: cycles 50 pixels apart
  const monthly = variation([{ id: "m", cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" }])
  const svg = () => render(monthly, jan1, utc("2025-05-02T00:00:00Z"))

  it("a dashed grey line at the horizon, captioned 'horizon' and its date", () => {
    expect(marker(svg()).kind).toBe("horizon")
    expect(marker(svg()).line).toMatchObject({ x1: "970.0", stroke: "#888", "stroke-dasharray": "4 3" })
    expect(marker(svg()).caption).toMatchObject({ text: "horizon 2025-05-02 00:00", x: 970 })
    expect(marker(svg()).caption.attributes.fill).toBe("#666")
    expect(svg()).not.toContain('class="stop"')
  })

  it("the cycle cut short by the horizon keeps its tick, and its amount is left out where it has no room", () => {
    expect(ticks(svg())).toHaveLength(17)
    expect(ticks(svg())[16]!.title).toBe("m #17 2025-05-01 00:00 £9.99")
    // without the cut cycle, every other cycle's amount fits: the level stays 'each cycle'
    expect(amounts(svg()).map((t) => t.attributes["data-level"])).toEqual(Array(16).fill("cycle"))
    expect(amounts(svg()).every((t) => t.text === "£9.99")).toBe(true)
    expect(Math.max(...amounts(svg()).map((t) => t.x))).toBeLessThan(ticks(svg())[16]!.x)
    expect(bands(svg())[0]!.rect).toMatchObject({ x: "140.0", width: "830.0" })
  })

  it("a cut cycle with room keeps its amount, under the part of it that is drawn", () => {
    const roomy = render(monthly, jan1, utc("2024-03-16T00:00:00Z"))
    const labels = amounts(roomy)
    expect(labels.map((t) => t.text)).toEqual(["£9.99", "£9.99", "£9.99"])
    // March is drawn from its 1st to the 16th (the right edge): its amount is centred there, not on the whole month
    const mar1 = ticks(roomy)[2]!.x
    expect(labels[2]!.x).toBeCloseTo((mar1 + 970) / 2, 0)
  })
})

describe("the amounts under a band follow the zoom", () => {
  const levelOf = (svg: string) => [...new Set(amounts(svg).map((t) => t.attributes["data-level"]))]

  it("daily cycles over a month: summed per week from Monday, the weeks cut by the start and the horizon partly", () => {
    // 2024-01-01 is a Monday: four whole weeks, then the 29th to the 31st
    const daily = variation([{ id: "d", cycle_duration: "P1D", cycle_count: null, amount: 100, currency: "GBP" }])
    const svg = render(daily, jan1, utc("2024-02-01T00:00:00Z"))
    expect(levelOf(svg)).toEqual(["week"])
    expect(amounts(svg).map((t) => t.text)).toEqual(["£7.00", "£7.00", "£7.00", "£7.00", "£3.00"])
    expect(captions(svg).map((t) => t.text)).toEqual(["sum per week"])
    // from a Wednesday: the first week has 5 days
    const fromWednesday = render(daily, utc("2024-01-03T00:00:00Z"), utc("2024-01-31T00:00:00Z"))
    expect(amounts(fromWednesday).map((t) => t.text)).toEqual(["£5.00", "£7.00", "£7.00", "£7.00", "£2.00"])
  })

  it("hourly cycles over three days: summed per day", () => {
    const hourly = variation([{ id: "h", cycle_duration: "PT1H", cycle_count: null, amount: 50, currency: "GBP" }])
    const svg = render(hourly, utc("2024-01-01T12:00:00Z"), utc("2024-01-04T12:00:00Z"))
    expect(levelOf(svg)).toEqual(["day"])
    expect(amounts(svg).map((t) => t.text)).toEqual(["£6.00", "£12.00", "£12.00", "£6.00"])
    expect(captions(svg).map((t) => t.text)).toEqual(["sum per day"])
  })

  it("weekly cycles over a year: summed per month", () => {
    const weekly = variation([{ id: "w", cycle_duration: "P1W", cycle_count: null, amount: 100, currency: "GBP" }])
    const svg = render(weekly, jan1, utc("2025-01-01T00:00:00Z"))
    expect(levelOf(svg)).toEqual(["month"])
    // Mondays: 5 in January, April, July, September and December 2024
    expect(amounts(svg).map((t) => minorOf(t.text) / 100)).toEqual([5, 4, 4, 5, 4, 4, 5, 4, 5, 4, 4, 5])
    expect(captions(svg).map((t) => t.text)).toEqual(["sum per month"])
  })

  it("monthly cycles over five years: summed per quarter, then per year over fifteen", () => {
    const monthly = variation([{ id: "m", cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" }])
    const svg = render(monthly, jan1, utc("2029-01-01T00:00:00Z"))
    expect(levelOf(svg)).toEqual(["quarter"])
    expect(captions(svg).map((t) => t.text)).toEqual(["sum per quarter"])
    expect(amounts(svg)).toHaveLength(20)
    expect(amounts(svg).every((t) => t.text === "£29.97")).toBe(true)
    const fifteen = render(monthly, jan1, utc("2039-01-01T00:00:00Z"))
    expect(levelOf(fifteen)).toEqual(["year"])
    expect(amounts(fifteen).map((t) => t.text)).toEqual(Array(15).fill("£119.88"))
    expect(captions(fifteen).map((t) => t.text)).toEqual(["sum per year"])
  })

  it("two-hour cycles over a century: one sum for the phase", () => {
    const compute = variation([{ id: "c", cycle_duration: "PT2H", cycle_count: null, amount: 25, currency: "EUR" }])
    const svg = render(compute, jan1, utc("2124-01-01T00:00:00Z"))
    expect(levelOf(svg)).toEqual(["phase"])
    expect(captions(svg).map((t) => t.text)).toEqual(["sum of the phase"])
    // 36,524 days (2100 is no leap year) of 12 cycles of €0.25
    expect(amounts(svg).map((t) => t.text)).toEqual(["€109,572.00"])
    expect(amounts(svg)[0]!.x).toBeCloseTo(555, 0)
  })

  it("a phase without an amount: its sums say 'amount unknown', never a number", () => {
    const free = variation([{ id: "f", cycle_duration: "P1D", cycle_count: null }])
    const svg = render(free, jan1, utc("2024-02-01T00:00:00Z"))
    expect(amounts(svg).map((t) => t.text)).toEqual(Array(5).fill("amount unknown"))
    expect(ticks(svg)[0]!.title).toBe("f #1 2024-01-01 00:00 amount unknown")
    const noCurrency = variation([{ id: "n", cycle_duration: "P1D", cycle_count: null, amount: 100 }])
    const summed = render(noCurrency, jan1, utc("2024-02-01T00:00:00Z"))
    expect(amounts(summed).map((t) => t.text)).toEqual(Array(5).fill("amount unknown"))
    const each = render(noCurrency, jan1, utc("2024-01-04T00:00:00Z"))
    expect(amounts(each).map((t) => t.text)).toEqual(Array(3).fill("100 (no currency)"))
  })
})

describe("the axis step follows the zoom", () => {
  const from = utc("2024-01-17T09:00:00Z")
  const monthly = variation([{ id: "m", cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" }])
  const labelsOver = (until: DateTime.DateTime) => axisLabels(render(monthly, from, until)).map((t) => t.text)

  it("days, weeks, months, quarters, years, five years: the shortest step whose labels have room", () => {
    expect(labelsOver(DateTime.add(from, { days: 10 }))).toEqual(
      Array.from({ length: 10 }, (_, i) => `2024-01-${String(18 + i).padStart(2, "0")}`)
    )
    // weeks from the start's day: the 17th at 00:00 is before the start (09:00), so the first label is the 24th
    expect(labelsOver(DateTime.add(from, { days: 60 }))).toEqual([
      "2024-01-24",
      "2024-01-31",
      "2024-02-07",
      "2024-02-14",
      "2024-02-21",
      "2024-02-28",
      "2024-03-06",
      "2024-03-13"
    ])
    expect(labelsOver(DateTime.add(from, { months: 6 }))).toEqual([
      "2024-02",
      "2024-03",
      "2024-04",
      "2024-05",
      "2024-06",
      "2024-07"
    ])
    expect(labelsOver(DateTime.add(from, { months: 24 }))).toEqual([
      "2024-04",
      "2024-07",
      "2024-10",
      "2025-01",
      "2025-04",
      "2025-07",
      "2025-10",
      "2026-01"
    ])
    expect(labelsOver(DateTime.add(from, { years: 8 }))).toEqual(
      Array.from({ length: 16 }, (_, i) => `${2024 + Math.ceil(i / 2)}-${i % 2 === 0 ? "07" : "01"}`)
    )
    expect(labelsOver(DateTime.add(from, { years: 10 }))).toEqual(Array.from({ length: 10 }, (_, i) => `${2025 + i}`))
    expect(labelsOver(DateTime.add(from, { years: 30 }))).toEqual(
      Array.from({ length: 15 }, (_, i) => `${2026 + 2 * i}`)
    )
    expect(labelsOver(DateTime.add(from, { years: 100 }))).toEqual(
      Array.from({ length: 20 }, (_, i) => `${2029 + 5 * i}`)
    )
  })
})

describe("years outside 1000-9999", () => {
  it("bug: dates were cut to 10 characters and years left unpadded (10000-0, 1-01-01 00:00): ISO 8601's years now", () => {
    const monthly = variation([{ id: "m", cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" }])
    const late = render(monthly, utc("9999-12-01T00:00:00Z"), utc("+010000-02-01T00:00:00Z"))
    expect(axisLabels(late).map((t) => t.text)).toEqual([
      "9999-12-01",
      "9999-12-08",
      "9999-12-15",
      "9999-12-22",
      "9999-12-29",
      "+010000-01-05",
      "+010000-01-12",
      "+010000-01-19",
      "+010000-01-26"
    ])
    expect(ticks(late).map((t) => t.title)).toEqual(["m #1 9999-12-01 00:00 £9.99", "m #2 +010000-01-01 00:00 £9.99"])
    expect(texts(late).some((t) => t.text === "horizon +010000-02-01 00:00")).toBe(true)
    const early = render(monthly, utc("0001-01-01T00:00:00Z"), utc("0001-03-01T00:00:00Z"))
    expect(ticks(early)[0]!.title).toBe("m #1 0001-01-01 00:00 £9.99")
    expect(axisLabels(early).map((t) => t.text)).toContain("0001-02-05")
    const years = render(monthly, utc("9995-06-01T00:00:00Z"), utc("+010004-06-01T00:00:00Z"))
    expect(axisLabels(years).map((t) => t.text)).toEqual([
      "9996",
      "9997",
      "9998",
      "9999",
      "+010000",
      "+010001",
      "+010002",
      "+010003",
      "+010004"
    ])
    expect(XMLValidator.validate(years)).toBe(true)
  })
})

describe("text the reader sees as it was given", () => {
  it('a plan name and phase id with <, &, " and > are escaped, so the picture stays well-formed', () => {
    const odd = variation([{ id: 'a<b&"c">', cycle_duration: "P1M", cycle_count: 2, amount: 100, currency: "GBP" }])
    const svg = render(odd, jan1, utc("2024-06-01T00:00:00Z"), 'Tom & Jerry\'s <"Pro">')
    expect(XMLValidator.validate(svg)).toBe(true)
    expect(svg).toContain(">Tom &amp; Jerry's &lt;&quot;Pro&quot;&gt;</text>")
    expect(svg).toContain('data-phase="a&lt;b&amp;&quot;c&quot;&gt;"')
    expect(bands(svg)[0]!.phase).toBe('a<b&"c">')
    expect(bands(svg)[0]!.title).toBe('a<b&"c">: 2024-01-01 00:00 to 2024-03-01 00:00')
    expect(bands(svg)[0]!.label.text).toBe('a<b&"c">')
    expect(ticks(svg)[1]!.title).toBe('a<b&"c"> #2 2024-02-01 00:00 £1.00')
    expect(texts(svg)[0]!.text).toBe('Tom & Jerry\'s <"Pro">')
  })

  it("bug: a control character or a lone surrogate in a name made the picture XML no parser reads", () => {
    // XML 1.0 allows no C0 control but tab, line feed and carriage return, not even as a character reference
    const forbidden =
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
    for (const odd of ["Pro\u000bPlan", "nul\u0000", "esc\u001b[31m", "half \ud83d", "\ude00 half", "\uffff"]) {
      const phases = variation([{ id: `p${odd}`, cycle_duration: "P1M", cycle_count: 2, amount: 100, currency: "GBP" }])
      const svg = render(phases, jan1, utc("2024-06-01T00:00:00Z"), odd)
      expect(forbidden.test(svg), JSON.stringify(odd)).toBe(false)
      expect(XMLValidator.validate(svg)).toBe(true)
      // each such character is shown as U+FFFD, the rest as given
      expect(texts(svg)[0]!.text).toBe(odd.replace(new RegExp(forbidden.source, "g"), "\ufffd"))
    }
    // what XML allows stays as it is: a tab, an emoji (a surrogate pair), a C1 control
    const kept = "a\tb \ud83d\ude00 \u0085"
    expect(texts(render(twoPhases, jan1, utc("2024-03-01T00:00:00Z"), kept))[0]!.text).toBe(kept)
  })

  it("a title or phase name too long for its room is cut with an ellipsis, counted in characters", () => {
    // the title has 960 pixels at 8.4 a character: 114 characters
    const title = (n: number) => texts(render(twoPhases, jan1, utc("2024-03-01T00:00:00Z"), "x".repeat(n)))[0]!
    expect(title(114).text).toBe("x".repeat(114))
    expect(title(115).text).toBe(`${"x".repeat(113)}…`)
    expect(title(200).attributes.textLength).toBe((114 * 8.4).toFixed(1))
    // a phase name has 124 pixels at 7.2 a character: 17 characters, whatever their UTF-16 length
    const label = (id: string) =>
      bands(render(variation([{ id, cycle_duration: "P1M" }]), jan1, utc("2024-03-01T00:00:00Z")))[0]!.label
    expect(label("p".repeat(17)).text).toBe("p".repeat(17))
    expect(label("p".repeat(18)).text).toBe(`${"p".repeat(16)}…`)
    expect(label("p".repeat(18)).attributes.textLength).toBe((17 * 7.2).toFixed(1))
    expect(label("🙂".repeat(17)).text).toBe("🙂".repeat(17))
    expect(label("🙂".repeat(30)).text).toBe(`${"🙂".repeat(16)}…`)
  })
})

describe("bands, colours and the edges of the picture", () => {
  it("the trial is hatched and the phases take the palette in turn, the tenth the first colour again", () => {
    const ten = variation(
      Array.from({ length: 10 }, (_, i) => ({ id: `p${i + 1}`, cycle_duration: "P1M", cycle_count: 1 }))
    )
    const timeline = Result.getOrThrow(
      Schedule.compile(ten, { start: jan1, trial: IsoDuration.makeUnsafe({ days: 14 }) })
    )
    const svg = ScheduleSvg.render(timeline, { until: utc("2026-01-01T00:00:00Z"), title: "ten" })
    const drawn = bands(svg)
    expect(drawn.map((b) => [b.kind, b.phase, b.rect.fill])).toEqual([
      ["trial", "trial", "url(#trial-hatch)"],
      ...[
        "#4e79a7",
        "#f28e2b",
        "#59a14f",
        "#e15759",
        "#76b7b2",
        "#edc948",
        "#b07aa1",
        "#ff9da7",
        "#9c755f",
        "#4e79a7"
      ].map((fill, i) => ["phase-band", `p${i + 1}`, fill])
    ])
    expect(svg).toContain('<pattern id="trial-hatch"')
    expect(drawn.map((b) => Number(b.rect.y))).toEqual(drawn.map((_, i) => 60 + 46 * i))
    expect(size(svg).height).toBe(60 + 11 * 46 + 70)
    // the trial has no ticks nor amounts: ten phases of one cycle each
    expect(ticks(svg)).toHaveLength(10)
    expect(drawn[0]!.title).toBe("trial: 2024-01-01 00:00 to 2024-01-15 00:00")
  })

  it("a band too short to see is still 2 pixels wide", () => {
    const timeline = Result.getOrThrow(
      Schedule.compile(variation([{ id: "p", cycle_duration: "P1Y", cycle_count: null }]), {
        start: jan1,
        trial: IsoDuration.makeUnsafe({ days: 1 })
      })
    )
    const svg = ScheduleSvg.render(timeline, { until: utc("2124-01-01T00:00:00Z"), title: "century" })
    expect(bands(svg)[0]!.rect).toMatchObject({ x: "140.0", width: "2.0" })
  })

  it("a horizon at the start: no band, and the caption still inside the picture", () => {
    const svg = render(twoPhases, jan1, jan1)
    expect(bands(svg)).toEqual([])
    expect(size(svg).height).toBe(130)
    const caption = marker(svg).caption
    expect(caption.text).toBe("horizon 2024-01-01 00:00")
    // right-aligned on the horizon's line would cut it at the left edge: it is moved right by its width
    expect(caption.x).toBeCloseTo(24 * 7.2 + 2, 1)
    expect(textBoxes(svg).every((b) => b.left >= 0)).toBe(true)
    expect(texts(svg)[texts(svg).length - 1]!.text).toBe("0 cycle(s) billed")
  })
})

describe("what holds for every plan", () => {
  const arbitrary = fc.record({
    wire: variationWire,
    ms: startInstant,
    zone,
    days: fc.integer({ min: 1, max: 500 })
  })
  const setUp = ({ days, ms, wire, zone }: typeof arbitrary extends fc.Arbitrary<infer A> ? A : never) => {
    const from = DateTime.makeZonedUnsafe(ms, { timeZone: zone })
    const until = DateTime.add(from, { days })
    const timeline = Result.getOrThrow(Schedule.compile(decodeVariation(wire), { start: from }))
    return { from, until, timeline, svg: ScheduleSvg.render(timeline, { until, title: "generated" }) }
  }

  it("positions follow time: each band's rectangle spans its dates, rows in order, the marker at the end", () => {
    fc.assert(
      fc.property(arbitrary, (input) => {
        const { svg, timeline, until } = setUp(input)
        const layout = ScheduleSvg.layout(timeline, until)
        const start = layout.start.epochMilliseconds
        const span = Math.max(1, layout.end.epochMilliseconds - start)
        const x = (t: number) => 140 + ((t - start) / span) * 830
        const drawn = bands(svg)
        expect(drawn.map((b) => b.phase)).toEqual(layout.bands.map((b) => b.label))
        drawn.forEach((b, i) => {
          const band = layout.bands[i]!
          expect(Number(b.rect.x)).toBeCloseTo(x(band.start), 1)
          expect(Number(b.rect.width)).toBeCloseTo(Math.max(2, x(band.end) - x(band.start)), 1)
          expect(b.rect.y).toBe(String(60 + 46 * i))
          expect(b.title).toBe(
            `${band.label}: ${ScheduleSvg.wallClock(band.from)} to ${ScheduleSvg.wallClock(band.to)}`
          )
        })
        expect(Number(marker(svg).line.x1)).toBeCloseTo(x(layout.end.epochMilliseconds), 1)
        expect(marker(svg).kind).toBe(layout.stopped ? "stop" : "horizon")
        expect(marker(svg).line.y2).toBe(String(60 + 46 * drawn.length + 10))
        // axis labels left to right, at instants in order
        const axis = axisLabels(svg)
        expect(axis.every((t, i) => i === 0 || t.x > axis[i - 1]!.x)).toBe(true)
        expect(axis.every((t, i) => i === 0 || t.text > axis[i - 1]!.text)).toBe(true)
      }),
      { numRuns: 25 }
    )
  })

  it("ticks: the first cycle and then each cycle at least 3 pixels after the last tick, titled with its number", () => {
    fc.assert(
      fc.property(arbitrary, (input) => {
        const { svg, timeline, until } = setUp(input)
        const layout = ScheduleSvg.layout(timeline, until)
        const start = layout.start.epochMilliseconds
        const span = Math.max(1, layout.end.epochMilliseconds - start)
        const x = (t: number) => 140 + ((Math.min(t, layout.end.epochMilliseconds) - start) / span) * 830
        const billed = [...Schedule.events(timeline, until)].filter(Schedule.Event.$is("CycleBilled"))
        const expected: Array<string> = []
        for (const band of layout.bands) {
          let last = Number.NEGATIVE_INFINITY
          for (const [j, c] of billed.filter((c) => c.phaseId === band.label).entries()) {
            const cx = x(c.start.epochMilliseconds)
            if (cx - last < 3) continue
            last = cx
            expected.push(`${cx.toFixed(1)} ${band.label} #${j + 1} ${ScheduleSvg.wallClock(c.start)}`)
          }
        }
        expect(ticks(svg).map((t) => `${t.x.toFixed(1)} ${t.title.split(" ").slice(0, 4).join(" ")}`)).toEqual(expected)
      }),
      { numRuns: 25 }
    )
  })

  it("the amounts under a band add up to what the band bills (less a cut cycle left out)", () => {
    fc.assert(
      fc.property(arbitrary, (input) => {
        const { svg, timeline, until } = setUp(input)
        const layout = ScheduleSvg.layout(timeline, until)
        const labels = amounts(svg)
        layout.bands.forEach((band, row) => {
          if (band.kind === "trial") return
          const phase = timeline.phases.find((p) => p.phase.id === band.label)!
          const under = labels.filter((t) => t.y === 60 + 46 * row + 40)
          if (phase.amount._tag === "None") {
            expect(under.every((t) => t.text === "amount unknown")).toBe(true)
            return
          }
          const level = under[0]?.attributes["data-level"]
          const sum = under.reduce((s, t) => s + minorOf(t.text), 0)
          const amount = phase.amount.value
          if (level === "cycle") expect([band.cycles * amount, (band.cycles - 1) * amount]).toContain(sum)
          else if (band.cycles > 0) expect(sum).toBe(band.cycles * amount)
          expect(under.every((t) => t.x >= 140 && t.x <= 970)).toBe(true)
          expect(overlapping(textBoxes(svg))).toEqual([])
        })
      }),
      { numRuns: 25 }
    )
  })
})

describe("the geometry of a text", () => {
  it("box: a monospaced text's box from its anchor, width and font size, as the test reads it from the SVG", () => {
    expect(Labels.box(100, 50, "start", 30, 10)).toEqual({ left: 100, right: 130, top: 42, bottom: 52 })
    expect(Labels.box(100, 50, "middle", 30, 10)).toEqual({ left: 85, right: 115, top: 42, bottom: 52 })
    expect(Labels.box(100, 50, "end", 30, 10)).toEqual({ left: 70, right: 100, top: 42, bottom: 52 })
    const svg = render(twoPhases, jan1, utc("2024-12-31T00:00:00Z"))
    for (const [t, read] of texts(svg).map((t, i) => [t, textBoxes(svg)[i]!] as const)) {
      const b = Labels.box(t.x, t.y, t.attributes["text-anchor"] as Labels.Anchor, read.length, read.fontSize)
      expect(b.left).toBeCloseTo(read.left, 6)
      expect(b.right).toBeCloseTo(read.right, 6)
      expect(b.top).toBeCloseTo(read.top, 6)
      expect(b.bottom).toBeCloseTo(read.bottom, 6)
    }
  })

  it("overlap: boxes that share area overlap, boxes that touch or stand apart do not", () => {
    const a = { left: 0, right: 10, top: 0, bottom: 10 }
    expect(Labels.overlap(a, { left: 5, right: 15, top: 5, bottom: 15 })).toBe(true)
    expect(Labels.overlap(a, { left: 10, right: 20, top: 0, bottom: 10 })).toBe(false)
    expect(Labels.overlap(a, { left: -10, right: 0, top: 0, bottom: 10 })).toBe(false)
    expect(Labels.overlap(a, { left: 0, right: 10, top: 10, bottom: 20 })).toBe(false)
    expect(Labels.overlap(a, { left: 0, right: 10, top: -10, bottom: 0 })).toBe(false)
    expect(Labels.overlap(a, { left: 2, right: 8, top: 2, bottom: 8 })).toBe(true)
    expect(Labels.textWidth("a🙂b", 10)).toBe(18)
  })
})

describe("the edges of the picture in time", () => {
  const trialled = (from: DateTime.DateTime) =>
    Result.getOrThrow(Schedule.compile(twoPhases, { start: from, trial: IsoDuration.makeUnsafe({ days: 14 }) }))

  it("a horizon before the start: nothing drawn, the picture a point at the horizon, not stopped", () => {
    const jan2 = utc("2024-01-02T00:00:00Z")
    for (const timeline of [trialled(jan2), Result.getOrThrow(Schedule.compile(twoPhases, { start: jan2 }))]) {
      const layout = ScheduleSvg.layout(timeline, jan1)
      expect(layout.bands).toEqual([])
      expect([layout.start, layout.end, layout.stopped]).toEqual([jan1, jan1, false])
      const svg = ScheduleSvg.render(timeline, { until: jan1, title: "not yet" })
      // the axis says the one day it shows, the horizon's
      expect(axisLabels(svg).map((t) => [t.text, t.x])).toEqual([["2024-01-01", 140]])
      expect(marker(svg).caption.text).toBe("horizon 2024-01-01 00:00")
    }
  })

  it("a horizon at the start of a trial: no band, not even an empty trial", () => {
    const layout = ScheduleSvg.layout(trialled(jan1), jan1)
    expect(layout.bands).toEqual([])
    expect(layout.stopped).toBe(false)
  })

  it("a trial cut by the horizon: only the trial, to the horizon", () => {
    const layout = ScheduleSvg.layout(trialled(jan1), utc("2024-01-08T00:00:00Z"))
    expect(layout.bands.map((b) => [b.kind, b.label, ScheduleSvg.wallClock(b.to), b.cycles])).toEqual([
      ["trial", "trial", "2024-01-08 00:00", 0]
    ])
  })

  it("bands say whether they are the trial or a phase", () => {
    const layout = ScheduleSvg.layout(trialled(jan1), utc("2025-01-01T00:00:00Z"))
    expect(layout.bands.map((b) => [b.kind, b.label, b.cycles])).toEqual([
      ["trial", "trial", 0],
      ["phase", "a", 3],
      ["phase", "b", 3]
    ])
  })

  it("the last phase ending exactly at the horizon: drawn stopped, as the events end with SubscriptionStopped", () => {
    const timeline = Result.getOrThrow(Schedule.compile(twoPhases, { start: jan1 }))
    const jul1 = utc("2024-07-01T00:00:00Z")
    const events = [...Schedule.events(timeline, jul1)]
    expect(events[events.length - 1]!._tag).toBe("SubscriptionStopped")
    const layout = ScheduleSvg.layout(timeline, jul1)
    expect([layout.stopped, ScheduleSvg.wallClock(layout.end)]).toEqual([true, "2024-07-01 00:00"])
    expect(marker(ScheduleSvg.render(timeline, { until: jul1, title: "t" })).kind).toBe("stop")
    // a millisecond earlier, the horizon cuts the last cycle
    const justBefore = utc("2024-06-30T23:59:59.999Z")
    expect(ScheduleSvg.layout(timeline, justBefore).stopped).toBe(false)
    expect([...Schedule.events(timeline, justBefore)].pop()!._tag).toBe("HorizonReached")
  })

  it("over 5,000 years no axis step has room: no axis labels rather than overlapping ones", () => {
    const yearly = variation([{ id: "y", cycle_duration: "P1Y", cycle_count: null, amount: 100, currency: "GBP" }])
    const svg = render(yearly, jan1, utc("7024-01-01T00:00:00Z"))
    expect(axisLabels(svg)).toEqual([])
    expect(svg).toContain('<line x1="140" y1="116" x2="970" y2="116" stroke="#888"/>')
    expect(overlapping(textBoxes(svg))).toEqual([])
  })

  it("a phase with no cycles has no groups of amounts", () => {
    const timeline = Result.getOrThrow(Schedule.compile(twoPhases, { start: jan1 }))
    const empty = {
      label: "a",
      kind: "phase" as const,
      start: 0,
      end: 0,
      from: jan1,
      to: jan1,
      cycles: 0,
      placed: timeline.phases[0]!
    }
    for (const level of ["cycle", "day", "phase"] as const) expect(Svg.groups(level, empty, empty.placed)).toEqual([])
  })
})

describe("the frame of the picture", () => {
  it("every text in a monospaced font, named on the root element", () => {
    const svg = render(twoPhases, jan1, utc("2024-12-31T00:00:00Z"))
    const root = attributesOf(/<svg\b([^>]*)>/.exec(svg)![1]!)
    expect(root["font-family"]).toBe("DejaVu Sans Mono, Menlo, Consolas, monospace")
    expect(ScheduleSvg.fontFamily).toBe(root["font-family"])
    expect(root.xmlns).toBe("http://www.w3.org/2000/svg")
  })

  it("totals in many currencies, too long for the line: cut with an ellipsis at the right edge", () => {
    const currencies = ["GBP", "EUR", "USD", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF"]
    const many = variation(
      currencies.map((currency, i) => ({
        id: `p${i}`,
        cycle_duration: "P1M",
        cycle_count: 1,
        amount: 123_456,
        currency
      }))
    )
    const svg = render(many, jan1, utc("2025-01-01T00:00:00Z"))
    const totals = texts(svg)[texts(svg).length - 1]!
    const full = ScheduleSvg.totalsLine(
      Result.getOrThrow(Schedule.totals(many, { start: jan1, until: utc("2025-01-01T00:00:00Z") }))
    )
    expect([...full].length).toBeGreaterThan(115)
    // 830 pixels at 7.2 a character: 115 characters, the last an ellipsis
    expect(totals.text).toBe(`${[...full].slice(0, 114).join("")}…`)
    expect(Number(totals.attributes.textLength)).toBeLessThanOrEqual(830)
  })
})
