/**
 * Renderings of a simulated schedule for a terminal: a table of the events with a timeline, and JSON events. The SVG
 * timeline, and the wording every rendering shares (wall-clock instants, prices, totals), are `ScheduleSvg`'s of
 * `@payrules/subscriptions`, which the playground shows too. Cycles are numbered from 1 in every rendering.
 *
 * @since 0.1.0
 */
import { Schedule, ScheduleSvg } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { visible } from "../Text.js"

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

const { price } = ScheduleSvg

/**
 * `2024-01-31 09:00` on the wall clock of the date-time's zone (`ScheduleSvg.wallClock`), its year written as ISO
 * 8601 writes it outside 1000-9999 (`0001-01-01 00:00`, `+010000-01-01 00:00`), as the JSON's instants are.
 *
 * @since 0.2.0
 * @category renderings
 */
export const wallClock: (dt: DateTime.DateTime) => string = ScheduleSvg.wallClock

/** the date of a wall clock, without its time */
const dateOf = (dt: DateTime.DateTime) => wallClock(dt).split(" ")[0]!

/** a plan as `Schedule.forPlan` takes it */
type Plan = Parameters<typeof Schedule.forPlan>[0]

/**
 * The billed cycles among the events.
 *
 * @since 0.1.0
 * @category getters
 */
export const billed = (events: ReadonlyArray<Event>): ReadonlyArray<Billed> =>
  events.filter((e): e is Billed => e._tag === "CycleBilled")

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length))

const pad2 = (n: number) => String(n).padStart(2, "0")

/** 1973-01-01T00:00:00Z: every zone's offset has been whole minutes since 1972 (Africa/Monrovia's -0:44:30 the last) */
const wholeMinuteOffsetsSince = Date.UTC(1973, 0, 1)

/** one formatter per IANA zone, for the seconds of instants before 1973 (a local mean time may have offset seconds) */
const secondFormatters = new Map<string, Intl.DateTimeFormat>()

const secondsIn = (zone: string, ms: number): number => {
  let f = secondFormatters.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: zone, second: "numeric", fractionalSecondDigits: 3 })
    secondFormatters.set(zone, f)
  }
  let second = 0
  let fraction = 0
  for (const p of f.formatToParts(ms)) {
    if (p.type === "second") second = Number(p.value)
    else if (p.type === "fractionalSecond") fraction = Number(p.value)
  }
  return second * 1000 + fraction
}

/**
 * The milliseconds past the minute of a date-time on its wall clock, 0 to 59,999: from the instant itself when its
 * zone's offset is whole minutes (UTC, any zone since 1973), else on the zone's wall clock.
 *
 * @since 0.2.0
 * @category renderings
 */
export const millisPastMinute = (dt: DateTime.DateTime): number => {
  const ms = dt.epochMilliseconds
  const fromEpoch = (offset: number) => (((ms + offset) % 60_000) + 60_000) % 60_000
  if (dt._tag === "Utc" || ms >= wholeMinuteOffsetsSince) return fromEpoch(0)
  return dt.zone._tag === "Offset" ? fromEpoch(dt.zone.offset) : secondsIn(dt.zone.id, ms)
}

/**
 * How finely a table writes its instants: to the minute (`2024-01-31 09:00`) unless one of them is not on a whole
 * minute, then to the second (`09:00:30`), or to the millisecond (`09:00:30.250`) when one is not on a whole second.
 *
 * @since 0.2.0
 * @category renderings
 */
export type Precision = "minute" | "second" | "millisecond"

/**
 * The precision a set of instants needs (see {@link Precision}).
 *
 * @since 0.2.0
 * @category renderings
 */
export const precisionOf = (instants: Iterable<DateTime.DateTime>): Precision => {
  let precision: Precision = "minute"
  for (const dt of instants) {
    const past = millisPastMinute(dt)
    if (past % 1000 !== 0) return "millisecond"
    if (past !== 0) precision = "second"
  }
  return precision
}

/**
 * {@link wallClock} to a precision: `2024-01-31 09:00`, `2024-01-31 09:00:30`, `2024-01-31 09:00:30.250`.
 *
 * @since 0.2.0
 * @category renderings
 */
export const wallClockTo = (dt: DateTime.DateTime, precision: Precision): string => {
  if (precision === "minute") return wallClock(dt)
  const past = millisPastMinute(dt)
  const seconds = `${wallClock(dt)}:${pad2(Math.floor(past / 1000))}`
  return precision === "second" ? seconds : `${seconds}.${String(past % 1000).padStart(3, "0")}`
}

/** the instants a table writes: when each event happens, and when a trial or a cycle ends */
const instantsOf = function* (events: ReadonlyArray<Event>): Generator<DateTime.DateTime> {
  for (const e of events) {
    yield e.at
    if (e._tag === "TrialStarted" || e._tag === "CycleBilled") yield e.end
  }
}

/**
 * The events as an aligned table, one line per event. Its instants are written to the minute, or to the second or
 * millisecond when one of them needs it (a plan billed every 30 seconds: `00:00:30 until 00:01:00`).
 *
 * @since 0.1.0
 * @category renderings
 */
export const table = (events: ReadonlyArray<Event>): string => {
  const precision = precisionOf(instantsOf(events))
  const wallClock = (dt: DateTime.DateTime) => wallClockTo(dt, precision)
  const at = events.map((e) => wallClock(e.at))
  // 16 characters (19 with seconds, 23 with milliseconds), unless a year outside 0000-9999 takes more
  const atWidth = Math.max(0, ...at.map((a) => a.length))
  const lines = events.map((e, i) => {
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
    // phase ids and currencies are the plan's: their control characters shown, not obeyed
    return visible(`  ${pad(at[i]!, atWidth)}  ${pad(e._tag, 19)} ${detail}`)
  })
  return lines.join("\n")
}

/**
 * The events of a timeline up to a horizon, as long as they bill at most `maxCycles` cycles: `None` as soon as one
 * more is billed, so that a plan billed every second stops after `maxCycles + 1` cycles instead of filling memory.
 *
 * @since 0.2.0
 * @category simulation
 */
export const eventsUpTo = (
  timeline: Schedule.Timeline,
  until: DateTime.DateTime,
  maxCycles: number
): Option.Option<ReadonlyArray<Event>> => {
  const events: Array<Event> = []
  let cycles = 0
  for (const e of Schedule.events(timeline, until)) {
    if (e._tag === "CycleBilled" && ++cycles > maxCycles) return Option.none()
    events.push(e)
  }
  return Option.some(events)
}

/**
 * A plan placed in time: its timeline (what the timelines draw) and its totals, or why it cannot be.
 *
 * @since 0.1.0
 * @category simulation
 */
export const place = (
  plan: Plan,
  options: Schedule.Options & { readonly variation?: string | undefined }
): Result.Result<{ readonly timeline: Schedule.Timeline; readonly totals: Schedule.Totals }, Schedule.ScheduleError> =>
  Result.flatMap(Schedule.forPlan(plan, options), (r) =>
    Result.flatMap(Schedule.compile(r.variation, r.options), (timeline) =>
      Result.map(Schedule.totals(r.variation, r.options), (totals) => ({ timeline, totals }))
    )
  )

/**
 * The totals of a plan's schedule up to a horizon, in one line (`ScheduleSvg.totalsLine`), or why there are none.
 *
 * @since 0.1.0
 * @category renderings
 */
export const totalsLine = (
  plan: Plan,
  options: Schedule.Options & { readonly variation?: string | undefined }
): string =>
  Result.match(place(plan, options), {
    onFailure: (e) => e.message,
    onSuccess: (p) => ScheduleSvg.totalsLine(p.totals)
  })

/**
 * One bar per trial or phase across the whole simulated span (`ScheduleSvg.layout`, what the SVG draws).
 *
 * @since 0.1.0
 * @category renderings
 */
export const timeline = (placed: Schedule.Timeline, until: DateTime.DateTime, width = 60): string => {
  const picture = ScheduleSvg.layout(placed, until)
  const bs = picture.bands
  const start = picture.start.epochMilliseconds
  const end = picture.end.epochMilliseconds
  const span = Math.max(1, end - start)
  const col = (t: number) => Math.min(width, Math.max(0, Math.round(((t - start) / span) * width)))
  const labels = bs.map((b) => visible(b.label))
  const labelWidth = Math.max(8, ...labels.map((l) => l.length))
  const rows = bs.map((b, i) => {
    const from = col(b.start)
    const to = Math.max(from + 1, col(b.end))
    const bar = " ".repeat(from) + (b.kind === "trial" ? "░" : "█").repeat(to - from)
    return `  ${pad(labels[i]!, labelWidth)} │${pad(bar, width)}│ ${b.kind === "trial" ? "" : `${b.cycles} cycle(s)`}`.trimEnd()
  })
  const last = dateOf(picture.end)
  const axis = `  ${pad("", labelWidth)}  ${pad(dateOf(picture.start), width - last.length)}${last}`
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
