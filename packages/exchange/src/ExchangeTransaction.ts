/**
 * The exchange transaction, the response of POST /exchange. Every field is optional on the wire; fields the
 * specification does not list are tolerated (and dropped). D5: `reason_code` is present exactly when the state is
 * `declined` or `failed`; {@link ExchangeTransaction} refuses a response that breaks this, {@link decodeLenient}
 * accepts it with a warning.
 *
 * A state added to the API since this version (`"held"`) is refused by the strict {@link ExchangeTransaction}, and
 * read by {@link Lenient} and {@link decodeLenient} as `{ _tag: "Unknown", value: "held" }` with an `UnknownValue`
 * warning at `["state"]` (issue 34): the transaction exists, so its request_id is settled and never sent again, and
 * its state is reported as unknown. The D5 rule on `reason_code` cannot be checked against a state it does not know,
 * so an unknown state brings no `ReasonCode` warning (only the `UnknownValue` one). Lists of transactions (GET
 * /transactions) keep the transactions they can read ({@link readList}).
 *
 * @since 0.1.0
 */
import { OffsetDateTime } from "@payrules/iso8601"
import { ItemList, OpenEnum } from "@payrules/lenient"
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
 * An exchange transaction as read from a server (the type of {@link Lenient}): the same fields, and a `state` that
 * may be one added since this version, kept as `{ _tag: "Unknown", value }` (see `ExchangeState.StateLenient`). A
 * transaction with an unknown state exists all the same: the request_id that created it is settled.
 *
 * @since 0.2.0
 * @category models
 */
export interface Lenient extends Omit<ExchangeTransaction, "state"> {
  readonly state?: ExchangeState.StateLenient
}

/**
 * The wire form of {@link Lenient}: the state is any well-formed string.
 *
 * @since 0.2.0
 * @category models
 */
export type LenientEncoded = Omit<Encoded, "state"> & { readonly state?: string }

/**
 * The states in which `reason_code` is present (D5).
 *
 * @since 0.1.0
 * @category constants
 */
export const statesWithReason: ReadonlySet<ExchangeState.State> = new Set(["declined", "failed"])

/**
 * What a warning is about:
 *
 * - `ReasonCode`: the D5 rule, `reason_code` present exactly when the state is `declined` or `failed`, is broken;
 * - `UnknownValue`: a well-formed value this version does not know (a state added since), read as
 *   `{ _tag: "Unknown", value }` (since 0.2.0);
 * - `UnreadableItem`: an item of a list that does not decode; the others are read (since 0.2.0).
 *
 * @since 0.2.0
 * @category models
 */
export type Rule = "ReasonCode" | "UnknownValue" | "UnreadableItem"

/**
 * A finding of a lenient read: what a strict reading would have refused, reported beside the data (D11). The
 * exchange package's finding type, for transactions and the lists of GET /transactions and GET /exchange-reasons.
 *
 * @since 0.1.0
 * @category models
 */
export interface Warning {
  /**
   * always `"warning"`: the data is still usable
   *
   * @since 0.2.0
   */
  readonly severity: "warning"
  /** @since 0.2.0 */
  readonly rule: Rule
  /** the path of the field, from the transaction (or, in a list, from the list: its index first) */
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  /**
   * an `UnreadableItem`'s index in the list as sent
   *
   * @since 0.2.0
   */
  readonly index?: number
  /**
   * what the server sent, for what could not be read as this version knows it: the raw text of an `UnknownValue`,
   * the raw item of an `UnreadableItem`
   *
   * @since 0.2.0
   */
  readonly raw?: unknown
}

const warning = (rule: Rule, path: ReadonlyArray<PropertyKey>, message: string): Warning => ({
  severity: "warning",
  rule,
  path,
  message
})

/**
 * What the D5 rule says of a transaction: nothing when `reason_code` is present exactly when the state is `declined`
 * or `failed`. A transaction without a state must not carry a `reason_code` either. A state this version does not
 * know (`{ _tag: "Unknown", value }`) cannot be checked against the rule: nothing (its `UnknownValue` warning comes
 * from {@link warnings}).
 *
 * @since 0.1.0
 * @category validation
 */
export const check = (transaction: Lenient): ReadonlyArray<Warning> => {
  const state = transaction.state
  if (state !== undefined && ExchangeState.isUnknown(state)) return []
  const expected = state !== undefined && statesWithReason.has(state)
  const present = transaction.reason_code !== undefined
  if (expected === present) return []
  return [
    warning(
      "ReasonCode",
      ["reason_code"],
      expected
        ? `reason_code is missing: a ${state} transaction says why it was ${state}`
        : `reason_code must be absent when the state is ${state ?? "not given"}: only declined and failed transactions carry one`
    )
  ]
}

/**
 * Every warning of a transaction read leniently: an `UnknownValue` warning for a state added since (at
 * `["state"]`), then the D5 rule ({@link check}). What {@link decodeLenient} reports; use it again on a transaction
 * read back from a store.
 *
 * @since 0.2.0
 * @category validation
 */
export const warnings = (transaction: Lenient): ReadonlyArray<Warning> => [
  ...OpenEnum.findUnknown(transaction).map((found) => ({
    ...warning(
      "UnknownValue",
      found.path,
      found.path.length === 1 && found.path[0] === "state"
        ? `state ${JSON.stringify(found.value)} is not a state this version of payrules knows (${ExchangeState.states.join(", ")}): the transaction exists, so its request_id is settled and never sent again; its state is reported as unknown ({ _tag: "Unknown", value: ${JSON.stringify(found.value)} }), and the reason_code rule (D5) cannot be checked`
        : OpenEnum.message(found)
    ),
    raw: found.value
  })),
  ...check(transaction)
]

const fields = {
  id: Schema.optionalKey(Schema.String),
  type: Schema.optionalKey(Schema.String),
  reason_code: Schema.optionalKey(Schema.String),
  created_at: Schema.optionalKey(OffsetDateTime.OffsetDateTimeFromString),
  completed_at: Schema.optionalKey(OffsetDateTime.OffsetDateTimeFromString),
  state: Schema.optionalKey(ExchangeState.State)
}

/**
 * The fields without the D5 rule, and with a state open to values added since (`ExchangeState.StateLenient`): what
 * {@link decodeLenient} decodes before it reports {@link warnings}. A known state decodes exactly as with the strict
 * Schema; `"held"` decodes to `{ _tag: "Unknown", value: "held" }` and encodes back to `"held"`.
 *
 * Its arbitrary draws transactions that break the D5 rule and ones in states added since, too.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Lenient: Schema.Codec<Lenient, LenientEncoded> = Schema.Struct({
  ...fields,
  state: Schema.optionalKey(ExchangeState.StateLenient)
}).annotate({
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
      const found = check(t)[0]
      return found === undefined ? undefined : { path: found.path, issue: found.message }
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
 * A transaction decoded leniently, with what the D5 rule found and the values this version does not know.
 *
 * @since 0.1.0
 * @category models
 */
export interface LenientResult {
  readonly transaction: Lenient
  readonly warnings: ReadonlyArray<Warning>
}

const decodeFields = Schema.decodeUnknownResult(Lenient)

/**
 * Decodes a response leniently (D11): wrong JSON types, a malformed state (not a string, empty, with spaces) or a
 * malformed date-time are still errors, but a `reason_code` that breaks D5, or a well-formed state added since
 * (`"held"`, read as `{ _tag: "Unknown", value: "held" }`), leaves the transaction usable, so it is read and the
 * finding comes back beside it as a warning ({@link warnings}), never silently.
 *
 * @example
 * ```ts
 * import { ExchangeTransaction } from "@payrules/exchange"
 * import { Result } from "effect"
 *
 * const read = Result.getOrThrow(ExchangeTransaction.decodeLenient({ id: "t-1", state: "held" }))
 * console.log(read.transaction.state) // { _tag: 'Unknown', value: 'held' }
 * console.log(read.warnings.map((w) => [w.rule, w.path])) // [ [ 'UnknownValue', [ 'state' ] ] ]
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeLenient = (u: unknown): Result.Result<LenientResult, Schema.SchemaError> =>
  Result.map(decodeFields(u), (transaction) => ({ transaction, warnings: warnings(transaction) }))

/**
 * The transactions of a list that decoded, with their index in the list as sent, and the warnings of the list.
 *
 * @since 0.2.0
 * @category models
 */
export interface ListResult {
  /** the transactions that decoded ({@link Lenient}), in their order */
  readonly transactions: ReadonlyArray<Lenient>
  /** the index of each of {@link transactions} in the list as sent */
  readonly indices: ReadonlyArray<number>
  /**
   * in the order of the list: each transaction's {@link warnings}, and an `UnreadableItem` warning (index, path,
   * raw value) for each item that does not decode; paths start with the item's index
   */
  readonly warnings: ReadonlyArray<Warning>
}

const readItems = ItemList.decode(Lenient)

/**
 * Reads a list of transactions (the answer of GET /transactions) item by item: every transaction that decodes is
 * kept, and each item that does not becomes an `UnreadableItem` warning with its index, the path of what broke and
 * its raw value. One malformed record never costs the caller the others.
 *
 * @since 0.2.0
 * @category decoding
 */
export const readList = (list: ReadonlyArray<unknown>): ListResult => {
  const { indices, items, unreadable } = readItems(list)
  // the warnings of each item as sent, in the list's order: every index is either read or unreadable
  const byIndex: Array<ReadonlyArray<Warning>> = []
  for (const u of unreadable) {
    byIndex[u.index] = [
      ItemList.finding(
        u,
        `item ${u.index} is not a transaction this version can read (${u.message}); the other items are read`
      )
    ]
  }
  items.forEach((transaction, k) => {
    const index = indices[k]!
    byIndex[index] = warnings(transaction).map((w) => ({ ...w, path: [index, ...w.path] }))
  })
  return { transactions: items, indices, warnings: byIndex.flat() }
}

const ListEnvelope = Schema.Array(Schema.Unknown).annotate({ identifier: "ExchangeTransactionList" })
const decodeEnvelope = Schema.decodeUnknownResult(ListEnvelope)

/**
 * Decodes a list of transactions leniently: an answer that is not an array is an error; in an array, every item that
 * decodes is kept ({@link readList}).
 *
 * @since 0.2.0
 * @category decoding
 */
export const decodeListLenient = (u: unknown): Result.Result<ListResult, Schema.SchemaError> =>
  Result.map(decodeEnvelope(u), readList)
