/**
 * Placing a variation in time (the trial and the start, anchor and end of every phase) and finding where a timeline
 * is at an instant, both without walking cycles.
 *
 * @internal
 */
import { Calendar, IsoDuration } from "@payrules/iso8601"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as PlanCheck from "../PlanCheck.js"
import type * as Schedule from "../Schedule.js"
import type { Variation } from "../SubscriptionPlan.js"
import * as Readable from "./readable.js"

/**
 * Why something cannot be scheduled: what the public module turns into a `ScheduleError`.
 *
 * @internal
 */
export interface Failure {
  readonly reason: Schedule.ErrorReason
  readonly message: string
  readonly findings: ReadonlyArray<PlanCheck.Finding>
}

/** @internal */
export const fail = (
  reason: Schedule.ErrorReason,
  message: string,
  findings: ReadonlyArray<PlanCheck.Finding> = []
): Result.Result<never, Failure> => Result.fail({ reason, message, findings })

const isDaysOnly = (d: IsoDuration.IsoDuration): boolean =>
  d.sign > 0 && d.years === 0 && d.months === 0 && d.weeks === 0 && !IsoDuration.hasTimePart(d)

/**
 * See `Schedule.compile`.
 *
 * @internal
 */
export const compile = (
  variation: Variation,
  options: Pick<Schedule.Options, "start" | "trial" | "anchor">
): Result.Result<Schedule.Timeline, Failure> => {
  const readable = Readable.phases(variation)
  if (Result.isFailure(readable)) return Result.fail(readable.failure)
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
    if (Result.isFailure(end)) return fail("OutOfRange", `the trial ends beyond the range of instants`)
    trialEnd = end.success
  }
  const billingStart = trialEnd ?? start
  const bySubscription = options.anchor === "subscription-start"
  const sorted = variation.phases
    .map((phase, i) => ({ phase, i }))
    .sort((a, b) => a.phase.ordinal - b.phase.ordinal || a.i - b.i)
  const phases: Array<Schedule.PlacedPhase> = []
  let phaseStart: DateTime.DateTime = billingStart
  for (let k = 0; k < sorted.length; k++) {
    const phase = sorted[k]!.phase
    const duration = phase.cycle_duration
    const count = phase.cycle_count === undefined || phase.cycle_count === null ? undefined : phase.cycle_count
    let anchor: DateTime.DateTime = phaseStart
    let offset = 0
    if (bySubscription && k > 0) {
      const n = Calendar.stepsUntil(billingStart, duration, phaseStart)
      if (Result.isSuccess(n)) {
        const onGrid = Calendar.addToEpochMillis(billingStart, duration, n.success)
        if (Result.isSuccess(onGrid) && onGrid.success === phaseStart.epochMilliseconds) {
          anchor = billingStart
          offset = n.success
        }
      }
    }
    let end: DateTime.DateTime | undefined
    if (count !== undefined) {
      const e = Calendar.addTo(anchor, duration, offset + count)
      if (Result.isFailure(e)) {
        return fail("OutOfRange", `phase ${phase.id} ends beyond the range of instants`)
      }
      end = e.success
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
      amount: Option.fromUndefinedOr(phase.amount),
      currency: Option.fromUndefinedOr(phase.currency)
    })
    if (end === undefined) break
    phaseStart = end
  }
  const last = phases[phases.length - 1]!
  return Result.succeed({ start, trialEnd, phases, stoppedAt: last.end })
}

/**
 * See `Schedule.positionAt`: a binary search over the phase starts, then the cycle index from `Calendar.stepsUntil`.
 *
 * @internal
 */
export const positionAt = (
  t: Schedule.Timeline,
  instant: DateTime.DateTime
): Result.Result<Schedule.Position, Failure> => {
  const ms = instant.epochMilliseconds
  if (ms < t.start.epochMilliseconds) return Result.succeed({ startsAt: t.start, _tag: "NotStarted" })
  if (t.trialEnd !== undefined && ms < t.trialEnd.epochMilliseconds) {
    return Result.succeed({ start: t.start, end: t.trialEnd, _tag: "Trial" })
  }
  const phases = t.phases
  let lo = 0
  let hi = phases.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (phases[mid]!.start.epochMilliseconds <= ms) lo = mid
    else hi = mid - 1
  }
  const p = phases[lo]!
  if (p.end !== undefined && ms >= p.end.epochMilliseconds) return Result.succeed({ at: p.end, _tag: "Stopped" })
  // the duration of a placed phase is a second or more (compile refuses the others): fewer than 2^53 cycles lie
  // between any two instants, so stepsUntil cannot fail
  const steps = Result.getOrThrow(Calendar.stepsUntil(p.anchor, p.duration, instant))
  const last = p.count === undefined ? Number.POSITIVE_INFINITY : p.count - 1
  const cycleIndex = Math.min(Math.max(steps - p.offset, 0), last)
  const cycleStart = Calendar.addTo(p.anchor, p.duration, p.offset + cycleIndex)
  const cycleEnd = Calendar.addTo(p.anchor, p.duration, p.offset + cycleIndex + 1)
  if (Result.isFailure(cycleStart) || Result.isFailure(cycleEnd)) {
    return fail("OutOfRange", `the cycle around ${DateTime.formatIso(instant)} ends beyond the range of instants`)
  }
  // as `Position.InPhase` builds it (the tag last), without the constructor's Proxy
  return Result.succeed({
    phaseId: p.phase.id,
    ordinal: p.phase.ordinal,
    phaseIndex: p.phaseIndex,
    cycleIndex,
    cycleStart: cycleStart.success,
    cycleEnd: cycleEnd.success,
    amount: p.amount,
    currency: p.currency,
    _tag: "InPhase"
  })
}
