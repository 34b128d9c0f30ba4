/**
 * Renderings of a simulated schedule for a person: a terminal table with a timeline, and JSON events (the SVG
 * timeline is in `Svg.ts`). Cycles are numbered from 1 in every rendering.
 *
 * @since 0.1.0
 */
import { Money } from "@payrules/money"
import type { Schedule } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Result from "effect/Result"

type Event = Schedule.Event

/**
 * @since 0.1.0
 * @category models
 */
export type Billed = Extract<Event, { _tag: "CycleBilled" }>

/**
 * The number of a billed cycle in its phase, from 1: the table (`#1`), the JSON (`"cycle": 1`) and the SVG say the
 * same.
 *
 * @since 0.1.0
 * @category numbering
 */
export const cycleNumber = (cycle: Billed): number => cycle.cycleIndex + 1

/**
 * `2024-01-31 09:00` on the wall clock of the subscription's zone.
 *
 * @since 0.1.0
 * @category formatting
 */
export const wallClock = (dt: DateTime.DateTime): string => {
  const parts = DateTime.toParts(dt)
  const pad = (n: number) => String(n).padStart(2, "0")
  return `${parts.year}-${pad(parts.month)}-${pad(parts.day)} ${pad(parts.hour)}:${pad(parts.minute)}`
}

/**
 * An amount in minor units as a person reads it, or "amount unknown".
 *
 * @since 0.1.0
 * @category formatting
 */
export const price = (amount: Option.Option<number>, currency: Option.Option<string>): string =>
  Option.match(Option.all([amount, currency]), {
    onNone: () => (Option.isSome(amount) ? `${Option.getOrThrow(amount)} (no currency)` : "amount unknown"),
    onSome: ([a, c]) => Result.getOrElse(Money.formatMinor(a, c), () => `${a} ${c}`)
  })

/**
 * The billed cycles among the events.
 *
 * @since 0.1.0
 * @category getters
 */
export const billed = (events: ReadonlyArray<Event>): ReadonlyArray<Billed> =>
  events.filter((e): e is Billed => e._tag === "CycleBilled")

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length))

/**
 * The events as an aligned table, one line per event.
 *
 * @since 0.1.0
 * @category renderings
 */
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
          return `${e.phaseId} #${cycleNumber(e)}  ${price(e.amount, e.currency)}  until ${wallClock(e.end)}`
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

/**
 * Totals per currency of the billed cycles, and how many had no amount.
 *
 * @since 0.1.0
 * @category renderings
 */
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
    Result.match(Money.formatMinor(Number(minor), currency), {
      onFailure: () => `${minor} ${currency}`,
      onSuccess: (s) => s
    })
  )
  const cycles = billed(events).length
  return `${cycles} cycle(s) billed${parts.length > 0 ? `: ${parts.join(" + ")}` : ""}${
    unknown > 0 ? `; ${unknown} cycle(s) with no amount` : ""
  }`
}

/**
 * The span of the trial or of one phase, and how many cycles it billed.
 *
 * @since 0.1.0
 * @category models
 */
export interface Band {
  readonly label: string
  readonly kind: "trial" | "phase"
  readonly start: number
  readonly end: number
  readonly from: DateTime.DateTime
  readonly to: DateTime.DateTime
  readonly cycles: number
}

/**
 * The bands of a schedule, in order, and the span of all events (epoch milliseconds).
 *
 * @since 0.1.0
 * @category getters
 */
export const bands = (events: ReadonlyArray<Event>): { bands: ReadonlyArray<Band>; start: number; end: number } => {
  const out: Array<Band> = []
  const start = events[0]?.at.epochMilliseconds ?? 0
  const end = events[events.length - 1]?.at.epochMilliseconds ?? start
  let open:
    | { label: string; kind: "trial" | "phase"; start: number; from: DateTime.DateTime; cycles: number }
    | undefined
  const close = (at: DateTime.DateTime) => {
    if (open !== undefined) out.push({ ...open, end: at.epochMilliseconds, to: at })
    open = undefined
  }
  for (const e of events) {
    switch (e._tag) {
      case "TrialStarted":
        open = { label: "trial", kind: "trial", start: e.at.epochMilliseconds, from: e.at, cycles: 0 }
        break
      case "TrialEnded":
        close(e.at)
        break
      case "PhaseEntered":
        close(e.at)
        open = { label: e.phaseId, kind: "phase", start: e.at.epochMilliseconds, from: e.at, cycles: 0 }
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

/**
 * One bar per trial or phase across the whole simulated span.
 *
 * @since 0.1.0
 * @category renderings
 */
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

/**
 * The events as JSON-ready objects (instants in ISO 8601 with the zone's offset, amounts in minor units, cycles
 * numbered from 1 in their phase).
 *
 * @since 0.1.0
 * @category renderings
 */
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
          cycle: cycleNumber(e),
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
