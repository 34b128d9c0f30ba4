import { describe, expect, it } from "@effect/vitest"
import { PlanCheck } from "@payrules/subscriptions"
import { issuesOf } from "@payrules/vitest"
import { Result } from "effect"
import fc from "fast-check"
import { minimalPhase, minimalPlan, type PhaseWire, variation } from "./fixtures.js"

/** every field of every finding of a variation, the path joined */
const findings = (phases: ReadonlyArray<Partial<PhaseWire>>) =>
  PlanCheck.checkVariation(variation(phases)).map((f) => [f.severity, f.rule, f.path.join("."), f.message])

describe("PlanCheck messages and paths (named after the bugs they guard)", () => {
  it("NoPhases points at the variation's phases, from the variation and from the plan, and names the variation", () => {
    const empty = { id: "v_empty", phases: [] }
    expect(PlanCheck.checkVariation(empty)).toEqual([
      { severity: "error", rule: "NoPhases", path: ["phases"], message: "variation v_empty has no phases" }
    ])
    const plan = { variations: [variation([{ cycle_count: null }]), empty] } as unknown as Parameters<
      typeof PlanCheck.check
    >[0]
    expect(PlanCheck.check(plan).map((f) => f.path)).toEqual([["variations", 1, "phases"]])
  })

  it("each error and warning says what is wrong with the values it found", () => {
    expect(
      findings([
        { id: "a", cycle_count: 1 },
        { id: "a", cycle_count: null }
      ])
    ).toEqual([["warning", "DuplicatePhaseId", "phases.1.id", "phases 0 and 1 share the id a"]])
    expect(findings([{ cycle_count: 0 }])).toEqual([
      ["error", "CycleCountBelowOne", "phases.0.cycle_count", "cycle_count is 0; it must be at least 1"]
    ])
    expect(findings([{ cycle_duration: "PT0S", cycle_count: null }])).toEqual([
      [
        "error",
        "ZeroLengthCycle",
        "phases.0.cycle_duration",
        "cycle_duration PT0S has zero length: the phase would never advance"
      ]
    ])
    expect(findings([{ cycle_duration: "-P1W", cycle_count: null }])).toEqual([
      ["error", "NegativeCycle", "phases.0.cycle_duration", "cycle_duration -P1W is negative"]
    ])
    expect(
      findings([
        { cycle_count: 1, ordinal: 1 },
        { cycle_count: null, ordinal: 3 }
      ])
    ).toEqual([["warning", "OrdinalGap", "phases.1.ordinal", "ordinal 3 follows 1: ordinals in between are missing"]])
    expect(findings([{ cycle_count: null, ordinal: 2 }])).toEqual([
      ["warning", "OrdinalGap", "phases.0.ordinal", "the first phase has ordinal 2; ordinals usually start at 1"]
    ])
    expect(
      findings([
        { id: "intro", cycle_count: 1, amount: 1, currency: "GBP" },
        { id: "full", cycle_count: null, amount: 1, currency: "EUR" }
      ])
    ).toEqual([
      [
        "warning",
        "CurrencyChange",
        "phases.1.currency",
        "the currency changes from GBP (phase intro) to EUR (phase full)"
      ]
    ])
  })

  it("IncompletePrice says which half of the price is missing, at the missing field", () => {
    expect(findings([{ cycle_count: null, currency: "GBP" }])).toEqual([
      [
        "warning",
        "IncompletePrice",
        "phases.0.amount",
        "currency without amount: cycles of this phase bill an unknown amount"
      ]
    ])
    expect(findings([{ cycle_count: null, amount: 499 }])).toEqual([
      [
        "warning",
        "IncompletePrice",
        "phases.0.currency",
        "amount without currency: cycles of this phase bill an amount of unknown currency"
      ]
    ])
  })

  it("EndlessPhaseNotLast counts the phases after the endless one, wherever it stands", () => {
    for (let at = 0; at < 4; at++) {
      const phases = [0, 1, 2, 3, 4].map((i) => ({ cycle_count: i === at ? null : 1 }))
      const endless = findings(phases).filter(([, rule]) => rule === "EndlessPhaseNotLast")
      expect(endless).toEqual([
        [
          "error",
          "EndlessPhaseNotLast",
          `phases.${at}.cycle_count`,
          `phase ph_${at + 1} (ordinal ${at + 1}) never ends, so the ${4 - at} phase(s) after it are never reached`
        ]
      ])
    }
  })

  it("CurrencyChange is reported exactly where two consecutive phases both have a currency and they differ, never next to a phase without one", () => {
    const currency = fc.option(fc.constantFrom("GBP", "EUR", "JPY"), { nil: undefined })
    fc.assert(
      fc.property(fc.array(currency, { minLength: 1, maxLength: 6 }), (currencies) => {
        // a price on every phase with a currency, so that IncompletePrice stays out of the way
        const phases = currencies.map((c, i) => ({
          cycle_count: i === currencies.length - 1 ? null : 1,
          ...(c === undefined ? {} : { amount: 100, currency: c })
        }))
        const expected = currencies.flatMap((c, i) =>
          i > 0 && c !== undefined && currencies[i - 1] !== undefined && currencies[i - 1] !== c
            ? [`phases.${i}.currency`]
            : []
        )
        const got = PlanCheck.checkVariation(variation(phases))
          .filter((f) => f.rule === "CurrencyChange")
          .map((f) => f.path.join("."))
        expect(got).toEqual(expected)
      }),
      { numRuns: 300 }
    )
    // the cases that matter, by hand
    const changes = (...cs: ReadonlyArray<string | undefined>) =>
      PlanCheck.checkVariation(
        variation(cs.map((c) => ({ cycle_count: 1, ...(c === undefined ? {} : { amount: 1, currency: c }) })))
      ).filter((f) => f.rule === "CurrencyChange").length
    expect([
      changes("GBP", undefined),
      changes(undefined, "GBP"),
      changes("GBP", "GBP"),
      changes("GBP", "EUR")
    ]).toEqual([0, 0, 0, 1])
  })

  it("decodeAndCheck reports every fault of a page that is not well-formed, not only the first", () => {
    const broken = { next_page_token: 7, subscription_plans: "none" }
    const error = Result.getOrThrow(Result.flip(PlanCheck.decodeAndCheck(broken)))
    expect(issuesOf(error).map((i) => i.path.join("."))).toEqual(["next_page_token", "subscription_plans"])
  })

  it("decodeAndCheck reads a page whose plans break rules: each fault a finding, the page kept (issue 34)", () => {
    // before issue 34 this page failed whole, with the two faults as the issues of a SchemaError
    const broken = {
      subscription_plans: [
        { ...minimalPlan, state: "archived" },
        { ...minimalPlan, variations: [{ id: "var", phases: [{ ...minimalPhase, currency: "xyz" }] }] }
      ]
    }
    const checked = Result.getOrThrow(PlanCheck.decodeAndCheck(broken))
    expect(checked.page.subscription_plans.map((p) => p.state)).toEqual([{ _tag: "Unknown", value: "archived" }])
    expect(checked.findings.map((f) => f.path.join("."))).toEqual([
      "subscription_plans.0.state",
      "subscription_plans.1.variations.0.phases.0.currency"
    ])
  })
})
