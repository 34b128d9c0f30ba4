/**
 * POST /pay/fields: the request (a source account and a receiver) and the response (the fields a payment to that
 * receiver needs, with their lengths, patterns and allowed values). These are wire Schemas, faithful to the
 * specification; turning the rules into a validator is {@link FieldValidator.compile}'s job.
 *
 * @since 0.1.0
 */
import * as Equivalence from "effect/Equivalence"
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
