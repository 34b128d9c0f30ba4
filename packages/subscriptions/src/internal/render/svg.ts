/**
 * The SVG timeline of a schedule: one coloured band per phase (the trial hatched), a tick per billed cycle, the
 * amounts under each band at the finest level where they do not overlap (each cycle, then sums per day, week, month,
 * quarter, year, phase), the stop or the horizon marked, and a date axis whose step follows the zoom too.
 *
 * Every text has a monospaced font and its `textLength`, so its box is known from its attributes (see `labels.ts`);
 * no two text boxes overlap. The picture is read from the timeline without walking its cycles (see `picture.ts`):
 * ticks are thinned to one every 3 pixels by jumping to the next cycle that far on, and the cycles of each label are
 * counted, not visited.
 *
 * @internal
 */
import { Calendar, IsoDuration } from "@payrules/iso8601"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Schedule from "../../Schedule.js"
import * as Labels from "./labels.js"
import { type Band, cycleEnd, cycleStart, cycleStartAt, firstAtOrAfter, picture } from "./picture.js"
import { minor, price, totalsLine, wallClock, wallClockIn } from "./text.js"

/**
 * The characters XML 1.0 does not allow in a document at all, not even escaped: the C0 controls but tab, line feed and
 * carriage return, U+FFFE, U+FFFF and lone surrogates. Each becomes U+FFFD (one UTF-16 unit for one, so the widths
 * of the texts hold).
 */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const escape = (s: string) =>
  s
    .replace(NOT_XML, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")

const palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"]

/** The font of every text: monospaced, so that widths are known (see `Labels.CHARACTER_WIDTH`). @internal */
export const fontFamily = "DejaVu Sans Mono, Menlo, Consolas, monospace"

const width = 1000
const left = 140
const right = 30
const rowHeight = 46
const top = 60

const fixed = (n: number) => n.toFixed(1)

/** A text element with its width declared, cut with an ellipsis to at most `maxWidth`. */
const text = (
  x: number,
  y: number,
  content: string,
  options: {
    readonly fontSize: number
    readonly anchor?: Labels.Anchor
    readonly maxWidth?: number
    readonly attributes?: string
  }
): string => {
  const perChar = options.fontSize * Labels.CHARACTER_WIDTH
  const chars = [...content]
  const fits = options.maxWidth === undefined ? chars.length : Math.max(1, Math.floor(options.maxWidth / perChar))
  const shown = chars.length <= fits ? content : `${chars.slice(0, fits - 1).join("")}…`
  const w = Labels.textWidth(shown, options.fontSize)
  return `<text${options.attributes === undefined ? "" : ` ${options.attributes}`} x="${fixed(x)}" y="${fixed(y)}" font-size="${options.fontSize}" text-anchor="${options.anchor ?? "start"}" textLength="${fixed(w)}" lengthAdjust="spacingAndGlyphs">${escape(shown)}</text>`
}

/** How amounts are grouped under a band, from the finest level to the coarsest. @internal */
export type Level = "cycle" | "day" | "week" | "month" | "quarter" | "year" | "phase"

const levels: ReadonlyArray<Level> = ["cycle", "day", "week", "month", "quarter", "year", "phase"]

const hour = 3_600_000
/** The longest a bucket of each level lasts (a day across a DST change has 25 hours). */
const longest: Record<Exclude<Level, "cycle" | "phase">, number> = {
  day: 25 * hour,
  week: 7 * 24 * hour + hour,
  month: 31 * 24 * hour + hour,
  quarter: 92 * 24 * hour + hour,
  year: 366 * 24 * hour + hour
}

/** At least how many labels a level has over a span: more than fit on a line means the level is not tried. */
const leastLabels = (level: Level, cycles: number, span: number): number =>
  level === "cycle" ? cycles : level === "phase" ? 1 : Math.floor(span / longest[level])

const captions: Record<Level, string> = {
  cycle: "each cycle",
  day: "sum per day",
  week: "sum per week",
  month: "sum per month",
  quarter: "sum per quarter",
  year: "sum per year",
  phase: "sum of the phase"
}

type Bucket = Exclude<Level, "cycle" | "phase">

const units: Record<Bucket, IsoDuration.IsoDuration> = {
  day: IsoDuration.makeUnsafe({ days: 1 }),
  week: IsoDuration.makeUnsafe({ weeks: 1 }),
  month: IsoDuration.makeUnsafe({ months: 1 }),
  quarter: IsoDuration.makeUnsafe({ months: 3 }),
  year: IsoDuration.makeUnsafe({ years: 1 })
}

/** The start of the day, week (from Monday), month, quarter or year of an instant, on its zone's wall clock. */
const bucketStart = (level: Bucket, at: DateTime.DateTime): DateTime.DateTime => {
  switch (level) {
    case "day":
      return DateTime.startOf(at, "day")
    case "week":
      return DateTime.startOf(at, "week", { weekStartsOn: 1 })
    case "month":
      return DateTime.startOf(at, "month")
    case "quarter": {
      const month = DateTime.startOf(at, "month")
      const back = (DateTime.toParts(month).month - 1) % 3
      return back === 0 ? month : Result.getOrElse(Calendar.addTo(month, units.month, -back), () => month)
    }
    case "year":
      return DateTime.startOf(at, "year")
  }
}

/** A run of cycles `[first, end)` of a band that one label stands for. */
type Group = readonly [first: number, end: number]

/**
 * The cycles of a band grouped by level: one group per cycle, per wall-clock day, week, month, quarter or year in
 * which cycles start, or one for the phase. A bucket's cycles are found by the instants of its bounds, never visited.
 *
 * @internal
 */
export const groups = (level: Level, band: Band, p: Schedule.PlacedPhase): ReadonlyArray<Group> => {
  const n = band.cycles
  if (n === 0) return []
  if (level === "phase") return [[0, n]]
  if (level === "cycle") return Array.from({ length: n }, (_, j): Group => [j, j + 1])
  const origin = bucketStart(level, cycleStartAt(p, 0))
  const bound = (k: number) => Result.getOrElse(Calendar.addToEpochMillis(origin, units[level], k), () => Infinity)
  const out: Array<Group> = []
  let k = 1
  for (let j = 0; j < n; ) {
    const start = cycleStart(p, j)
    while (bound(k) <= start) k++
    const next = Math.max(j + 1, firstAtOrAfter(band, bound(k)))
    out.push([j, next])
    j = next
  }
  return out
}

/** The amount of a group of cycles of one phase: one cycle's price, or their sum; "amount unknown" without one. */
const sumText = (p: Schedule.PlacedPhase, [first, end]: Group): string => {
  if (end - first === 1) return price(p.amount, p.currency)
  return Option.isSome(p.amount) && Option.isSome(p.currency)
    ? minor(BigInt(p.amount.value) * BigInt(end - first), p.currency.value)
    : "amount unknown"
}

interface AxisStep {
  readonly unit: "days" | "months" | "years"
  readonly n: number
  /** the shortest such step, in milliseconds */
  readonly least: number
  readonly label: (d: DateTime.DateTime) => string
}

const day = 86_400_000
/** the date of a wall clock (`2024-01-31`, `+010000-01-31`): its month is `.slice(0, -3)`, its year `.slice(0, -6)` */
const iso = (d: DateTime.DateTime) => wallClock(d).split(" ")[0]!
const axisSteps: ReadonlyArray<AxisStep> = [
  { unit: "days", n: 1, least: day, label: iso },
  { unit: "days", n: 7, least: 7 * day, label: iso },
  { unit: "months", n: 1, least: 28 * day, label: (d) => iso(d).slice(0, -3) },
  { unit: "months", n: 3, least: 89 * day, label: (d) => iso(d).slice(0, -3) },
  { unit: "months", n: 6, least: 181 * day, label: (d) => iso(d).slice(0, -3) },
  ...[1, 2, 5, 10, 20, 50, 100].map((n) => ({
    unit: "years" as const,
    n,
    least: n * 365 * day,
    label: (d: DateTime.DateTime) => iso(d).slice(0, -6)
  }))
]

const addUnits = (d: DateTime.DateTime, unit: AxisStep["unit"], n: number): DateTime.DateTime =>
  DateTime.add(d, { [unit]: n })

const startOf = (d: DateTime.DateTime, unit: AxisStep["unit"]): DateTime.DateTime =>
  DateTime.startOf(d, unit === "days" ? "day" : unit === "months" ? "month" : "year")

/** Where time falls across the picture, in pixels; and back. */
interface Scale {
  readonly x: (t: number) => number
  /** the instant at a position */
  readonly at: (px: number) => number
}

/** A tick per cycle, thinned to one every 3 pixels where cycles are denser: the next tick is found by a jump. */
const ticks = (band: Band, p: Schedule.PlacedPhase, y: number, scale: Scale, out: Array<string>): void => {
  const amount = price(p.amount, p.currency)
  let lastTick = Number.NEGATIVE_INFINITY
  for (let j = 0; j < band.cycles; ) {
    const cx = scale.x(cycleStart(p, j))
    if (cx - lastTick < 3) {
      // every cycle before this instant is less than 3 pixels on (2 ms of slack for rounding): skip them unvisited
      j = Math.max(j + 1, firstAtOrAfter(band, Math.floor(scale.at(lastTick + 3)) - 2))
      continue
    }
    lastTick = cx
    out.push(
      `<line class="cycle" x1="${fixed(cx)}" y1="${y - 2}" x2="${fixed(cx)}" y2="${y + 28}" stroke="#222" stroke-width="1"><title>${escape(
        `${p.phase.id} #${j + 1} ${wallClockIn(p.start, cycleStart(p, j))} ${amount}`
      )}</title></line>`
    )
    j++
  }
}

/** The amounts under a band, at the finest level whose labels all fit. */
const amounts = (band: Band, p: Schedule.PlacedPhase, y: number, scale: Scale, out: Array<string>): void => {
  const line: Labels.Line = { min: left, max: width - right, fontSize: 9, gap: 6 }
  // a label is at least one character and a gap wide: levels with more labels than that fits are not tried
  const room = (line.max - line.min) / (Labels.textWidth("0", line.fontSize) + line.gap)
  const tried = levels.filter(
    (level) => level === "phase" || leastLabels(level, band.cycles, band.end - band.start) <= room
  )
  const candidates = tried.map(
    (level) =>
      [
        level,
        groups(level, band, p).map((g) => {
          const end = cycleEnd(p, g[1] - 1)
          // a cycle cut short by the end of the picture: its label may be left out to make room for the others
          const cut = end > band.end
          return {
            x: (scale.x(cycleStart(p, g[0])) + scale.x(Math.min(end, band.end))) / 2,
            text: sumText(p, g),
            optional: cut && level === "cycle"
          }
        })
      ] as const
  )
  const chosen = Labels.byZoom(line, candidates)
  if (chosen === undefined || chosen.labels.length === 0) return
  out.push(
    text(left - 8, y + 40, captions[chosen.level], {
      fontSize: 9,
      anchor: "end",
      maxWidth: left - 16,
      attributes: 'class="amount-caption" fill="#666"'
    })
  )
  for (const label of chosen.labels) {
    out.push(
      text(label.x, y + 40, label.text, {
        fontSize: 9,
        anchor: "middle",
        attributes: `class="amount" data-level="${chosen.level}"`
      })
    )
  }
}

/** The date axis, its step the shortest whose labels have room. */
const axis = (from: DateTime.DateTime, start: number, end: number, y: number, scale: Scale, out: Array<string>) => {
  out.push(`<line x1="${left}" y1="${y}" x2="${width - right}" y2="${y}" stroke="#888"/>`)
  const pxPerMs = (width - left - right) / Math.max(1, end - start)
  const step = axisSteps.find((s) => s.least * pxPerMs >= Labels.textWidth(s.label(from), 9) + 8)
  if (step === undefined) return
  const origin = startOf(from, step.unit)
  for (let k = 0; k < 2000; k++) {
    const t = addUnits(origin, step.unit, k * step.n)
    if (t.epochMilliseconds > end) break
    if (t.epochMilliseconds < start) continue
    const tx = scale.x(t.epochMilliseconds)
    const label = step.label(t)
    const half = Labels.textWidth(label, 9) / 2
    out.push(
      `<line x1="${fixed(tx)}" y1="${y}" x2="${fixed(tx)}" y2="${y + 5}" stroke="#888"/>` +
        text(Math.min(Math.max(tx, half + 2), width - half - 2), y + 18, label, {
          fontSize: 9,
          anchor: "middle",
          attributes: 'class="axis"'
        })
    )
  }
}

/** See `ScheduleSvg.render`. @internal */
export const render = (
  timeline: Schedule.Timeline,
  options: { readonly until: DateTime.DateTime; readonly title: string }
): string => {
  const pic = picture(timeline, options.until)
  const start = pic.start.epochMilliseconds
  const end = pic.end.epochMilliseconds
  const height = top + pic.bands.length * rowHeight + 70
  const span = Math.max(1, end - start)
  const scale: Scale = {
    x: (t) => left + ((Math.min(Math.max(t, start), end) - start) / span) * (width - left - right),
    at: (px) => start + ((px - left) / (width - left - right)) * span
  }
  const out: Array<string> = []
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${fontFamily}">`
  )
  out.push(
    `<defs><pattern id="trial-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#999" stroke-width="2"/></pattern></defs>`
  )
  out.push(`<rect width="${width}" height="${height}" fill="#fff"/>`)
  out.push(
    text(20, 28, options.title, { fontSize: 14, maxWidth: width - 40, attributes: 'class="title" font-weight="bold"' })
  )
  let phaseIndex = 0
  pic.bands.forEach((b, row) => {
    const y = top + row * rowHeight
    const fill = b.kind === "trial" ? "url(#trial-hatch)" : palette[phaseIndex++ % palette.length]
    const w = Math.max(2, scale.x(b.end) - scale.x(b.start))
    out.push(
      `<g class="${b.kind === "trial" ? "trial" : "phase-band"}" data-phase="${escape(b.label)}">` +
        `<rect x="${fixed(scale.x(b.start))}" y="${y}" width="${fixed(w)}" height="24" fill="${fill}" rx="3"><title>${escape(
          b.label
        )}: ${escape(wallClock(b.from))} to ${escape(wallClock(b.to))}</title></rect>` +
        text(left - 8, y + 16, b.label, { fontSize: 12, anchor: "end", maxWidth: left - 16 }) +
        "</g>"
    )
    if (b.placed === undefined) return
    ticks(b, b.placed, y, scale, out)
    amounts(b, b.placed, y, scale, out)
  })
  const axisY = top + pic.bands.length * rowHeight + 10
  axis(pic.start, start, end, axisY, scale, out)
  const lx = scale.x(end)
  const caption = `${pic.stopped ? "stopped" : "horizon"} ${wallClock(pic.end)}`
  const captionWidth = Labels.textWidth(caption, 12)
  out.push(
    `<g class="${pic.stopped ? "stop" : "horizon"}"><line x1="${fixed(lx)}" y1="${top - 10}" x2="${fixed(lx)}" y2="${axisY}" stroke="${
      pic.stopped ? "#c00" : "#888"
    }" stroke-dasharray="${pic.stopped ? "0" : "4 3"}" stroke-width="2"/>${text(
      Math.max(lx, captionWidth + 2),
      top - 14,
      caption,
      {
        fontSize: 12,
        anchor: "end",
        attributes: `fill="${pic.stopped ? "#c00" : "#666"}"`
      }
    )}</g>`
  )
  out.push(
    text(left, height - 12, totalsLine(pic.totals), {
      fontSize: 12,
      maxWidth: width - left - right,
      attributes: 'fill="#444"'
    })
  )
  out.push("</svg>")
  return out.join("\n")
}
