/**
 * The phase progression simulator (D2, D3): what a subscription bills, when, in which phase and for how much.
 *
 * Cycles are half-open `[start, end)` and billed at their start; an instant on a boundary belongs to the next cycle.
 * The trial (days only) comes before the first phase. Phases run in ascending ordinal; a phase with `cycle_count`
 * stops after that many cycles and hands over to the next one, or ends the subscription when it is the last; a
 * phase without `cycle_count` never ends. Cycle boundary k of a phase is `anchor + k × cycle_duration`, computed in
 * one step from the anchor with `Calendar.addTo` (so Jan 31 monthly gives Feb 29, Mar 31, Apr 30). Nothing here reads
 * a clock: the same options give the same events.
 *
 * @since 0.1.0
 */
import { Calendar, IsoDuration } from "@payrules/iso8601"
import type { Currency } from "@payrules/money"
import * as Data from "effect/Data"
import * as DateTime from "effect/DateTime"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as PlanCheck from "./PlanCheck.js"
import type { Phase, SubscriptionPlan, Variation } from "./SubscriptionPlan.js"

// -----------------------------------------------------------------------------
// options
// -----------------------------------------------------------------------------

/**
 * Where cycle boundaries are counted from.
 *
 * - `"phase-start"` (default): each phase anchors at its own start.
 * - `"subscription-start"`: phases keep the grid of the subscription's first billing instant (its day of month),
 *   so a monthly phase that follows a phase ending on a clamped day (Feb 29 after Jan 31) returns to the 31st.
 *   A phase whose start is not on that grid (after a weekly phase, say) anchors at its own start.
 *
 * @since 0.1.0
 * @category models
 */
export type Anchor = "phase-start" | "subscription-start"

/**
 * Where a simulation stops: before an instant (cycles starting at or after it are not billed), or after a number
 * of billed cycles.
 *
 * @since 0.1.0
 * @category models
 */
export type Horizon = DateTime.DateTime | { readonly cycles: number }

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** when the subscription starts; its zone (UTC, an offset or an IANA zone) is the zone of the wall clock */
  readonly start: DateTime.DateTime
  /** the trial: a days-only duration (`P14D`), or `"none"`; default none for a bare variation, the plan's trial for a plan */
  readonly trial?: IsoDuration.IsoDuration | "none" | undefined
  /** where to stop; without it the events of an endless phase never end */
  readonly until?: Horizon | undefined
  /** default `"phase-start"` */
  readonly anchor?: Anchor | undefined
}

// -----------------------------------------------------------------------------
// errors
// -----------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category errors
 */
export type ErrorReason =
  /** PlanCheck found errors in the variation (see `findings`) */
  | "InvalidPlan"
  /** the trial is not a positive days-only duration */
  | "InvalidTrial"
  /** the horizon is not a date-time or a non-negative whole number of cycles */
  | "InvalidHorizon"
  /** `simulatePlan` was given a variation id that the plan does not have */
  | "UnknownVariation"
  /** a finite phase ends beyond the range of instants */
  | "OutOfRange"

/**
 * @since 0.1.0
 * @category errors
 */
export class ScheduleError extends Data.TaggedError("ScheduleError")<{
  readonly reason: ErrorReason
  readonly message: string
  readonly findings: ReadonlyArray<PlanCheck.Finding>
}> {}

const fail = (reason: ErrorReason, message: string, findings: ReadonlyArray<PlanCheck.Finding> = []) =>
  Either.left(new ScheduleError({ reason, message, findings }))

// -----------------------------------------------------------------------------
// events
// -----------------------------------------------------------------------------

/**
 * What happens in a subscription, in order of time. Every event has `at`.
 *
 * @since 0.1.0
 * @category models
 */
export type Event = Data.TaggedEnum<{
  TrialStarted: { readonly at: DateTime.DateTime; readonly end: DateTime.DateTime }
  TrialEnded: { readonly at: DateTime.DateTime }
  PhaseEntered: {
    readonly at: DateTime.DateTime
    readonly phaseId: string
    readonly ordinal: number
    /** position of the phase in ascending ordinal order, from 0 */
    readonly phaseIndex: number
  }
  CycleBilled: {
    readonly at: DateTime.DateTime
    readonly phaseId: string
    readonly ordinal: number
    /** index of the cycle within its phase, from 0 */
    readonly cycleIndex: number
    readonly start: DateTime.DateTime
    readonly end: DateTime.DateTime
    /** minor units; `None` when the phase has no amount: unknown, never a silent 0 */
    readonly amount: Option.Option<number>
    readonly currency: Option.Option<Currency.CurrencyCode>
  }
  PhaseCompleted: {
    readonly at: DateTime.DateTime
    readonly phaseId: string
    readonly ordinal: number
    readonly cycles: number
  }
  SubscriptionStopped: { readonly at: DateTime.DateTime }
  HorizonReached: {
    readonly at: DateTime.DateTime
    /** `Until`: the instant of the horizon; `Cycles`: the number of cycles; `RangeLimit`: the end of time */
    readonly reason: "Until" | "Cycles" | "RangeLimit"
  }
}>

const taggedEvent = Data.taggedEnum<Event>()

/**
 * Matchers of {@link Event}: `Event.$is("CycleBilled")(e)`, `Event.$match(e, { CycleBilled: ..., ... })`. Events are
 * plain immutable objects (simulations create millions of them), compared with `toEqual` or field by field.
 *
 * @since 0.1.0
 * @category matchers
 */
export const Event: Pick<typeof taggedEvent, "$is" | "$match"> = { $is: taggedEvent.$is, $match: taggedEvent.$match }

/**
 * Where a subscription is at an instant.
 *
 * @since 0.1.0
 * @category models
 */
export type Position = Data.TaggedEnum<{
  NotStarted: { readonly startsAt: DateTime.DateTime }
  Trial: { readonly start: DateTime.DateTime; readonly end: DateTime.DateTime }
  InPhase: {
    readonly phaseId: string
    readonly ordinal: number
    readonly phaseIndex: number
    readonly cycleIndex: number
    readonly cycleStart: DateTime.DateTime
    readonly cycleEnd: DateTime.DateTime
    readonly amount: Option.Option<number>
    readonly currency: Option.Option<Currency.CurrencyCode>
  }
  Stopped: { readonly at: DateTime.DateTime }
}>

/**
 * Constructors and matchers of {@link Position}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const Position = Data.taggedEnum<Position>()

// -----------------------------------------------------------------------------
// timeline
// -----------------------------------------------------------------------------

/**
 * A phase placed on the timeline: its cycles start at `anchor + (offset + j) × duration` for j = 0, 1, ...
 *
 * @since 0.1.0
 * @category models
 */
export interface PlacedPhase {
  readonly phase: Phase
  readonly phaseIndex: number
  readonly duration: IsoDuration.IsoDuration
  /** `undefined`: endless */
  readonly count: number | undefined
  readonly anchor: DateTime.DateTime
  readonly offset: number
  readonly start: DateTime.DateTime
  /** `undefined`: endless */
  readonly end: DateTime.DateTime | undefined
  readonly amount: Option.Option<number>
  readonly currency: Option.Option<Currency.CurrencyCode>
}

/**
 * A variation placed in time for one subscription: the trial and the start, anchor and end of every phase, found
 * without walking cycles. Build it once with {@link compile} to ask many questions of the same subscription.
 *
 * @since 0.1.0
 * @category models
 */
export interface Timeline {
  readonly start: DateTime.DateTime
  readonly trialEnd: DateTime.DateTime | undefined
  readonly phases: ReadonlyArray<PlacedPhase>
  /** when the last phase ends; `undefined` when it is endless */
  readonly stoppedAt: DateTime.DateTime | undefined
}

const isDaysOnly = (d: IsoDuration.IsoDuration): boolean =>
  d.sign > 0 && d.years === 0 && d.months === 0 && d.weeks === 0 && !IsoDuration.hasTimePart(d)

/**
 * Places a variation in time. Fails when PlanCheck finds errors in it, when the trial is not a positive days-only
 * duration, or when a finite phase would end beyond the range of instants.
 *
 * @since 0.1.0
 * @category constructors
 */
export const compile = (
  variation: Variation,
  options: Pick<Options, "start" | "trial" | "anchor">
): Either.Either<Timeline, ScheduleError> => {
  const findings = PlanCheck.checkVariation(variation)
  const errors = PlanCheck.errors(findings)
  if (errors.length > 0) {
    return fail(
      "InvalidPlan",
      `variation ${variation.id} cannot be simulated: ${errors.map((e) => `${e.path.join(".")}: ${e.message}`).join("; ")}`,
      errors
    )
  }
  const start = options.start
  let trialEnd: DateTime.DateTime | undefined
  const trial = options.trial
  if (trial !== undefined && trial !== "none") {
    if (!isDaysOnly(trial)) {
      return fail("InvalidTrial", `a trial is a positive number of days (P14D); got ${IsoDuration.format(trial)}`)
    }
    const end = Calendar.addTo(start, trial)
    if (Either.isLeft(end)) return fail("OutOfRange", `the trial ends beyond the range of instants`)
    trialEnd = end.right
  }
  const billingStart = trialEnd ?? start
  const bySubscription = options.anchor === "subscription-start"
  const sorted = variation.phases
    .map((phase, i) => ({ phase, i }))
    .sort((a, b) => a.phase.ordinal - b.phase.ordinal || a.i - b.i)
  const phases: Array<PlacedPhase> = []
  let phaseStart: DateTime.DateTime = billingStart
  for (let k = 0; k < sorted.length; k++) {
    const phase = sorted[k]!.phase
    const duration = phase.cycle_duration
    const count = phase.cycle_count === undefined || phase.cycle_count === null ? undefined : phase.cycle_count
    let anchor: DateTime.DateTime = phaseStart
    let offset = 0
    if (bySubscription && k > 0) {
      const n = Calendar.stepsUntil(billingStart, duration, phaseStart)
      if (Either.isRight(n)) {
        const onGrid = Calendar.addToEpochMillis(billingStart, duration, n.right)
        if (Either.isRight(onGrid) && onGrid.right === phaseStart.epochMillis) {
          anchor = billingStart
          offset = n.right
        }
      }
    }
    let end: DateTime.DateTime | undefined
    if (count !== undefined) {
      const e = Calendar.addTo(anchor, duration, offset + count)
      if (Either.isLeft(e)) {
        return fail("OutOfRange", `phase ${phase.id} ends beyond the range of instants`)
      }
      end = e.right
    }
    phases.push({
      phase,
      phaseIndex: k,
      duration,
      count,
      anchor,
      offset,
      start: phaseStart,
      end,
      amount: Option.fromNullable(phase.amount),
      currency: Option.fromNullable(phase.currency)
    })
    if (end === undefined) break
    phaseStart = end
  }
  const last = phases[phases.length - 1]!
  return Either.right({ start, trialEnd, phases, stoppedAt: last.end })
}

const checkHorizon = (until: Horizon | undefined): Either.Either<void, ScheduleError> => {
  if (until === undefined || DateTime.isDateTime(until)) return Either.void
  return Number.isSafeInteger(until.cycles) && until.cycles >= 0
    ? Either.void
    : fail("InvalidHorizon", `until.cycles must be a whole number of at least 0; got ${until.cycles}`)
}

/**
 * The events of a timeline up to a horizon, lazily: without a horizon, an endless phase yields cycles forever.
 * Events strictly before the horizon are yielded; so are the ends (TrialEnded, PhaseCompleted, SubscriptionStopped)
 * that fall on it, since cycles are half-open. The sequence ends with SubscriptionStopped, or else HorizonReached.
 *
 * @since 0.1.0
 * @category simulation
 */
export const events = (timeline: Timeline, until?: Horizon): Iterable<Event> => ({
  [Symbol.iterator]: () => run(timeline, until)
})

function* run(t: Timeline, until: Horizon | undefined): Generator<Event, void, undefined> {
  let horizon = Number.POSITIVE_INFINITY
  let horizonAt: DateTime.DateTime | undefined
  let cyclesLeft = Number.POSITIVE_INFINITY
  const reason: "Until" | "Cycles" = until !== undefined && !DateTime.isDateTime(until) ? "Cycles" : "Until"
  if (until !== undefined) {
    if (DateTime.isDateTime(until)) {
      horizon = until.epochMillis
      horizonAt = until
    } else {
      cyclesLeft = until.cycles
      if (cyclesLeft === 0) {
        horizon = t.start.epochMillis
        horizonAt = t.start
      }
    }
  }
  const reached = (at: DateTime.DateTime | undefined): Event => ({ _tag: "HorizonReached", at: at ?? t.start, reason })
  if (t.trialEnd !== undefined) {
    if (!(t.start.epochMillis < horizon)) return yield reached(horizonAt)
    yield { _tag: "TrialStarted", at: t.start, end: t.trialEnd }
    if (!(t.trialEnd.epochMillis <= horizon)) return yield reached(horizonAt)
    yield { _tag: "TrialEnded", at: t.trialEnd }
  }
  let at: DateTime.DateTime = t.start
  for (const p of t.phases) {
    at = p.start
    if (!(at.epochMillis < horizon)) return yield reached(horizonAt)
    const { id: phaseId, ordinal } = p.phase
    yield { _tag: "PhaseEntered", at, phaseId, ordinal, phaseIndex: p.phaseIndex }
    for (let j = 0; p.count === undefined || j < p.count; j++) {
      if (!(at.epochMillis < horizon)) return yield reached(horizonAt)
      const next = Calendar.addTo(p.anchor, p.duration, p.offset + j + 1)
      if (Either.isLeft(next)) return yield { _tag: "HorizonReached", at, reason: "RangeLimit" }
      const end = next.right
      yield {
        _tag: "CycleBilled",
        at,
        phaseId,
        ordinal,
        cycleIndex: j,
        start: at,
        end,
        amount: p.amount,
        currency: p.currency
      }
      if (--cyclesLeft === 0) {
        horizon = end.epochMillis
        horizonAt = end
      }
      at = end
    }
    if (!(at.epochMillis <= horizon)) return yield reached(horizonAt)
    yield { _tag: "PhaseCompleted", at, phaseId, ordinal, cycles: p.count! }
  }
  yield { _tag: "SubscriptionStopped", at }
}

const resolveVariation = (
  variation: Variation,
  options: Options
): Either.Either<{ timeline: Timeline; until: Horizon | undefined }, ScheduleError> =>
  Either.flatMap(checkHorizon(options.until), () =>
    Either.map(compile(variation, options), (timeline) => ({ timeline, until: options.until }))
  )

/**
 * Simulates one subscription of a variation: the lazy, possibly infinite sequence of its events (see {@link events}).
 * The trial is `options.trial` (default none: a bare variation has no trial; see {@link simulatePlan}).
 *
 * @since 0.1.0
 * @category simulation
 */
export const simulate = (variation: Variation, options: Options): Either.Either<Iterable<Event>, ScheduleError> =>
  Either.map(resolveVariation(variation, options), ({ timeline, until }) => events(timeline, until))

/**
 * Like {@link simulate}, but throws the `ScheduleError`.
 *
 * @since 0.1.0
 * @category simulation
 */
export const unsafeSimulate = (variation: Variation, options: Options): Iterable<Event> =>
  Either.getOrThrowWith(simulate(variation, options), (e) => e)

/**
 * Picks a variation of a plan (the first when `variation` is not given) and applies the plan's trial unless
 * `options.trial` overrides it (`"none"` for no trial).
 *
 * @since 0.1.0
 * @category simulation
 */
export const forPlan = (
  plan: SubscriptionPlan,
  options: Options & { readonly variation?: string | undefined }
): Either.Either<{ readonly variation: Variation; readonly options: Options }, ScheduleError> => {
  const variation =
    options.variation === undefined ? plan.variations[0] : plan.variations.find((v) => v.id === options.variation)
  if (variation === undefined) {
    return fail(
      "UnknownVariation",
      options.variation === undefined
        ? `plan ${plan.id} has no variations`
        : `plan ${plan.id} has no variation ${options.variation} (it has ${plan.variations.map((v) => v.id).join(", ")})`
    )
  }
  return Either.right({
    variation,
    options: { ...options, trial: options.trial ?? plan.trial_duration ?? "none" }
  })
}

/**
 * {@link simulate} for a plan: see {@link forPlan}.
 *
 * @since 0.1.0
 * @category simulation
 */
export const simulatePlan = (
  plan: SubscriptionPlan,
  options: Options & { readonly variation?: string | undefined }
): Either.Either<Iterable<Event>, ScheduleError> =>
  Either.flatMap(forPlan(plan, options), (r) => simulate(r.variation, r.options))

/**
 * The events as an effect `Stream` (pull-based: an endless phase streams forever until taken).
 *
 * @since 0.1.0
 * @category simulation
 */
export const stream = (variation: Variation, options: Options): Stream.Stream<Event, ScheduleError> =>
  Either.match(simulate(variation, options), {
    onLeft: (e) => Stream.fail(e),
    onRight: (it) => Stream.fromIterable(it)
  })

// -----------------------------------------------------------------------------
// phaseAt
// -----------------------------------------------------------------------------

/**
 * Where a timeline is at an instant, computed without walking cycles: a binary search over the phase starts, then
 * the cycle index from `Calendar.stepsUntil` (an estimate corrected by a step). It costs the same for cycle 3 and
 * for cycle 30,000.
 *
 * @since 0.1.0
 * @category queries
 */
export const positionAt = (t: Timeline, instant: DateTime.DateTime): Either.Either<Position, ScheduleError> => {
  const ms = instant.epochMillis
  if (ms < t.start.epochMillis) return Either.right(Position.NotStarted({ startsAt: t.start }))
  if (t.trialEnd !== undefined && ms < t.trialEnd.epochMillis) {
    return Either.right(Position.Trial({ start: t.start, end: t.trialEnd }))
  }
  const phases = t.phases
  let lo = 0
  let hi = phases.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (phases[mid]!.start.epochMillis <= ms) lo = mid
    else hi = mid - 1
  }
  const p = phases[lo]!
  if (p.end !== undefined && ms >= p.end.epochMillis) return Either.right(Position.Stopped({ at: p.end }))
  const steps = Either.getOrThrow(Calendar.stepsUntil(p.anchor, p.duration, instant))
  const last = p.count === undefined ? Number.POSITIVE_INFINITY : p.count - 1
  const cycleIndex = Math.min(Math.max(steps - p.offset, 0), last)
  const cycleStart = Calendar.addTo(p.anchor, p.duration, p.offset + cycleIndex)
  const cycleEnd = Calendar.addTo(p.anchor, p.duration, p.offset + cycleIndex + 1)
  if (Either.isLeft(cycleStart) || Either.isLeft(cycleEnd)) {
    return fail("OutOfRange", `the cycle around ${DateTime.formatIso(instant)} ends beyond the range of instants`)
  }
  return Either.right(
    Position.InPhase({
      phaseId: p.phase.id,
      ordinal: p.phase.ordinal,
      phaseIndex: p.phaseIndex,
      cycleIndex,
      cycleStart: cycleStart.right,
      cycleEnd: cycleEnd.right,
      amount: p.amount,
      currency: p.currency
    })
  )
}

/**
 * Where a subscription of a variation is at an instant: not started, in its trial, in a phase (with the cycle
 * index and the cycle's bounds), or stopped. See {@link positionAt}.
 *
 * @since 0.1.0
 * @category queries
 */
export const phaseAt = (
  variation: Variation,
  options: Pick<Options, "start" | "trial" | "anchor">,
  instant: DateTime.DateTime
): Either.Either<Position, ScheduleError> => Either.flatMap(compile(variation, options), (t) => positionAt(t, instant))

// -----------------------------------------------------------------------------
// totals
// -----------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export interface PhaseTotal {
  readonly phaseId: string
  readonly ordinal: number
  readonly cycles: number
  /** minor units billed in the phase; `None` when the phase has no known amount and currency */
  readonly amount: Option.Option<bigint>
  readonly currency: Option.Option<Currency.CurrencyCode>
  readonly cyclesWithoutAmount: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Totals {
  readonly cycles: number
  /** cycles billed by phases without an amount or a currency: their amount is unknown, not 0 */
  readonly cyclesWithoutAmount: number
  /** minor units per currency, in order of first appearance */
  readonly byCurrency: ReadonlyArray<{ readonly currency: Currency.CurrencyCode; readonly amount: bigint }>
  readonly byPhase: ReadonlyArray<PhaseTotal>
  /** for an endless last phase: what it bills every cycle, forever */
  readonly recurring: Option.Option<{
    readonly phaseId: string
    readonly ordinal: number
    readonly every: IsoDuration.IsoDuration
    readonly amount: Option.Option<number>
    readonly currency: Option.Option<Currency.CurrencyCode>
  }>
}

const cyclesBefore = (p: PlacedPhase, horizonMs: number): number => {
  if (!(p.start.epochMillis < horizonMs)) return 0
  // cycle j is billed when its start, anchor + (offset + j) × duration, is before the horizon
  const lastStart = DateTime.unsafeMake(Math.min(horizonMs, 8.64e15) - 1)
  const steps = Either.getOrThrow(Calendar.stepsUntil(p.anchor, p.duration, lastStart))
  const n = steps - p.offset + 1
  return Math.max(0, Math.min(n, p.count ?? Number.POSITIVE_INFINITY))
}

/**
 * What a subscription bills: per currency and per phase, up to the horizon (or, without one, over the whole life of a
 * subscription whose phases all end), and for an endless last phase the recurring amount per cycle. Computed from
 * cycle counts, not by walking cycles.
 *
 * @since 0.1.0
 * @category queries
 */
export const totals = (variation: Variation, options: Options): Either.Either<Totals, ScheduleError> =>
  Either.map(resolveVariation(variation, options), ({ timeline, until }) => {
    let cyclesLeft = until !== undefined && !DateTime.isDateTime(until) ? until.cycles : Number.POSITIVE_INFINITY
    const horizonMs = until !== undefined && DateTime.isDateTime(until) ? until.epochMillis : Number.POSITIVE_INFINITY
    const byPhase: Array<PhaseTotal> = []
    const byCurrency = new Map<Currency.CurrencyCode, bigint>()
    let cycles = 0
    let cyclesWithoutAmount = 0
    for (const p of timeline.phases) {
      let n: number
      if (Number.isFinite(horizonMs)) n = cyclesBefore(p, horizonMs)
      else if (p.count === undefined) n = Number.isFinite(cyclesLeft) ? cyclesLeft : 0
      else n = p.count
      n = Math.min(n, cyclesLeft)
      cyclesLeft -= n
      cycles += n
      const priced = Option.isSome(p.amount) && Option.isSome(p.currency)
      const amount = priced ? Option.some(BigInt(Option.getOrThrow(p.amount)) * BigInt(n)) : Option.none()
      if (priced && n > 0) {
        const c = Option.getOrThrow(p.currency)
        byCurrency.set(c, (byCurrency.get(c) ?? 0n) + Option.getOrThrow(amount))
      }
      if (!priced) cyclesWithoutAmount += n
      byPhase.push({
        phaseId: p.phase.id,
        ordinal: p.phase.ordinal,
        cycles: n,
        amount,
        currency: p.currency,
        cyclesWithoutAmount: priced ? 0 : n
      })
    }
    const last = timeline.phases[timeline.phases.length - 1]!
    return {
      cycles,
      cyclesWithoutAmount,
      byCurrency: [...byCurrency.entries()].map(([currency, amount]) => ({ currency, amount })),
      byPhase,
      recurring:
        last.count === undefined
          ? Option.some({
              phaseId: last.phase.id,
              ordinal: last.phase.ordinal,
              every: last.duration,
              amount: last.amount,
              currency: last.currency
            })
          : Option.none()
    }
  })
