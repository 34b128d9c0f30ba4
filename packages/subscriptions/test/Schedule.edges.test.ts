import { describe, expect, it } from "@effect/vitest"
import { IsoDuration } from "@payrules/iso8601"
import { Schedule, type SubscriptionPlan } from "@payrules/subscriptions"
import { DateTime, Iterable as Iter, Option, Result, Schema } from "effect"
import fc from "fast-check"
import { decodePlan, decodeVariation, startInstant, variation, variationWire, zone } from "./fixtures.js"

const utc = (iso: string) => DateTime.makeUnsafe(iso)
const london = (iso: string) => DateTime.makeZonedUnsafe(iso, { timeZone: "Europe/London" })
const zoned = (ms: number, z: string): DateTime.DateTime =>
  z === "UTC" ? DateTime.makeUnsafe(ms) : DateTime.makeZonedUnsafe(ms, { timeZone: z })
/** an instant with its zone, so that a position or an event in the wrong zone differs */
const stamp = (dt: DateTime.DateTime) => (DateTime.isZoned(dt) ? DateTime.formatIsoZoned(dt) : DateTime.formatIso(dt))
const days = (n: number) => IsoDuration.parseUnsafe(`P${n}D`)

const billed = (events: Iterable<Schedule.Event>) => Array.from(events).filter(Schedule.Event.$is("CycleBilled"))

/** every field of an event or a position, its instants with their zone */
const row = (value: Schedule.Event | Schedule.Position): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).map(([k, v]) => [k, DateTime.isDateTime(v) ? stamp(v) : v]))

/** the first `n` items of a (lazy) iterable */
const take = <A>(it: Iterable<A>, n: number): Array<A> => Array.from(Iter.take(it, n))

const options = fc.record({
  start: startInstant,
  zone,
  trial: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })),
  anchor: fc.constantFrom<Schedule.Anchor>("phase-start", "subscription-start")
})

const toOptions = (o: { start: number; zone: string; trial: number; anchor: Schedule.Anchor }): Schedule.Options => ({
  start: zoned(o.start, o.zone),
  trial: o.trial > 0 ? days(o.trial) : "none",
  anchor: o.anchor
})

const isTrialDays = Schema.is(Schema.toType(IsoDuration.DaysOnlyFromString))

describe("Schedule edges (named after the bugs they guard)", () => {
  const monthly = variation([{ cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" }])

  // -------------------------------------------------------------------------
  // the trial
  // -------------------------------------------------------------------------

  it("a trial of P1M, PT12H, P2W, P14DT1H, P0D or -P14D is refused (InvalidTrial), never run as if it were days", () => {
    const start = utc("2024-01-31T09:00:00Z")
    for (const trial of ["P1M", "PT12H", "P2W", "P14DT1H", "P1Y", "P0D", "-P14D"]) {
      const d = IsoDuration.parseUnsafe(trial)
      const results: ReadonlyArray<Result.Result<unknown, Schedule.ScheduleError>> = [
        Schedule.simulate(monthly, { start, trial: d }),
        Schedule.totals(monthly, { start, trial: d, until: { cycles: 1 } }),
        Schedule.phaseAt(monthly, { start, trial: d }, start),
        Schedule.compile(monthly, { start, trial: d })
      ]
      for (const result of results) {
        const error = Result.getOrThrow(Result.flip(result))
        expect([trial, error._tag, error.reason, error.findings]).toEqual([trial, "ScheduleError", "InvalidTrial", []])
      }
    }
    // and a days-only trial is run: billing starts after it
    const events = Result.getOrThrow(Schedule.simulate(monthly, { start, trial: days(14), until: { cycles: 1 } }))
    expect(billed(events).map((c) => DateTime.formatIso(c.start))).toEqual(["2024-02-14T09:00:00.000Z"])
  })

  // Schema-derived (effect's Arbitrary): durations of every shape, zero and negative ones too
  it.prop(
    "a trial is accepted exactly when the plan's trial Schema accepts it (positive days only), and then lasts its days",
    [IsoDuration.IsoDurationFromSelf],
    ([trial]) => {
      const start = london("2024-03-30T09:00:00Z")
      const compiled = Schedule.compile(monthly, { start, trial })
      if (isTrialDays(trial)) {
        // only a trial beyond the end of time is refused, and then for that reason
        if (Result.isFailure(compiled)) expect(compiled.failure.reason).toBe("OutOfRange")
        else {
          const end = compiled.success.trialEnd!
          expect(stamp(end)).toBe(stamp(DateTime.add(start, { days: trial.days })))
          expect(stamp(compiled.success.phases[0]!.start)).toBe(stamp(end))
        }
      } else {
        expect(Result.isFailure(compiled) && compiled.failure.reason).toBe("InvalidTrial")
      }
    },
    { arbitrary: { runs: 300 } }
  )

  // -------------------------------------------------------------------------
  // phases out of ordinal order
  // -------------------------------------------------------------------------

  it("phases given out of ordinal order run in ascending ordinal, not in the order of the array", () => {
    const v = decodeVariation({
      id: "var_1",
      phases: [
        { id: "standard", ordinal: 3, cycle_duration: "P1M", amount: 999, currency: "GBP" },
        { id: "free", ordinal: 1, cycle_duration: "P1W", cycle_count: 1, amount: 0, currency: "GBP" },
        { id: "intro", ordinal: 2, cycle_duration: "P1M", cycle_count: 2, amount: 499, currency: "GBP" }
      ]
    })
    const start = utc("2024-01-01T00:00:00Z")
    const events = Array.from(Result.getOrThrow(Schedule.simulate(v, { start, until: { cycles: 4 } })))
    expect(
      events.filter(Schedule.Event.$is("PhaseEntered")).map((e) => [e.phaseId, e.ordinal, e.phaseIndex, stamp(e.at)])
    ).toEqual([
      ["free", 1, 0, "2024-01-01T00:00:00.000Z"],
      ["intro", 2, 1, "2024-01-08T00:00:00.000Z"],
      ["standard", 3, 2, "2024-03-08T00:00:00.000Z"]
    ])
    expect(billed(events).map((c) => [c.phaseId, c.amount])).toEqual([
      ["free", Option.some(0)],
      ["intro", Option.some(499)],
      ["intro", Option.some(499)],
      ["standard", Option.some(999)]
    ])
    expect(row(Result.getOrThrow(Schedule.phaseAt(v, { start }, utc("2024-02-10T00:00:00Z"))))).toEqual({
      _tag: "InPhase",
      phaseId: "intro",
      ordinal: 2,
      phaseIndex: 1,
      cycleIndex: 1,
      cycleStart: "2024-02-08T00:00:00.000Z",
      cycleEnd: "2024-03-08T00:00:00.000Z",
      amount: Option.some(499),
      currency: Option.some("GBP")
    })
    const t = Result.getOrThrow(Schedule.totals(v, { start, until: { cycles: 4 } }))
    expect(t.byPhase.map((p) => [p.phaseId, p.cycles, p.amount])).toEqual([
      ["free", 1, Option.some(0n)],
      ["intro", 2, Option.some(998n)],
      ["standard", 1, Option.some(999n)]
    ])
    expect(Option.map(t.recurring, (r) => r.phaseId)).toEqual(Option.some("standard"))
  })

  it("the order of the phases in the array never changes what a subscription bills; phases are entered by ascending ordinal", () => {
    const shuffled = variationWire.chain((wire) =>
      fc
        .tuple(
          fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9], {
            minLength: wire.phases.length,
            maxLength: wire.phases.length
          }),
          fc.shuffledSubarray(
            wire.phases.map((_, i) => i),
            { minLength: wire.phases.length, maxLength: wire.phases.length }
          )
        )
        .map(([ordinals, order]) => {
          // ordinals ascending in the order of the generated phases, with gaps
          const sorted = [...ordinals].sort((a, b) => a - b)
          const phases = wire.phases.map((p, i) => ({ ...p, ordinal: sorted[i]! }))
          return { inOrder: { ...wire, phases }, shuffled: { ...wire, phases: order.map((i) => phases[i]!) } }
        })
    )
    fc.assert(
      fc.property(shuffled, options, ({ inOrder, shuffled }, o) => {
        const run = (wire: typeof inOrder) =>
          Array.from(
            Result.getOrThrow(Schedule.simulate(decodeVariation(wire), { ...toOptions(o), until: { cycles: 40 } }))
          ).map(row)
        const events = run(shuffled)
        expect(events).toEqual(run(inOrder))
        const entered = events.filter((e) => e._tag === "PhaseEntered")
        expect(entered.map((e) => [e.phaseId, e.ordinal, e.phaseIndex])).toEqual(
          inOrder.phases.slice(0, entered.length).map((p, i) => [p.id, p.ordinal, i])
        )
      }),
      { numRuns: 200 }
    )
  })

  // -------------------------------------------------------------------------
  // simulatePlan and the throwing twins
  // -------------------------------------------------------------------------

  const plan = (variations: ReadonlyArray<unknown>): SubscriptionPlan.SubscriptionPlan =>
    decodePlan({
      id: "pln_pro",
      name: "Pro",
      trial_duration: "P14D",
      state: "active",
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-01T00:00:00Z",
      variations
    })
  const twoVariations = plan([
    { id: "monthly", phases: [{ id: "m", ordinal: 1, cycle_duration: "P1M", amount: 999, currency: "GBP" }] },
    { id: "yearly", phases: [{ id: "y", ordinal: 1, cycle_duration: "P1Y", amount: 9900, currency: "GBP" }] }
  ])

  it("simulatePlan with a variation id the plan does not have fails (UnknownVariation), never bills another variation", () => {
    const start = utc("2024-01-01T00:00:00Z")
    const error = Result.getOrThrow(
      Result.flip(Schedule.simulatePlan(twoVariations, { start, variation: "weekly", until: { cycles: 1 } }))
    )
    expect([error._tag, error.reason, error.findings]).toEqual(["ScheduleError", "UnknownVariation", []])
    expect(error.message).toContain("weekly")
    // a plan without variations has nothing to simulate
    const none = Result.getOrThrow(Result.flip(Schedule.simulatePlan(plan([]), { start })))
    expect([none.reason, none.findings]).toEqual(["UnknownVariation", []])
    // the variation asked for is the one billed, with the plan's trial
    const yearly = billed(
      Result.getOrThrow(Schedule.simulatePlan(twoVariations, { start, variation: "yearly", until: { cycles: 2 } }))
    )
    expect(yearly.map((c) => [c.phaseId, stamp(c.start), c.amount])).toEqual([
      ["y", "2024-01-15T00:00:00.000Z", Option.some(9900)],
      ["y", "2025-01-15T00:00:00.000Z", Option.some(9900)]
    ])
    // without one, the first
    const first = billed(Result.getOrThrow(Schedule.simulatePlan(twoVariations, { start, until: { cycles: 1 } })))
    expect(first.map((c) => c.phaseId)).toEqual(["m"])
  })

  it("unsafeSimulate (deprecated) and simulateUnsafe bill what simulate bills and throw its ScheduleError, reason and findings", () => {
    const start = london("2024-01-31T09:00:00Z")
    const opts: Schedule.Options = { start, trial: days(14), until: { cycles: 3 } }
    const expected = Array.from(Result.getOrThrow(Schedule.simulate(monthly, opts))).map(row)
    expect(expected).toHaveLength(7)
    const endlessMiddle = variation([{ cycle_count: 1 }, { cycle_count: null }, { cycle_count: 1 }])
    for (const run of [Schedule.simulateUnsafe, Schedule.unsafeSimulate]) {
      expect(Array.from(run(monthly, opts)).map(row)).toEqual(expected)
      const thrown = (() => {
        try {
          run(endlessMiddle, { start })
        } catch (e) {
          return e
        }
        return undefined
      })()
      expect(thrown).toBeInstanceOf(Schedule.ScheduleError)
      const error = thrown as Schedule.ScheduleError
      expect([error.reason, error.findings.map((f) => [f.rule, f.path.join(".")])]).toEqual([
        "InvalidPlan",
        [["EndlessPhaseNotLast", "phases.1.cycle_count"]]
      ])
      expect(() => run(monthly, { start, trial: IsoDuration.parseUnsafe("P1M") })).toThrow(
        expect.objectContaining({ reason: "InvalidTrial" })
      )
    }
  })

  // -------------------------------------------------------------------------
  // phaseAt outside the phases
  // -------------------------------------------------------------------------

  it("phaseAt before the start, in the trial and after the last phase gives every field of NotStarted, Trial and Stopped", () => {
    const v = variation([
      { cycle_duration: "P1M", cycle_count: 2, amount: 499, currency: "GBP" },
      { cycle_duration: "P1W", cycle_count: 1, amount: 999, currency: "GBP" }
    ])
    const start = london("2024-03-20T09:00:00Z")
    const opts = { start, trial: days(14) }
    const at = (instant: DateTime.DateTime) => row(Result.getOrThrow(Schedule.phaseAt(v, opts, instant)))
    const notStarted = { _tag: "NotStarted", startsAt: "2024-03-20T09:00:00.000+00:00[Europe/London]" }
    expect(at(DateTime.subtract(start, { milliseconds: 1 }))).toEqual(notStarted)
    expect(at(utc("2000-01-01T00:00:00Z"))).toEqual(notStarted)
    // the trial crosses the change to summer time: it ends at 09:00 wall clock, 13 days and 23 hours later
    const trial = {
      _tag: "Trial",
      start: "2024-03-20T09:00:00.000+00:00[Europe/London]",
      end: "2024-04-03T09:00:00.000+01:00[Europe/London]"
    }
    expect(at(start)).toEqual(trial)
    expect(at(utc("2024-04-03T07:59:59.999Z"))).toEqual(trial)
    expect(at(utc("2024-04-03T08:00:00Z"))).toMatchObject({ _tag: "InPhase", phaseId: "ph_1", cycleIndex: 0 })
    // two months and a week after the trial
    const stopped = { _tag: "Stopped", at: "2024-06-10T09:00:00.000+01:00[Europe/London]" }
    expect(at(utc("2024-06-10T07:59:59.999Z"))).toMatchObject({ _tag: "InPhase", phaseId: "ph_2", cycleIndex: 0 })
    expect(at(utc("2024-06-10T08:00:00Z"))).toEqual(stopped)
    expect(at(utc("2030-01-01T00:00:00Z"))).toEqual(stopped)
    // the same positions from the constructors users build them with
    expect(Result.getOrThrow(Schedule.phaseAt(v, opts, utc("2000-01-01T00:00:00Z")))).toEqual(
      Schedule.Position.NotStarted({ startsAt: start })
    )
  })

  it("phaseAt's NotStarted, Trial and Stopped carry the start, the trial's bounds and the stop of the event stream", () => {
    fc.assert(
      fc.property(
        variationWire,
        options,
        fc.integer({ min: 1, max: 10 * 365 * 86_400_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (wire, o, later, fraction) => {
          const v = decodeVariation(wire)
          const opts = toOptions(o)
          const events = take(Result.getOrThrow(Schedule.simulate(v, opts)), 100)
          const at = (ms: number) => row(Result.getOrThrow(Schedule.phaseAt(v, opts, DateTime.makeUnsafe(ms))))
          expect(at(o.start - later)).toEqual({ _tag: "NotStarted", startsAt: stamp(opts.start) })
          const trial = events.find(Schedule.Event.$is("TrialStarted"))
          if (trial !== undefined) {
            const span = trial.end.epochMilliseconds - trial.at.epochMilliseconds
            expect(at(o.start + Math.floor(fraction * span))).toEqual({
              _tag: "Trial",
              start: stamp(trial.at),
              end: stamp(trial.end)
            })
          }
          const stop = events.find(Schedule.Event.$is("SubscriptionStopped"))
          if (stop !== undefined) {
            const expected = { _tag: "Stopped", at: stamp(stop.at) }
            expect(at(stop.at.epochMilliseconds)).toEqual(expected)
            expect(at(stop.at.epochMilliseconds + later)).toEqual(expected)
          }
        }
      ),
      { numRuns: 200 }
    )
  })

  // -------------------------------------------------------------------------
  // horizons at the edges
  // -------------------------------------------------------------------------

  it("a horizon exactly at the trial's end ends the trial and bills nothing; totals list no currency", () => {
    const start = london("2024-01-17T09:00:00Z")
    const trialEnd = london("2024-01-31T09:00:00Z")
    const opts = { start, trial: days(14), until: trialEnd }
    expect(Array.from(Result.getOrThrow(Schedule.simulate(monthly, opts))).map(row)).toEqual([
      { _tag: "TrialStarted", at: stamp(start), end: stamp(trialEnd) },
      { _tag: "TrialEnded", at: stamp(trialEnd) },
      { _tag: "HorizonReached", at: stamp(trialEnd), reason: "Until" }
    ])
    const t = Result.getOrThrow(Schedule.totals(monthly, opts))
    expect([t.cycles, t.cyclesWithoutAmount, t.byCurrency]).toEqual([0, 0, []])
    expect(t.byPhase.map((p) => [p.phaseId, p.cycles, p.amount])).toEqual([["ph_1", 0, Option.some(0n)]])
    // a millisecond later the first cycle is billed
    const later = { ...opts, until: DateTime.add(trialEnd, { milliseconds: 1 }) }
    expect(billed(Result.getOrThrow(Schedule.simulate(monthly, later))).map((c) => stamp(c.start))).toEqual([
      stamp(trialEnd)
    ])
    expect(Result.getOrThrow(Schedule.totals(monthly, later)).byCurrency).toEqual([{ currency: "GBP", amount: 999n }])
  })

  it("a horizon at or before the start yields only HorizonReached at the horizon, with or without a trial; totals are zero", () => {
    const start = london("2024-01-17T09:00:00Z")
    for (const trial of [days(14), "none" as const]) {
      for (const until of [start, DateTime.subtract(start, { milliseconds: 1 }), london("2023-06-01T00:00:00Z")]) {
        const opts = { start, trial, until }
        expect(Array.from(Result.getOrThrow(Schedule.simulate(monthly, opts))).map(row)).toEqual([
          { _tag: "HorizonReached", at: stamp(until), reason: "Until" }
        ])
        const t = Result.getOrThrow(Schedule.totals(monthly, opts))
        expect([t.cycles, t.cyclesWithoutAmount, t.byCurrency]).toEqual([0, 0, []])
        expect(t.byPhase.map((p) => [p.phaseId, p.cycles])).toEqual([["ph_1", 0]])
      }
    }
  })

  it("totals with the subscription-start anchor count a later phase's cycles from its own first cycle, not the grid's", () => {
    const v = variation([
      { cycle_duration: "P1M", cycle_count: 3, amount: 499, currency: "GBP" },
      { cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" }
    ])
    const start = utc("2024-01-31T09:00:00Z")
    const opts: Schedule.Options = { start, anchor: "subscription-start", until: utc("2025-01-31T09:00:00Z") }
    const t = Result.getOrThrow(Schedule.totals(v, opts))
    // Jan 31 to Jan 31: 12 cycles, 3 of the intro and 9 of the standard phase (Apr 30, May 31, ..., Dec 31)
    expect(t.byPhase.map((p) => [p.phaseId, p.cycles, p.amount])).toEqual([
      ["ph_1", 3, Option.some(1497n)],
      ["ph_2", 9, Option.some(8991n)]
    ])
    expect(t.byCurrency).toEqual([{ currency: "GBP", amount: 10488n }])
    expect(billed(Result.getOrThrow(Schedule.simulate(v, opts))).length).toBe(t.cycles)
  })

  it("totals up to an instant (at, just before and just after every boundary) agree with the cycles the events bill", () => {
    fc.assert(
      fc.property(
        variationWire,
        options,
        fc.nat(),
        fc.constantFrom(-1, 0, 1),
        fc.boolean(),
        (wire, o, pick, delta, withCurrencyChange) => {
          const v = decodeVariation(
            // half the time the phases alternate currencies, so a currency of a phase not reached must not be listed
            withCurrencyChange
              ? {
                  ...wire,
                  phases: wire.phases.map((p, i) =>
                    p.amount === undefined ? p : { ...p, currency: ["GBP", "EUR"][i % 2] }
                  )
                }
              : wire
          )
          const opts = toOptions(o)
          const boundaries = take(Result.getOrThrow(Schedule.simulate(v, { ...opts, until: { cycles: 30 } })), 200).map(
            (e) => e.at.epochMilliseconds
          )
          const until = DateTime.makeUnsafe(boundaries[pick % boundaries.length]! + delta)
          const t = Result.getOrThrow(Schedule.totals(v, { ...opts, until }))
          const cycles = billed(Result.getOrThrow(Schedule.simulate(v, { ...opts, until })))
          const byCurrency = new Map<string, bigint>()
          for (const c of cycles) {
            if (Option.isSome(c.amount) && Option.isSome(c.currency)) {
              byCurrency.set(c.currency.value, (byCurrency.get(c.currency.value) ?? 0n) + BigInt(c.amount.value))
            }
          }
          expect({
            cycles: t.cycles,
            cyclesWithoutAmount: t.cyclesWithoutAmount,
            byPhase: t.byPhase.map((p) => [p.phaseId, p.cycles]),
            byCurrency: t.byCurrency
          }).toEqual({
            cycles: cycles.length,
            cyclesWithoutAmount: cycles.filter((c) => Option.isNone(c.amount) || Option.isNone(c.currency)).length,
            byPhase: t.byPhase.map((p) => [p.phaseId, cycles.filter((c) => c.phaseId === p.phaseId).length]),
            byCurrency: [...byCurrency.entries()].map(([currency, amount]) => ({ currency, amount }))
          })
        }
      ),
      { numRuns: 300 }
    )
  })

  it("events up to an instant are the events before it and the ends that fall on it, then HorizonReached at it", () => {
    const ends = new Set(["TrialEnded", "PhaseCompleted", "SubscriptionStopped"])
    fc.assert(
      fc.property(variationWire, options, fc.nat(), fc.constantFrom(-1, 0, 1), (wire, o, pick, delta) => {
        const v = decodeVariation(wire)
        const opts = toOptions(o)
        const all = take(Result.getOrThrow(Schedule.simulate(v, { ...opts, until: { cycles: 30 } })), 200)
        const horizon = all[pick % all.length]!.at.epochMilliseconds + delta
        const until = DateTime.makeUnsafe(horizon)
        // the events of the unbounded simulation, up to the horizon
        const expected: Array<Schedule.Event> = []
        for (const e of Result.getOrThrow(Schedule.simulate(v, opts))) {
          if (e.at.epochMilliseconds > horizon) break
          if (e.at.epochMilliseconds < horizon || ends.has(e._tag)) expected.push(e)
          else break
        }
        const rows = expected.map(row)
        if (expected[expected.length - 1]?._tag !== "SubscriptionStopped") {
          rows.push({ _tag: "HorizonReached", at: stamp(until), reason: "Until" })
        }
        expect(Array.from(Result.getOrThrow(Schedule.simulate(v, { ...opts, until }))).map(row)).toEqual(rows)
      }),
      { numRuns: 300 }
    )
  })
})
