import { describe, expect, it } from "@effect/vitest"
import { PlanCheck, Schedule, type SubscriptionPlan } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import * as Result from "effect/Result"
import { minimalPhase, minimalPlan, variation } from "./fixtures.js"

// What the simulator says when it cannot read a plan: which variation, how many of its phases, and where the first
// fault is, so that the caller can find it; never a TypeError, never a simulation on a guess.

const start = DateTime.makeUnsafe("2025-05-01T00:00:00Z")
const cast = (v: unknown) => v as SubscriptionPlan.Variation
const errorOf = (v: unknown) => Result.getOrThrow(Result.flip(Schedule.compile(cast(v), { start })))

describe("a variation the simulator cannot read", () => {
  it("no variation at all (null from JSON): refused as UnreadablePhases, named 'the variation', not a TypeError", () => {
    for (const v of [null, undefined, "var_1", { id: "v" }, { id: "v", phases: null }, { id: "v", phases: {} }]) {
      const error = errorOf(v)
      expect(error.reason).toBe("UnreadablePhases")
      expect(error.findings).toEqual([])
      expect(error.message).toMatch(/cannot be simulated: its phases are not a list of phases$/)
    }
    expect(errorOf(null).message).toBe("the variation cannot be simulated: its phases are not a list of phases")
    // an id that is not text is not shown as one
    expect(errorOf({ id: 42, phases: "P1M" }).message.startsWith("the variation ")).toBe(true)
    expect(errorOf({ id: "var_9", phases: "P1M" }).message.startsWith("variation var_9 ")).toBe(true)
  })

  it("phases read from JSON but not decoded: it counts them and points at the first bad field", () => {
    const good = variation([{}]).phases[0]!
    const error = errorOf({ id: "var_2", phases: [good, minimalPhase, { ...minimalPhase, ordinal: 3 }] })
    expect(error.reason).toBe("UnreadablePhases")
    expect(error.message).toMatch(
      /^variation var_2 cannot be simulated: 2 of its 3 phases cannot be read \(phases\.1\.cycle_duration: .+\)$/
    )
    const one = errorOf({ id: "var_3", phases: [good, good, "P1M"] })
    expect(one.message).toMatch(
      /^variation var_3 cannot be simulated: 1 of its 3 phases cannot be read \(phases\.2: .+\)$/
    )
  })

  it("readable phases are simulated", () => {
    expect(Result.isSuccess(Schedule.compile(variation([{ cycle_count: 2 }, {}]), { start }))).toBe(true)
  })
})

describe("a plan in a state this version does not know", () => {
  it("the error carries the state's UnknownValue finding only, not the plan's other findings", () => {
    const read = Result.getOrThrow(
      PlanCheck.decodeAndCheck({
        subscription_plans: [
          {
            ...minimalPlan,
            state: "archived",
            // a phase whose amount has no currency: a finding of its own, which the refusal does not repeat
            variations: [{ id: "var", phases: [{ ...minimalPhase, amount: 100 }] }]
          }
        ]
      })
    )
    const plan = read.page.subscription_plans[0]!
    expect(PlanCheck.check(plan).map((f) => f.rule)).toContain("UnknownValue")
    expect(PlanCheck.check(plan).length).toBeGreaterThan(1)
    const error = Result.getOrThrow(Result.flip(Schedule.forPlan(plan, { start })))
    expect(error.reason).toBe("UnknownPlanState")
    expect(error.findings.map((f) => [f.rule, f.path.join(".")])).toEqual([["UnknownValue", "state"]])
    expect(error.message).toBe(
      'plan pln is in state "archived", which this version of payrules does not know: what it bills is unknown, so it is not simulated'
    )
  })
})
