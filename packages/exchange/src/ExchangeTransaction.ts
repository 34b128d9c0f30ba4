/**
 * The exchange transaction, the response of POST /exchange. Every field is optional on the wire; fields the
 * specification does not list are tolerated (and dropped). D5: `reason_code` is present exactly when the state is
 * `declined` or `failed`; {@link ExchangeTransaction} refuses a response that breaks this, {@link decodeLenient}
 * accepts it with a warning.
 *
 * @since 0.1.0
 */
import { OffsetDateTime } from "@payrules/iso8601"
import type * as DateTime from "effect/DateTime"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as ExchangeState from "./ExchangeState.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface ExchangeTransaction {
  readonly id?: string
  /** `exchange` for an exchange */
  readonly type?: string
  /** why the transaction was declined or failed */
  readonly reason_code?: string
  /** an ISO 8601 date-time with its offset (one without a timezone is refused) */
  readonly created_at?: DateTime.Zoned
  readonly completed_at?: DateTime.Zoned
  readonly state?: ExchangeState.State
}

/**
 * The wire form: the same fields, as JSON (date-times as strings).
 *
 * @since 0.1.0
 * @category models
 */
export type Encoded = Omit<ExchangeTransaction, "created_at" | "completed_at"> & {
  readonly created_at?: string
  readonly completed_at?: string
}

/**
 * The states in which `reason_code` is present (D5).
 *
 * @since 0.1.0
 * @category constants
 */
export const statesWithReason: ReadonlySet<ExchangeState.State> = new Set(["declined", "failed"])

/**
 * A finding of the D5 rule on `reason_code`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Warning {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/**
 * What the D5 rule says of a transaction: nothing when `reason_code` is present exactly when the state is `declined`
 * or `failed`. A transaction without a state must not carry a `reason_code` either.
 *
 * @since 0.1.0
 * @category validation
 */
export const check = (transaction: ExchangeTransaction): ReadonlyArray<Warning> => {
  const expected = transaction.state !== undefined && statesWithReason.has(transaction.state)
  const present = transaction.reason_code !== undefined
  if (expected === present) return []
  return [
    {
      path: ["reason_code"],
      message: expected
        ? `reason_code is missing: a ${transaction.state} transaction says why it was ${transaction.state}`
        : `reason_code must be absent when the state is ${transaction.state ?? "not given"}: only declined and failed transactions carry one`
    }
  ]
}

const fields = {
  id: Schema.optionalKey(Schema.String),
  type: Schema.optionalKey(Schema.String),
  reason_code: Schema.optionalKey(Schema.String),
  created_at: Schema.optionalKey(OffsetDateTime.OffsetDateTimeFromString),
  completed_at: Schema.optionalKey(OffsetDateTime.OffsetDateTimeFromString),
  state: Schema.optionalKey(ExchangeState.State)
}

/**
 * The fields without the D5 rule: what {@link decodeLenient} decodes before it reports the rule as warnings.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Lenient: Schema.Codec<ExchangeTransaction, Encoded> = Schema.Struct(fields).annotate({
  identifier: "ExchangeTransactionLenient"
})

/**
 * The transaction with the D5 rule: a `reason_code` without a declined or failed state, or a declined or failed
 * state without one, is a decoding error at `["reason_code"]`.
 *
 * Its arbitrary (`Arbitrary.schema(ExchangeTransaction.ExchangeTransaction)`) draws transactions that keep the rule;
 * `Arbitrary.schema(ExchangeTransaction.Lenient)` also draws ones that break it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ExchangeTransaction: Schema.Codec<ExchangeTransaction, Encoded> = Schema.Struct(fields).check(
  Schema.makeFilter(
    (t: ExchangeTransaction) => {
      const warning = check(t)[0]
      return warning === undefined ? undefined : { path: warning.path, issue: warning.message }
    },
    {
      identifier: "ExchangeTransaction",
      description: "an exchange transaction whose reason_code is present exactly when the state is declined or failed"
    }
  )
)

/**
 * Decodes a response strictly.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode: (u: unknown) => Result.Result<ExchangeTransaction, Schema.SchemaError> =
  Schema.decodeUnknownResult(ExchangeTransaction)

/**
 * A transaction decoded leniently, with what the D5 rule found.
 *
 * @since 0.1.0
 * @category models
 */
export interface LenientResult {
  readonly transaction: ExchangeTransaction
  readonly warnings: ReadonlyArray<Warning>
}

const decodeFields = Schema.decodeUnknownResult(Lenient)

/**
 * Decodes a response leniently (D11): wrong JSON types, an unknown state or a malformed date-time are still errors,
 * but a `reason_code` that breaks D5 leaves the transaction usable, so it is read and the broken rule comes back
 * beside it as a warning, never silently.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeLenient = (u: unknown): Result.Result<LenientResult, Schema.SchemaError> =>
  Result.map(decodeFields(u), (transaction) => ({ transaction, warnings: check(transaction) }))
