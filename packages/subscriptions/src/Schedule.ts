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
import type { IsoDuration } from "@payrules/iso8601"
import type { Currency } from "@payrules/money"
import * as Data from "effect/Data"
import * as DateTime from "effect/DateTime"
import type * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as internalEvents from "./internal/events.js"
import * as internalReadable from "./internal/readable.js"
import * as internalTimeline from "./internal/timeline.js"
import * as internalTotals from "./internal/totals.js"
import type * as PlanCheck from "./PlanCheck.js"
import type { Phase, SubscriptionPlanLenient, Variation } from "./SubscriptionPlan.js"

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
   * the plan is in a state this version does not know (`{ _tag: "Unknown", value: "archived" }`, read by
   * `SubscriptionPlanLenient`): what it bills is unknown, so it is not simulated (`findings`: the `UnknownValue`).
   * A `deactivated` plan is simulated: it bills its existing subscriptions.
   *
   * @since 0.2.0
   */
  | "UnknownPlanState"
  /**
   * the variation's phases cannot be read as phases (a value built by hand or cast from JSON: a `cycle_duration`
   * that is a string, a missing ordinal); the message names the first fault
   *
   * @since 0.2.0
   */
  | "UnreadablePhases"

/**
 * @since 0.1.0
 * @category errors
 */
export class ScheduleError extends Data.TaggedError("ScheduleError")<{
  readonly reason: ErrorReason
  readonly message: string
  readonly findings: ReadonlyArray<PlanCheck.Finding>
}> {}

const fail = (
  reason: ErrorReason,
  message: string,
  findings: ReadonlyArray<PlanCheck.Finding> = []
): Result.Result<never, ScheduleError> => Result.fail(new ScheduleError({ reason, message, findings }))

/** an internal result as a public one: its failure becomes a `ScheduleError` */
const lift = <A>(result: Result.Result<A, internalTimeline.Failure>): Result.Result<A, ScheduleError> =>
  Result.isFailure(result) ? Result.fail(new ScheduleError(result.failure)) : Result.succeed(result.success)

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

/**
 * Places a variation in time. Fails when its phases cannot be read as phases (`UnreadablePhases`), when PlanCheck
 * finds errors in it, when the trial is not a positive days-only duration, or when a finite phase would end beyond
 * the range of instants.
 *
 * @since 0.1.0
 * @category constructors
 */
export const compile = (
  variation: Variation,
  options: Pick<Options, "start" | "trial" | "anchor">
): Result.Result<Timeline, ScheduleError> => lift(internalTimeline.compile(variation, options))

const checkHorizon = (until: Horizon | undefined): Result.Result<void, ScheduleError> => {
  if (until === undefined || DateTime.isDateTime(until)) return Result.void
  return Number.isSafeInteger(until.cycles) && until.cycles >= 0
    ? Result.void
    : fail("InvalidHorizon", `until.cycles must be a whole number of at least 0; got ${until.cycles}`)
}

// -----------------------------------------------------------------------------
// simulation
// -----------------------------------------------------------------------------

/**
 * The events of a timeline up to a horizon, lazily: without a horizon, an endless phase yields cycles forever.
 * Events strictly before the horizon are yielded; so are the ends (TrialEnded, PhaseCompleted, SubscriptionStopped)
 * that fall on it, since cycles are half-open. The sequence ends with SubscriptionStopped, or else HorizonReached.
 *
 * @since 0.1.0
 * @category simulation
 */
export const events = (timeline: Timeline, until?: Horizon): Iterable<Event> => ({
  [Symbol.iterator]: () => internalEvents.run(timeline, until)
})

const resolveVariation = (
  variation: Variation,
  options: Options
): Result.Result<{ timeline: Timeline; until: Horizon | undefined }, ScheduleError> =>
  Result.flatMap(checkHorizon(options.until), () =>
    Result.map(compile(variation, options), (timeline) => ({ timeline, until: options.until }))
  )

/**
 * Simulates one subscription of a variation: the lazy, possibly infinite sequence of its events (see {@link events}).
 * The trial is `options.trial` (default none: a bare variation has no trial; see {@link simulatePlan}).
 *
 * @example
 * ```ts
 * import { Schedule, SubscriptionPlan } from "@payrules/subscriptions"
 * import { DateTime, Result, Schema } from "effect"
 *
 * const monthly = Schema.decodeUnknownSync(SubscriptionPlan.Variation)({
 *   id: "monthly",
 *   phases: [{ id: "standard", ordinal: 1, cycle_duration: "P1M", amount: 999, currency: "GBP" }]
 * })
 * const start = DateTime.makeUnsafe("2024-01-31T09:00:00Z")
 * const events = Result.getOrThrow(Schedule.simulate(monthly, { start, until: { cycles: 3 } }))
 * const starts = [...events].filter(Schedule.Event.$is("CycleBilled")).map((c) => DateTime.formatIso(c.start))
 * console.log(starts) // [ "2024-01-31T09:00:00.000Z", "2024-02-29T09:00:00.000Z", "2024-03-31T09:00:00.000Z" ]
 * ```
 *
 * @since 0.1.0
 * @category simulation
 */
export const simulate = (variation: Variation, options: Options): Result.Result<Iterable<Event>, ScheduleError> =>
  Result.map(resolveVariation(variation, options), ({ timeline, until }) => events(timeline, until))

/**
 * Like {@link simulate}, but throws the `ScheduleError`.
 *
 * @since 0.1.0
 * @category simulation
 */
export const simulateUnsafe = (variation: Variation, options: Options): Iterable<Event> =>
  Result.getOrThrowWith(simulate(variation, options), (e) => e)

/**
 * @deprecated Use {@link simulateUnsafe}.
 * @since 0.1.0
 * @category simulation
 */
export const unsafeSimulate: (variation: Variation, options: Options) => Iterable<Event> = simulateUnsafe

/**
 * Picks a variation of a plan (the first when `variation` is not given) and applies the plan's trial unless
 * `options.trial` overrides it (`"none"` for no trial). A plan read leniently (`SubscriptionPlanLenient`) in a state
 * this version does not know is refused (`UnknownPlanState`); `active` and `deactivated` plans are simulated.
 *
 * @since 0.1.0
 * @category simulation
 */
export const forPlan = (
  plan: SubscriptionPlanLenient,
  options: Options & { readonly variation?: string | undefined }
): Result.Result<{ readonly variation: Variation; readonly options: Options }, ScheduleError> => {
  const readable = internalReadable.state(plan)
  if (Result.isFailure(readable)) return Result.fail(new ScheduleError(readable.failure))
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
  return Result.succeed({
    variation,
    options: { ...options, trial: options.trial ?? plan.trial_duration ?? "none" }
  })
}

/**
 * {@link simulate} for a plan: see {@link forPlan}. A plan in a state this version does not know is refused with
 * reason `UnknownPlanState`.
 *
 * @example
 * ```ts
 * import { PlanCheck, Schedule } from "@payrules/subscriptions"
 * import { DateTime, Result } from "effect"
 *
 * const phase = { id: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", ordinal: 1, cycle_duration: "P1M" }
 * const { page } = Result.getOrThrow(
 *   PlanCheck.decodeAndCheck({
 *     subscription_plans: [
 *       {
 *         id: "8e1c4f0a-3b5d-4c2e-9f6a-1d2b3c4d5e6f",
 *         name: "Legacy",
 *         state: "archived",
 *         created_at: "2025-04-01T00:00:00Z",
 *         updated_at: "2025-04-01T00:00:00Z",
 *         variations: [{ id: "0b9f7d1e-2c3a-4b5d-8e6f-7a8b9c0d1e2f", phases: [phase] }]
 *       }
 *     ]
 *   })
 * )
 * const simulated = Schedule.simulatePlan(page.subscription_plans[0]!, { start: DateTime.makeUnsafe("2025-05-01T00:00:00Z") })
 * if (Result.isFailure(simulated)) console.log(simulated.failure.reason) // "UnknownPlanState"
 * ```
 *
 * @since 0.1.0
 * @category simulation
 */
export const simulatePlan = (
  plan: SubscriptionPlanLenient,
  options: Options & { readonly variation?: string | undefined }
): Result.Result<Iterable<Event>, ScheduleError> =>
  Result.flatMap(forPlan(plan, options), (r) => simulate(r.variation, r.options))

/**
 * The events as an effect `Stream` (pull-based: an endless phase streams forever until taken).
 *
 * @since 0.1.0
 * @category simulation
 */
export const stream = (variation: Variation, options: Options): Stream.Stream<Event, ScheduleError> =>
  Result.match(simulate(variation, options), {
    onFailure: (e) => Stream.fail(e),
    onSuccess: (it) => Stream.fromIterable(it)
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
export const positionAt = (t: Timeline, instant: DateTime.DateTime): Result.Result<Position, ScheduleError> =>
  lift(internalTimeline.positionAt(t, instant))

/**
 * Where a subscription of a variation is at an instant: not started, in its trial, in a phase (with the cycle
 * index and the cycle's bounds), or stopped. See {@link positionAt}.
 *
 * @example
 * ```ts
 * import { Schedule, SubscriptionPlan } from "@payrules/subscriptions"
 * import { DateTime, Result, Schema } from "effect"
 *
 * const twoHourly = Schema.decodeUnknownSync(SubscriptionPlan.Variation)({
 *   id: "metered",
 *   phases: [{ id: "usage", ordinal: 1, cycle_duration: "PT2H" }]
 * })
 * const start = DateTime.makeUnsafe("2024-01-01T00:00:00Z")
 * const position = Result.getOrThrow(Schedule.phaseAt(twoHourly, { start }, DateTime.makeUnsafe("2024-01-02T05:00:00Z")))
 * if (position._tag === "InPhase") console.log(position.cycleIndex) // 14
 * ```
 *
 * @since 0.1.0
 * @category queries
 */
export const phaseAt = (
  variation: Variation,
  options: Pick<Options, "start" | "trial" | "anchor">,
  instant: DateTime.DateTime
): Result.Result<Position, ScheduleError> => Result.flatMap(compile(variation, options), (t) => positionAt(t, instant))

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

/**
 * What a subscription bills: per currency and per phase, up to the horizon (or, without one, over the whole life of a
 * subscription whose phases all end), and for an endless last phase the recurring amount per cycle. Computed from
 * cycle counts, not by walking cycles.
 *
 * @example
 * ```ts
 * import { Schedule, SubscriptionPlan } from "@payrules/subscriptions"
 * import { DateTime, Result, Schema } from "effect"
 *
 * const variation = Schema.decodeUnknownSync(SubscriptionPlan.Variation)({
 *   id: "monthly",
 *   phases: [
 *     { id: "intro", ordinal: 1, cycle_duration: "P1M", cycle_count: 3, amount: 499, currency: "GBP" },
 *     { id: "standard", ordinal: 2, cycle_duration: "P1M", amount: 999, currency: "GBP" }
 *   ]
 * })
 * const start = DateTime.makeUnsafe("2024-01-15T00:00:00Z")
 * const totals = Result.getOrThrow(Schedule.totals(variation, { start, until: { cycles: 12 } }))
 * console.log(totals.byCurrency) // [ { currency: "GBP", amount: 10488n } ]
 * ```
 *
 * @since 0.1.0
 * @category queries
 */
export const totals = (variation: Variation, options: Options): Result.Result<Totals, ScheduleError> =>
  Result.map(resolveVariation(variation, options), ({ timeline, until }) => internalTotals.totals(timeline, until))
