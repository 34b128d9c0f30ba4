import { describe, expect, it } from "@effect/vitest"
import { IsoDuration } from "@payrules/iso8601"
import { Schedule } from "@payrules/subscriptions"
import { DateTime, Effect, Option, Result, Stream } from "effect"
import { variation } from "./fixtures.js"

const utc = (iso: string) => DateTime.makeUnsafe(iso)
const iso = (dt: DateTime.DateTime) => DateTime.formatIso(dt)
const billed = (events: ReadonlyArray<Schedule.Event>) =>
  events.filter((e): e is Extract<Schedule.Event, { _tag: "CycleBilled" }> => e._tag === "CycleBilled")

describe("Schedule examples (named after the bugs they guard)", () => {
  const monthly = variation([{ cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" }])

  it("Jan 31 + P1M is anchored: Feb 29, Mar 31, Apr 30, never Mar 29", () => {
    const events = Result.getOrThrow(
      Schedule.simulate(monthly, { start: utc("2024-01-31T10:00:00Z"), until: { cycles: 4 } })
    )
    expect(billed(Array.from(events)).map((c) => iso(c.start).slice(0, 10))).toEqual([
      "2024-01-31",
      "2024-02-29",
      "2024-03-31",
      "2024-04-30"
    ])
  })

  it("Feb 29 with P1Y: Feb 28 in common years, Feb 29 again in leap years", () => {
    const yearly = variation([{ cycle_duration: "P1Y", cycle_count: null }])
    const events = Result.getOrThrow(
      Schedule.simulate(yearly, { start: utc("2024-02-29T00:00:00Z"), until: { cycles: 6 } })
    )
    expect(billed(Array.from(events)).map((c) => iso(c.start).slice(0, 10))).toEqual([
      "2024-02-29",
      "2025-02-28",
      "2026-02-28",
      "2027-02-28",
      "2028-02-29",
      "2029-02-28"
    ])
  })

  it("PT2H cycles across the spring-forward hour are two hours of elapsed time", () => {
    const twoHourly = variation([{ cycle_duration: "PT2H", cycle_count: null }])
    const start = DateTime.makeZonedUnsafe("2024-03-30T23:00:00Z", { timeZone: "Europe/London" })
    const cycles = billed(Array.from(Result.getOrThrow(Schedule.simulate(twoHourly, { start, until: { cycles: 3 } }))))
    expect(cycles.map((c) => DateTime.formatIsoZoned(c.start as DateTime.Zoned))).toEqual([
      "2024-03-30T23:00:00.000+00:00[Europe/London]",
      "2024-03-31T02:00:00.000+01:00[Europe/London]",
      "2024-03-31T04:00:00.000+01:00[Europe/London]"
    ])
    for (const c of cycles) expect(c.end.epochMilliseconds - c.start.epochMilliseconds).toBe(7_200_000)
  })

  it("PT2H cycles across the fall-back hour are two hours of elapsed time", () => {
    const twoHourly = variation([{ cycle_duration: "PT2H", cycle_count: null }])
    const start = DateTime.makeZonedUnsafe("2024-10-26T23:00:00Z", { timeZone: "Europe/London" })
    const cycles = billed(Array.from(Result.getOrThrow(Schedule.simulate(twoHourly, { start, until: { cycles: 3 } }))))
    expect(cycles.map((c) => DateTime.formatIsoZoned(c.start as DateTime.Zoned))).toEqual([
      "2024-10-27T00:00:00.000+01:00[Europe/London]",
      "2024-10-27T01:00:00.000+00:00[Europe/London]",
      "2024-10-27T03:00:00.000+00:00[Europe/London]"
    ])
  })

  it("P1D cycles keep the wall-clock time across DST (23 and 25 hour days)", () => {
    const daily = variation([{ cycle_duration: "P1D", cycle_count: 3 }])
    const start = DateTime.makeZonedUnsafe("2024-03-30T08:00:00Z", { timeZone: "Europe/London" })
    const cycles = billed(Array.from(Result.getOrThrow(Schedule.simulate(daily, { start }))))
    expect(cycles.map((c) => DateTime.formatIsoZoned(c.start as DateTime.Zoned).slice(11, 16))).toEqual([
      "08:00",
      "08:00",
      "08:00"
    ])
    expect(cycles.map((c) => c.end.epochMilliseconds - c.start.epochMilliseconds)).toEqual([
      82_800_000, 86_400_000, 86_400_000
    ])
  })

  it("a zero-amount phase bills 0, a phase without an amount bills an unknown amount", () => {
    const v = variation([
      { cycle_duration: "P1M", cycle_count: 2, amount: 0, currency: "GBP" },
      { cycle_duration: "P1M", cycle_count: 1 },
      { cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" }
    ])
    const cycles = billed(
      Array.from(Result.getOrThrow(Schedule.simulate(v, { start: utc("2024-01-01T00:00:00Z"), until: { cycles: 4 } })))
    )
    expect(cycles.map((c) => c.amount)).toEqual([Option.some(0), Option.some(0), Option.none(), Option.some(999)])
    const t = Result.getOrThrow(Schedule.totals(v, { start: utc("2024-01-01T00:00:00Z"), until: { cycles: 4 } }))
    expect(t.cycles).toBe(4)
    expect(t.cyclesWithoutAmount).toBe(1)
    expect(t.byCurrency).toEqual([{ currency: "GBP", amount: 999n }])
  })

  it("trial override to none: billing starts at once", () => {
    const plan = {
      id: "plan_1",
      name: "Pro",
      trial_duration: IsoDuration.parseUnsafe("P14D"),
      state: "active" as const,
      created_at: DateTime.makeZonedUnsafe(0, { timeZone: 0 }) as DateTime.Zoned,
      updated_at: DateTime.makeZonedUnsafe(0, { timeZone: 0 }) as DateTime.Zoned,
      variations: [monthly]
    }
    const start = utc("2024-05-01T00:00:00Z")
    const withTrial = Array.from(Result.getOrThrow(Schedule.simulatePlan(plan, { start, until: { cycles: 1 } })))
    expect(withTrial.map((e) => e._tag)).toEqual([
      "TrialStarted",
      "TrialEnded",
      "PhaseEntered",
      "CycleBilled",
      "HorizonReached"
    ])
    expect(iso(billed(withTrial)[0]!.start)).toBe("2024-05-15T00:00:00.000Z")
    const noTrial = Array.from(
      Result.getOrThrow(Schedule.simulatePlan(plan, { start, trial: "none", until: { cycles: 1 } }))
    )
    expect(noTrial.map((e) => e._tag)).toEqual(["PhaseEntered", "CycleBilled", "HorizonReached"])
    expect(iso(billed(noTrial)[0]!.start)).toBe("2024-05-01T00:00:00.000Z")
    const shorter = Array.from(
      Result.getOrThrow(
        Schedule.simulatePlan(plan, { start, trial: IsoDuration.parseUnsafe("P3D"), until: { cycles: 1 } })
      )
    )
    expect(iso(billed(shorter)[0]!.start)).toBe("2024-05-04T00:00:00.000Z")
  })

  it("a plan with an endless middle phase is refused with the PlanCheck finding", () => {
    const v = variation([
      { cycle_duration: "P1M", cycle_count: 3 },
      { cycle_duration: "P1M", cycle_count: null },
      { cycle_duration: "P1M", cycle_count: 2 }
    ])
    const e = Result.getOrThrow(Result.flip(Schedule.simulate(v, { start: utc("2024-01-01T00:00:00Z") })))
    expect(e.reason).toBe("InvalidPlan")
    expect(e.findings.map((f) => [f.rule, f.path])).toEqual([["EndlessPhaseNotLast", ["phases", 1, "cycle_count"]]])
  })

  it("the subscription-start anchor keeps the first billing day of month across phases", () => {
    const v = variation([
      { cycle_duration: "P1M", cycle_count: 1, amount: 100, currency: "GBP" },
      { cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" }
    ])
    const starts = (anchor: Schedule.Anchor) =>
      billed(
        Array.from(
          Result.getOrThrow(Schedule.simulate(v, { start: utc("2024-01-31T00:00:00Z"), anchor, until: { cycles: 4 } }))
        )
      ).map((c) => iso(c.start).slice(0, 10))
    expect(starts("phase-start")).toEqual(["2024-01-31", "2024-02-29", "2024-03-29", "2024-04-29"])
    expect(starts("subscription-start")).toEqual(["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30"])
  })

  it("horizons: until an instant (exclusive) and a number of cycles", () => {
    const v = variation([
      { cycle_duration: "P1M", cycle_count: 2 },
      { cycle_duration: "P1M", cycle_count: 1 }
    ])
    const start = utc("2024-01-01T00:00:00Z")
    const tags = (until: Schedule.Horizon) =>
      Array.from(Result.getOrThrow(Schedule.simulate(v, { start, until }))).map((e) => e._tag)
    expect(tags(utc("2024-02-01T00:00:00Z"))).toEqual(["PhaseEntered", "CycleBilled", "HorizonReached"])
    expect(tags({ cycles: 2 })).toEqual([
      "PhaseEntered",
      "CycleBilled",
      "CycleBilled",
      "PhaseCompleted",
      "HorizonReached"
    ])
    expect(tags({ cycles: 3 })).toEqual([
      "PhaseEntered",
      "CycleBilled",
      "CycleBilled",
      "PhaseCompleted",
      "PhaseEntered",
      "CycleBilled",
      "PhaseCompleted",
      "SubscriptionStopped"
    ])
    expect(tags({ cycles: 0 })).toEqual(["HorizonReached"])
    expect(Result.getOrThrow(Result.flip(Schedule.simulate(v, { start, until: { cycles: -1 } }))).reason).toBe(
      "InvalidHorizon"
    )
  })

  it("phaseAt costs the same for cycle 3 and cycle 30,000 and finds the half-open cycle", () => {
    const twoHourly = variation([{ cycle_duration: "PT2H", cycle_count: null }])
    const start = utc("2024-01-01T00:00:00Z")
    const at = (ms: number) => Result.getOrThrow(Schedule.phaseAt(twoHourly, { start }, DateTime.makeUnsafe(ms)))
    expect(at(start.epochMilliseconds + 30_000 * 7_200_000)).toMatchObject({ _tag: "InPhase", cycleIndex: 30_000 })
    expect(at(start.epochMilliseconds + 30_000 * 7_200_000 - 1)).toMatchObject({ _tag: "InPhase", cycleIndex: 29_999 })
  })

  it("totals over a horizon, and the recurring amount of an endless last phase", () => {
    const v = variation([
      { cycle_duration: "P1M", cycle_count: 3, amount: 499, currency: "GBP" },
      { cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" }
    ])
    const start = utc("2024-01-15T00:00:00Z")
    const twoYears = Result.getOrThrow(Schedule.totals(v, { start, until: utc("2026-01-15T00:00:00Z") }))
    expect(twoYears.cycles).toBe(24)
    expect(twoYears.byPhase.map((p) => [p.phaseId, p.cycles, p.amount])).toEqual([
      ["ph_1", 3, Option.some(1497n)],
      ["ph_2", 21, Option.some(20979n)]
    ])
    expect(twoYears.byCurrency).toEqual([{ currency: "GBP", amount: 22476n }])
    expect(Option.map(twoYears.recurring, (r) => [r.phaseId, IsoDuration.format(r.every), r.amount])).toEqual(
      Option.some(["ph_2", "P1M", Option.some(999)])
    )
    const lifetime = Result.getOrThrow(Schedule.totals(v, { start }))
    expect(lifetime.cycles).toBe(3)
    // the totals agree with the events
    const events = Array.from(Result.getOrThrow(Schedule.simulate(v, { start, until: utc("2026-01-15T00:00:00Z") })))
    expect(billed(events).length).toBe(twoYears.cycles)
  })

  it("simulateUnsafe throws the ScheduleError; unsafeSimulate is its deprecated alias", () => {
    const endlessMiddle = variation([{ cycle_count: 1 }, { cycle_count: null }, { cycle_count: 1 }])
    const start = utc("2024-01-01T00:00:00Z")
    expect(() => Schedule.simulateUnsafe(endlessMiddle, { start })).toThrow(Schedule.ScheduleError)
    expect(() => Schedule.simulateUnsafe(endlessMiddle, { start })).toThrow(/EndlessPhaseNotLast|never ends/)
    expect(billed(Array.from(Schedule.simulateUnsafe(monthly, { start, until: { cycles: 2 } })))).toHaveLength(2)
    expect(Schedule.unsafeSimulate).toBe(Schedule.simulateUnsafe)
  })

  it.effect("a refused variation fails the stream with the ScheduleError", () =>
    Effect.gen(function* () {
      const error = yield* Schedule.stream(monthly, { start: utc("2024-01-01T00:00:00Z"), until: { cycles: -1 } }).pipe(
        Stream.runCollect,
        Effect.flip
      )
      expect(error._tag).toBe("ScheduleError")
      expect(error.reason).toBe("InvalidHorizon")
      expect(error.message).toBe("until.cycles must be a whole number of at least 0; got -1")
    })
  )

  it.effect("streams the events", () =>
    Effect.gen(function* () {
      const events = yield* Schedule.stream(monthly, { start: utc("2024-01-31T00:00:00Z") }).pipe(
        Stream.take(3),
        Stream.runCollect
      )
      expect(events.map((e) => e._tag)).toEqual(["PhaseEntered", "CycleBilled", "CycleBilled"])
    })
  )
})
