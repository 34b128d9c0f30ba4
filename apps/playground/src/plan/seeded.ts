/**
 * The sandbox's 15 showcase plans (`PlanShapes` of `@payrules/subscriptions`, plain data: nothing of the sandbox's server comes
 * into the page) as plan JSON to edit, with readable ids: the sandbox gives each seed its own UUIDs.
 */
import { PlanShapes } from "@payrules/subscriptions"

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 24)
    .replace(/-$/, "")

export interface Seeded {
  readonly name: string
  /** the plan as JSON text, two-space indented */
  readonly json: string
}

export const seeded: ReadonlyArray<Seeded> = PlanShapes.plans.map((plan, i) => {
  const value = {
    id: `pln_${slug(plan.name)}`,
    name: plan.name,
    state: plan.state,
    ...(plan.trial_duration === undefined ? {} : { trial_duration: plan.trial_duration }),
    created_at: "2025-01-01T00:00:00Z",
    updated_at: "2025-01-01T00:00:00Z",
    variations: plan.variations.map((phases, v) => ({
      id: plan.variations.length === 1 ? `var_${i + 1}` : `var_${i + 1}_${v + 1}`,
      phases
    }))
  }
  return { name: plan.name, json: JSON.stringify(value, null, 2) }
})

/** the index of a seeded plan whose text this is, when it is one unedited */
export const seededIndex = (json: string): number | undefined => {
  const i = seeded.findIndex((s) => s.json === json)
  return i < 0 ? undefined : i
}
