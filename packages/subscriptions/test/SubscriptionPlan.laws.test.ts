import { describe } from "@effect/vitest"
import { SubscriptionPlan } from "@payrules/subscriptions"
import { schemaLaws } from "@payrules/vitest"

// the laws of the plan Schemas (the page's are in PlanListPage.laws.test.ts: each file stays short on a busy machine)
describe("SubscriptionPlan", () => {
  schemaLaws("Phase", SubscriptionPlan.Phase)
  schemaLaws("Variation", SubscriptionPlan.Variation)
  schemaLaws("SubscriptionPlan", SubscriptionPlan.SubscriptionPlan, { numRuns: 100 })
})
