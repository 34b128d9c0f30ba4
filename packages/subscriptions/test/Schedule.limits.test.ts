import { describe, expect, it } from "@effect/vitest"
import { IsoDuration } from "@payrules/iso8601"
import { PlanCheck, Schedule } from "@payrules/subscriptions"
import { DateTime, Option, Result } from "effect"
import fc from "fast-check"
import { decodePlan, decodeVariation, variation, variationWire } from "./fixtures.js"

const utc = (iso: string) => DateTime.makeUnsafe(iso)
const iso = (dt: DateTime.DateTime) => DateTime.formatIso(dt)
const days = (n: number) => IsoDuration.parseUnsafe(`P${n}D`)
const failure = <A>(result: Result.Result<A, Schedule.ScheduleError>): Schedule.ScheduleError =>
  Result.getOrThrow(Result.flip(result))
/** the tag and instants of events, to compare them whole */
const rows = (events: Iterable<Schedule.Event>) =>
  Array.from(events).map((e) =>
    Object.fromEntries(Object.entries(e).map(([k, v]) => [k, DateTime.isDateTime(v) ? iso(v) : v]))
  )

/** an instant near the last one `DateTime` holds, +275760-09-13T00:00:00Z */
const nearEndOfTime = (iso: string) => utc(iso)

describe("Schedule at its limits (named after the bugs they guard)", () => {
  const yearly = variation([{ cycle_duration: "P1Y", cycle_count: null, amount: 100, currency: "GBP" }])

  // -------------------------------------------------------------------------
  // the shortest cycle
  // -------------------------------------------------------------------------

  it("a cycle shorter than a second is refused by every entry point, as PlanCheck's SubSecondCycle error (bug: totals of 8.6e21 nanosecond cycles, an inexact count, and a phaseAt that blamed the range)", () => {
    const start = utc("2024-01-01T00:00:00Z")
    const until = utc("+275000-01-01T00:00:00Z")
    for (const duration of ["PT0.000000001S", "PT0.001S", "PT0.999999999S"]) {
      const short = variation([
        { cycle_duration: "P1M", cycle_count: 2, amount: 100, currency: "GBP" },
        { cycle_duration: duration, amount: 1, currency: "GBP" }
      ])
      const finding = {
        severity: "error",
        rule: "SubSecondCycle",
        path: ["phases", 1, "cycle_duration"],
        message: `cycle_duration ${duration} is shorter than a second: a billing cycle lasts a second or more`
      }
      expect(PlanCheck.checkVariation(short)).toEqual([finding])
      const results: ReadonlyArray<Result.Result<unknown, Schedule.ScheduleError>> = [
        Schedule.compile(short, { start }),
        Schedule.simulate(short, { start, until }),
        Schedule.totals(short, { start, until }),
        Schedule.phaseAt(short, { start }, until)
      ]
      for (const result of results) {
        expect(failure(result)).toMatchObject({ reason: "InvalidPlan", findings: [finding] })
      }
    }
  })

  it("cycles of a second from the first instant to the last are counted exactly: every count fits a safe integer", () => {
    const first = utc("-271821-04-20T00:00:00Z")
    const last = utc("+275760-09-13T00:00:00Z")
    const everySecond = variation([{ cycle_duration: "PT1S", amount: 1, currency: "GBP" }])
    const totals = Result.getOrThrow(Schedule.totals(everySecond, { start: first, until: last }))
    expect(totals.cycles).toBe(17_280_000_000_000)
    expect(totals.byCurrency).toEqual([{ currency: "GBP", amount: 17_280_000_000_000n }])
    const position = Result.getOrThrow(
      Schedule.phaseAt(everySecond, { start: first }, utc("+275760-09-12T23:59:59.5Z"))
    )
    expect(position).toMatchObject({ _tag: "InPhase", cycleIndex: 17_279_999_999_999 })
  })

  // -------------------------------------------------------------------------
  // the end of time
  // -------------------------------------------------------------------------

  it("an endless phase that reaches the end of time stops with HorizonReached RangeLimit at the last cycle's start, never bills a cycle without an end", () => {
    const events = rows(
      Result.getOrThrow(Schedule.simulate(yearly, { start: nearEndOfTime("+275758-01-01T00:00:00Z") }))
    )
    expect(events.map((e) => [e._tag, e.at, e.reason])).toEqual([
      ["PhaseEntered", "+275758-01-01T00:00:00.000Z", undefined],
      ["CycleBilled", "+275758-01-01T00:00:00.000Z", undefined],
      ["CycleBilled", "+275759-01-01T00:00:00.000Z", undefined],
      ["HorizonReached", "+275760-01-01T00:00:00.000Z", "RangeLimit"]
    ])
    expect(events[2]!.end).toBe("+275760-01-01T00:00:00.000Z")
  })

  it("bug: totals counted the cycles of an endless phase that the events never bill at the end of time", () => {
    const start = nearEndOfTime("+275758-01-01T00:00:00Z")
    const billedUntil = (until: Schedule.Horizon) =>
      rows(Result.getOrThrow(Schedule.simulate(yearly, { start, until }))).filter((e) => e._tag === "CycleBilled")
        .length
    const counted = (until: Schedule.Horizon) => Result.getOrThrow(Schedule.totals(yearly, { start, until })).cycles
    // two cycles end in range; the third would end in 275761 (before: 3, and 5 for five cycles asked for)
    for (const until of [utc("+275760-09-13T00:00:00Z"), { cycles: 5 }, { cycles: 2 }, { cycles: 1 }]) {
      expect(counted(until)).toBe(billedUntil(until))
    }
    expect(counted({ cycles: 5 })).toBe(2)
    // in a zone ahead of UTC the last hours of the range have no wall-clock time: those cycles are not billed either
    const hourly = variation([{ id: "h", cycle_duration: "PT1H", amount: 1, currency: "GBP" }])
    const kolkata = DateTime.makeZonedUnsafe(8.64e15 - 40 * 86_400_000, { timeZone: "Asia/Kolkata" })
    const events = Result.getOrThrow(Schedule.simulate(hourly, { start: kolkata, until: { cycles: 100_000 } }))
    const n = rows(events).filter((e) => e._tag === "CycleBilled").length
    expect(Result.getOrThrow(Schedule.totals(hourly, { start: kolkata, until: { cycles: 100_000 } })).cycles).toBe(n)
    expect(n).toBe(40 * 24 - 6)
  })

  it("a trial that ends beyond the end of time is refused (OutOfRange), never dropped", () => {
    const error = failure(
      Schedule.simulate(yearly, { start: nearEndOfTime("+275760-09-01T00:00:00Z"), trial: days(14) })
    )
    expect([error.reason, error.message, error.findings]).toEqual([
      "OutOfRange",
      "the trial ends beyond the range of instants",
      []
    ])
  })

  it("a finite phase that ends beyond the end of time is refused (OutOfRange) with the phase's id", () => {
    const tenYears = variation([{ id: "decade", cycle_duration: "P1Y", cycle_count: 10 }])
    const start = nearEndOfTime("+275755-01-01T00:00:00Z")
    for (const result of [
      Schedule.simulate(tenYears, { start }),
      Schedule.compile(tenYears, { start }),
      Schedule.totals(tenYears, { start })
    ]) {
      const error = failure(result as Result.Result<unknown, Schedule.ScheduleError>)
      expect([error.reason, error.message]).toEqual(["OutOfRange", "phase decade ends beyond the range of instants"])
    }
  })

  it("phaseAt in a cycle that ends beyond the end of time is refused (OutOfRange), never an InPhase without an end", () => {
    const start = nearEndOfTime("+275758-01-01T00:00:00Z")
    const error = failure(Schedule.phaseAt(yearly, { start }, nearEndOfTime("+275760-06-01T00:00:00Z")))
    expect([error.reason, error.message]).toEqual([
      "OutOfRange",
      "the cycle around +275760-06-01T00:00:00.000Z ends beyond the range of instants"
    ])
    // the cycle before it still has both bounds
    const before = Result.getOrThrow(Schedule.phaseAt(yearly, { start }, nearEndOfTime("+275759-06-01T00:00:00Z")))
    expect(before._tag === "InPhase" && [before.cycleIndex, iso(before.cycleStart), iso(before.cycleEnd)]).toEqual([
      1,
      "+275759-01-01T00:00:00.000Z",
      "+275760-01-01T00:00:00.000Z"
    ])
  })

  it("totals up to the earliest instant are zero, never a crash below the range of instants", () => {
    const earliest = DateTime.makeUnsafe(-8.64e15)
    const totals = Result.getOrThrow(Schedule.totals(yearly, { start: DateTime.makeUnsafe(-8.64e15), until: earliest }))
    expect([totals.cycles, totals.byCurrency, totals.byPhase.map((p) => p.cycles)]).toEqual([0, [], [0]])
  })

  // -------------------------------------------------------------------------
  // what a refusal says
  // -------------------------------------------------------------------------

  it("an InvalidPlan message lists every error as path: message, separated by '; '", () => {
    const v = variation([{ cycle_count: 0 }, { cycle_count: null }, { cycle_count: 1 }])
    const error = failure(Schedule.simulate(v, { start: utc("2024-01-01T00:00:00Z") }))
    expect(error.reason).toBe("InvalidPlan")
    expect(error.message).toBe(
      "variation var_1 cannot be simulated: phases.0.cycle_count: cycle_count is 0; it must be at least 1; " +
        "phases.1.cycle_count: phase ph_2 (ordinal 2) never ends, so the 1 phase(s) after it are never reached"
    )
  })

  it("an InvalidTrial message says a trial is days and names the trial given", () => {
    const error = failure(
      Schedule.simulate(yearly, { start: utc("2024-01-01T00:00:00Z"), trial: IsoDuration.parseUnsafe("P1M") })
    )
    expect([error.reason, error.message]).toEqual([
      "InvalidTrial",
      "a trial is a positive number of days (P14D); got P1M"
    ])
  })

  // -------------------------------------------------------------------------
  // horizons
  // -------------------------------------------------------------------------

  it("HorizonReached says Cycles after a number of cycles and Until at an instant, whatever the plan", () => {
    fc.assert(
      fc.property(variationWire, fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 4000 }), (wire, n, d) => {
        const t = Result.getOrThrow(Schedule.compile(decodeVariation(wire), { start: utc("2024-01-31T09:00:00Z") }))
        const last = (until: Schedule.Horizon) => Array.from(Schedule.events(t, until)).at(-1)!
        const byCycles = last({ cycles: n })
        if (byCycles._tag === "HorizonReached") expect(byCycles.reason).toBe("Cycles")
        else expect(byCycles._tag).toBe("SubscriptionStopped")
        const byInstant = last(DateTime.makeUnsafe(Date.UTC(2024, 0, 31, 9) + d * 86_400_000))
        if (byInstant._tag === "HorizonReached") expect(byInstant.reason).toBe("Until")
        else expect(byInstant._tag).toBe("SubscriptionStopped")
      }),
      { numRuns: 100 }
    )
    // both reasons are reached on an endless plan
    const t = Result.getOrThrow(Schedule.compile(yearly, { start: utc("2024-01-01T00:00:00Z") }))
    expect(Array.from(Schedule.events(t, { cycles: 0 })).at(-1)).toMatchObject({
      _tag: "HorizonReached",
      reason: "Cycles"
    })
    expect(Array.from(Schedule.events(t, { cycles: 2 })).at(-1)).toMatchObject({
      _tag: "HorizonReached",
      reason: "Cycles"
    })
    expect(Array.from(Schedule.events(t, utc("2026-06-01T00:00:00Z"))).at(-1)).toMatchObject({
      _tag: "HorizonReached",
      reason: "Until"
    })
  })

  // -------------------------------------------------------------------------
  // plans
  // -------------------------------------------------------------------------

  const planOf = (variations: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) =>
    decodePlan({
      id: "pln_1",
      name: "Pro",
      state: "active",
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-01T00:00:00Z",
      variations,
      ...extra
    })
  const monthly = {
    id: "monthly",
    phases: [{ id: "m", ordinal: 1, cycle_duration: "P1M", amount: 999, currency: "GBP" }]
  }
  const yearlyWire = {
    id: "yearly",
    phases: [{ id: "y", ordinal: 1, cycle_duration: "P1Y", amount: 9900, currency: "GBP" }]
  }

  it("UnknownVariation names the plan and lists the variation ids it has, joined with ', '", () => {
    const start = utc("2024-01-01T00:00:00Z")
    const unknown = failure(Schedule.simulatePlan(planOf([monthly, yearlyWire]), { start, variation: "weekly" }))
    expect([unknown.reason, unknown.message]).toEqual([
      "UnknownVariation",
      "plan pln_1 has no variation weekly (it has monthly, yearly)"
    ])
    const none = failure(Schedule.simulatePlan(planOf([]), { start }))
    expect([none.reason, none.message]).toEqual(["UnknownVariation", "plan pln_1 has no variations"])
    const noneNamed = failure(Schedule.forPlan(planOf([]), { start, variation: "monthly" }))
    expect(noneNamed.message).toBe("plan pln_1 has no variation monthly (it has )")
  })

  it("simulatePlan on a plan without trial_duration (and no trial option) simulates with no trial", () => {
    const start = utc("2024-01-31T09:00:00Z")
    const events = Array.from(
      Result.getOrThrow(Schedule.simulatePlan(planOf([monthly]), { start, until: { cycles: 2 } }))
    )
    expect(events.map((e) => [e._tag, iso(e.at)])).toEqual([
      ["PhaseEntered", "2024-01-31T09:00:00.000Z"],
      ["CycleBilled", "2024-01-31T09:00:00.000Z"],
      ["CycleBilled", "2024-02-29T09:00:00.000Z"],
      ["HorizonReached", "2024-03-31T09:00:00.000Z"]
    ])
    expect(Result.getOrThrow(Schedule.forPlan(planOf([monthly]), { start })).options.trial).toBe("none")
    // with one, the plan's trial applies
    const trialed = Result.getOrThrow(Schedule.forPlan(planOf([monthly], { trial_duration: "P14D" }), { start }))
    expect(IsoDuration.format(trialed.options.trial as IsoDuration.IsoDuration)).toBe("P14D")
  })

  // -------------------------------------------------------------------------
  // totals
  // -------------------------------------------------------------------------

  it("totals of a plan whose last phase ends have no recurring amount", () => {
    const finite = variation([
      { cycle_count: 3, amount: 499, currency: "GBP" },
      { cycle_count: 2, amount: 999, currency: "GBP" }
    ])
    const totals = Result.getOrThrow(Schedule.totals(finite, { start: utc("2024-01-01T00:00:00Z") }))
    expect([totals.cycles, totals.byCurrency, totals.recurring]).toEqual([
      5,
      [{ currency: "GBP", amount: 3495n }],
      Option.none()
    ])
  })

  it("totals of a phase with an amount but no currency, or a currency but no amount, count its cycles as without amount, never a crash", () => {
    const start = utc("2024-01-01T00:00:00Z")
    for (const price of [{ amount: 499 }, { currency: "GBP" }] as const) {
      const v = variation([
        { cycle_count: 2, ...price },
        { cycle_count: 1, amount: 100, currency: "EUR" }
      ])
      const totals = Result.getOrThrow(Schedule.totals(v, { start }))
      expect([totals.cycles, totals.cyclesWithoutAmount, totals.byCurrency]).toEqual([
        3,
        2,
        [{ currency: "EUR", amount: 100n }]
      ])
      expect(totals.byPhase.map((p) => [p.cycles, p.amount, p.cyclesWithoutAmount])).toEqual([
        [2, Option.none(), 2],
        [1, Option.some(100n), 0]
      ])
    }
  })
})
