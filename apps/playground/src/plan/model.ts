/**
 * The plan panel's work, apart from its rendering: read the plan, check the other inputs as the command line
 * checks its options, place the plan in time, draw it, total it, and say which `payrules simulate` does the same.
 * Every edit recomputes it whole; nothing here walks the cycles (the table reads the rows it shows, see `Rows`).
 */
import { Calendar, IsoDuration, OffsetDateTime } from "@payrules/iso8601"
import { Money } from "@payrules/money"
import { Schedule, ScheduleSvg } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type Located, locate } from "../json/locate.js"
import { shellWord } from "../shell.js"
import { type Plan, type Reading, readPlan } from "./adapter.js"
import type { PlanInputs } from "./inputs.js"

export type { PlanInputs } from "./inputs.js"

export type InputName = Exclude<keyof PlanInputs, "json" | "horizon" | "anchor" | "trialMode">

/** A billed cycle, as a row of the table. */
export interface Row {
  readonly number: number
  readonly phase: string
  readonly cycle: number
  readonly start: string
  readonly end: string
  readonly amount: string
}

/**
 * The billed cycles of a schedule by index, each found from its phase's place on the timeline (cycle j of a phase
 * starts at `anchor + (offset + j) × duration`, the first at the phase's start, as `Schedule.events` yields them):
 * the last row of 315 million costs what the first does, and nothing walks the cycles before it.
 */
export class Rows {
  readonly #timeline: Schedule.Timeline
  /** the index of the first row of each phase, and the rows of each (from the totals) */
  readonly #firsts: ReadonlyArray<number>
  readonly #counts: ReadonlyArray<number>

  constructor(
    timeline: Schedule.Timeline,
    totals: Schedule.Totals,
    readonly count: number
  ) {
    this.#timeline = timeline
    this.#counts = totals.byPhase.map((p) => p.cycles)
    const firsts: Array<number> = []
    let n = 0
    for (const c of this.#counts) {
      firsts.push(n)
      n += c
    }
    this.#firsts = firsts
  }

  at(index: number): Row | undefined {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.count) return undefined
    // the last phase whose first row is at or before the index (a phase with no rows shares its first with the next)
    let lo = 0
    let hi = this.#firsts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.#firsts[mid]! <= index) lo = mid
      else hi = mid - 1
    }
    const p = this.#timeline.phases[lo]
    const j = index - this.#firsts[lo]!
    if (p === undefined || j >= this.#counts[lo]!) return undefined
    const start = j === 0 ? Result.succeed(p.start) : Calendar.addTo(p.anchor, p.duration, p.offset + j)
    const end = Calendar.addTo(p.anchor, p.duration, p.offset + j + 1)
    if (Result.isFailure(start) || Result.isFailure(end)) return undefined
    return {
      number: index + 1,
      phase: p.phase.id,
      cycle: j + 1,
      start: ScheduleSvg.wallClock(start.success),
      end: ScheduleSvg.wallClock(end.success),
      amount: ScheduleSvg.price(p.amount, p.currency)
    }
  }
}

export interface Simulated {
  readonly svg: string
  readonly totals: Schedule.Totals
  readonly totalsLine: string
  readonly rows: Rows
}

export interface PlanResult {
  readonly located: Located
  readonly reading: Reading | undefined
  /** the inputs that are not valid, with the command line's wording */
  readonly inputErrors: ReadonlyArray<{ readonly input: InputName; readonly message: string }>
  /** the variations of the plan, to pick from */
  readonly variations: ReadonlyArray<string>
  readonly simulated: Simulated | undefined
  /** why there is no schedule although the inputs are valid (the plan has errors, an unknown variation...) */
  readonly scheduleError: string | undefined
  readonly command: string
}

const decodeTrial = Schema.decodeUnknownResult(IsoDuration.DaysOnlyFromString)

/** What `payrules simulate` needs for the same schedule, with the plan saved as plan.json: every value a shell word. */
export const commandLine = (i: PlanInputs): string => {
  const args = [
    "pnpm payrules simulate --plan plan.json",
    `--start ${shellWord(i.start.trim())}`,
    `--zone ${shellWord(i.zone.trim())}`
  ]
  if (i.horizon === "months") args.push(`--months ${shellWord(i.months.trim())}`)
  else args.push(`--until ${shellWord(i.until.trim())}`)
  if (i.trialMode === "none") args.push("--no-trial")
  else if (i.trialMode === "days") args.push(`--trial ${shellWord(i.trial.trim())}`)
  if (i.anchor !== "phase-start") args.push(`--anchor ${shellWord(i.anchor)}`)
  if (i.variation !== "") args.push(`--variation ${shellWord(i.variation)}`)
  args.push("--format svg")
  return args.join(" ")
}

const settle = (i: PlanInputs) => {
  const errors: Array<{ input: InputName; message: string }> = []
  const zone = i.zone.trim()
  const named = DateTime.zoneMakeNamed(zone)
  if (Option.isNone(named))
    errors.push({
      input: "zone",
      message: `${zone} is not an IANA time zone (e.g. Europe/London, America/New_York, UTC)`
    })
  const startInstant = OffsetDateTime.parse(i.start.trim())
  if (Result.isFailure(startInstant)) errors.push({ input: "start", message: startInstant.failure.message })
  let trial: IsoDuration.IsoDuration | "none" | undefined
  if (i.trialMode === "none") trial = "none"
  else if (i.trialMode === "days") {
    const decoded = decodeTrial(i.trial.trim())
    if (Result.isFailure(decoded)) errors.push({ input: "trial", message: "a trial is whole days: P14D, P30D" })
    else trial = decoded.success
  }
  if (Option.isNone(named) || Result.isFailure(startInstant)) return { errors }
  const start = DateTime.makeZonedUnsafe(startInstant.success, { timeZone: named.value })
  let until: DateTime.DateTime | undefined
  if (i.horizon === "months") {
    const months = Number(i.months.trim())
    if (!/^\d+$/.test(i.months.trim()) || months < 1 || months > 1200) {
      errors.push({ input: "months", message: "a whole number of months, 1 to 1200" })
    } else {
      const end = Calendar.addTo(start, IsoDuration.makeUnsafe({ months }))
      if (Result.isFailure(end)) errors.push({ input: "months", message: end.failure.message })
      else until = end.success
    }
  } else {
    const end = OffsetDateTime.parse(i.until.trim())
    if (Result.isFailure(end)) errors.push({ input: "until", message: end.failure.message })
    else if (!DateTime.isGreaterThan(end.success, start))
      errors.push({ input: "until", message: `must be after the start, ${i.start.trim()}` })
    else until = end.success
  }
  return { errors, start, until, trial }
}

/**
 * A total in minor units as a person reads it (`£180,143,985,094,819.83`), exactly however large: made a decimal
 * from the bigint with the currency's exponent, never through a number; the bare amount when the currency has none.
 */
export const formatTotal = (amount: bigint, currency: string): string =>
  Result.getOrElse(Money.formatMinor(amount, currency), () => `${amount} (minor units)`)

const title = (plan: Plan, zone: string) => `${plan.name} (${plan.id}), ${zone}`

/** Everything the panel shows for its inputs. */
export const compute = (i: PlanInputs): PlanResult => {
  const located = locate(i.json)
  const reading = located.ok ? readPlan(located.value) : undefined
  const { errors, start, trial, until } = settle(i)
  const plan = reading?._tag === "Read" ? reading.plan : undefined
  const variations = plan?.variations.map((v) => v.id) ?? []
  // a variation the plan does not have (from a link, or left from another plan): an error by its field
  if (plan !== undefined && i.variation !== "" && !variations.includes(i.variation)) {
    errors.push({
      input: "variation",
      message: `plan ${plan.id} has no variation ${i.variation}${variations.length === 0 ? "" : `: pick one of ${variations.join(", ")}`}`
    })
  }
  const base = { located, reading, inputErrors: errors, variations, command: commandLine(i) }
  if (plan === undefined || start === undefined || until === undefined || errors.length > 0) {
    return { ...base, simulated: undefined, scheduleError: undefined }
  }
  const options = { start, until, anchor: i.anchor, trial, ...(i.variation === "" ? {} : { variation: i.variation }) }
  const placed = Result.flatMap(Schedule.forPlan(plan, options), (r) =>
    Result.flatMap(Schedule.compile(r.variation, r.options), (timeline) =>
      Result.map(Schedule.totals(r.variation, r.options), (totals) => ({ timeline, totals }))
    )
  )
  if (Result.isFailure(placed)) return { ...base, simulated: undefined, scheduleError: placed.failure.message }
  const { timeline, totals } = placed.success
  return {
    ...base,
    scheduleError: undefined,
    simulated: {
      svg: ScheduleSvg.render(timeline, { until, title: title(plan, i.zone.trim()) }),
      totals,
      totalsLine: ScheduleSvg.totalsLine(totals),
      rows: new Rows(timeline, totals, totals.cycles)
    }
  }
}
