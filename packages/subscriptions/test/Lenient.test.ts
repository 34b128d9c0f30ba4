import { describe, expect, it } from "@effect/vitest"
import { Currency } from "@payrules/money"
import { PlanCheck, SubscriptionPlan } from "@payrules/subscriptions"
import { issuesOf, schemaLaws } from "@payrules/vitest"
import { Result, Schema } from "effect"
import fc from "fast-check"

const planIn = (currency: string) => ({
  id: "8e1c4f0a-3b5d-4c2e-9f6a-1d2b3c4d5e6f",
  name: "Caribbean",
  state: "active",
  created_at: "2025-04-01T00:00:00Z",
  updated_at: "2025-04-01T00:00:00Z",
  variations: [
    {
      id: "0b9f7d1e-2c3a-4b5d-8e6f-7a8b9c0d1e2f",
      phases: [
        { id: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", ordinal: 1, cycle_duration: "P1M", amount: 1500, currency }
      ]
    }
  ]
})

const unlisted = fc.stringMatching(/^[A-Z]{3}$/).filter((code) => !Currency.isKnown(code))

describe("lenient plans (D11)", () => {
  it("a plan in a well-formed unlisted currency (XYZ) decodes with a CurrencyNotListed warning", () => {
    const checked = Result.getOrThrow(PlanCheck.decodeAndCheck({ subscription_plans: [planIn("XYZ")] }))
    expect(checked.page.subscription_plans[0]!.variations[0]!.phases[0]!.currency).toBe("XYZ")
    expect(checked.findings).toEqual([
      {
        severity: "warning",
        rule: "CurrencyNotListed",
        path: ["subscription_plans", 0, "variations", 0, "phases", 0, "currency"],
        message: expect.stringContaining("XYZ is not on the ISO 4217 list bundled here (published 2026-01-01)")
      }
    ])
  })

  it("the strict Schema, for what we send, still refuses it, at its path", () => {
    const strict = Schema.decodeUnknownResult(SubscriptionPlan.PlanListPage)({ subscription_plans: [planIn("XYZ")] })
    expect(Result.isFailure(strict)).toBe(true)
    const issues = Result.isFailure(strict) ? issuesOf(strict.failure) : []
    expect(issues.map((i) => i.path.join("."))).toEqual(["subscription_plans.0.variations.0.phases.0.currency"])
    expect(issues[0]!.message).toContain("XYZ is not an ISO 4217 currency code")
  })

  it("a code that is not well-formed is still an error of the lenient Schema", () => {
    const decodePlan = Schema.decodeUnknownResult(SubscriptionPlan.SubscriptionPlanLenient)
    expect(Result.isFailure(decodePlan(planIn("xyz")))).toBe(true)
    expect(Result.isFailure(decodePlan(planIn("XYZW")))).toBe(true)
    // since issue 34 the page reader keeps the page and reports the plan it cannot read
    for (const code of ["xyz", "XYZW"]) {
      const checked = Result.getOrThrow(PlanCheck.decodeAndCheck({ subscription_plans: [planIn(code)] }))
      expect(checked.page.subscription_plans).toEqual([])
      expect(checked.findings.map((f) => [f.severity, f.rule, f.path.join(".")])).toEqual([
        ["error", "UnreadablePlan", "subscription_plans.0.variations.0.phases.0.currency"]
      ])
    }
  })

  it("every unlisted well-formed code: lenient reads it with one finding, strict refuses it", () => {
    fc.assert(
      fc.property(unlisted, (code) => {
        const checked = PlanCheck.decodeAndCheck({ subscription_plans: [planIn(code)] })
        const strict = Schema.decodeUnknownResult(SubscriptionPlan.SubscriptionPlan)(planIn(code))
        return (
          Result.isSuccess(checked) &&
          checked.success.findings.length === 1 &&
          checked.success.findings[0]!.rule === "CurrencyNotListed" &&
          Result.isFailure(strict)
        )
      }),
      { numRuns: 100 }
    )
  })

  it("a listed code gives no CurrencyNotListed finding, and both Schemas read it the same", () => {
    for (const { code } of Currency.all) {
      const checked = Result.getOrThrow(PlanCheck.decodeAndCheck({ subscription_plans: [planIn(code)] }))
      expect(checked.findings.filter((f) => f.rule === "CurrencyNotListed")).toEqual([])
      expect(Schema.decodeUnknownSync(SubscriptionPlan.SubscriptionPlan)(planIn(code))).toEqual(
        checked.page.subscription_plans[0]
      )
    }
  })

  it("ids and durations carry the formats of the official document in their JSON Schema", () => {
    const document = Schema.toJsonSchemaDocument(SubscriptionPlan.PlanListPage)
    const json = JSON.stringify(document)
    type Node = { readonly properties: { readonly id: unknown } }
    const defs = document.definitions as unknown as Record<string, Node>
    expect(defs.SubscriptionPlan!.properties.id).toMatchObject({ type: "string", format: "uuid" })
    expect(defs.Variation!.properties.id).toMatchObject({ type: "string", format: "uuid" })
    expect(defs.Phase!.properties.id).toMatchObject({ type: "string", format: "uuid" })
    expect(defs.CycleDuration).toMatchObject({ type: "string", format: "duration" })
    expect(defs.TrialDuration).toMatchObject({ type: "string", format: "duration", pattern: "^P[0-9]+D$" })
    expect(json).toContain('"format":"date-time"')
  })

  schemaLaws("PhaseLenient", SubscriptionPlan.PhaseLenient, { numRuns: 100 })
  schemaLaws("VariationLenient", SubscriptionPlan.VariationLenient, { numRuns: 50 })
  schemaLaws("SubscriptionPlanLenient", SubscriptionPlan.SubscriptionPlanLenient, { numRuns: 30 })
  schemaLaws("PlanListPageLenient", SubscriptionPlan.PlanListPageLenient, { numRuns: 8 })
})
