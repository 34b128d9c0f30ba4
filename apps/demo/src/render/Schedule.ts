/**
 * Renderings of a simulated schedule for a person: a terminal table with a timeline, JSON events, an SVG timeline.
 */
import { Money } from "@payrules/money"
import type { Schedule } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import * as Either from "effect/Either"
import * as Option from "effect/Option"

type Event = Schedule.Event
type Billed = Extract<Event, { _tag: "CycleBilled" }>

/** `2024-01-31 09:00` on the wall clock of the subscription's zone. */
export const wallClock = (dt: DateTime.DateTime): string => {
  const parts = DateTime.toParts(dt)
  const pad = (n: number) => String(n).padStart(2, "0")
  return `${parts.year}-${pad(parts.month)}-${pad(parts.day)} ${pad(parts.hours)}:${pad(parts.minutes)}`
}

/** An amount in minor units as a person reads it, or "amount unknown". */
export const price = (amount: Option.Option<number>, currency: Option.Option<string>): string =>
  Option.match(Option.all([amount, currency]), {
    onNone: () => (Option.isSome(amount) ? `${Option.getOrThrow(amount)} (no currency)` : "amount unknown"),
    onSome: ([a, c]) => Either.getOrElse(Money.formatMinor(a, c), () => `${a} ${c}`)
  })

const billed = (events: ReadonlyArray<Event>): ReadonlyArray<Billed> =>
  events.filter((e): e is Billed => e._tag === "CycleBilled")

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length))

/** The events as an aligned table, one line per event. */
export const table = (events: ReadonlyArray<Event>): string => {
  const lines = events.map((e) => {
    const detail = ((): string => {
      switch (e._tag) {
        case "TrialStarted":
          return `trial until ${wallClock(e.end)}`
        case "TrialEnded":
          return "trial over"
        case "PhaseEntered":
          return `phase ${e.phaseId} (ordinal ${e.ordinal})`
        case "CycleBilled":
          return `${e.phaseId} #${e.cycleIndex + 1}  ${price(e.amount, e.currency)}  until ${wallClock(e.end)}`
        case "PhaseCompleted":
          return `${e.phaseId} done after ${e.cycles} cycle(s)`
        case "SubscriptionStopped":
          return "subscription stopped"
        case "HorizonReached":
          return e.reason === "RangeLimit" ? "end of the calendar" : "end of the simulation"
      }
    })()
    return `  ${wallClock(e.at)}  ${pad(e._tag, 19)} ${detail}`
  })
  return lines.join("\n")
}

/** Totals per currency of the billed cycles, and how many had no amount. */
export const totalsLine = (events: ReadonlyArray<Event>): string => {
  const sums = new Map<string, bigint>()
  let unknown = 0
  for (const c of billed(events)) {
    if (Option.isSome(c.amount) && Option.isSome(c.currency)) {
      sums.set(c.currency.value, (sums.get(c.currency.value) ?? 0n) + BigInt(c.amount.value))
    } else {
      unknown++
    }
  }
  const parts = [...sums].map(([currency, minor]) =>
    Either.match(Money.formatMinor(Number(minor), currency), {
      onLeft: () => `${minor} ${currency}`,
      onRight: (s) => s
    })
  )
  const cycles = billed(events).length
  return `${cycles} cycle(s) billed${parts.length > 0 ? `: ${parts.join(" + ")}` : ""}${
    unknown > 0 ? `; ${unknown} cycle(s) with no amount` : ""
  }`
}

interface Band {
  readonly label: string
  readonly kind: "trial" | "phase"
  readonly start: number
  readonly end: number
  readonly from: DateTime.DateTime
  readonly to: DateTime.DateTime
  readonly cycles: number
}

const bands = (events: ReadonlyArray<Event>): { bands: ReadonlyArray<Band>; start: number; end: number } => {
  const out: Array<Band> = []
  const start = events[0]?.at.epochMillis ?? 0
  const end = events[events.length - 1]?.at.epochMillis ?? start
  let open:
    | { label: string; kind: "trial" | "phase"; start: number; from: DateTime.DateTime; cycles: number }
    | undefined
  const close = (at: DateTime.DateTime) => {
    if (open !== undefined) out.push({ ...open, end: at.epochMillis, to: at })
    open = undefined
  }
  for (const e of events) {
    switch (e._tag) {
      case "TrialStarted":
        open = { label: "trial", kind: "trial", start: e.at.epochMillis, from: e.at, cycles: 0 }
        break
      case "TrialEnded":
        close(e.at)
        break
      case "PhaseEntered":
        close(e.at)
        open = { label: e.phaseId, kind: "phase", start: e.at.epochMillis, from: e.at, cycles: 0 }
        break
      case "CycleBilled":
        if (open !== undefined) open.cycles++
        break
      case "PhaseCompleted":
      case "SubscriptionStopped":
      case "HorizonReached":
        close(e.at)
        break
    }
  }
  const last = events[events.length - 1]
  if (last !== undefined) close(last.at)
  return { bands: out, start, end }
}

/** One bar per trial or phase across the whole simulated span. */
export const timeline = (events: ReadonlyArray<Event>, width = 60): string => {
  const { bands: bs, end, start } = bands(events)
  const span = Math.max(1, end - start)
  const col = (t: number) => Math.min(width, Math.max(0, Math.round(((t - start) / span) * width)))
  const labelWidth = Math.max(8, ...bs.map((b) => b.label.length))
  const rows = bs.map((b) => {
    const from = col(b.start)
    const to = Math.max(from + 1, col(b.end))
    const bar = " ".repeat(from) + (b.kind === "trial" ? "░" : "█").repeat(to - from)
    return `  ${pad(b.label, labelWidth)} │${pad(bar, width)}│ ${b.kind === "trial" ? "" : `${b.cycles} cycle(s)`}`.trimEnd()
  })
  const first = events[0]
  const last = events[events.length - 1]
  const axis =
    first === undefined || last === undefined
      ? ""
      : `  ${pad("", labelWidth)}  ${pad(wallClock(first.at).slice(0, 10), width - 10)}${wallClock(last.at).slice(0, 10)}`
  return [...rows, axis].join("\n")
}

/** The events as JSON-ready objects (instants in ISO 8601 with the zone's offset, amounts in minor units). */
export const toJson = (events: ReadonlyArray<Event>): ReadonlyArray<Record<string, unknown>> =>
  events.map((e) => {
    const iso = (dt: DateTime.DateTime) => DateTime.formatIsoOffset(dt)
    const base = { type: e._tag, at: iso(e.at) }
    switch (e._tag) {
      case "TrialStarted":
        return { ...base, end: iso(e.end) }
      case "PhaseEntered":
        return { ...base, phase: e.phaseId, ordinal: e.ordinal }
      case "CycleBilled":
        return {
          ...base,
          phase: e.phaseId,
          ordinal: e.ordinal,
          cycle: e.cycleIndex,
          start: iso(e.start),
          end: iso(e.end),
          amount: Option.getOrNull(e.amount),
          currency: Option.getOrNull(e.currency)
        }
      case "PhaseCompleted":
        return { ...base, phase: e.phaseId, ordinal: e.ordinal, cycles: e.cycles }
      case "HorizonReached":
        return { ...base, reason: e.reason }
      default:
        return base
    }
  })

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"]

/**
 * An SVG timeline: one coloured band per phase (the trial hatched), a tick per billed cycle with its amount (labels
 * thinned out when cycles are dense), the stop or the horizon marked, and a month axis.
 */
export const svg = (events: ReadonlyArray<Event>, title: string): string => {
  const { bands: bs, end, start } = bands(events)
  const width = 1000
  const left = 140
  const right = 30
  const rowHeight = 46
  const top = 60
  const height = top + bs.length * rowHeight + 70
  const span = Math.max(1, end - start)
  const x = (t: number) => left + ((t - start) / span) * (width - left - right)
  const out: Array<string> = []
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`
  )
  out.push(
    `<defs><pattern id="trial-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#999" stroke-width="2"/></pattern></defs>`
  )
  out.push(`<rect width="${width}" height="${height}" fill="#fff"/>`)
  out.push(`<text x="${left}" y="28" font-size="16" font-weight="bold">${escape(title)}</text>`)
  const cycles = billed(events)
  const labelEvery = Math.max(1, Math.ceil(cycles.length / 40))
  let phaseIndex = 0
  bs.forEach((b, row) => {
    const y = top + row * rowHeight
    const fill = b.kind === "trial" ? "url(#trial-hatch)" : palette[phaseIndex++ % palette.length]
    const w = Math.max(2, x(b.end) - x(b.start))
    out.push(
      `<g class="${b.kind === "trial" ? "trial" : "phase-band"}" data-phase="${escape(b.label)}">` +
        `<rect x="${x(b.start).toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="24" fill="${fill}" rx="3"><title>${escape(
          b.label
        )}: ${escape(wallClock(b.from))} to ${escape(wallClock(b.to))}</title></rect>` +
        `<text x="${left - 8}" y="${y + 16}" text-anchor="end">${escape(b.label)}</text></g>`
    )
    if (b.kind === "phase") {
      const inBand = cycles.filter((c) => c.start.epochMillis >= b.start && c.start.epochMillis < b.end)
      const ticks = inBand.length > 400 ? inBand.filter((_, i) => i % Math.ceil(inBand.length / 400) === 0) : inBand
      for (const c of ticks) {
        const cx = x(c.start.epochMillis).toFixed(1)
        out.push(
          `<line class="cycle" x1="${cx}" y1="${y - 2}" x2="${cx}" y2="${y + 28}" stroke="#222" stroke-width="1"><title>${escape(
            `${c.phaseId} #${c.cycleIndex + 1} ${wallClock(c.start)} ${price(c.amount, c.currency)}`
          )}</title></line>`
        )
      }
      inBand.forEach((c, i) => {
        if (i % labelEvery === 0) {
          out.push(
            `<text class="amount" x="${x(c.start.epochMillis).toFixed(1)}" y="${y + 40}" font-size="9" text-anchor="middle">${escape(
              price(c.amount, c.currency)
            )}</text>`
          )
        }
      })
    }
  })
  const axisY = top + bs.length * rowHeight + 10
  out.push(`<line x1="${left}" y1="${axisY}" x2="${width - right}" y2="${axisY}" stroke="#888"/>`)
  // month ticks on the axis
  const first = DateTime.unsafeMake(start)
  const parts = DateTime.toPartsUtc(first)
  for (let m = 0; m < 1200; m++) {
    const t = Date.UTC(parts.year, parts.month - 1 + m, 1)
    if (t > end) break
    if (t < start) continue
    const months = Math.round(span / 2_629_746_000)
    const every = months > 36 ? 3 : months > 15 ? 2 : 1
    if ((parts.month - 1 + m) % every !== 0) continue
    const label = new Date(t).toISOString().slice(0, 7)
    out.push(
      `<line x1="${x(t).toFixed(1)}" y1="${axisY}" x2="${x(t).toFixed(1)}" y2="${axisY + 5}" stroke="#888"/><text x="${x(
        t
      ).toFixed(1)}" y="${axisY + 18}" font-size="9" text-anchor="middle">${label}</text>`
    )
  }
  const lastEvent = events[events.length - 1]
  if (lastEvent !== undefined) {
    const stopped = lastEvent._tag === "SubscriptionStopped"
    const lx = x(lastEvent.at.epochMillis).toFixed(1)
    out.push(
      `<g class="${stopped ? "stop" : "horizon"}"><line x1="${lx}" y1="${top - 10}" x2="${lx}" y2="${axisY}" stroke="${
        stopped ? "#c00" : "#888"
      }" stroke-dasharray="${stopped ? "0" : "4 3"}" stroke-width="2"/><text x="${lx}" y="${top - 14}" text-anchor="end" fill="${
        stopped ? "#c00" : "#666"
      }">${stopped ? "stopped" : "horizon"} ${escape(wallClock(lastEvent.at))}</text></g>`
    )
  }
  out.push(`<text x="${left}" y="${height - 12}" fill="#444">${escape(totalsLine(events))}</text>`)
  out.push("</svg>")
  return out.join("\n")
}
