/**
 * The wire format of GET /api/subscription-plans: plans, their variations and billing phases.
 *
 * Field names are kept as on the wire (snake_case), durations decode to `IsoDuration`, the trial to its days-only
 * form, and timestamps to `DateTime.Zoned` values that keep their offset.
 *
 * Two sets of Schemas (D11): the strict ones (`SubscriptionPlan`, `PlanListPage`, ...) accept only currency codes of
 * the bundled ISO 4217 list and the plan states this version knows, for what you build and send; the lenient ones
 * (`SubscriptionPlanLenient`, `PlanListPageLenient`, ...) also accept a well-formed code that is not on it (`XYZ`, or
 * a code published after the list), which `PlanCheck` then reports as a `CurrencyNotListed` warning, and a plan state
 * added to the API since (`"archived"`), read as `{ _tag: "Unknown", value: "archived" }` and reported as an
 * `UnknownValue` warning: for what you read from a server. A page as a server sends it is read plan by plan
 * (`PlanListEnvelope`, then `PlanCheck.decodeAndCheck`): a plan that does not decode is reported, not fatal.
 *
 * Every Schema carries its arbitrary for effect's property-testing engine: `Arbitrary.schema(SubscriptionPlan.X)`
 * draws valid values (ids that are mostly UUIDs, ordinals 1 to 9, cycle counts 1 to 36 or endless, small JSON items).
 * Ids are read as any non-empty string; the API gives UUIDs, so their JSON Schema says `format: uuid`.
 *
 * @since 0.1.0
 */
import { IsoDuration, OffsetDateTime } from "@payrules/iso8601"
import { OpenEnum } from "@payrules/lenient"
import { Currency, MinorUnits } from "@payrules/money"
import type * as JsonSchema from "effect/JsonSchema"
import * as Order from "effect/Order"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import type * as SchemaRepresentation from "effect/SchemaRepresentation"
import * as SchemaTransformation from "effect/SchemaTransformation"

// -----------------------------------------------------------------------------
// leaves
// -----------------------------------------------------------------------------

const UUID = "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
const SLUG = "^[a-z0-9][a-z0-9_-]{0,23}$"

type Pattern = Schema.Annotations.ToArbitrary.Pattern
const uuidPattern: Pattern = { source: UUID, flags: "" }

/** ids as the arbitrary draws them: a UUID nine times in ten, else a short slug (`pln_1`) */
const idPatterns: readonly [Pattern, ...Array<Pattern>] = [
  uuidPattern,
  ...Array.from({ length: 8 }, () => uuidPattern),
  { source: SLUG, flags: "" }
]

const Id = (what: string): Schema.Codec<string> =>
  Schema.String.check(
    Schema.makeFilter((s: string) => (s.length > 0 ? undefined : `${what} must not be empty`), {
      expected: "a non-empty string",
      description: `${what}: a UUID as the API gives it (any non-empty string is read)`,
      toJsonSchema: () => ({ format: "uuid" }),
      arbitraryConstraint: { patterns: idPatterns }
    })
  )

/** an integer with our message, drawn between `minimum` and `maximum` by the arbitrary */
const int = (message: string, minimum: number, maximum: number): Schema.Codec<number> =>
  Schema.Number.check(
    Schema.isInt({
      message,
      arbitraryConstraint: { number: "integer", order: Order.Number, minimum, maximum }
    })
  )

/**
 * The same Schema, named, with `format: "duration"` beside the pattern of its JSON Schema, as the official document
 * gives it. The pattern comes from the last check of iso8601's string Schema, so it stays theirs.
 */
const durationFormat = (
  schema: Schema.Codec<IsoDuration.IsoDuration, string>,
  identifier: string
): Schema.Codec<IsoDuration.IsoDuration, string> => {
  const checks = Schema.toEncoded(schema).ast.checks
  const own = checks?.[checks.length - 1]?.annotations?.toJsonSchema
  const toJsonSchema: SchemaRepresentation.ToJsonSchema.Check = (input) => {
    const output = own?.(input)
    return Array.isArray(output)
      ? [{ ...output[0], format: "duration" }, true]
      : { ...(output as JsonSchema.JsonSchema | undefined), format: "duration" }
  }
  return schema.pipe(Schema.annotateEncoded({ identifier, toJsonSchema }))
}

const CycleDuration = durationFormat(IsoDuration.IsoDurationFromString, "CycleDuration")
const TrialDuration = durationFormat(IsoDuration.DaysOnlyFromString, "TrialDuration")

/** a code of the list (strict), or any well-formed code (lenient) */
type CurrencySchema = Schema.Codec<Currency.CurrencyCode, string>

const isObjectLike = (u: unknown): u is { readonly [key: string]: unknown } => typeof u === "object" && u !== null

const ITEM_MESSAGE = "a subscription item is a JSON object"

/** what the arbitrary of an item draws: up to 4 snake_case keys of small JSON values */
const ItemKey = Schema.String.check(Schema.isPattern(/^[a-z][a-z_]{0,11}$/))
const ItemScalar = Schema.Union([
  Schema.Null,
  Schema.Boolean,
  Schema.Finite,
  Schema.String.check(Schema.isMaxLength(12))
])
const DrawnItem = Schema.Record(
  ItemKey,
  Schema.Union([
    ItemScalar,
    Schema.Array(ItemScalar).check(Schema.isMaxLength(3)),
    Schema.Record(ItemKey, ItemScalar).check(Schema.isMaxProperties(3))
  ])
).check(Schema.isMaxProperties(4))

/**
 * An item of a phase. The specification does not describe item fields, so an item is kept as the JSON object it is:
 * the very object decoded, not a copy (also by `Schema.toCodecJson`, which HTTP clients use). (A copy through
 * `Schema.Record` would let a `"__proto__"` key of the JSON text become the prototype of the copy.)
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriptionItem: Schema.Codec<{ readonly [key: string]: unknown }> = Schema.declare(isObjectLike, {
  identifier: "SubscriptionItem",
  description: "a subscription item; its fields are not described by the specification and are kept as they are",
  message: ITEM_MESSAGE,
  toCodecArbitrary: () =>
    Schema.link<{ readonly [key: string]: unknown }>()(DrawnItem, {
      // through JSON text, so a drawn item is what a server could send (no -0)
      decode: SchemaGetter.transform((item) => JSON.parse(JSON.stringify(item)) as { readonly [key: string]: unknown }),
      encode: SchemaGetter.forbiddenEncoding
    }),
  // an item is JSON already: decoded as it is, never walked or copied
  toCodecJson: () => undefined
  // equivalence and formatting are effect's defaults for a declaration (structural, whatever the order of the keys;
  // JSON-like text): the check below carries the annotations they would read, so this declaration's own would not be
}).check(
  // the declaration admits objects; this check refuses arrays and gives the JSON Schema its `type`
  Schema.makeFilter((item: object) => (Array.isArray(item) ? ITEM_MESSAGE : undefined), {
    toJsonSchema: () => ({ type: "object" })
  })
)

// -----------------------------------------------------------------------------
// phases, variations, plans, pages
// -----------------------------------------------------------------------------

const phase = (currency: CurrencySchema, identifier: string) =>
  Schema.Struct({
    id: Id("a phase id"),
    ordinal: int("ordinal is an integer", 1, 9),
    cycle_duration: CycleDuration,
    cycle_count: Schema.optionalKey(Schema.NullOr(int("cycle_count is an integer or null", 1, 36))),
    amount: Schema.optionalKey(MinorUnits.MinorUnits),
    currency: Schema.optionalKey(currency),
    subscription_items: Schema.optionalKey(Schema.Array(SubscriptionItem))
  }).annotate({ identifier, description: "a billing phase of a plan variation" })

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
  }).annotate({ identifier })

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
export const PlanState = Schema.Literals(["active", "deactivated"]).annotate({
  identifier: "PlanState",
  message: "state is one of active, deactivated"
})

/**
 * @since 0.2.0
 * @category models
 */
export type PlanState = typeof PlanState.Type

/**
 * A plan state as read from a server: `active`, `deactivated`, or a well-formed state added to the API since, kept
 * as `{ _tag: "Unknown", value }` (encoded back to the text that was read). `PlanCheck` reports an unknown state as an
 * `UnknownValue` warning; `Schedule` refuses to simulate a plan in such a state (`UnknownPlanState`).
 *
 * @example
 * ```ts
 * import { SubscriptionPlan } from "@payrules/subscriptions"
 * import { Schema } from "effect"
 *
 * console.log(Schema.decodeUnknownSync(SubscriptionPlan.PlanStateLenient)("archived"))
 * // { _tag: "Unknown", value: "archived" }
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const PlanStateLenient: Schema.Codec<PlanState | OpenEnum.Unknown, string> = OpenEnum.make(PlanState.literals, {
  identifier: "PlanStateLenient",
  description: 'active, deactivated, or a state added to the API since (kept as { _tag: "Unknown", value })'
})

/**
 * @since 0.2.0
 * @category models
 */
export type PlanStateLenient = PlanState | OpenEnum.Unknown

const plan = <S extends Schema.Codec<PlanStateLenient, string>>(
  variationSchema: typeof Variation,
  stateSchema: S,
  identifier: string
) =>
  Schema.Struct({
    id: Id("a plan id"),
    name: Schema.String,
    trial_duration: Schema.optionalKey(TrialDuration),
    state: stateSchema,
    created_at: OffsetDateTime.OffsetDateTimeFromString,
    updated_at: OffsetDateTime.OffsetDateTimeFromString,
    variations: Schema.Array(variationSchema)
  }).annotate({ identifier })

/**
 * A subscription plan.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriptionPlan = plan(Variation, PlanState, "SubscriptionPlan")

/**
 * A plan as read from a server: lenient currencies, and a state that may be one added to the API since
 * (`PlanStateLenient`). Since 0.2.0 its type differs from `SubscriptionPlan` by its `state`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriptionPlanLenient = plan(VariationLenient, PlanStateLenient, "SubscriptionPlanLenient")

/**
 * A plan as read from a server: its `state` may be `{ _tag: "Unknown", value }`. Every `SubscriptionPlan` is one.
 *
 * @since 0.2.0
 * @category models
 */
export interface SubscriptionPlanLenient extends Schema.Schema.Type<typeof SubscriptionPlanLenient> {}

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
export type SubscriptionPlanEncoded = Schema.Codec.Encoded<typeof SubscriptionPlan>

const page = <P extends Schema.Top>(planSchema: P, identifier: string) =>
  Schema.Struct({
    next_page_token: Schema.optionalKey(Schema.NullOr(Schema.String)),
    subscription_plans: Schema.Array(planSchema)
  }).annotate({ identifier })

/**
 * One page of GET /api/subscription-plans: `next_page_token` absent or null means there are no more pages.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PlanListPage = page(SubscriptionPlan, "PlanListPage")

/**
 * A page of lenient plans (`SubscriptionPlanLenient`). As a Schema it still fails as a whole on a plan that does not
 * decode; `PlanCheck.decodeAndCheck` (and `MerchantClient` of @payrules/transport) read a page plan by plan instead,
 * keeping the plans that decode and reporting the others.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PlanListPageLenient = page(SubscriptionPlanLenient, "PlanListPageLenient")

/**
 * @since 0.1.0
 * @category models
 */
export interface PlanListPage extends Schema.Schema.Type<typeof PlanListPage> {}

/**
 * A page of lenient plans. Every `PlanListPage` is one.
 *
 * @since 0.2.0
 * @category models
 */
export interface PlanListPageLenient extends Schema.Schema.Type<typeof PlanListPageLenient> {}

/**
 * The envelope of a page: `next_page_token` as in `PlanListPage`, and `subscription_plans` a JSON array whose items
 * are not decoded yet. Strict about its own shape: a page whose envelope does not match is not a page. What a
 * lenient reader decodes first, before reading the plans one by one (`PlanCheck.readEnvelope`).
 *
 * @since 0.2.0
 * @category schemas
 */
export const PlanListEnvelope = Schema.Struct({
  next_page_token: Schema.optionalKey(Schema.NullOr(Schema.String)),
  subscription_plans: Schema.Array(Schema.Unknown)
}).annotate({
  identifier: "PlanListEnvelope",
  description: "a page of GET /api/subscription-plans whose plans are read one by one"
})

/**
 * @since 0.2.0
 * @category models
 */
export interface PlanListEnvelope extends Schema.Schema.Type<typeof PlanListEnvelope> {}

// -----------------------------------------------------------------------------
// the query
// -----------------------------------------------------------------------------

const limitMessage = "limit is a whole number of at least 1"

/**
 * The limit as the query writes it: decimal digits. `Schema.NumberFromString` reads text with `Number()`, which also
 * takes `0x0a`, `1e1`, `10.0` and ` 10` (spaces and line breaks around it) for 10; those are refused here.
 */
const LimitText = Schema.String.check(
  Schema.isPattern(/^[0-9]+$/, {
    message: limitMessage,
    identifier: "PlanListLimit",
    description:
      "the number of plans per page, a whole number of at least 1 (the API's default is 100, its maximum 500)"
  })
)

const Limit = LimitText.pipe(Schema.decodeTo(Schema.Number, SchemaTransformation.numberFromString)).check(
  Schema.makeFilter((n: number) => (Number.isSafeInteger(n) && n >= 1 ? undefined : limitMessage), {
    expected: "a whole number of at least 1",
    arbitraryConstraint: { number: "integer", order: Order.Number, minimum: 1, maximum: 500 }
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
  limit: Schema.optionalKey(Limit),
  from: Schema.optionalKey(OffsetDateTime.OffsetDateTimeFromString),
  to: Schema.optionalKey(OffsetDateTime.OffsetDateTimeFromString),
  page_token: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "PlanListQuery" })

/**
 * @since 0.1.0
 * @category models
 */
export interface PlanListQuery extends Schema.Schema.Type<typeof PlanListQuery> {}
