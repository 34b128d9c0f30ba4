/**
 * `pnpm bench` for @payrules/subscriptions: phaseAt deep into a subscription, and whole simulations, against a
 * reference that walks cycles with temporal-polyfill (see tooling/bench).
 */
import { run } from "@payrules/bench"
import { Schedule } from "@payrules/subscriptions"
import { DateTime, Result } from "effect"
import fc from "fast-check"
import { Temporal } from "temporal-polyfill"
import { decodeVariation, variation, variationWire } from "../test/fixtures.js"
import { reference } from "../test/reference.js"

const zone = "Europe/London"
const startMs = Date.UTC(2024, 0, 31, 9, 0)
const start = DateTime.makeZonedUnsafe(startMs, { timeZone: zone })

// phaseAt: a subscription of endless PT2H cycles, asked about an instant 5 years in (about 21,900 cycles)
const twoHourly = variation([{ cycle_duration: "PT2H", cycle_count: null, amount: 100, currency: "GBP" }])
const fiveYearsMs = Date.UTC(2029, 0, 31, 9, 0) + 3_600_000 + 1234
const instant = DateTime.makeUnsafe(fiveYearsMs)
const walkWithTemporal = () => {
  const target = Temporal.Instant.fromEpochMilliseconds(fiveYearsMs)
  let cycleStart = Temporal.Instant.fromEpochMilliseconds(startMs).toZonedDateTimeISO(zone)
  let index = 0
  for (;;) {
    const next = cycleStart.add({ hours: 2 })
    if (Temporal.Instant.compare(next.toInstant(), target) > 0) return { index, start: cycleStart.epochMilliseconds }
    cycleStart = next
    index++
  }
}
const ours = () => Schedule.phaseAt(twoHourly, { start }, instant)
const oursIndex = () => {
  const p = Result.getOrThrow(ours())
  return p._tag === "InPhase" ? p.cycleIndex : -1
}

await run("Schedule.phaseAt: a subscription 5 years into PT2H cycles (Europe/London)", [
  {
    name: "phaseAt, cycle ~21,900",
    contenders: [
      { name: "Schedule.phaseAt", ours: true, fn: ours, check: () => oursIndex() === walkWithTemporal().index },
      { name: "walk cycles with temporal-polyfill", fn: walkWithTemporal }
    ]
  }
])

// simulate: 10,000 generated plans of 1-5 phases, 24 months each. One operation simulates a batch of 100 plans (the
// batches rotate through all 10,000), so both sides do the same mix of short plans and long PT2H ones.
const plans = fc.sample(variationWire, { numRuns: 10_000, seed: 42 }).map((w) => decodeVariation(w))
const batches = Array.from({ length: 100 }, (_, b) => plans.slice(b * 100, b * 100 + 100))
const until = DateTime.makeUnsafe(Date.UTC(2026, 0, 31, 9, 0))
const oursCycles = (v: (typeof plans)[number]) => {
  const cycles: Array<readonly [number, number]> = []
  for (const e of Result.getOrThrow(Schedule.simulate(v, { start, until }))) {
    if (e._tag === "CycleBilled") cycles.push([e.start.epochMilliseconds, e.end.epochMilliseconds])
  }
  return cycles
}
const referenceCycles = (v: (typeof plans)[number]) =>
  reference(v, startMs, zone, 0, "phase-start", Number.POSITIVE_INFINITY, until.epochMilliseconds).map((c) => [
    c.start,
    c.end
  ])
let i = 0
let j = 0

await run("Schedule.simulate: 10,000 generated plans for 24 months (Europe/London), in batches of 100", [
  {
    name: "simulate 100 plans x 24 months",
    contenders: [
      {
        name: "Schedule.simulate",
        ours: true,
        fn: () => batches[i++ % batches.length]!.map(oursCycles),
        check: () =>
          plans.slice(0, 500).every((v) => JSON.stringify(oursCycles(v)) === JSON.stringify(referenceCycles(v)))
      },
      { name: "reference on temporal-polyfill", fn: () => batches[j++ % batches.length]!.map(referenceCycles) }
    ]
  }
])
