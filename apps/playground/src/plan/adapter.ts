/**
 * The one place where the playground reads a plan through `PlanCheck` and the plan Schemas: what the plan panel
 * shows (a decoded plan to simulate, its findings, the faults that keep it from being read) comes from here only.
 *
 * Today `PlanCheck.decodeAndCheck` reads a page leniently (a currency code not on the ISO 4217 list is a finding,
 * not a failed read) and fails the whole page when anything else is malformed. Issue 34 changes that: unknown enum
 * values become `{ _tag: "Unknown", value }` findings and a page keeps its readable items; when it lands, this
 * module is what changes.
 */
import { PlanCheck, SubscriptionPlan } from "@payrules/subscriptions"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type Issue, issuesOf } from "../json/issues.js"
import type { Path } from "../json/locate.js"

export interface Finding {
  readonly severity: "error" | "warning"
  readonly rule: string
  /** from the plan: `["variations", 0, "phases", 1, "ordinal"]` */
  readonly path: Path
  readonly message: string
}

/** a plan as `PlanCheck` reads it from a page (leniently: what `Schedule.forPlan` takes) */
export type Plan = PlanCheck.CheckedPage["page"]["subscription_plans"][number]

export type Reading =
  /** read: the plan, and what the checks found (errors keep it from being simulated) */
  | { readonly _tag: "Read"; readonly plan: Plan; readonly findings: ReadonlyArray<Finding> }
  /** not a plan: every fault, with its path from the plan */
  | { readonly _tag: "Malformed"; readonly issues: ReadonlyArray<Issue> }

const prefix = ["subscription_plans", 0] as const

const fromPlan = (path: ReadonlyArray<unknown>): Path => {
  const rest = path[0] === prefix[0] && path[1] === prefix[1] ? path.slice(2) : path
  return rest.map((s) => (typeof s === "number" ? s : String(s)))
}

const decodeAll = Schema.decodeUnknownResult(SubscriptionPlan.SubscriptionPlanLenient, { errors: "all" })

const malformed = (issues: ReadonlyArray<Issue>): Reading => ({ _tag: "Malformed", issues })

/**
 * Reads one plan (the JSON value of a plan object) as a client reads a page of GET /api/subscription-plans: a page
 * of this one plan through `PlanCheck.decodeAndCheck`. A plan that cannot be read (the whole page fails today; the
 * page leaves the plan out with an `UnreadablePlan` finding after issue 34) is listed with every fault the lenient
 * plan Schema finds in it.
 */
export const readPlan = (json: unknown): Reading =>
  Result.match(PlanCheck.decodeAndCheck({ subscription_plans: [json] }), {
    onFailure: (error) => malformed(issuesOf(error).map((issue) => ({ ...issue, path: fromPlan(issue.path) }))),
    onSuccess: ({ findings, page }): Reading => {
      const found = findings.map((f) => ({
        severity: f.severity,
        rule: f.rule,
        path: fromPlan(f.path),
        message: f.message
      }))
      const plan = page.subscription_plans[0]
      if (plan !== undefined) return { _tag: "Read", plan, findings: found }
      return Result.match(decodeAll(json), {
        onFailure: (error) => malformed(issuesOf(error)),
        onSuccess: () => malformed(found)
      })
    }
  })
