/**
 * The request_id ledger (D5): which `request_id` was sent with which body, and what came of it, so that a retry
 * reuses the id with the same body and a different body under a used id is refused before anything is sent. Entries
 * expire after the API's idempotency window, measured with effect's `Clock`.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as ExchangeRequest from "./ExchangeRequest.js"
import type * as ExchangeTransaction from "./ExchangeTransaction.js"

/**
 * What came of a sent request:
 *
 * - `Succeeded`: the API answered with the transaction;
 * - `Rejected`: the API refused the request (a 4xx answer) and created nothing;
 * - `Unknown`: no answer (a timeout, a lost connection): retry with the same request_id and the same body.
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome = Data.TaggedEnum<{
  Succeeded: { readonly transaction: ExchangeTransaction.ExchangeTransaction }
  Rejected: { readonly status: number; readonly message: string }
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
  /** epoch milliseconds after which the entry is forgotten */
  readonly expiresAt: number
  readonly outcome: Option.Option<Outcome>
}

/**
 * The answer of {@link RequestLedgerService.register}:
 *
 * - `New`: the id is unused (or its entry expired): send the request;
 * - `Replay`: the same id with the same body: send it again with this id (never a new one), or use the recorded
 *   outcome;
 * - `Conflict`: the same id with a different body: do not send it; use a new request_id for a new exchange.
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
 * `complete` for a request_id the ledger does not hold (never registered, or expired).
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
  /** records the request if its id is new, and says whether to send it */
  readonly register: (request: ExchangeRequest.ExchangeRequest) => Effect.Effect<Registration>
  /** records what came of a registered request; a later outcome replaces an earlier one */
  readonly complete: (requestId: string, outcome: Outcome) => Effect.Effect<Entry, RequestLedgerError>
  /** the live entry of an id */
  readonly lookup: (requestId: string) => Effect.Effect<Option.Option<Entry>>
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
 * 14 days: how long the API keeps a request_id.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultWindow: Duration.Duration = Duration.days(14)

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** how long an entry lives after registration (default {@link defaultWindow}) */
  readonly window?: Duration.DurationInput | undefined
}

interface State {
  readonly entries: HashMap.HashMap<string, Entry>
  /** when expired entries are next dropped from memory */
  readonly nextSweep: number
}

const live = (state: State, requestId: string, now: number): Option.Option<Entry> =>
  Option.filter(HashMap.get(state.entries, requestId), (e) => now < e.expiresAt)

/**
 * An in-memory ledger. Each operation reads the time once from `Clock` and updates the ledger atomically, so
 * concurrent fibers registering the same new id get exactly one `New`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options?: Options): Effect.Effect<RequestLedgerService> =>
  Effect.gen(function* () {
    const windowMillis = Duration.toMillis(Duration.decode(options?.window ?? defaultWindow))
    const ref = yield* Ref.make<State>({ entries: HashMap.empty(), nextSweep: 0 })

    const register = (request: ExchangeRequest.ExchangeRequest): Effect.Effect<Registration> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const requestId = request.request_id
        const given = ExchangeRequest.fingerprint(request)
        return Ref.modify(ref, (state): [Registration, State] => {
          const existing = live(state, requestId, now)
          if (Option.isSome(existing)) {
            const entry = existing.value
            return entry.fingerprint === given
              ? [Registration.Replay({ entry, outcome: entry.outcome }), state]
              : [
                  Registration.Conflict({
                    requestId,
                    recorded: entry.fingerprint,
                    given,
                    message: `request_id ${JSON.stringify(requestId)} was used for a different body: reuse it only to retry the same exchange, and take a new request_id for a new one`
                  }),
                  state
                ]
          }
          const entry: Entry = {
            requestId,
            fingerprint: given,
            registeredAt: now,
            expiresAt: now + windowMillis,
            outcome: Option.none()
          }
          const swept =
            now >= state.nextSweep
              ? { entries: HashMap.filter(state.entries, (e) => now < e.expiresAt), nextSweep: now + windowMillis }
              : state
          return [Registration.New({ entry }), { ...swept, entries: HashMap.set(swept.entries, requestId, entry) }]
        })
      })

    const complete = (requestId: string, outcome: Outcome): Effect.Effect<Entry, RequestLedgerError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.flatten(
          Ref.modify(ref, (state): [Effect.Effect<Entry, RequestLedgerError>, State] =>
            Option.match(live(state, requestId, now), {
              onNone: () => [
                Effect.fail(
                  new RequestLedgerError({
                    reason: "NotRegistered",
                    requestId,
                    message: `request_id ${JSON.stringify(requestId)} is not in the ledger (never registered, or expired)`
                  })
                ),
                state
              ],
              onSome: (e) => {
                const entry: Entry = { ...e, outcome: Option.some(outcome) }
                return [Effect.succeed(entry), { ...state, entries: HashMap.set(state.entries, requestId, entry) }]
              }
            })
          )
        )
      )

    const lookup = (requestId: string): Effect.Effect<Option.Option<Entry>> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.map(Ref.get(ref), (state) => live(state, requestId, now)))

    return RequestLedger.of({ register, complete, lookup })
  })

/**
 * An in-memory ledger with the given window.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (options: Options): Layer.Layer<RequestLedger> => Layer.effect(RequestLedger, make(options))

/**
 * An in-memory ledger with the 14-day window.
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
 * {@link RequestLedgerService.lookup} through the service.
 *
 * @since 0.1.0
 * @category accessors
 */
export const lookup = (requestId: string): Effect.Effect<Option.Option<Entry>, never, RequestLedger> =>
  Effect.flatMap(RequestLedger, (ledger) => ledger.lookup(requestId))
