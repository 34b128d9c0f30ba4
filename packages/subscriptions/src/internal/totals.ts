/**
 * What a timeline bills, from cycle counts rather than by walking cycles.
 *
 * @internal
 */
import { Calendar } from "@payrules/iso8601"
import type { Currency } from "@payrules/money"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Schedule from "../Schedule.js"

/** the largest instant (the end of time of `Date` and `DateTime`) */
const MAX_EPOCH_MILLIS = 8.64e15

const cyclesBefore = (p: Schedule.PlacedPhase, horizonMs: number): number => {
  if (!(p.start.epochMilliseconds < horizonMs)) return 0
  // cycle j is billed when its start, anchor + (offset + j) × duration, is before the horizon
  const lastStart = DateTime.makeUnsafe(Math.min(horizonMs, MAX_EPOCH_MILLIS) - 1)
  // the duration of a placed phase is a second or more (compile refuses the others): fewer than 2^53 cycles lie
  // between any two instants, so stepsUntil cannot fail
  const steps = Result.getOrThrow(Calendar.stepsUntil(p.anchor, p.duration, lastStart))
  const n = steps - p.offset + 1
  return Math.max(0, Math.min(n, p.count ?? Number.POSITIVE_INFINITY))
}

/**
 * How many cycles of an endless phase end within the range of instants: the events stop (`RangeLimit`) at the first
 * cycle whose end cannot be computed, so that one and those after it are never billed.
 */
const cyclesInRange = (p: Schedule.PlacedPhase): number => {
  let last = Result.getOrThrow(Calendar.stepsUntil(p.anchor, p.duration, DateTime.makeUnsafe(MAX_EPOCH_MILLIS)))
  // in a zone, an end in range whose wall-clock time is not is refused too (a few steps at most)
  while (last > p.offset && Result.isFailure(Calendar.addToEpochMillis(p.anchor, p.duration, last))) last--
  return Math.max(0, last - p.offset)
}

/**
 * See `Schedule.totals`.
 *
 * @internal
 */
export const totals = (timeline: Schedule.Timeline, until: Schedule.Horizon | undefined): Schedule.Totals => {
  let cyclesLeft = until !== undefined && !DateTime.isDateTime(until) ? until.cycles : Number.POSITIVE_INFINITY
  const horizonMs =
    until !== undefined && DateTime.isDateTime(until) ? until.epochMilliseconds : Number.POSITIVE_INFINITY
  const byPhase: Array<Schedule.PhaseTotal> = []
  const byCurrency = new Map<Currency.CurrencyCode, bigint>()
  let cycles = 0
  let cyclesWithoutAmount = 0
  for (const p of timeline.phases) {
    let n: number
    if (Number.isFinite(horizonMs)) n = cyclesBefore(p, horizonMs)
    else if (p.count === undefined) n = Number.isFinite(cyclesLeft) ? cyclesLeft : 0
    else n = p.count
    // only when the last counted cycle has no end (near the end of time) is the exact count needed
    if (
      p.count === undefined &&
      n > 0 &&
      Result.isFailure(Calendar.addToEpochMillis(p.anchor, p.duration, p.offset + n))
    )
      n = Math.min(n, cyclesInRange(p))
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
}
