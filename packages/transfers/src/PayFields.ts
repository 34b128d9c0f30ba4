/**
 * POST /pay/fields: the request (a source account and a receiver) and the response (the fields a payment to that
 * receiver needs, with their lengths, patterns and allowed values). These are wire Schemas, faithful to the
 * specification; turning the rules into a validator is {@link FieldValidator.compile}'s job.
 *
 * What a client reads from a server goes through {@link decodeLenient} (D11, issue 34): one rule the server got wrong
 * never costs the caller the other rules. Its envelope is strict, its rules are read one by one, and each rule that
 * does not decode is reported as an `UnreadableItem` finding with its index, path and raw value. No field of a rule
 * is an enumeration read from the server: `options[].value` is the server's own list of allowed values (open by
 * nature), and `options[].default`, `type` and `description` are "any" in the specification (the Business API's
 * document gives `default` a boolean and does not name `type`): they are kept as sent, so no value added to the API
 * later can break the read.
 *
 * @since 0.1.0
 */
import { ItemList } from "@payrules/lenient"
import * as Equivalence from "effect/Equivalence"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"

/**
 * The receiver of POST /pay/fields: a counterparty and, optionally, one of its accounts or cards.
 *
 * @since 0.1.0
 * @category models
 */
export interface Receiver {
  readonly counterparty_id: string
  /** the counterparty's account, for bank transfers */
  readonly account_id?: string
  /** the counterparty's card, for card transfers */
  readonly card_id?: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface FieldsRequest {
  /** the account the transfer is made from */
  readonly account_id: string
  readonly receiver: Receiver
}

/**
 * @since 0.1.0
 * @category models
 */
export interface FieldRegex {
  /** the pattern the whole value must match (Java's `matches`) */
  readonly pattern: string
  /** what the pattern means, in words: the message shown when a value does not match */
  readonly description: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface FieldValidation {
  readonly min_length?: number
  readonly max_length?: number
  readonly regex?: FieldRegex
}

/**
 * One allowed value. `default`, `type` and `description` are "any" in the specification: they are kept as the server
 * sent them. The form marks an option as the default when `default` is `true`, and labels it with `description`
 * when that is a string.
 *
 * @since 0.1.0
 * @category models
 */
export interface FieldOption {
  readonly value: string
  readonly default?: unknown
  readonly type?: unknown
  readonly description?: unknown
}

/**
 * One element of `fields`: a field of the payment body, whether it is required, and its rules.
 *
 * @since 0.1.0
 * @category models
 */
export interface FieldRequirement {
  /** the name in the payment body; a dotted path for nested fields (`receiver.address.city`) */
  readonly name: string
  readonly required: boolean
  readonly validation?: FieldValidation
  /** when given, the value must be one of them */
  readonly options?: ReadonlyArray<FieldOption>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface FieldsResponse {
  readonly fields: ReadonlyArray<FieldRequirement>
}

const bothMessage = "give receiver.account_id (a bank transfer) or receiver.card_id (a card transfer), not both"

/**
 * The receiver: at most one of `account_id` and `card_id`; both is an error at the path `["receiver"]`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Receiver: Schema.Codec<Receiver> = Schema.Struct({
  counterparty_id: Schema.String,
  account_id: Schema.optionalKey(Schema.String),
  card_id: Schema.optionalKey(Schema.String)
}).check(
  Schema.makeFilter((r) => r.account_id === undefined || r.card_id === undefined || bothMessage, {
    identifier: "Receiver",
    description: "a counterparty, and optionally one of its accounts or one of its cards",
    toJsonSchema: () => ({ not: { required: ["account_id", "card_id"] } })
  })
)

/**
 * The body of POST /pay/fields.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FieldsRequest: Schema.Codec<FieldsRequest> = Schema.Struct({
  account_id: Schema.String,
  receiver: Receiver
}).annotate({ identifier: "FieldsRequest", title: "POST /pay/fields body" })

const deepJsonEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * A JSON value the specification leaves undescribed ("any"): passed through as decoded. Its arbitrary draws JSON
 * values; two values are equivalent when they are the same JSON text.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AnyJson: Schema.Codec<unknown> = Schema.Unknown.annotate({
  identifier: "AnyJson",
  description: "any JSON value (not further described by the specification)",
  toEquivalence: () => Equivalence.make(deepJsonEqual)
})

/**
 * @since 0.1.0
 * @category schemas
 */
export const FieldRegex: Schema.Codec<FieldRegex> = Schema.Struct({
  pattern: Schema.String,
  description: Schema.String
}).annotate({ identifier: "FieldRegex" })

const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/**
 * @since 0.1.0
 * @category schemas
 */
export const FieldValidation: Schema.Codec<FieldValidation> = Schema.Struct({
  min_length: Schema.optionalKey(NonNegativeInt),
  max_length: Schema.optionalKey(NonNegativeInt),
  regex: Schema.optionalKey(FieldRegex)
}).annotate({ identifier: "FieldValidation" })

/**
 * @since 0.1.0
 * @category schemas
 */
export const FieldOption: Schema.Codec<FieldOption> = Schema.Struct({
  value: Schema.String,
  default: Schema.optionalKey(AnyJson),
  type: Schema.optionalKey(AnyJson),
  description: Schema.optionalKey(AnyJson)
}).annotate({ identifier: "FieldOption" })

/**
 * One field requirement, as the server sends it. Names and patterns are not checked here: they are untrusted rules,
 * checked by {@link FieldValidator.compile}.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FieldRequirement: Schema.Codec<FieldRequirement> = Schema.Struct({
  name: Schema.String,
  required: Schema.Boolean,
  validation: Schema.optionalKey(FieldValidation),
  options: Schema.optionalKey(Schema.Array(FieldOption))
}).annotate({ identifier: "FieldRequirement" })

/**
 * The 200 response of POST /pay/fields. Fields the specification does not list are ignored.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FieldsResponse: Schema.Codec<FieldsResponse> = Schema.Struct({
  fields: Schema.Array(FieldRequirement)
}).annotate({ identifier: "FieldsResponse", title: "POST /pay/fields response" })

/**
 * The 200 response of POST /pay/fields as the lenient reader sees it first: a strict envelope (`fields` must be an
 * array), whose rules are read one by one afterwards (see {@link decodeLenient}).
 *
 * @since 0.2.0
 * @category schemas
 */
export const FieldsResponseEnvelope: Schema.Codec<{ readonly fields: ReadonlyArray<unknown> }> = Schema.Struct({
  fields: Schema.Array(Schema.Unknown)
}).annotate({ identifier: "FieldsResponseEnvelope", title: "POST /pay/fields response, rules not yet read" })

/**
 * What a lenient read of a /pay/fields answer reports beside the rules (D11):
 *
 * - `UnreadableItem`: a rule of `fields` that does not decode as a {@link FieldRequirement} (a mistyped
 *   `required`, a negative `max_length`, a `regex` without its `pattern`...). It is left out of `fields`; `index` is
 *   its position in the list as sent, `path` the path of what broke from the root of the answer
 *   (`["fields", 3, "validation", "max_length"]`), `raw` the rule as sent. A warning: the read goes on, but a
 *   validator compiled without that rule would not check what it asks, so {@link FieldValidator.compile} refuses a
 *   read with such a finding (`UnreadableRule`) unless you compile its `fields` alone, on purpose.
 *
 * @since 0.2.0
 * @category models
 */
export type Finding = ItemList.Finding

/**
 * A /pay/fields answer read leniently: the rules that decode, in their order, and a finding for each one that does
 * not. It has the shape of a {@link FieldsResponse} (`fields`), so it goes where one goes.
 *
 * @since 0.2.0
 * @category models
 */
export interface FieldsRead extends FieldsResponse {
  readonly findings: ReadonlyArray<Finding>
}

const readRules = ItemList.decode(FieldRequirement, { prefix: ["fields"] })

/**
 * The findings of rules that did not decode, from an `ItemList` read of `fields`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const unreadableFindings = (unreadable: ReadonlyArray<ItemList.Unreadable>): ReadonlyArray<Finding> =>
  unreadable.map((u) =>
    ItemList.finding(
      u,
      `the rule at fields[${u.index}] could not be read and was left out (${u.message} at ${u.path.map(String).join(".")}): its field is not checked`
    )
  )

/**
 * Reads the rules of a /pay/fields answer (already decoded as an envelope) one by one: those that decode, and a
 * finding for each one that does not.
 *
 * @since 0.2.0
 * @category decoding
 */
export const readFields = (envelope: { readonly fields: ReadonlyArray<unknown> }): FieldsRead => {
  const { items, unreadable } = readRules(envelope.fields)
  return { fields: items, findings: unreadableFindings(unreadable) }
}

const decodeEnvelope = Schema.decodeUnknownResult(FieldsResponseEnvelope)

/**
 * Reads a 200 answer of POST /pay/fields (parsed JSON) as a client should (D11, issue 34): the envelope strictly (an
 * answer without a `fields` array fails, with the path), each rule on its own. A rule that does not decode is left
 * out of `fields` and reported as an `UnreadableItem` finding with its index, path and raw value: a well-formed answer
 * never fails as a whole because of one rule.
 *
 * @example
 * ```ts
 * import { PayFields } from "@payrules/transfers"
 * import { Result } from "effect"
 *
 * const read = Result.getOrThrow(
 *   PayFields.decodeLenient({
 *     fields: [
 *       { name: "reference", required: true, validation: { max_length: 140 } },
 *       { name: "charge_bearer", required: "sometimes" }
 *     ]
 *   })
 * )
 * console.log(read.fields.map((f) => f.name)) // [ 'reference' ]
 * console.log(read.findings[0]?.index, read.findings[0]?.path) // 1 [ 'fields', 1, 'required' ]
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const decodeLenient = (input: unknown): Result.Result<FieldsRead, Schema.SchemaError> =>
  Result.map(decodeEnvelope(input), readFields)
