import { describe, expect, it } from "@effect/vitest"
import { IsoDuration } from "@payrules/iso8601"
import { Schedule } from "@payrules/subscriptions"
import { DateTime, Iterable as Iter, Result } from "effect"
import fc from "fast-check"
import { decodeVariation, startInstant, variationWire, zone } from "./fixtures.js"
import { reference } from "./reference.js"

const zoned = (ms: number, z: string): DateTime.DateTime =>
  z === "UTC" ? DateTime.makeUnsafe(ms) : DateTime.makeZonedUnsafe(ms, { timeZone: z })

/** the first `n` items of a (lazy) iterable */
const take = <A>(it: Iterable<A>, n: number): Array<A> => Array.from(Iter.take(it, n))

const billed = (events: ReadonlyArray<Schedule.Event>) =>
  events.filter((e): e is Extract<Schedule.Event, { _tag: "CycleBilled" }> => e._tag === "CycleBilled")

const options = fc.record({
  start: startInstant,
  zone,
  trial: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })),
  anchor: fc.constantFrom<Schedule.Anchor>("phase-start", "subscription-start")
})

describe("Schedule.simulate against a temporal-polyfill reference", () => {
  it("bills every cycle at the reference's start and end, in every zone and anchor mode", () => {
    fc.assert(
      fc.property(variationWire, options, (wire, o) => {
        const v = decodeVariation(wire)
        const events = Array.from(
          Result.getOrThrow(
            Schedule.simulate(v, {
              start: zoned(o.start, o.zone),
              trial: o.trial > 0 ? IsoDuration.parseUnsafe(`P${o.trial}D`) : "none",
              anchor: o.anchor,
              until: { cycles: 40 }
            })
          )
        )
        const ours = billed(events).map((e) => ({
          phaseId: e.phaseId,
          cycleIndex: e.cycleIndex,
          start: e.start.epochMilliseconds,
          end: e.end.epochMilliseconds
        }))
        expect(ours).toEqual(reference(v, o.start, o.zone, o.trial, o.anchor, 40))
      }),
      { numRuns: 400 }
    )
  })

  it("cycles are contiguous and half-open, finite phases bill exactly cycle_count cycles, endless ones never end", () => {
    fc.assert(
      fc.property(variationWire, options, (wire, o) => {
        const v = decodeVariation(wire)
        const events = take(
          Result.getOrThrow(
            Schedule.simulate(v, {
              start: zoned(o.start, o.zone),
              trial: o.trial > 0 ? IsoDuration.parseUnsafe(`P${o.trial}D`) : "none",
              anchor: o.anchor
            })
          ),
          400
        )
        const cycles = billed(events)
        // one assertion over all the cycles and events (an expect per item costs more than the simulation)
        const problems: Array<string> = []
        for (let i = 1; i < cycles.length; i++) {
          const [previous, cycle] = [cycles[i - 1]!, cycles[i]!]
          if (cycle.start.epochMilliseconds !== previous.end.epochMilliseconds)
            problems.push(`cycle ${i} does not start at ${i - 1}'s end`)
          if (!(previous.end.epochMilliseconds > previous.start.epochMilliseconds))
            problems.push(`cycle ${i - 1} is empty`)
        }
        for (let i = 1; i < events.length; i++) {
          if (events[i]!.at.epochMilliseconds < events[i - 1]!.at.epochMilliseconds)
            problems.push(`event ${i} is before event ${i - 1}`)
        }
        expect(problems).toEqual([])
        const last = v.phases[v.phases.length - 1]!
        for (const phase of v.phases) {
          const n = cycles.filter((c) => c.phaseId === phase.id).length
          const completed = events.some((e) => e._tag === "PhaseCompleted" && e.phaseId === phase.id)
          if (phase.cycle_count === null || phase.cycle_count === undefined) {
            expect(completed).toBe(false)
            expect(n).toBeGreaterThan(0)
          } else {
            expect(n).toBe(phase.cycle_count)
            expect(completed).toBe(true)
          }
        }
        const stopped = events.filter((e) => e._tag === "SubscriptionStopped")
        if (last.cycle_count === null || last.cycle_count === undefined) {
          expect(stopped).toHaveLength(0)
          expect(events).toHaveLength(400)
        } else {
          expect(stopped).toHaveLength(1)
          expect(events[events.length - 1]!._tag).toBe("SubscriptionStopped")
        }
      }),
      { numRuns: 300 }
    )
  })

  it("phaseAt agrees with the event stream at every boundary and at random instants", () => {
    fc.assert(
      fc.property(
        variationWire,
        options,
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 3, maxLength: 3 }),
        (wire, o, fractions) => {
          const v = decodeVariation(wire)
          const opts: Schedule.Options = {
            start: zoned(o.start, o.zone),
            trial: o.trial > 0 ? IsoDuration.parseUnsafe(`P${o.trial}D`) : "none",
            anchor: o.anchor
          }
          const timeline = Result.getOrThrow(Schedule.compile(v, opts))
          const events = take(Schedule.events(timeline, { cycles: 60 }), 1000)
          // every probe's position next to the cycle it must be in, compared once
          const got: Array<unknown> = []
          const want: Array<unknown> = []
          for (const c of billed(events)) {
            const span = c.end.epochMilliseconds - c.start.epochMilliseconds
            const probes = [
              c.start.epochMilliseconds,
              c.end.epochMilliseconds - 1,
              ...fractions.map((f) => c.start.epochMilliseconds + Math.floor(f * span))
            ]
            for (const ms of probes) {
              const position = Result.getOrThrow(Schedule.positionAt(timeline, DateTime.makeUnsafe(ms)))
              got.push(
                position._tag === "InPhase"
                  ? [
                      ms,
                      position._tag,
                      position.phaseId,
                      position.cycleIndex,
                      position.cycleStart.epochMilliseconds,
                      position.cycleEnd.epochMilliseconds
                    ]
                  : [ms, position._tag]
              )
              want.push([ms, "InPhase", c.phaseId, c.cycleIndex, c.start.epochMilliseconds, c.end.epochMilliseconds])
            }
          }
          expect(got).toEqual(want)
          const trial = events.find((e) => e._tag === "TrialStarted")
          if (trial !== undefined) {
            expect(Result.getOrThrow(Schedule.positionAt(timeline, trial.at))._tag).toBe("Trial")
          }
          expect(Result.getOrThrow(Schedule.positionAt(timeline, DateTime.makeUnsafe(o.start - 1)))._tag).toBe(
            "NotStarted"
          )
          const stop = events.find((e) => e._tag === "SubscriptionStopped")
          if (stop !== undefined) {
            expect(Result.getOrThrow(Schedule.positionAt(timeline, stop.at))).toMatchObject({ _tag: "Stopped" })
          }
        }
      ),
      { numRuns: 200 }
    )
  })
})
