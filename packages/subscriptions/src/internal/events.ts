/**
 * The events of a timeline, lazily, up to a horizon.
 *
 * @internal
 */
import { Calendar } from "@payrules/iso8601"
import * as DateTime from "effect/DateTime"
import * as Result from "effect/Result"
import type * as Schedule from "../Schedule.js"

/**
 * See `Schedule.events`.
 *
 * @internal
 */
export function* run(
  t: Schedule.Timeline,
  until: Schedule.Horizon | undefined
): Generator<Schedule.Event, void, undefined> {
  let horizon = Number.POSITIVE_INFINITY
  let horizonAt: DateTime.DateTime | undefined
  let cyclesLeft = Number.POSITIVE_INFINITY
  const reason: "Until" | "Cycles" = until !== undefined && !DateTime.isDateTime(until) ? "Cycles" : "Until"
  if (until !== undefined) {
    if (DateTime.isDateTime(until)) {
      horizon = until.epochMilliseconds
      horizonAt = until
    } else {
      cyclesLeft = until.cycles
      if (cyclesLeft === 0) {
        horizon = t.start.epochMilliseconds
        horizonAt = t.start
      }
    }
  }
  const reached = (at: DateTime.DateTime | undefined): Schedule.Event => ({
    _tag: "HorizonReached",
    at: at ?? t.start,
    reason
  })
  if (t.trialEnd !== undefined) {
    if (!(t.start.epochMilliseconds < horizon)) return yield reached(horizonAt)
    yield { _tag: "TrialStarted", at: t.start, end: t.trialEnd }
    if (!(t.trialEnd.epochMilliseconds <= horizon)) return yield reached(horizonAt)
    yield { _tag: "TrialEnded", at: t.trialEnd }
  }
  let at: DateTime.DateTime = t.start
  for (const p of t.phases) {
    at = p.start
    if (!(at.epochMilliseconds < horizon)) return yield reached(horizonAt)
    const { id: phaseId, ordinal } = p.phase
    yield { _tag: "PhaseEntered", at, phaseId, ordinal, phaseIndex: p.phaseIndex }
    for (let j = 0; p.count === undefined || j < p.count; j++) {
      if (!(at.epochMilliseconds < horizon)) return yield reached(horizonAt)
      const next = Calendar.addTo(p.anchor, p.duration, p.offset + j + 1)
      if (Result.isFailure(next)) return yield { _tag: "HorizonReached", at, reason: "RangeLimit" }
      const end = next.success
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
        horizon = end.epochMilliseconds
        horizonAt = end
      }
      at = end
    }
    if (!(at.epochMilliseconds <= horizon)) return yield reached(horizonAt)
    yield { _tag: "PhaseCompleted", at, phaseId, ordinal, cycles: p.count! }
  }
  yield { _tag: "SubscriptionStopped", at }
}
