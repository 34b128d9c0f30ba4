import { describe } from "@effect/vitest"
import { SubscriptionPlan } from "@payrules/subscriptions"
import { schemaLaws } from "@payrules/vitest"
import { Arbitrary, Schema } from "effect"

describe("SubscriptionPlan", () => {
  // pages of up to 4 plans: Arbitrary.make draws pages of up to 10 plans of up to 10 variations of up to 10 phases,
  // which cost seconds per law and test nothing the plan laws (SubscriptionPlan.laws.test.ts) do not
  schemaLaws("PlanListPage", SubscriptionPlan.PlanListPage, {
    numRuns: 50,
    arbitrary: Arbitrary.make(
      Schema.Struct({
        ...SubscriptionPlan.PlanListPage.fields,
        subscription_plans: Schema.Array(SubscriptionPlan.SubscriptionPlan).pipe(Schema.maxItems(4))
      })
    )
  })
})
