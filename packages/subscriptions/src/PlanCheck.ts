/**
 * Checks of a plan that are not shape rules (D3): what makes a schedule impossible (errors) or suspicious (warnings),
 * each with the path of the offending field; and what lenient decoding let through (D11): a currency code that is
 * not on the bundled ISO 4217 list is a `CurrencyNotListed` warning next to the decoded plan, never a failed read, and
 * so is a plan state added to the API since (`UnknownValue`). A page is read plan by plan ({@link decodeAndCheck}):
 * a plan that does not decode is left out of the page and reported (`UnreadablePlan`, with its index, path and raw
 * value); the other plans are read.
 *
 * @since 0.1.0
 */
import { IsoDuration } from "@payrules/iso8601"
import { ItemList, OpenEnum } from "@payrules/lenient"
import { Currency } from "@payrules/money"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import {
  PlanListEnvelope,
  type PlanListPageLenient,
  SubscriptionPlanLenient,
  type Variation
} from "./SubscriptionPlan.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Rule =
  /** two phases of a variation share an ordinal, so their order is undefined (error) */
  | "DuplicateOrdinal"
  /** `cycle_count` below 1: the phase could never bill (error) */
  | "CycleCountBelowOne"
  /** a `cycle_duration` of zero length (P0D): the schedule would never advance (error) */
  | "ZeroLengthCycle"
  /** a negative `cycle_duration` (error) */
  | "NegativeCycle"
  /**
   * a `cycle_duration` shorter than a second (`PT0.5S`): a billing cycle lasts a second or more, which also keeps
   * every count of cycles between two instants an exact integer (error)
   *
   * @since 0.2.0
   */
  | "SubSecondCycle"
  /** an endless phase (no `cycle_count`) followed by another: the later phases are unreachable (error) */
  | "EndlessPhaseNotLast"
  /** a variation without phases bills nothing (error) */
  | "NoPhases"
  /** ordinals that do not run 1, 2, 3, ... (warning) */
  | "OrdinalGap"
  /** the currency changes from one phase to the next (warning) */
  | "CurrencyChange"
  /** an amount without a currency, or a currency without an amount: the cycle amount is unknown (warning) */
  | "IncompletePrice"
  /** two phases of a variation share an id (warning) */
  | "DuplicatePhaseId"
  /**
   * a well-formed currency code that is not on the bundled ISO 4217 list (a code published since, or not a currency):
   * kept as sent; its exponent is unknown, so its minor units cannot be placed or formatted with decimals (warning)
   */
  | "CurrencyNotListed"
  /**
   * a well-formed enum value this version does not know (a plan `state` added to the API since, `"archived"`): read
   * as `{ _tag: "Unknown", value }`; the plan is kept, `Schedule` refuses to simulate it (warning)
   *
   * @since 0.2.0
   */
  | "UnknownValue"
  /**
   * a plan of a page that does not decode (a missing id, a duration or currency that is not well-formed): left out of
   * the page, which keeps its other plans; the finding names its index, the path of the fault and the raw plan (error)
   *
   * @since 0.2.0
   */
  | "UnreadablePlan"

/**
 * @since 0.1.0
 * @category models
 */
export interface Finding {
  readonly severity: "error" | "warning"
  readonly rule: Rule
  readonly path: ReadonlyArray<string | number>
  readonly message: string
  /**
   * what the server sent, for the findings about what could not be read as this version knows it: the raw text of an
   * `UnknownValue`, the raw plan of an `UnreadablePlan` (since 0.2.0)
   */
  readonly raw?: unknown
}

const error = (rule: Rule, path: ReadonlyArray<string | number>, message: string): Finding => ({
  severity: "error",
  rule,
  path,
  message
})

const warning = (rule: Rule, path: ReadonlyArray<string | number>, message: string): Finding => ({
  severity: "warning",
  rule,
  path,
  message
})

/**
 * The findings of one variation; paths start at the variation (`["phases", 2, "cycle_count"]`) unless `prefix` is
 * given.
 *
 * @since 0.1.0
 * @category checks
 */
export const checkVariation = (
  variation: Variation,
  prefix: ReadonlyArray<string | number> = []
): ReadonlyArray<Finding> => {
  const findings: Array<Finding> = []
  const phases = variation.phases
  if (phases.length === 0) {
    findings.push(error("NoPhases", [...prefix, "phases"], `variation ${variation.id} has no phases`))
    return findings
  }
  const at = (i: number, ...rest: ReadonlyArray<string | number>) => [...prefix, "phases", i, ...rest]
  const seenOrdinals = new Map<number, number>()
  const seenIds = new Map<string, number>()
  phases.forEach((phase, i) => {
    const first = seenOrdinals.get(phase.ordinal)
    if (first !== undefined) {
      findings.push(
        error(
          "DuplicateOrdinal",
          at(i, "ordinal"),
          `phases ${first} and ${i} both have ordinal ${phase.ordinal}: their order is undefined`
        )
      )
    } else {
      seenOrdinals.set(phase.ordinal, i)
    }
    const firstId = seenIds.get(phase.id)
    if (firstId !== undefined) {
      findings.push(warning("DuplicatePhaseId", at(i, "id"), `phases ${firstId} and ${i} share the id ${phase.id}`))
    } else {
      seenIds.set(phase.id, i)
    }
    if (phase.cycle_count !== undefined && phase.cycle_count !== null && phase.cycle_count < 1) {
      findings.push(
        error("CycleCountBelowOne", at(i, "cycle_count"), `cycle_count is ${phase.cycle_count}; it must be at least 1`)
      )
    }
    const d = phase.cycle_duration
    if (IsoDuration.isZero(d)) {
      findings.push(
        error(
          "ZeroLengthCycle",
          at(i, "cycle_duration"),
          `cycle_duration ${IsoDuration.format(d)} has zero length: the phase would never advance`
        )
      )
    } else if (d.sign < 0) {
      findings.push(
        error("NegativeCycle", at(i, "cycle_duration"), `cycle_duration ${IsoDuration.format(d)} is negative`)
      )
    } else if (!IsoDuration.hasCalendarPart(d) && IsoDuration.timeNanoseconds(d) < 1_000_000_000n) {
      findings.push(
        error(
          "SubSecondCycle",
          at(i, "cycle_duration"),
          `cycle_duration ${IsoDuration.format(d)} is shorter than a second: a billing cycle lasts a second or more`
        )
      )
    }
    if (phase.currency !== undefined && !Currency.isKnown(phase.currency)) {
      findings.push(
        warning(
          "CurrencyNotListed",
          at(i, "currency"),
          `${phase.currency} is not on the ISO 4217 list bundled here (published ${Currency.publicationDate}): the plan is kept as sent, but the exponent of ${phase.currency} is unknown, so its amounts cannot be converted to decimals`
        )
      )
    }
    if ((phase.amount === undefined) !== (phase.currency === undefined)) {
      findings.push(
        warning(
          "IncompletePrice",
          at(i, phase.amount === undefined ? "amount" : "currency"),
          phase.amount === undefined
            ? "currency without amount: cycles of this phase bill an unknown amount"
            : "amount without currency: cycles of this phase bill an amount of unknown currency"
        )
      )
    }
  })
  // order by ordinal (stable: duplicates keep their order) and check what depends on it
  const order = phases.map((p, i) => ({ p, i })).sort((a, b) => a.p.ordinal - b.p.ordinal || a.i - b.i)
  order.forEach(({ p, i }, k) => {
    const endless = p.cycle_count === undefined || p.cycle_count === null
    if (endless && k < order.length - 1) {
      findings.push(
        error(
          "EndlessPhaseNotLast",
          at(i, "cycle_count"),
          `phase ${p.id} (ordinal ${p.ordinal}) never ends, so the ${order.length - 1 - k} phase(s) after it are never reached`
        )
      )
    }
    const expected = k === 0 ? 1 : order[k - 1]!.p.ordinal + 1
    if (p.ordinal !== expected && !(k > 0 && p.ordinal === order[k - 1]!.p.ordinal)) {
      findings.push(
        warning(
          "OrdinalGap",
          at(i, "ordinal"),
          k === 0
            ? `the first phase has ordinal ${p.ordinal}; ordinals usually start at 1`
            : `ordinal ${p.ordinal} follows ${order[k - 1]!.p.ordinal}: ordinals in between are missing`
        )
      )
    }
    if (k > 0) {
      const prev = order[k - 1]!.p
      if (prev.currency !== undefined && p.currency !== undefined && prev.currency !== p.currency) {
        findings.push(
          warning(
            "CurrencyChange",
            at(i, "currency"),
            `the currency changes from ${prev.currency} (phase ${prev.id}) to ${p.currency} (phase ${p.id})`
          )
        )
      }
    }
  })
  return findings
}

const unknownValue = (path: ReadonlyArray<string | number>, value: string): Finding => ({
  severity: "warning",
  rule: "UnknownValue",
  path,
  message: OpenEnum.message({ path, value }),
  raw: value
})

/**
 * The findings of a plan, with paths from the plan: an `UnknownValue` for a state this version does not know (at
 * `["state"]`, plans read with `SubscriptionPlanLenient` only), then those of every variation
 * (`["variations", 0, "phases", 2, "ordinal"]`).
 *
 * @since 0.1.0
 * @category checks
 */
export const check = (plan: SubscriptionPlanLenient): ReadonlyArray<Finding> => {
  const variations = plan.variations.flatMap((v, i) => checkVariation(v, ["variations", i]))
  return OpenEnum.isUnknown(plan.state) ? [unknownValue(["state"], plan.state.value), ...variations] : variations
}

/**
 * @since 0.1.0
 * @category getters
 */
export const errors = (findings: ReadonlyArray<Finding>): ReadonlyArray<Finding> =>
  findings.filter((f) => f.severity === "error")

/**
 * @since 0.1.0
 * @category getters
 */
export const warnings = (findings: ReadonlyArray<Finding>): ReadonlyArray<Finding> =>
  findings.filter((f) => f.severity === "warning")

/**
 * The findings of every plan of a page, with paths from the page (`["subscription_plans", 3, "variations", 0,
 * "phases", 1, "currency"]`).
 *
 * @since 0.1.0
 * @category checks
 */
export const checkPage = (page: PlanListPageLenient): ReadonlyArray<Finding> =>
  page.subscription_plans.flatMap((plan, i) =>
    check(plan).map((f) => ({ ...f, path: ["subscription_plans", i, ...f.path] }))
  )

/**
 * A page as read from a server, with its findings.
 *
 * @since 0.1.0
 * @category models
 */
export interface CheckedPage {
  /** the plans that decoded, in their order (since 0.2.0 a plan that does not decode is left out and reported) */
  readonly page: PlanListPageLenient
  /**
   * every finding of the page: `UnreadablePlan` for each plan left out, and the findings of each plan read. Paths
   * name the page as sent: `["subscription_plans", 3, ...]` is the fourth plan the server sent.
   */
  readonly findings: ReadonlyArray<Finding>
  /**
   * for each plan of `page.subscription_plans`, its index in the page as sent (the index of its findings' paths);
   * it differs from its index in `page.subscription_plans` after a plan that was left out (since 0.2.0)
   */
  readonly indices: ReadonlyArray<number>
}

const pathKey = (key: PropertyKey): string | number => (typeof key === "symbol" ? String(key) : key)

const readPlans = ItemList.decode(SubscriptionPlanLenient, { prefix: ["subscription_plans"] })

const describePlan = (raw: unknown): string => {
  const id = typeof raw === "object" && raw !== null && "id" in raw ? raw.id : undefined
  return typeof id === "string" ? ` (id ${JSON.stringify(id.slice(0, 64))})` : ""
}

/**
 * Reads the plans of a page envelope one by one (`SubscriptionPlanLenient`) and checks them: the plans that decode
 * make the page, each one that does not is an `UnreadablePlan` finding with its index, the path of its first fault
 * and the raw plan. Never fails: the envelope is well-formed already. What {@link decodeAndCheck} does after the
 * envelope decodes, and what `MerchantClient` of @payrules/transport does with each page.
 *
 * @since 0.2.0
 * @category decoding
 */
export const readEnvelope = (envelope: PlanListEnvelope): CheckedPage => {
  const read = readPlans(envelope.subscription_plans)
  const { indices } = read
  const page: PlanListPageLenient =
    envelope.next_page_token === undefined
      ? { subscription_plans: read.items }
      : { next_page_token: envelope.next_page_token, subscription_plans: read.items }
  const unreadable = read.unreadable.map((u): Finding => {
    // the path inside the plan: the finding's own path names the page, the index and this
    const inside = u.path.slice(2).map(pathKey).join(".")
    return {
      severity: "error",
      rule: "UnreadablePlan",
      path: u.path.map(pathKey),
      message: `plan ${u.index}${describePlan(u.raw)} could not be read and is left out of the page: ${inside === "" ? "" : `at ${inside}, `}${u.message}`,
      raw: u.raw
    }
  })
  const checked = read.items.flatMap((plan, k) =>
    check(plan).map((f) => ({ ...f, path: ["subscription_plans", indices[k]!, ...f.path] }))
  )
  // in document order: by the index of the plan as sent, the unreadable one where it stood
  const findings = [...unreadable, ...checked].sort((a, b) => (a.path[1] as number) - (b.path[1] as number))
  return { page, findings, indices }
}

const decodeEnvelope = Schema.decodeUnknownResult(PlanListEnvelope, { errors: "all" })

/**
 * Decodes a page of GET /api/subscription-plans as a server sends it and checks every plan: what a client does with
 * a response (D11). The envelope is decoded first (`PlanListEnvelope`), then each plan on its own, leniently
 * (`SubscriptionPlanLenient`: a well-formed currency code that is not on the list, or a plan state added since, is
 * read and reported). A plan that does not decode is left out and reported as an `UnreadablePlan` finding (see
 * {@link readEnvelope}); the other plans are kept. Only a page whose envelope is not well-formed is an error: a
 * `Schema.SchemaError` with the path and message of every fault.
 *
 * @example
 * ```ts
 * import { PlanCheck } from "@payrules/subscriptions"
 * import { Result } from "effect"
 *
 * const { findings } = Result.getOrThrow(
 *   PlanCheck.decodeAndCheck({
 *     subscription_plans: [
 *       {
 *         id: "8e1c4f0a-3b5d-4c2e-9f6a-1d2b3c4d5e6f",
 *         name: "Caribbean",
 *         state: "active",
 *         created_at: "2025-04-01T00:00:00Z",
 *         updated_at: "2025-04-01T00:00:00Z",
 *         variations: [
 *           {
 *             id: "0b9f7d1e-2c3a-4b5d-8e6f-7a8b9c0d1e2f",
 *             phases: [{ id: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", ordinal: 1, cycle_duration: "P1M", amount: 1500, currency: "XYZ" }]
 *           }
 *         ]
 *       }
 *     ]
 *   })
 * )
 * console.log(findings.map((f) => `${f.severity} ${f.rule} ${f.path.join(".")}`))
 * // [ "warning CurrencyNotListed subscription_plans.0.variations.0.phases.0.currency" ]
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeAndCheck = (input: unknown): Result.Result<CheckedPage, Schema.SchemaError> =>
  Result.map(decodeEnvelope(input), readEnvelope)
