/**
 * What the simulator can read: a plan whose state this version knows, and a variation whose phases are phases (a
 * value built by hand or cast from JSON may not be). Checked before anything is placed in time, so a plan the
 * simulator cannot read is refused with a typed reason, never simulated on a guess nor a `TypeError`.
 *
 * @internal
 */
import { ItemList, OpenEnum } from "@payrules/lenient"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as PlanCheck from "../PlanCheck.js"
import { PhaseLenient, type SubscriptionPlanLenient, type Variation } from "../SubscriptionPlan.js"
import { type Failure, fail } from "./timeline.js"

const readPhases = ItemList.decode(Schema.toType(PhaseLenient), { prefix: ["phases"] })

/**
 * Refuses a variation whose phases are not an array of phases (`UnreadablePhases`), naming the first fault.
 *
 * @internal
 */
export const phases = (variation: Variation): Result.Result<void, Failure> => {
  const id = typeof variation?.id === "string" ? `variation ${variation.id}` : "the variation"
  if (!Array.isArray(variation?.phases)) {
    return fail("UnreadablePhases", `${id} cannot be simulated: its phases are not a list of phases`)
  }
  const { unreadable } = readPhases(variation.phases)
  if (unreadable.length === 0) return Result.void
  const first = unreadable[0]!
  return fail(
    "UnreadablePhases",
    `${id} cannot be simulated: ${unreadable.length} of its ${variation.phases.length} phases cannot be read (${first.path.map(String).join(".")}: ${first.message})`
  )
}

/**
 * Refuses a plan in a state this version does not know (`UnknownPlanState`): what such a plan bills is unknown.
 *
 * @internal
 */
export const state = (plan: SubscriptionPlanLenient): Result.Result<void, Failure> =>
  OpenEnum.isUnknown(plan.state)
    ? fail(
        "UnknownPlanState",
        `plan ${plan.id} is in state ${JSON.stringify(plan.state.value)}, which this version of payrules does not know: what it bills is unknown, so it is not simulated`,
        PlanCheck.check(plan).filter((f) => f.rule === "UnknownValue")
      )
    : Result.void
