/**
 * `payrules plans`: the subscription plans of the embedded sandbox or of a real API, with their ids (to give to
 * `simulate --plan`), names, variations and phases.
 *
 * @since 0.1.0
 */
import { IsoDuration } from "@payrules/iso8601"
import { type PlanCheck, ScheduleSvg, SubscriptionPlan } from "@payrules/subscriptions"
import { MerchantClient } from "@payrules/transport"
import * as Console from "effect/Console"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { Apis, apiFailure, baseUrlOption } from "../Apis.js"
import * as Checks from "../Checks.js"
import * as Flags from "../Flags.js"
import * as Text from "../Text.js"

type Plan = SubscriptionPlan.SubscriptionPlanLenient
type Phase = SubscriptionPlan.Phase

/**
 * A phase in one line: `intro P1M × 3 £4.99`, `standard P1M £9.99, no end`.
 *
 * @since 0.1.0
 * @category renderings
 */
export const phaseLine = (p: Phase): string => {
  const count = p.cycle_count === undefined || p.cycle_count === null ? ", no end" : ""
  const times = count === "" ? ` × ${p.cycle_count}` : ""
  const amount = Option.isSome(Option.fromNullishOr(p.amount))
    ? ` ${ScheduleSvg.price(Option.fromNullishOr(p.amount), Option.fromNullishOr(p.currency))}`
    : " (no price)"
  return `${p.id} ${IsoDuration.format(p.cycle_duration)}${times}${amount}${count}`
}

/**
 * The plans as text: a count, then per plan its id, name, state and trial, and a line per variation with its
 * phases in ordinal order.
 *
 * @since 0.1.0
 * @category renderings
 */
export const table = (plans: ReadonlyArray<Plan>): string => {
  const lines = [`${plans.length} plan${plans.length === 1 ? "" : "s"}`]
  for (const plan of plans) {
    const trial = plan.trial_duration === undefined ? "" : `, trial ${IsoDuration.format(plan.trial_duration)}`
    const state =
      typeof plan.state === "string" ? plan.state : `${plan.state.value}: a state this version does not know`
    lines.push("", `${plan.id}  ${plan.name} (${state}${trial})`)
    for (const v of plan.variations) {
      const phases = [...v.phases].sort((a, b) => a.ordinal - b.ordinal)
      lines.push(`  ${v.id}: ${phases.map(phaseLine).join(" → ")}`)
    }
  }
  // names, ids and states are the API's: their control characters shown, not obeyed
  return lines.map(Text.visible).join("\n")
}

/**
 * The findings of the pages read, one line each as `payment` prints its findings, the page named when there are
 * several: a plan in a state added to the API since (`UnknownValue`), a plan left out because it could not be read
 * (`UnreadablePlan`, with its index and path in the page), and the checks of the plans read (D3, `CurrencyNotListed`).
 *
 * @since 0.2.0
 * @category renderings
 */
export const findingLines = (
  pages: ReadonlyArray<{ readonly findings: ReadonlyArray<PlanCheck.Finding> }>
): ReadonlyArray<string> =>
  pages.flatMap((page, k) =>
    page.findings.map((f) =>
      Text.visible(`${f.severity}: ${pages.length > 1 ? `page ${k + 1}, ` : ""}${f.path.join(".")}: ${f.message}`)
    )
  )

const encodePlans = Schema.encodeSync(Schema.Array(SubscriptionPlan.SubscriptionPlanLenient))

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "plans",
  {
    format: Flags.withDefault(
      "format",
      "table|json",
      "table",
      "a list for people (default), or the plans as the API sends them"
    ),
    baseUrl: baseUrlOption
  },
  (o) =>
    Effect.gen(function* () {
      const baseUrl = yield* Effect.fromResult(Checks.optionalBaseUrl(o.baseUrl))
      const format = yield* Effect.fromResult(Checks.choice("--format", o.format, ["table", "json"]))
      const pages = yield* Effect.flatMap(MerchantClient.MerchantClient, (client) =>
        Stream.runCollect(client.listSubscriptionPlanPages({ limit: 100 }))
      ).pipe(Effect.mapError(apiFailure(baseUrl)), Effect.provide(Apis.merchant(baseUrl)))
      const plans = pages.flatMap((page) => page.subscription_plans)
      const findings = findingLines(pages)
      if (format === "json") {
        yield* Console.log(Text.json(encodePlans(plans)))
        // stdout stays the plans as the API sends them; what the reader found goes to stderr
        for (const line of findings) yield* Console.error(line)
      } else {
        yield* Console.log([table(plans), ...(findings.length > 0 ? ["", ...findings] : [])].join("\n"))
      }
    })
).pipe(
  Command.withDescription(
    "List the subscription plans (id, name, variations, phases) of the embedded sandbox, or of the API at --base-url"
  )
)
