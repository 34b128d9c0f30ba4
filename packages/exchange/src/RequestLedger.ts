/**
 * The request_id ledger (D5, D10), for both sides of the API. A client registers every exchange before sending it, so
 * a retry reuses the id with the same body and a different body under a used id is refused before anything is sent; a
 * server registers every exchange it receives and stores the first result of the ones it executes, so an identical
 * repeat gets that result again (errors included) and a different body under the id is a conflict. A request refused
 * before execution (validation) is released: nothing is stored, and the id can be used again.
 *
 * Entries expire after a retention window (24 hours by default), measured with effect's `Clock`. Every operation
 * costs the same whatever the ledger holds, and expired entries are pruned as new ones arrive, so memory stays
 * bounded under a stream of new ids.
 *
 * The service is the same whatever keeps the entries: this module's in-memory ledger (the default), or a durable
 * store of `@payrules/stores` (a SQLite file for one process, PostgreSQL for several), which survives a crash: every
 * entry carries its canonical body and its {@link State}, so a new process finds the exchanges that were in flight
 * ({@link RequestLedgerService.pending}) and settles them.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import * as ExchangeRequest from "./ExchangeRequest.js"
import * as ExchangeTransaction from "./ExchangeTransaction.js"
import * as memoryLedger from "./internal/memoryLedger.js"
import * as outcomeStore from "./internal/outcomeStore.js"

/**
 * What came of a request:
 *
 * - `Succeeded`: the API answered with the transaction. It is the transaction as read (`ExchangeTransaction.Lenient`),
 *   whatever its state, a state added since this version included (`{ _tag: "Unknown", value: "held" }`): the
 *   transaction exists, so the request_id is settled and never sent again, and a durable store keeps the state's raw
 *   value and reads it back as the same unknown state;
 * - `Rejected`: the API answered with a definite refusal (an error status, with the API's `code` when it has one)
 *   that it keeps as the result of the request_id: an identical repeat gets it again;
 * - `Unknown`: no answer (a timeout, a lost connection): retry with the same request_id and the same body.
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome = Data.TaggedEnum<{
  Succeeded: { readonly transaction: ExchangeTransaction.Lenient }
  Rejected: { readonly status: number; readonly code?: number | undefined; readonly message: string }
  Unknown: { readonly message: string }
}>

/**
 * Constructors and matchers of {@link Outcome}: `Outcome.Succeeded({ transaction })`, `Outcome.Unknown({ message })`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const Outcome = Data.taggedEnum<Outcome>()

const parseJson = Schema.decodeUnknownResult(Schema.fromJsonString(Schema.Unknown))

/**
 * The outcome as stored by a durable ledger: a Schema whose encoded side is plain JSON (the transaction in its wire
 * form), so a store keeps it as text and reads back the same {@link Outcome}. The transaction is stored with
 * `ExchangeTransaction.Lenient`: a state added since this version is kept as its raw text (`"held"`) and reads back
 * as `{ _tag: "Unknown", value: "held" }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OutcomeSchema: Schema.Codec<Outcome, OutcomeEncoded> = Schema.Union([
  Schema.TaggedStruct("Succeeded", { transaction: ExchangeTransaction.Lenient }),
  Schema.TaggedStruct("Rejected", {
    status: Schema.Int,
    code: Schema.optionalKey(Schema.Int),
    message: Schema.String
  }),
  Schema.TaggedStruct("Unknown", { message: Schema.String })
])
  .pipe(
    Schema.decodeTo(
      outcomeStore.OutcomeValue,
      SchemaTransformation.transform({ decode: outcomeStore.fromStored, encode: outcomeStore.toStored })
    )
  )
  .annotate({ identifier: "RequestLedgerOutcome" })

/**
 * The stored form of an {@link Outcome}.
 *
 * @since 0.1.0
 * @category models
 */
export type OutcomeEncoded =
  | { readonly _tag: "Succeeded"; readonly transaction: ExchangeTransaction.LenientEncoded }
  | { readonly _tag: "Rejected"; readonly status: number; readonly code?: number; readonly message: string }
  | { readonly _tag: "Unknown"; readonly message: string }

/**
 * Where an exchange stands in the ledger:
 *
 * - `in-flight`: registered, no outcome recorded yet (being sent, or its process stopped before the answer);
 * - `succeeded`: the API answered with the transaction, in any state (one added since this version too: the
 *   transaction exists, so the request_id is settled);
 * - `refused`: the API answered with a definite refusal that it keeps for the request_id;
 * - `unknown`: no answer told what became of it: resume it with the same request_id and body.
 *
 * `in-flight` and `unknown` are the pending states that {@link RequestLedgerService.pending} lists.
 *
 * @since 0.1.0
 * @category models
 */
export type State = "in-flight" | "succeeded" | "refused" | "unknown"

/**
 * The {@link State} of an entry with this outcome. A `Succeeded` outcome is `succeeded` whatever the transaction's
 * state, an unknown one (`{ _tag: "Unknown", value }`) included: the server has the transaction, so the exchange is
 * settled and not pending.
 *
 * @since 0.1.0
 * @category getters
 */
export const stateOf = (outcome: Option.Option<Outcome>): State => {
  if (Option.isNone(outcome)) return "in-flight"
  switch (outcome.value._tag) {
    case "Succeeded":
      return "succeeded"
    case "Rejected":
      return "refused"
    case "Unknown":
      return "unknown"
  }
}

/**
 * Whether an entry in this state waits to be settled (`in-flight` or `unknown`).
 *
 * @since 0.1.0
 * @category predicates
 */
export const isPending = (state: State): boolean => state === "in-flight" || state === "unknown"

/**
 * What the ledger remembers of a request_id.
 *
 * @since 0.1.0
 * @category models
 */
export interface Entry {
  readonly requestId: string
  /**
   * `ExchangeRequest.fingerprint` of the body: the canonical JSON of the request (keys sorted), which is both its
   * identity and the body itself, so a ledger can resend it ({@link requestOf})
   */
  readonly fingerprint: string
  /** epoch milliseconds, from `Clock` */
  readonly registeredAt: number
  /** epoch milliseconds from which the entry is forgotten */
  readonly expiresAt: number
  /** the first result of the request, once known (a later `complete` replaces an `Unknown`) */
  readonly outcome: Option.Option<Outcome>
  /**
   * where the exchange stands, from its outcome (see {@link stateOf})
   *
   * @since 0.1.0
   */
  readonly state: State
  /** how many times the id was registered: the first time, identical repeats and conflicts */
  readonly received: number
  /** how many of those came with another body */
  readonly conflicts: number
}

/**
 * The answer of {@link RequestLedgerService.register}:
 *
 * - `New`: the id is unused (or its entry expired, or was released): send (or execute) the request;
 * - `Replay`: the same id with the same body: use the recorded outcome when there is one, otherwise send it again
 *   with this id (never a new one);
 * - `Conflict`: the same id with a different body: do not send (or execute) it.
 *
 * @since 0.1.0
 * @category models
 */
export type Registration = Data.TaggedEnum<{
  New: { readonly entry: Entry }
  Replay: { readonly entry: Entry; readonly outcome: Option.Option<Outcome> }
  Conflict: {
    readonly requestId: string
    readonly recorded: string
    readonly given: string
    readonly message: string
  }
}>

/**
 * Constructors and matchers of {@link Registration}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const Registration = Data.taggedEnum<Registration>()

/**
 * A ledger operation that failed:
 *
 * - `NotRegistered`: `complete` for a request_id the ledger does not hold (never registered, released, or expired);
 * - `StoreFailed`: a durable store could not be read or written (the database is unreachable, a row does not
 *   decode); the in-memory ledger never fails so.
 *
 * @since 0.1.0
 * @category errors
 */
export class RequestLedgerError extends Data.TaggedError("RequestLedgerError")<{
  readonly reason: "NotRegistered" | "StoreFailed"
  /** the request_id the operation was about, when it was about one */
  readonly requestId?: string | undefined
  readonly message: string
  readonly cause?: unknown
}> {}

/**
 * The ledger. `E` is what its store may fail with: `never` for the in-memory ledger ({@link make}), a
 * `RequestLedgerError` with reason `StoreFailed` for a durable one, as the {@link RequestLedger} service says.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestLedgerService<E = RequestLedgerError> {
  /** records the request if its id is new, and says whether to send (or execute) it */
  readonly register: (request: ExchangeRequest.ExchangeRequest) => Effect.Effect<Registration, E>
  /** records what came of a registered request; a later outcome replaces an earlier one */
  readonly complete: (requestId: string, outcome: Outcome) => Effect.Effect<Entry, RequestLedgerError | E>
  /**
   * forgets a registered id: its request was refused before execution, so nothing is stored and the id may be used
   * again, with any body; answers whether the ledger held it (an expired entry is dropped, and does not count)
   */
  readonly release: (requestId: string) => Effect.Effect<boolean, E>
  /** the live entry of an id */
  readonly lookup: (requestId: string) => Effect.Effect<Option.Option<Entry>, E>
  /** every live entry, oldest first */
  readonly entries: Effect.Effect<ReadonlyArray<Entry>, E>
  /**
   * every live entry that waits to be settled (`in-flight` or `unknown`), oldest first
   *
   * @since 0.1.0
   */
  readonly pending: Effect.Effect<ReadonlyArray<Entry>, E>
  /** drops every expired entry now (they are also dropped a few at a time as new ids arrive); answers how many */
  readonly prune: Effect.Effect<number, E>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class RequestLedger extends Context.Service<RequestLedger, RequestLedgerService>()(
  "@payrules/exchange/RequestLedger"
) {}

/**
 * 24 hours: how long a request_id and its result are kept (D10).
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultWindow: Duration.Duration = Duration.hours(24)

/**
 * The request an entry holds, decoded from its canonical body ({@link Entry.fingerprint}): what a resumed exchange
 * sends again, with the same request_id.
 *
 * @since 0.1.0
 * @category getters
 */
export const requestOf = (entry: Entry): Result.Result<ExchangeRequest.ExchangeRequest, Schema.SchemaError> =>
  Result.flatMap(parseJson(entry.fingerprint), ExchangeRequest.parse)

/**
 * A message that says why a request_id was refused as a conflict.
 *
 * @since 0.1.0
 * @category constructors
 */
export const conflictMessage = (requestId: string): string =>
  `request_id ${JSON.stringify(requestId)} was used for a different body: reuse it only to retry the same exchange, and take a new request_id for a new one`

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** how long an entry lives after registration (default {@link defaultWindow}) */
  readonly window?: Duration.Input | undefined
}

/**
 * An in-memory ledger. Each operation reads the time once from `Clock` and runs without yielding, so concurrent
 * fibers registering the same new id get exactly one `New`. Entries sit in one `Map` in the order of registration,
 * which is the order of expiry: pruning takes them from the front, and no operation copies or scans the ledger.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options?: Options): Effect.Effect<RequestLedgerService<never>> =>
  memoryLedger.make(Duration.toMillis(options?.window ?? defaultWindow))

/**
 * An in-memory ledger with the given window.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (options: Options): Layer.Layer<RequestLedger> => Layer.effect(RequestLedger, make(options))

/**
 * An in-memory ledger with the 24-hour window.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<RequestLedger> = layerWith({})

/**
 * {@link RequestLedgerService.register} through the service.
 *
 * @since 0.1.0
 * @category accessors
 */
export const register = (
  request: ExchangeRequest.ExchangeRequest
): Effect.Effect<Registration, RequestLedgerError, RequestLedger> =>
  RequestLedger.use((ledger) => ledger.register(request))

/**
 * {@link RequestLedgerService.complete} through the service.
 *
 * @since 0.1.0
 * @category accessors
 */
export const complete = (
  requestId: string,
  outcome: Outcome
): Effect.Effect<Entry, RequestLedgerError, RequestLedger> =>
  RequestLedger.use((ledger) => ledger.complete(requestId, outcome))

/**
 * {@link RequestLedgerService.release} through the service.
 *
 * @since 0.1.0
 * @category accessors
 */
export const release = (requestId: string): Effect.Effect<boolean, RequestLedgerError, RequestLedger> =>
  RequestLedger.use((ledger) => ledger.release(requestId))

/**
 * {@link RequestLedgerService.lookup} through the service.
 *
 * @since 0.1.0
 * @category accessors
 */
export const lookup = (requestId: string): Effect.Effect<Option.Option<Entry>, RequestLedgerError, RequestLedger> =>
  RequestLedger.use((ledger) => ledger.lookup(requestId))

/**
 * {@link RequestLedgerService.pending} through the service.
 *
 * @since 0.1.0
 * @category accessors
 */
export const pending: Effect.Effect<ReadonlyArray<Entry>, RequestLedgerError, RequestLedger> = RequestLedger.use(
  (ledger) => ledger.pending
)
