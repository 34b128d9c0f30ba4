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
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ExchangeRequest from "./ExchangeRequest.js"
import type * as ExchangeTransaction from "./ExchangeTransaction.js"

/**
 * What came of a request:
 *
 * - `Succeeded`: the API answered with the transaction;
 * - `Rejected`: the API answered with a definite refusal (an error status, with the API's `code` when it has one)
 *   that it keeps as the result of the request_id: an identical repeat gets it again;
 * - `Unknown`: no answer (a timeout, a lost connection): retry with the same request_id and the same body.
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome = Data.TaggedEnum<{
  Succeeded: { readonly transaction: ExchangeTransaction.ExchangeTransaction }
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

/**
 * What the ledger remembers of a request_id.
 *
 * @since 0.1.0
 * @category models
 */
export interface Entry {
  readonly requestId: string
  /** `ExchangeRequest.fingerprint` of the body */
  readonly fingerprint: string
  /** epoch milliseconds, from `Clock` */
  readonly registeredAt: number
  /** epoch milliseconds from which the entry is forgotten */
  readonly expiresAt: number
  /** the first result of the request, once known (a later `complete` replaces an `Unknown`) */
  readonly outcome: Option.Option<Outcome>
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
 * `complete` for a request_id the ledger does not hold (never registered, released, or expired).
 *
 * @since 0.1.0
 * @category errors
 */
export class RequestLedgerError extends Data.TaggedError("RequestLedgerError")<{
  readonly reason: "NotRegistered"
  readonly requestId: string
  readonly message: string
}> {}

/**
 * @since 0.1.0
 * @category models
 */
export interface RequestLedgerService {
  /** records the request if its id is new, and says whether to send (or execute) it */
  readonly register: (request: ExchangeRequest.ExchangeRequest) => Effect.Effect<Registration>
  /** records what came of a registered request; a later outcome replaces an earlier one */
  readonly complete: (requestId: string, outcome: Outcome) => Effect.Effect<Entry, RequestLedgerError>
  /**
   * forgets a registered id: its request was refused before execution, so nothing is stored and the id may be used
   * again, with any body; answers whether the ledger held it (an expired entry is dropped, and does not count)
   */
  readonly release: (requestId: string) => Effect.Effect<boolean>
  /** the live entry of an id */
  readonly lookup: (requestId: string) => Effect.Effect<Option.Option<Entry>>
  /** every live entry, oldest first */
  readonly entries: Effect.Effect<ReadonlyArray<Entry>>
  /** drops every expired entry now (they are also dropped a few at a time as new ids arrive); answers how many */
  readonly prune: Effect.Effect<number>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class RequestLedger extends Context.Tag("@payrules/exchange/RequestLedger")<
  RequestLedger,
  RequestLedgerService
>() {}

/**
 * 24 hours: how long a request_id and its result are kept (D10).
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultWindow: Duration.Duration = Duration.hours(24)

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** how long an entry lives after registration (default {@link defaultWindow}) */
  readonly window?: Duration.DurationInput | undefined
}

/** expired entries dropped per registration: more than one, so a backlog drains while new ids keep coming */
const SWEEP = 8

const conflictMessage = (requestId: string) =>
  `request_id ${JSON.stringify(requestId)} was used for a different body: reuse it only to retry the same exchange, and take a new request_id for a new one`

/**
 * An in-memory ledger. Each operation reads the time once from `Clock` and runs without yielding, so concurrent
 * fibers registering the same new id get exactly one `New`. Entries sit in one `Map` in the order of registration,
 * which is the order of expiry: pruning takes them from the front, and no operation copies or scans the ledger.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options?: Options): Effect.Effect<RequestLedgerService> =>
  Effect.sync(() => {
    const windowMillis = Duration.toMillis(Duration.decode(options?.window ?? defaultWindow))
    const entries = new Map<string, Entry>()

    const sweep = (now: number, most: number): number => {
      let dropped = 0
      for (const [id, entry] of entries) {
        if (dropped >= most || entry.expiresAt > now) break
        entries.delete(id)
        dropped++
      }
      return dropped
    }
    const live = (requestId: string, now: number): Entry | undefined => {
      const entry = entries.get(requestId)
      return entry !== undefined && now < entry.expiresAt ? entry : undefined
    }

    const register = (request: ExchangeRequest.ExchangeRequest): Effect.Effect<Registration> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.sync(() => {
          const requestId = request.request_id
          const given = ExchangeRequest.fingerprint(request)
          const existing = live(requestId, now)
          if (existing !== undefined) {
            const same = existing.fingerprint === given
            const entry: Entry = {
              ...existing,
              received: existing.received + 1,
              conflicts: existing.conflicts + (same ? 0 : 1)
            }
            entries.set(requestId, entry)
            return same
              ? Registration.Replay({ entry, outcome: entry.outcome })
              : Registration.Conflict({
                  requestId,
                  recorded: existing.fingerprint,
                  given,
                  message: conflictMessage(requestId)
                })
          }
          sweep(now, SWEEP)
          const entry: Entry = {
            requestId,
            fingerprint: given,
            registeredAt: now,
            expiresAt: now + windowMillis,
            outcome: Option.none(),
            received: 1,
            conflicts: 0
          }
          // delete first: an expired entry of the same id leaves its place, and the new one goes to the end
          entries.delete(requestId)
          entries.set(requestId, entry)
          return Registration.New({ entry })
        })
      )

    const complete = (requestId: string, outcome: Outcome): Effect.Effect<Entry, RequestLedgerError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.suspend(() => {
          const existing = live(requestId, now)
          if (existing === undefined) {
            return Effect.fail(
              new RequestLedgerError({
                reason: "NotRegistered",
                requestId,
                message: `request_id ${JSON.stringify(requestId)} is not in the ledger (never registered, released, or expired)`
              })
            )
          }
          const entry: Entry = { ...existing, outcome: Option.some(outcome) }
          entries.set(requestId, entry)
          return Effect.succeed(entry)
        })
      )

    return RequestLedger.of({
      register,
      complete,
      // answers whether a live entry was held; an expired one is dropped all the same
      release: (requestId) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const held = live(requestId, now) !== undefined
          entries.delete(requestId)
          return held
        }),
      lookup: (requestId) => Effect.map(Clock.currentTimeMillis, (now) => Option.fromNullable(live(requestId, now))),
      entries: Effect.map(Clock.currentTimeMillis, (now) => [...entries.values()].filter((e) => now < e.expiresAt)),
      prune: Effect.map(Clock.currentTimeMillis, (now) => sweep(now, Number.POSITIVE_INFINITY))
    })
  })

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
export const register = (request: ExchangeRequest.ExchangeRequest): Effect.Effect<Registration, never, RequestLedger> =>
  Effect.flatMap(RequestLedger, (ledger) => ledger.register(request))

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
  Effect.flatMap(RequestLedger, (ledger) => ledger.complete(requestId, outcome))

/**
 * {@link RequestLedgerService.release} through the service.
 *
 * @since 0.1.0
 * @category accessors
 */
export const release = (requestId: string): Effect.Effect<boolean, never, RequestLedger> =>
  Effect.flatMap(RequestLedger, (ledger) => ledger.release(requestId))

/**
 * {@link RequestLedgerService.lookup} through the service.
 *
 * @since 0.1.0
 * @category accessors
 */
export const lookup = (requestId: string): Effect.Effect<Option.Option<Entry>, never, RequestLedger> =>
  Effect.flatMap(RequestLedger, (ledger) => ledger.lookup(requestId))
