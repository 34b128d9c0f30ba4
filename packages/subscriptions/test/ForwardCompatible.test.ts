import { describe, expect, it } from "@effect/vitest"
import { OpenEnum } from "@payrules/lenient"
import { PlanCheck, Schedule, SubscriptionPlan } from "@payrules/subscriptions"
import { schemaLaws } from "@payrules/vitest"
import { Arbitrary, DateTime, Effect, Result, Schema } from "effect"
import { minimalPhase, minimalPlan } from "./fixtures.js"

// Issue 34: a plan state added to the API since, or one plan the reader cannot decode, never costs the caller the page.

const UnknownState = OpenEnum.UnknownFromString(SubscriptionPlan.PlanState.literals)

const planWire = (id: string, overrides: Record<string, unknown> = {}) => ({ ...minimalPlan, id, ...overrides })

const encodePlan = Schema.encodeSync(SubscriptionPlan.SubscriptionPlan)
const decodeStrictPlan = Schema.decodeUnknownSync(SubscriptionPlan.SubscriptionPlan)
/** what a server sends: the JSON text of an encoded plan, parsed */
const wireOf = (plan: SubscriptionPlan.SubscriptionPlan): unknown => JSON.parse(JSON.stringify(encodePlan(plan)))

/** pages of 1 to 4 plans: enough to place a bad one first, last or in between */
const Plans = Schema.Array(SubscriptionPlan.SubscriptionPlan).check(Schema.isMinLength(1), Schema.isMaxLength(4))
const Position = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 99 }))
const Corruption = Schema.Literals(["missing id", "not well-formed duration", "not an object", "lower-case currency"])

const corrupt = (wire: unknown, how: typeof Corruption.Type): unknown => {
  const plan = wire as Record<string, unknown>
  switch (how) {
    case "missing id": {
      const { id: _, ...rest } = plan
      return rest
    }
    case "not well-formed duration":
      return { ...plan, variations: [{ id: "v", phases: [{ ...minimalPhase, cycle_duration: "P0.5Y" }] }] }
    case "not an object":
      return "plan"
    case "lower-case currency":
      return { ...plan, variations: [{ id: "v", phases: [{ ...minimalPhase, amount: 100, currency: "gbp" }] }] }
  }
}

const start = DateTime.makeUnsafe("2025-05-01T00:00:00Z")

describe("a plan in a state added since (issue 34, done-when 1)", () => {
  it("a plan in a state added since (archived) no longer costs the caller the page", () => {
    const page = {
      next_page_token: "t2",
      subscription_plans: [planWire("a"), planWire("b", { state: "archived" }), planWire("c")]
    }
    const checked = Result.getOrThrow(PlanCheck.decodeAndCheck(page))
    expect(checked.page.next_page_token).toBe("t2")
    expect(checked.page.subscription_plans.map((p) => [p.id, p.state])).toEqual([
      ["a", "active"],
      ["b", { _tag: "Unknown", value: "archived" }],
      ["c", "active"]
    ])
    expect(checked.findings).toEqual([
      {
        severity: "warning",
        rule: "UnknownValue",
        path: ["subscription_plans", 1, "state"],
        message: expect.stringContaining('"archived"'),
        raw: "archived"
      }
    ])
    expect(checked.indices).toEqual([0, 1, 2])
  })

  it("the strict Schemas, for what we send, still refuse it at its path", () => {
    const strict = Schema.decodeUnknownResult(SubscriptionPlan.PlanListPage)({
      subscription_plans: [planWire("b", { state: "archived" })]
    })
    expect(Result.isFailure(strict)).toBe(true)
    expect(Result.isFailure(Schema.decodeUnknownResult(SubscriptionPlan.PlanState)("archived"))).toBe(true)
    expect(
      Result.isFailure(
        Schema.encodeUnknownResult(SubscriptionPlan.SubscriptionPlan)({
          ...decodeStrictPlan(planWire("b")),
          state: OpenEnum.unknown("archived")
        })
      )
    ).toBe(true)
  })

  it("a state that is not well-formed (empty, spaced) is still not a state: the plan is unreadable", () => {
    for (const state of ["", "in review", 7]) {
      const checked = Result.getOrThrow(PlanCheck.decodeAndCheck({ subscription_plans: [planWire("b", { state })] }))
      expect(checked.page.subscription_plans).toEqual([])
      expect(checked.findings.map((f) => [f.rule, f.path.join(".")])).toEqual([
        ["UnreadablePlan", "subscription_plans.0.state"]
      ])
    }
  })

  it.prop(
    "every well-formed state added since reads as Unknown with one UnknownValue finding naming it, never a failed page",
    [UnknownState],
    ([unknown]) => {
      const checked = PlanCheck.decodeAndCheck({
        subscription_plans: [planWire("a"), planWire("b", { state: unknown.value })]
      })
      expect(Result.isSuccess(checked)).toBe(true)
      const { findings, page } = Result.getOrThrow(checked)
      expect(page.subscription_plans[1]!.state).toEqual(unknown)
      expect(findings).toHaveLength(1)
      expect(findings[0]).toMatchObject({
        rule: "UnknownValue",
        path: ["subscription_plans", 1, "state"],
        raw: unknown.value
      })
      expect(findings[0]!.message).toContain(JSON.stringify(unknown.value))
      // encoded back, the state is the text that was read
      expect(Schema.encodeSync(SubscriptionPlan.SubscriptionPlanLenient)(page.subscription_plans[1]!).state).toBe(
        unknown.value
      )
    },
    { arbitrary: { runs: 200 } }
  )

  it.prop(
    "a known state, and any valid plan, read leniently exactly as the strict Schema reads it, without an UnknownValue",
    [SubscriptionPlan.SubscriptionPlan],
    ([plan]) => {
      const wire = wireOf(plan)
      const { findings, page } = Result.getOrThrow(PlanCheck.decodeAndCheck({ subscription_plans: [wire] }))
      expect(page.subscription_plans).toEqual([decodeStrictPlan(wire)])
      expect(findings.filter((f) => f.rule === "UnknownValue" || f.rule === "UnreadablePlan")).toEqual([])
      expect(Schema.decodeUnknownSync(SubscriptionPlan.PlanStateLenient)(plan.state)).toBe(plan.state)
    },
    { arbitrary: { runs: 50 } }
  )
})

describe("one plan the reader cannot decode (issue 34, done-when 1)", () => {
  it("a page with one undecodable plan reads as the others plus a finding naming its index and path", () => {
    const bad = planWire("b", { variations: [{ id: "v", phases: [{ ...minimalPhase, cycle_duration: "P0.5Y" }] }] })
    const page = {
      subscription_plans: [planWire("a"), bad, planWire("c", { variations: [{ id: "v", phases: [] }] })]
    }
    const checked = Result.getOrThrow(PlanCheck.decodeAndCheck(page))
    expect(checked.page.subscription_plans.map((p) => p.id)).toEqual(["a", "c"])
    expect(checked.indices).toEqual([0, 2])
    expect(checked.findings.map((f) => [f.severity, f.rule, f.path.join(".")])).toEqual([
      ["error", "UnreadablePlan", "subscription_plans.1.variations.0.phases.0.cycle_duration"],
      // the paths of the plans after it still name the page as sent
      ["error", "NoPhases", "subscription_plans.2.variations.0.phases"]
    ])
    expect(checked.findings[0]!.raw).toBe(bad)
    expect(checked.findings[0]!.message).toMatch(/^plan 1 \(id "b"\) could not be read and is left out of the page: /)
  })

  it("an UnreadablePlan finding's message: the plan's index, its id when it has a text one (at most 64 characters), where in the plan it failed and why (bug: an id that is not text quoted, a long id quoted whole, or a root fault written \"at , \")", () => {
    const badDuration = { variations: [{ id: "v", phases: [{ ...minimalPhase, cycle_duration: "P0.5Y" }] }] }
    const long = "p".repeat(100)
    const sent = [
      planWire("a"),
      planWire("b", badDuration),
      "plan",
      { ...planWire("c", badDuration), id: 5 },
      planWire(long, badDuration),
      null
    ]
    const { findings } = Result.getOrThrow(PlanCheck.decodeAndCheck({ subscription_plans: sent }))
    const messages = findings.filter((f) => f.rule === "UnreadablePlan").map((f) => f.message)
    const left = "could not be read and is left out of the page:"
    const duration =
      'Invalid ISO 8601 duration "P0.5Y" at position 1: ISO 8601 allows a fraction on the smallest date unit (P0.5Y), but Temporal\'s grammar, which payrules follows, allows fractions only on hours, minutes or seconds'
    expect(messages).toEqual([
      `plan 1 (id "b") ${left} at variations.0.phases.0.cycle_duration, ${duration}`,
      // a fault of the plan itself: no place inside it to name
      `plan 2 ${left} Expected SubscriptionPlanLenient`,
      // an id that is not text is not quoted as one
      `plan 3 ${left} at id, Expected string`,
      `plan 4 (id "${"p".repeat(64)}") ${left} at variations.0.phases.0.cycle_duration, ${duration}`,
      `plan 5 ${left} Expected SubscriptionPlanLenient`
    ])
  })

  it("an envelope that is not well-formed is still an error, with every fault", () => {
    const error = PlanCheck.decodeAndCheck({ subscription_plans: {}, next_page_token: 1 })
    expect(Result.isFailure(error)).toBe(true)
    expect(Result.isFailure(PlanCheck.decodeAndCheck([]))).toBe(true)
  })

  it.prop(
    "one corrupted plan per page: the others read as the strict Schema reads them, plus one UnreadablePlan at its index",
    [Plans, Position, Corruption],
    ([plans, position, how]) => {
      const index = position % plans.length
      const wires = plans.map(wireOf)
      const bad = corrupt(wires[index], how)
      const sent = wires.map((w, i) => (i === index ? bad : w))
      const checked = PlanCheck.decodeAndCheck({ subscription_plans: sent })
      expect(Result.isSuccess(checked)).toBe(true)
      const { findings, indices, page } = Result.getOrThrow(checked)
      expect(page.subscription_plans).toEqual(wires.filter((_, i) => i !== index).map((w) => decodeStrictPlan(w)))
      expect(indices).toEqual(wires.map((_, i) => i).filter((i) => i !== index))
      const unreadable = findings.filter((f) => f.rule === "UnreadablePlan")
      expect(unreadable).toHaveLength(1)
      expect(unreadable[0]!.path.slice(0, 2)).toEqual(["subscription_plans", index])
      expect(unreadable[0]!.raw).toBe(bad)
      expect(unreadable[0]!.severity).toBe("error")
      // every other finding is one of a plan that was read, at its index as sent
      for (const f of findings) expect(f.rule === "UnreadablePlan" || indices.includes(f.path[1] as number)).toBe(true)
    },
    { arbitrary: { runs: 60 } }
  )
})

describe("the laws of the Schemas that read plans (issue 34)", () => {
  schemaLaws("PlanStateLenient", SubscriptionPlan.PlanStateLenient, { numRuns: 200 })
  schemaLaws("PlanListEnvelope", SubscriptionPlan.PlanListEnvelope, { numRuns: 50 })

  it.effect(
    "the lenient state's arbitrary draws states added since beside the known ones, so users' properties meet them",
    () =>
      Effect.gen(function* () {
        const states = yield* Arbitrary.sampleEffect(Arbitrary.schema(SubscriptionPlan.PlanStateLenient), {
          count: 200,
          seed: 34
        })
        expect(states.some(OpenEnum.isUnknown)).toBe(true)
        expect(states.some((s) => s === "active" || s === "deactivated")).toBe(true)
      })
  )
})

describe("the simulator says what an unknown state means (issue 34)", () => {
  const read = (state: string) =>
    Result.getOrThrow(PlanCheck.decodeAndCheck({ subscription_plans: [planWire("p", { state })] })).page
      .subscription_plans[0]!

  it("a plan in a state it cannot read is refused with UnknownPlanState and the UnknownValue finding", () => {
    const simulated = Schedule.simulatePlan(read("archived"), { start, until: { cycles: 3 } })
    const error = Result.getOrThrow(Result.flip(simulated))
    expect(error).toMatchObject({ _tag: "ScheduleError", reason: "UnknownPlanState" })
    expect(error.message).toContain('"archived"')
    expect(error.findings.map((f) => [f.rule, f.path.join(".")])).toEqual([["UnknownValue", "state"]])
    expect(Result.isFailure(Schedule.forPlan(read("archived"), { start }))).toBe(true)
  })

  it("a deactivated plan is simulated as before (it still bills the subscriptions it has)", () => {
    const events = Result.getOrThrow(Schedule.simulatePlan(read("deactivated"), { start, until: { cycles: 3 } }))
    expect([...events].filter(Schedule.Event.$is("CycleBilled"))).toHaveLength(3)
  })

  it.prop(
    "every state added since is refused with UnknownPlanState, never simulated on a guess",
    [UnknownState],
    ([unknown]) => {
      const simulated = Schedule.simulatePlan(read(unknown.value), { start, until: { cycles: 1 } })
      expect(Result.isFailure(simulated) && simulated.failure.reason).toBe("UnknownPlanState")
    },
    { arbitrary: { runs: 100 } }
  )

  it("a variation whose phases it cannot read (cast from JSON) is refused with UnreadablePhases, not a TypeError", () => {
    const cast = { id: "v", phases: [minimalPhase] } as unknown as SubscriptionPlan.Variation
    const simulated = Schedule.simulate(cast, { start, until: { cycles: 1 } })
    const error = Result.getOrThrow(Result.flip(simulated))
    expect(error.reason).toBe("UnreadablePhases")
    expect(error.message).toContain("phases.0.cycle_duration")
    const notAList = { id: "v", phases: "P1M" } as unknown as SubscriptionPlan.Variation
    expect(Result.getOrThrow(Result.flip(Schedule.totals(notAList, { start }))).reason).toBe("UnreadablePhases")
    const plan = { ...decodeStrictPlan(planWire("p")), variations: [cast] }
    expect(Result.getOrThrow(Result.flip(Schedule.simulatePlan(plan, { start }))).reason).toBe("UnreadablePhases")
  })
})
