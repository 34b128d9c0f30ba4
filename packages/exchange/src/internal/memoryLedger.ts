/**
 * The in-memory request_id ledger: entries in one `Map`, in the order of registration (the order of expiry).
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ExchangeRequest from "../ExchangeRequest.js"
import {
  conflictMessage,
  type Entry,
  isPending,
  type Outcome,
  Registration,
  RequestLedgerError,
  type RequestLedgerService,
  stateOf
} from "../RequestLedger.js"

/** expired entries dropped per registration: more than one, so a backlog drains while new ids keep coming */
const SWEEP = 8

/** @internal */
export const make = (windowMillis: number): Effect.Effect<RequestLedgerService<never>> =>
  Effect.sync(() => {
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

    /** `f` of the time, read once from `Clock`, in one step */
    const at = <A>(f: (now: number) => A): Effect.Effect<A> =>
      Clock.clockWith((clock) => Effect.sync(() => f(clock.currentTimeMillisUnsafe())))

    const register = (request: ExchangeRequest.ExchangeRequest): Effect.Effect<Registration> =>
      at((now) => {
        const requestId = request.request_id
        const given = ExchangeRequest.fingerprint(request)
        const found = entries.get(requestId)
        const existing = found !== undefined && now < found.expiresAt ? found : undefined
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
          state: "in-flight",
          received: 1,
          conflicts: 0
        }
        // an expired entry of the same id leaves its place first, so the new one goes to the end
        if (found !== undefined) entries.delete(requestId)
        entries.set(requestId, entry)
        return Registration.New({ entry })
      })

    const complete = (requestId: string, outcome: Outcome): Effect.Effect<Entry, RequestLedgerError> =>
      Clock.clockWith((clock) => {
        const existing = live(requestId, clock.currentTimeMillisUnsafe())
        if (existing === undefined) {
          return Effect.fail(
            new RequestLedgerError({
              reason: "NotRegistered",
              requestId,
              message: `request_id ${JSON.stringify(requestId)} is not in the ledger (never registered, released, or expired)`
            })
          )
        }
        const some = Option.some(outcome)
        const entry: Entry = { ...existing, outcome: some, state: stateOf(some) }
        entries.set(requestId, entry)
        return Effect.succeed(entry)
      })

    const liveEntries = at((now) => [...entries.values()].filter((e) => now < e.expiresAt))

    return {
      register,
      complete,
      // answers whether a live entry was held; an expired one is dropped all the same
      release: (requestId) =>
        at((now) => {
          const held = live(requestId, now) !== undefined
          entries.delete(requestId)
          return held
        }),
      lookup: (requestId) => at((now) => Option.fromUndefinedOr(live(requestId, now))),
      entries: liveEntries,
      pending: Effect.map(liveEntries, (live) => live.filter((e) => isPending(e.state))),
      prune: at((now) => sweep(now, Number.POSITIVE_INFINITY))
    }
  })
