/**
 * The wire format of GET /api/subscription-plans: plans, their variations and billing phases.
 *
 * Field names are kept as on the wire (snake_case), durations decode to `IsoDuration`, the trial to its days-only
 * form, and timestamps to `DateTime.Zoned` values that keep their offset.
 *
 * @since 0.1.0
 */
import { IsoDuration, OffsetDateTime } from "@payrules/iso8601"
import { Currency, MinorUnits } from "@payrules/money"
import * as Schema from "effect/Schema"

const NonEmptyString = (what: string) =>
  Schema.String.pipe(
    Schema.filter((s) => (s.length > 0 ? undefined : `${what} must not be empty`), {
      arbitrary: () => (fc) => fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,23}$/)
    })
  )

const isJsonObject = (u: unknown): u is { readonly [key: string]: unknown } =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * An item of a phase. The specification does not describe item fields, so an item is kept as the JSON object it is:
 * the very object decoded, not a copy. (A copy through `Schema.Record` would let a `"__proto__"` key of the JSON
 * text become the prototype of the copy.)
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriptionItem: Schema.Schema<{ readonly [key: string]: unknown }> = Schema.declare(isJsonObject, {
  identifier: "SubscriptionItem",
  description: "a subscription item; its fields are not described by the specification and are kept as they are",
  message: () => "a subscription item is a JSON object",
  arbitrary: () => (fc) =>
    fc.dictionary(
      fc.stringMatching(/^[a-z][a-z_]{0,11}$/),
      fc.jsonValue({ maxDepth: 2, depthSize: "small" }).map((v) => JSON.parse(JSON.stringify(v))),
      { maxKeys: 4 }
    ),
  equivalence: () => (a, b) => JSON.stringify(a) === JSON.stringify(b),
  jsonSchema: { type: "object" }
})

/**
 * A billing phase: `cycle_count` cycles of `cycle_duration` each (`cycle_count` null or absent: endless), billing
 * `amount` minor units of `currency` at the start of each cycle when both are given.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Phase = Schema.Struct({
  id: NonEmptyString("a phase id"),
  ordinal: Schema.Int.annotations({
    message: () => "ordinal is an integer",
    arbitrary: () => (fc) => fc.integer({ min: 1, max: 9 })
  }),
  cycle_duration: IsoDuration.IsoDurationFromString,
  cycle_count: Schema.optionalWith(
    Schema.NullOr(
      Schema.Int.annotations({
        message: () => "cycle_count is an integer or null",
        arbitrary: () => (fc) => fc.integer({ min: 1, max: 36 })
      })
    ),
    { exact: true }
  ),
  amount: Schema.optionalWith(MinorUnits.MinorUnits, { exact: true }),
  currency: Schema.optionalWith(Currency.CurrencyCode, { exact: true }),
  subscription_items: Schema.optionalWith(Schema.Array(SubscriptionItem), { exact: true })
}).annotations({ identifier: "Phase", description: "a billing phase of a plan variation" })

/**
 * @since 0.1.0
 * @category models
 */
export interface Phase extends Schema.Schema.Type<typeof Phase> {}

/**
 * A variation of a plan: its phases, which run in ascending ordinal.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Variation = Schema.Struct({
  id: NonEmptyString("a variation id"),
  phases: Schema.Array(Phase)
}).annotations({ identifier: "Variation" })

/**
 * @since 0.1.0
 * @category models
 */
export interface Variation extends Schema.Schema.Type<typeof Variation> {}

/**
 * `active` plans can be used for new subscriptions; `deactivated` ones cannot.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PlanState = Schema.Literal("active", "deactivated").annotations({
  identifier: "PlanState",
  message: () => ({ message: "state is one of active, deactivated", override: true })
})

/**
 * A subscription plan.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriptionPlan = Schema.Struct({
  id: NonEmptyString("a plan id"),
  name: Schema.String,
  trial_duration: Schema.optionalWith(IsoDuration.DaysOnlyFromString, { exact: true }),
  state: PlanState,
  created_at: OffsetDateTime.OffsetDateTimeFromString,
  updated_at: OffsetDateTime.OffsetDateTimeFromString,
  variations: Schema.Array(Variation)
}).annotations({ identifier: "SubscriptionPlan" })

/**
 * @since 0.1.0
 * @category models
 */
export interface SubscriptionPlan extends Schema.Schema.Type<typeof SubscriptionPlan> {}

/**
 * The wire (encoded) form of a plan.
 *
 * @since 0.1.0
 * @category models
 */
export type SubscriptionPlanEncoded = Schema.Schema.Encoded<typeof SubscriptionPlan>

/**
 * One page of GET /api/subscription-plans: `next_page_token` absent or null means there are no more pages.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PlanListPage = Schema.Struct({
  next_page_token: Schema.optionalWith(Schema.NullOr(Schema.String), { exact: true }),
  subscription_plans: Schema.Array(SubscriptionPlan)
}).annotations({ identifier: "PlanListPage" })

/**
 * @since 0.1.0
 * @category models
 */
export interface PlanListPage extends Schema.Schema.Type<typeof PlanListPage> {}

const Limit = Schema.NumberFromString.pipe(
  Schema.filter((n) => (Number.isSafeInteger(n) && n >= 1 ? undefined : `limit is a whole number of at least 1`), {
    arbitrary: () => (fc) => fc.integer({ min: 1, max: 500 })
  })
)

/**
 * The query of GET /api/subscription-plans, as URL parameters (all strings on the wire). When `page_token` is used,
 * the filters of the first request (`from`, `to`) must be repeated. The specification publishes no maximum for
 * `limit`; the sandbox enforces 1 to 500.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PlanListQuery = Schema.Struct({
  limit: Schema.optionalWith(Limit, { exact: true }),
  from: Schema.optionalWith(OffsetDateTime.OffsetDateTimeFromString, { exact: true }),
  to: Schema.optionalWith(OffsetDateTime.OffsetDateTimeFromString, { exact: true }),
  page_token: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ identifier: "PlanListQuery" })

/**
 * @since 0.1.0
 * @category models
 */
export interface PlanListQuery extends Schema.Schema.Type<typeof PlanListQuery> {}
