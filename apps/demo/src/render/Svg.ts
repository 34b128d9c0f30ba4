/**
 * The SVG timeline of a simulated schedule: one coloured band per phase (the trial hatched), a tick per billed cycle,
 * the amounts under each band at the finest level where they do not overlap (each cycle, then sums per day, week,
 * month, quarter, year, phase), the stop or the horizon marked, and a date axis whose step follows the zoom too.
 *
 * Every text has a monospaced font and its `textLength`, so its box is known from its attributes (see
 * `Labels.ts`); no two text boxes overlap.
 *
 * @since 0.1.0
 */
import { Money } from "@payrules/money"
import type { Schedule } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Labels from "./Labels.js"
import { type Billed, bands, billed, cycleNumber, price, totalsLine, wallClock } from "./Schedule.js"

type Event = Schedule.Event

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"]

/**
 * The font of every text: monospaced, so that widths are known (see `Labels.CHARACTER_WIDTH`).
 *
 * @since 0.1.0
 * @category constants
 */
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

/**
 * How amounts are grouped under a band, from the finest level to the coarsest.
 *
 * @since 0.1.0
 * @category models
 */
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

const bucket = (level: Level, c: Billed, index: number): string => {
  const p = DateTime.toParts(c.start)
  switch (level) {
    case "cycle":
      return String(index)
    case "day":
      return `${p.year}-${p.month}-${p.day}`
    case "week":
      // weeks from Monday: 1970-01-01 was a Thursday
      return String(Math.floor((Date.UTC(p.year, p.month - 1, p.day) / 86_400_000 + 3) / 7))
    case "month":
      return `${p.year}-${p.month}`
    case "quarter":
      return `${p.year}-${Math.ceil(p.month / 3)}`
    case "year":
      return String(p.year)
    case "phase":
      return ""
  }
}

/** The amount of a group of cycles: their sum in their currency, "+ ?" when some have no amount. */
const sumText = (cycles: ReadonlyArray<Billed>): string => {
  if (cycles.length === 1) return price(cycles[0]!.amount, cycles[0]!.currency)
  const sums = new Map<string, number>()
  let unknown = 0
  for (const c of cycles) {
    if (Option.isSome(c.amount) && Option.isSome(c.currency)) {
      sums.set(c.currency.value, (sums.get(c.currency.value) ?? 0) + c.amount.value)
    } else unknown++
  }
  if (sums.size === 0) return "amount unknown"
  const parts = [...sums].map(([currency, minor]) =>
    Result.getOrElse(Money.formatMinor(minor, currency), () => `${minor} ${currency}`)
  )
  return `${parts.join(" + ")}${unknown > 0 ? " + ?" : ""}`
}

const groups = (level: Level, cycles: ReadonlyArray<Billed>): ReadonlyArray<ReadonlyArray<Billed>> => {
  const out: Array<Array<Billed>> = []
  let key: string | undefined
  cycles.forEach((c, i) => {
    const k = bucket(level, c, i)
    if (k !== key || out.length === 0) out.push([])
    key = k
    out[out.length - 1]!.push(c)
  })
  return out
}

interface AxisStep {
  readonly unit: "days" | "months" | "years"
  readonly n: number
  /** the shortest such step, in milliseconds */
  readonly least: number
  readonly label: (d: DateTime.DateTime) => string
}

const day = 86_400_000
const iso = (d: DateTime.DateTime) => wallClock(d).slice(0, 10)
const axisSteps: ReadonlyArray<AxisStep> = [
  { unit: "days", n: 1, least: day, label: iso },
  { unit: "days", n: 7, least: 7 * day, label: iso },
  { unit: "months", n: 1, least: 28 * day, label: (d) => iso(d).slice(0, 7) },
  { unit: "months", n: 3, least: 89 * day, label: (d) => iso(d).slice(0, 7) },
  { unit: "months", n: 6, least: 181 * day, label: (d) => iso(d).slice(0, 7) },
  ...[1, 2, 5, 10, 20, 50, 100].map((n) => ({
    unit: "years" as const,
    n,
    least: n * 365 * day,
    label: (d: DateTime.DateTime) => iso(d).slice(0, 4)
  }))
]

const addUnits = (d: DateTime.DateTime, unit: AxisStep["unit"], n: number): DateTime.DateTime =>
  DateTime.add(d, { [unit]: n })

const startOf = (d: DateTime.DateTime, unit: AxisStep["unit"]): DateTime.DateTime =>
  DateTime.startOf(d, unit === "days" ? "day" : unit === "months" ? "month" : "year")

/**
 * The SVG of a schedule, with a title.
 *
 * @since 0.1.0
 * @category renderings
 */
export const render = (events: ReadonlyArray<Event>, title: string): string => {
  const { bands: bs, end, start } = bands(events)
  const height = top + bs.length * rowHeight + 70
  const span = Math.max(1, end - start)
  const x = (t: number) => left + ((Math.min(Math.max(t, start), end) - start) / span) * (width - left - right)
  const out: Array<string> = []
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${fontFamily}">`
  )
  out.push(
    `<defs><pattern id="trial-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#999" stroke-width="2"/></pattern></defs>`
  )
  out.push(`<rect width="${width}" height="${height}" fill="#fff"/>`)
  out.push(text(20, 28, title, { fontSize: 14, maxWidth: width - 40, attributes: 'class="title" font-weight="bold"' }))
  const cycles = billed(events)
  let phaseIndex = 0
  bs.forEach((b, row) => {
    const y = top + row * rowHeight
    const fill = b.kind === "trial" ? "url(#trial-hatch)" : palette[phaseIndex++ % palette.length]
    const w = Math.max(2, x(b.end) - x(b.start))
    out.push(
      `<g class="${b.kind === "trial" ? "trial" : "phase-band"}" data-phase="${escape(b.label)}">` +
        `<rect x="${fixed(x(b.start))}" y="${y}" width="${fixed(w)}" height="24" fill="${fill}" rx="3"><title>${escape(
          b.label
        )}: ${escape(wallClock(b.from))} to ${escape(wallClock(b.to))}</title></rect>` +
        text(left - 8, y + 16, b.label, { fontSize: 12, anchor: "end", maxWidth: left - 16 }) +
        "</g>"
    )
    if (b.kind !== "phase") return
    const inBand = cycles.filter((c) => c.start.epochMilliseconds >= b.start && c.start.epochMilliseconds < b.end)
    let lastTick = Number.NEGATIVE_INFINITY
    for (const c of inBand) {
      const cx = x(c.start.epochMilliseconds)
      // a tick per cycle, thinned to one every 3 pixels where cycles are denser than that
      if (cx - lastTick < 3) continue
      lastTick = cx
      out.push(
        `<line class="cycle" x1="${fixed(cx)}" y1="${y - 2}" x2="${fixed(cx)}" y2="${y + 28}" stroke="#222" stroke-width="1"><title>${escape(
          `${c.phaseId} #${cycleNumber(c)} ${wallClock(c.start)} ${price(c.amount, c.currency)}`
        )}</title></line>`
      )
    }
    const line: Labels.Line = { min: left, max: width - right, fontSize: 9, gap: 6 }
    // a label is at least one character and a gap wide: levels with more labels than that fits are not tried
    const room = (line.max - line.min) / (Labels.textWidth("0", line.fontSize) + line.gap)
    const tried = levels.filter(
      (level) => level === "phase" || leastLabels(level, inBand.length, b.end - b.start) <= room
    )
    const candidates = tried.map(
      (level) =>
        [
          level,
          groups(level, inBand).map((g) => {
            const last = g[g.length - 1]!
            // a cycle cut short by the end of the picture: its label may be left out to make room for the others
            const cut = last.end.epochMilliseconds > b.end
            return {
              x: (x(g[0]!.start.epochMilliseconds) + x(Math.min(last.end.epochMilliseconds, b.end))) / 2,
              text: sumText(g),
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
  })
  const axisY = top + bs.length * rowHeight + 10
  out.push(`<line x1="${left}" y1="${axisY}" x2="${width - right}" y2="${axisY}" stroke="#888"/>`)
  const first = events[0]
  if (first !== undefined) {
    const pxPerMs = (width - left - right) / span
    const step = axisSteps.find((s) => s.least * pxPerMs >= Labels.textWidth(s.label(first.at), 9) + 8)
    if (step !== undefined) {
      const origin = startOf(first.at, step.unit)
      for (let k = 0; k < 2000; k++) {
        const t = addUnits(origin, step.unit, k * step.n)
        if (t.epochMilliseconds > end) break
        if (t.epochMilliseconds < start) continue
        const tx = x(t.epochMilliseconds)
        const label = step.label(t)
        const half = Labels.textWidth(label, 9) / 2
        out.push(
          `<line x1="${fixed(tx)}" y1="${axisY}" x2="${fixed(tx)}" y2="${axisY + 5}" stroke="#888"/>` +
            text(Math.min(Math.max(tx, half + 2), width - half - 2), axisY + 18, label, {
              fontSize: 9,
              anchor: "middle",
              attributes: 'class="axis"'
            })
        )
      }
    }
  }
  const lastEvent = events[events.length - 1]
  if (lastEvent !== undefined) {
    const stopped = lastEvent._tag === "SubscriptionStopped"
    const lx = x(lastEvent.at.epochMilliseconds)
    const caption = `${stopped ? "stopped" : "horizon"} ${wallClock(lastEvent.at)}`
    const captionWidth = Labels.textWidth(caption, 12)
    out.push(
      `<g class="${stopped ? "stop" : "horizon"}"><line x1="${fixed(lx)}" y1="${top - 10}" x2="${fixed(lx)}" y2="${axisY}" stroke="${
        stopped ? "#c00" : "#888"
      }" stroke-dasharray="${stopped ? "0" : "4 3"}" stroke-width="2"/>${text(
        Math.max(lx, captionWidth + 2),
        top - 14,
        caption,
        {
          fontSize: 12,
          anchor: "end",
          attributes: `fill="${stopped ? "#c00" : "#666"}"`
        }
      )}</g>`
    )
  }
  out.push(
    text(left, height - 12, totalsLine(events), {
      fontSize: 12,
      maxWidth: width - left - right,
      attributes: 'fill="#444"'
    })
  )
  out.push("</svg>")
  return out.join("\n")
}
