/**
 * An independent reference for the simulator, on temporal-polyfill: it walks cycles with
 * `Temporal.ZonedDateTime.prototype.add`, and finds the subscription-start grid by walking too. Slow on purpose and
 * obviously correct; used by the property tests and as the peer in the benchmarks.
 */
import type { Schedule, SubscriptionPlan } from "@payrules/subscriptions"
import { scaledDuration } from "@payrules/vitest/Durations"
import { Temporal } from "temporal-polyfill"

export interface RefCycle {
  readonly phaseId: string
  readonly cycleIndex: number
  readonly start: number
  readonly end: number
}

export const reference = (
  v: SubscriptionPlan.Variation,
  startMs: number,
  z: string,
  trialDays: number,
  anchor: Schedule.Anchor,
  maxCycles: number,
  untilMs = Number.POSITIVE_INFINITY
): Array<RefCycle> => {
  const cycles: Array<RefCycle> = []
  let t = Temporal.Instant.fromEpochMilliseconds(startMs).toZonedDateTimeISO(z)
  if (trialDays > 0) t = t.add({ days: trialDays })
  const billingStart = t
  const phases = [...v.phases].sort((a, b) => a.ordinal - b.ordinal)
  for (let p = 0; p < phases.length && cycles.length < maxCycles; p++) {
    const phase = phases[p]!
    const d = phase.cycle_duration
    let base = t
    let offset = 0
    if (anchor === "subscription-start" && p > 0) {
      // walk the grid of the billing start until the phase start
      let m = 0
      while (Temporal.ZonedDateTime.compare(billingStart.add(scaledDuration(d, m + 1)), t) <= 0) m++
      if (billingStart.add(scaledDuration(d, m)).equals(t)) {
        base = billingStart
        offset = m
      }
    }
    const count = phase.cycle_count ?? Number.POSITIVE_INFINITY
    let end = t
    for (let j = 0; j < count && cycles.length < maxCycles; j++) {
      const s = base.add(scaledDuration(d, offset + j))
      if (s.epochMilliseconds >= untilMs) return cycles
      end = base.add(scaledDuration(d, offset + j + 1))
      cycles.push({ phaseId: phase.id, cycleIndex: j, start: s.epochMilliseconds, end: end.epochMilliseconds })
    }
    t = end
  }
  return cycles
}
