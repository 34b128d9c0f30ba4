/**
 * The wire format of GET /api/subscription-plans: plans, their variations and billing phases.
 *
 * Field names are kept as on the wire (snake_case), durations decode to `IsoDuration`, the trial to its days-only
 * form, and timestamps to `DateTime.Zoned` values that keep their offset.
 *
 * Two sets of Schemas (D11): the strict ones (`SubscriptionPlan`, `PlanListPage`, ...) accept only currency codes of
 * the bundled ISO 4217 list, for what you build and send; the lenient ones (`SubscriptionPlanLenient`,
 * `PlanListPageLenient`, ...) also accept a well-formed code that is not on it (`XYZ`, or a code published after the
 * list), which `PlanCheck` then reports as a `CurrencyNotListed` warning: for what you read from a server.
 *
 * Ids are read as any non-empty string; the API gives UUIDs, so their JSON Schema says `format: uuid` and their
 * arbitraries draw UUIDs.
 *
 * @since 0.1.0
 */
import { IsoDuration, OffsetDateTime } from "@payrules/iso8601"
import { Currency, MinorUnits } from "@payrules/money"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

const Id = (what: string) =>
  Schema.String.pipe(
    Schema.filter((s) => (s.length > 0 ? undefined : `${what} must not be empty`), {
      description: `${what}: a UUID as the API gives it (any non-empty string is read)`,
      jsonSchema: { format: "uuid" },
      arbitrary: () => (fc) =>
        fc.oneof({ weight: 9, arbitrary: fc.uuid() }, fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,23}$/))
    })
  )

/** the same Schema with `format: "duration"` added to its JSON Schema, as the official document gives it */
const durationFormat = <A>(schema: Schema.Schema<A, string>, identifier: string): Schema.Schema<A, string> =>
  schema.annotations({
    identifier,
    jsonSchema: {
      ...(Option.getOrElse(AST.getJSONSchemaAnnotation(schema.ast), () => ({})) as object),
      format: "duration"
    }
  })

const CycleDuration = durationFormat(IsoDuration.IsoDurationFromString, "CycleDuration")
const TrialDuration = durationFormat(IsoDuration.DaysOnlyFromString, "TrialDuration")

/** a code of the list (strict), or any well-formed code (lenient) */
type CurrencySchema = Schema.Schema<Currency.CurrencyCode, string>

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

const phase = (currency: CurrencySchema, identifier: string) =>
  Schema.Struct({
    id: Id("a phase id"),
    ordinal: Schema.Int.annotations({
      message: () => "ordinal is an integer",
      arbitrary: () => (fc) => fc.integer({ min: 1, max: 9 })
    }),
    cycle_duration: CycleDuration,
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
    currency: Schema.optionalWith(currency, { exact: true }),
    subscription_items: Schema.optionalWith(Schema.Array(SubscriptionItem), { exact: true })
  }).annotations({ identifier, description: "a billing phase of a plan variation" })

/**
 * A billing phase: `cycle_count` cycles of `cycle_duration` each (`cycle_count` null or absent: endless), billing
 * `amount` minor units of `currency` at the start of each cycle when both are given.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Phase = phase(Currency.CurrencyCode, "Phase")

/**
 * A phase as read from a server: `currency` may be any well-formed code (see the module's description).
 *
 * @since 0.1.0
 * @category schemas
 */
export const PhaseLenient: typeof Phase = phase(Currency.currencyCode({ allowUnknown: true }), "PhaseLenient")

/**
 * @since 0.1.0
 * @category models
 */
export interface Phase extends Schema.Schema.Type<typeof Phase> {}

const variation = (phaseSchema: typeof Phase, identifier: string) =>
  Schema.Struct({
    id: Id("a variation id"),
    phases: Schema.Array(phaseSchema)
  }).annotations({ identifier })

/**
 * A variation of a plan: its phases, which run in ascending ordinal.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Variation = variation(Phase, "Variation")

/**
 * A variation as read from a server (lenient currencies).
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariationLenient: typeof Variation = variation(PhaseLenient, "VariationLenient")

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

const plan = (variationSchema: typeof Variation, identifier: string) =>
  Schema.Struct({
    id: Id("a plan id"),
    name: Schema.String,
    trial_duration: Schema.optionalWith(TrialDuration, { exact: true }),
    state: PlanState,
    created_at: OffsetDateTime.OffsetDateTimeFromString,
    updated_at: OffsetDateTime.OffsetDateTimeFromString,
    variations: Schema.Array(variationSchema)
  }).annotations({ identifier })

/**
 * A subscription plan.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriptionPlan = plan(Variation, "SubscriptionPlan")

/**
 * A plan as read from a server (lenient currencies).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriptionPlanLenient: typeof SubscriptionPlan = plan(VariationLenient, "SubscriptionPlanLenient")

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

const page = (planSchema: typeof SubscriptionPlan, identifier: string) =>
  Schema.Struct({
    next_page_token: Schema.optionalWith(Schema.NullOr(Schema.String), { exact: true }),
    subscription_plans: Schema.Array(planSchema)
  }).annotations({ identifier })

/**
 * One page of GET /api/subscription-plans: `next_page_token` absent or null means there are no more pages.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PlanListPage = page(SubscriptionPlan, "PlanListPage")

/**
 * A page as read from a server (lenient currencies): what `MerchantClient` of @payrules/transport decodes, and
 * what `PlanCheck.decodeAndCheck` reads.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PlanListPageLenient: typeof PlanListPage = page(SubscriptionPlanLenient, "PlanListPageLenient")

/**
 * @since 0.1.0
 * @category models
 */
export interface PlanListPage extends Schema.Schema.Type<typeof PlanListPage> {}

const Limit = Schema.NumberFromString.pipe(
  Schema.filter((n) => (Number.isSafeInteger(n) && n >= 1 ? undefined : `limit is a whole number of at least 1`), {
    identifier: "PlanListLimit",
    description: "the number of plans per page (the API's default is 100, its maximum 500)",
    // as the official document gives the query parameter: its value is an integer, written in the query string
    jsonSchema: { type: "integer", minimum: 1, maximum: 500, default: 100 },
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
