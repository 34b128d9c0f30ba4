import { describe, expect, it } from "@effect/vitest"
import { SubscriptionPlan } from "@payrules/subscriptions"
import { schemaLaws } from "@payrules/vitest"
import { Arbitrary, Schema } from "effect"

describe("SubscriptionPlan", () => {
  // pages of up to 4 plans: Arbitrary.schema draws pages of up to 10 plans of up to 10 variations of up to 10 phases,
  // which cost seconds per law and test nothing the plan laws (SubscriptionPlan.laws.test.ts) do not
  schemaLaws("PlanListPage", SubscriptionPlan.PlanListPage, {
    numRuns: 50,
    arbitrary: Arbitrary.schema(
      Schema.Struct({
        ...SubscriptionPlan.PlanListPage.fields,
        subscription_plans: Schema.Array(SubscriptionPlan.SubscriptionPlan).check(Schema.isMaxLength(4))
      })
    )
  })

  // what users get without an override: pages of up to 10 plans of up to 10 variations of up to 10 phases
  it.prop(
    "Arbitrary.schema(PlanListPage) draws valid pages, strict and lenient",
    [SubscriptionPlan.PlanListPage, SubscriptionPlan.PlanListPageLenient],
    ([page, lenient]) => {
      expect(Schema.is(SubscriptionPlan.PlanListPage)(page)).toBe(true)
      expect(Schema.is(SubscriptionPlan.PlanListPageLenient)(lenient)).toBe(true)
    },
    { arbitrary: { runs: 10 } }
  )
})
