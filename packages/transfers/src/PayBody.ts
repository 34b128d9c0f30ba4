/**
 * The static base of every POST /pay body (D6): the always-required fields `amount`, `currency`, `account_id`,
 * `receiver` and `request_id`, which the specification keeps out of the /pay/fields response. The rules of a
 * response are compiled on top of it by {@link FieldValidator.compile}.
 *
 * @since 0.1.0
 */
import type { Currency } from "@payrules/money"
import type * as Schema from "effect/Schema"
import * as Rules from "./internal/rules.js"
import * as SchemaBuilder from "./internal/schema.js"

/**
 * At most 40 characters (Unicode code points), at least 1.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_REQUEST_ID_LENGTH: number = Rules.MAX_REQUEST_ID_LENGTH

/**
 * The always-required fields, which the static base schema checks.
 *
 * @since 0.1.0
 * @category constants
 */
export const alwaysRequired: ReadonlyArray<string> = ["amount", "currency", "account_id", "receiver", "request_id"]

/**
 * The receiver of a payment, with whatever fields the rules add (`receiver.address.city`, ...).
 *
 * @since 0.1.0
 * @category models
 */
export interface Receiver {
  readonly counterparty_id: string
  readonly account_id?: string
  readonly card_id?: string
  readonly [field: string]: unknown
}

/**
 * A checked /pay body: the base fields typed, the fields of the rules as `unknown` (they are strings or objects of
 * strings, checked against the rules).
 *
 * @since 0.1.0
 * @category models
 */
export interface PayBody {
  /** a finite number greater than 0 */
  readonly amount: number
  readonly currency: Currency.CurrencyCode
  /** not empty */
  readonly account_id: string
  /** `account_id` and `card_id` are never both given */
  readonly receiver: Receiver
  /** 1 to 40 code points, no control characters */
  readonly request_id: string
  readonly [field: string]: unknown
}

/**
 * The wire form of {@link PayBody}.
 *
 * @since 0.1.0
 * @category models
 */
export interface Encoded {
  readonly amount: number
  readonly currency: string
  readonly account_id: string
  readonly receiver: Receiver
  readonly request_id: string
  readonly [field: string]: unknown
}

/**
 * The static base schema: the always-required fields only, other fields ignored. Its rules: `amount` a finite
 * number above 0, `currency` an ISO 4217 code of the list, `account_id` and `receiver.counterparty_id` (and
 * `receiver.account_id` / `receiver.card_id` when given) not empty, at most one of `receiver.account_id` and
 * `receiver.card_id`, `request_id` of 1 to 40 code points without control characters or lone surrogates. Its
 * arbitrary (`Arbitrary.schema(PayBody.PayBody)`) draws such bodies.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PayBody: Schema.Codec<PayBody, Encoded> = SchemaBuilder.build(Rules.base("strip"))
