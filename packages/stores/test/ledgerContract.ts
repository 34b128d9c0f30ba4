/**
 * The contract of a request_id ledger: one suite, run against every store (memory, SQLite, PostgreSQL). A store is
 * a way to get a new, empty place (`fresh`) and to open ledgers on it (`open`); two ledgers opened on one place
 * share their entries, as two processes on one SQLite file or one PostgreSQL database do.
 */
import { describe, expect, it } from "@effect/vitest"
import { ExchangeRequest, ExchangeTransaction, RequestLedger } from "@payrules/exchange"
import { Context, DateTime, Duration, Effect, Exit, Layer, Option, Result, Schema, type Scope } from "effect"
import { TestClock } from "effect/testing"

export interface Place {
  readonly open: (options?: RequestLedger.Options) => Layer.Layer<RequestLedger.RequestLedger, unknown>
}

export interface Store {
  readonly name: string
  /** a new, empty place for ledgers, gone with the scope */
  readonly fresh: Effect.Effect<Place, unknown, Scope.Scope>
  /** whether two ledgers opened on one place share their entries (false for memory: each is its own) */
  readonly shared: boolean
  /** runs of the model property (each on a fresh place) */
  readonly modelRuns: number
}

export const request = (requestId: string, amount = 100.5, extra: object = {}) =>
  Result.getOrThrow(
    ExchangeRequest.parse({
      from: { account_id: "a-gbp", currency: "GBP", amount },
      to: { account_id: "a-eur", currency: "EUR" },
      request_id: requestId,
      ...extra
    })
  )

/** the ledger of a layer, for the scope */
export const ledgerOf = (layer: Layer.Layer<RequestLedger.RequestLedger, unknown>) =>
  Effect.map(Layer.build(layer), Context.get(RequestLedger.RequestLedger))

/** runs `self` with a ledger on a fresh place */
const withLedger = <A, E>(
  store: Store,
  self: (ledger: RequestLedger.RequestLedgerService, place: Place) => Effect.Effect<A, E, Scope.Scope>,
  options?: RequestLedger.Options
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const place = yield* store.fresh
      const ledger = yield* ledgerOf(place.open(options))
      return yield* self(ledger, place)
    })
  )

const transactionWire = {
  id: "0b6f1f0e-3c3a-4d2b-9a51-5f1f1e9b7c11",
  type: "exchange",
  created_at: "2024-05-01T10:00:00Z",
  completed_at: "2024-05-01T10:00:01Z"
}

const transaction = {
  id: "0b6f1f0e-3c3a-4d2b-9a51-5f1f1e9b7c11",
  type: "exchange",
  state: "completed" as const,
  created_at: DateTime.makeZonedUnsafe("2024-05-01T10:00:00Z", { timeZone: 0 }),
  completed_at: DateTime.makeZonedUnsafe("2024-05-01T10:00:01Z", { timeZone: 0 })
}

export const ledgerContract = (store: Store): void => {
  describe(`RequestLedger contract: ${store.name}`, () => {
    it.effect("New, Replay for the same body, Conflict for another; a conflict replaces nothing", () =>
      withLedger(store, (ledger) =>
        Effect.gen(function* () {
          const first = yield* ledger.register(request("r-1"))
          expect(first).toMatchObject({
            _tag: "New",
            entry: { requestId: "r-1", state: "in-flight", received: 1, conflicts: 0, registeredAt: 0 }
          })
          const again = yield* ledger.register(request("r-1"))
          expect(again).toMatchObject({ _tag: "Replay", outcome: Option.none(), entry: { received: 2 } })
          const other = yield* ledger.register(request("r-1", 200))
          expect(other).toMatchObject({
            _tag: "Conflict",
            requestId: "r-1",
            recorded: ExchangeRequest.fingerprint(request("r-1")),
            given: ExchangeRequest.fingerprint(request("r-1", 200))
          })
          expect((yield* ledger.register(request("r-1")))._tag).toBe("Replay")
          const entry = Option.getOrThrow(yield* ledger.lookup("r-1"))
          expect(entry).toMatchObject({
            received: 4,
            conflicts: 1,
            fingerprint: ExchangeRequest.fingerprint(request("r-1"))
          })
        })
      )
    )

    it.effect("the entry holds the request: requestOf gives it back, to be sent again", () =>
      withLedger(store, (ledger) =>
        Effect.gen(function* () {
          const sent = request("r-body", 1234.56, { reference: "rent", exchange_reason_code: "fees" })
          yield* ledger.register(sent)
          const entry = Option.getOrThrow(yield* ledger.lookup("r-body"))
          const back = Result.getOrThrow(RequestLedger.requestOf(entry))
          expect(ExchangeRequest.fingerprint(back)).toBe(ExchangeRequest.fingerprint(sent))
          expect(back).toMatchObject({ _tag: "Sell", request_id: "r-body", reference: "rent" })
        })
      )
    )

    it.effect("complete records each outcome and its state; a later outcome replaces an earlier one", () =>
      withLedger(store, (ledger) =>
        Effect.gen(function* () {
          yield* ledger.register(request("r-2"))
          const unknown = yield* ledger.complete("r-2", RequestLedger.Outcome.Unknown({ message: "timeout" }))
          expect(unknown).toMatchObject({ state: "unknown", outcome: Option.some({ _tag: "Unknown" }) })
          const done = yield* ledger.complete("r-2", RequestLedger.Outcome.Succeeded({ transaction }))
          expect(done.state).toBe("succeeded")
          const replay = yield* ledger.register(request("r-2"))
          expect(replay._tag).toBe("Replay")
          if (replay._tag === "Replay") {
            expect(replay.outcome).toEqual(Option.some(RequestLedger.Outcome.Succeeded({ transaction })))
          }
          for (const [id, outcome] of [
            ["r-3", RequestLedger.Outcome.Rejected({ status: 500, code: 9500, message: "failed during execution" })],
            ["r-4", RequestLedger.Outcome.Rejected({ status: 502, message: "bad gateway" })]
          ] as const) {
            yield* ledger.register(request(id))
            expect((yield* ledger.complete(id, outcome)).state).toBe("refused")
            expect(Option.getOrThrow(yield* ledger.lookup(id)).outcome).toEqual(Option.some(outcome))
          }
        })
      )
    )

    it.effect(
      "a transaction in a state added since (held) is stored with its raw state, read back as that unknown state, and settles its request_id",
      () =>
        withLedger(store, (ledger, place) =>
          Effect.gen(function* () {
            const held = Result.getOrThrow(
              ExchangeTransaction.decodeLenient({ ...transactionWire, state: "held" })
            ).transaction
            expect(held.state).toEqual({ _tag: "Unknown", value: "held" })
            const outcome = RequestLedger.Outcome.Succeeded({ transaction: held })
            yield* ledger.register(request("r-held"))
            expect((yield* ledger.complete("r-held", outcome)).state).toBe("succeeded")
            // read back from the store: the same transaction, the same unknown state
            expect(Option.getOrThrow(yield* ledger.lookup("r-held")).outcome).toEqual(Option.some(outcome))
            expect(yield* ledger.pending).toEqual([])
            const replay = yield* ledger.register(request("r-held"))
            expect(replay).toMatchObject({ _tag: "Replay", entry: { state: "succeeded" } })
            if (replay._tag === "Replay") expect(replay.outcome).toEqual(Option.some(outcome))
            if (store.shared) {
              // another process on the same store reads the stored form back
              const other = yield* ledgerOf(place.open())
              expect(Option.getOrThrow(yield* other.lookup("r-held")).outcome).toEqual(Option.some(outcome))
              expect(yield* other.pending).toEqual([])
            }
          })
        )
    )

    it.effect("complete refuses an id it does not hold", () =>
      withLedger(store, (ledger) =>
        Effect.gen(function* () {
          const exit = yield* Effect.exit(
            ledger.complete("never", RequestLedger.Outcome.Rejected({ status: 400, message: "bad request" }))
          )
          expect(exit).toMatchObject(
            Exit.fail({ _tag: "RequestLedgerError", reason: "NotRegistered", requestId: "never" })
          )
          expect(yield* ledger.lookup("never")).toEqual(Option.none())
        })
      )
    )

    it.effect("a released id is free again, for any body; nothing of it is left", () =>
      withLedger(store, (ledger) =>
        Effect.gen(function* () {
          yield* ledger.register(request("rel-1"))
          yield* ledger.register(request("rel-1"))
          expect(yield* ledger.release("rel-1")).toBe(true)
          expect(yield* ledger.release("rel-1")).toBe(false)
          expect(yield* ledger.lookup("rel-1")).toEqual(Option.none())
          expect(yield* ledger.register(request("rel-1", 99))).toMatchObject({
            _tag: "New",
            entry: { received: 1, conflicts: 0 }
          })
        })
      )
    )

    it.effect("entries expire after the window, measured with Clock; an expired id is new again", () =>
      withLedger(
        store,
        (ledger) =>
          Effect.gen(function* () {
            yield* ledger.register(request("old"))
            yield* TestClock.adjust("30 minutes")
            yield* ledger.register(request("newer"))
            yield* TestClock.adjust(Duration.subtract(Duration.minutes(30), Duration.millis(1)))
            expect((yield* ledger.register(request("old")))._tag).toBe("Replay")
            yield* TestClock.adjust(Duration.millis(1))
            expect(yield* ledger.lookup("old")).toEqual(Option.none())
            expect(yield* ledger.release("old")).toBe(false)
            const late = yield* Effect.exit(ledger.complete("old", RequestLedger.Outcome.Unknown({ message: "" })))
            expect(late).toMatchObject(Exit.fail({ reason: "NotRegistered" }))
            // the expired entry of this id is dropped; the new one starts afresh
            expect(yield* ledger.register(request("newer", 7))).toMatchObject({ _tag: "Conflict" })
            expect(yield* ledger.register(request("old", 7))).toMatchObject({
              _tag: "New",
              entry: { registeredAt: 3_600_000, expiresAt: 7_200_000, received: 1, conflicts: 0 }
            })
          }),
        { window: "1 hour" }
      )
    )

    it.effect("entries and pending list the live entries oldest first; pending only in flight and unknown", () =>
      withLedger(store, (ledger) =>
        Effect.gen(function* () {
          for (const [i, id] of ["e-a", "e-b", "e-c", "e-d"].entries()) {
            yield* ledger.register(request(id, i + 1))
            yield* TestClock.adjust("1 second")
          }
          yield* ledger.complete("e-a", RequestLedger.Outcome.Succeeded({ transaction }))
          yield* ledger.complete("e-b", RequestLedger.Outcome.Unknown({ message: "dropped" }))
          yield* ledger.complete("e-c", RequestLedger.Outcome.Rejected({ status: 500, message: "failed" }))
          expect((yield* ledger.entries).map((e) => [e.requestId, e.state])).toEqual([
            ["e-a", "succeeded"],
            ["e-b", "unknown"],
            ["e-c", "refused"],
            ["e-d", "in-flight"]
          ])
          expect((yield* ledger.pending).map((e) => e.requestId)).toEqual(["e-b", "e-d"])
        })
      )
    )

    it.effect("prune drops every expired entry; new ids drop a few as they come, so the store stays bounded", () =>
      withLedger(
        store,
        (ledger) =>
          Effect.gen(function* () {
            const perStep = 12
            for (let step = 0; step < 6; step++) {
              for (let i = 0; i < perStep; i++) yield* ledger.register(request(`s-${step}-${i}`))
              yield* TestClock.adjust("30 minutes")
            }
            const live = (yield* ledger.entries).length
            const expired = yield* ledger.prune
            expect(live).toBe(perStep)
            // 72 ids over three hours; the sweeps (8 per new id) left at most the half hour that expired last
            expect(live + expired).toBeLessThanOrEqual(2 * perStep)
            expect(yield* ledger.prune).toBe(0)
          }),
        { window: "1 hour" }
      )
    )

    it.effect("fibers registering one new id at once: exactly one New; with different bodies, the rest Conflict", () =>
      withLedger(store, (ledger) =>
        Effect.gen(function* () {
          const same = yield* Effect.all(
            Array.from({ length: 16 }, () => ledger.register(request("same"))),
            { concurrency: "unbounded" }
          )
          expect(same.filter((r) => r._tag === "New")).toHaveLength(1)
          expect(same.filter((r) => r._tag === "Replay")).toHaveLength(15)
          const contested = yield* Effect.all(
            Array.from({ length: 12 }, (_, i) => ledger.register(request("contested", i + 1))),
            { concurrency: "unbounded" }
          )
          expect(contested.filter((r) => r._tag === "New")).toHaveLength(1)
          expect(contested.filter((r) => r._tag === "Conflict")).toHaveLength(11)
          expect(Option.getOrThrow(yield* ledger.lookup("contested"))).toMatchObject({ received: 12, conflicts: 11 })
        })
      )
    )

    if (store.shared) {
      it.effect("two ledgers on one store (two processes) agree: one New between them, and every outcome", () =>
        withLedger(store, (first, place) =>
          Effect.gen(function* () {
            const second = yield* ledgerOf(place.open())
            const both = yield* Effect.all(
              Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? first : second).register(request("twice"))),
              { concurrency: "unbounded" }
            )
            expect(both.filter((r) => r._tag === "New")).toHaveLength(1)
            yield* first.complete("twice", RequestLedger.Outcome.Succeeded({ transaction }))
            expect(Option.getOrThrow(yield* second.lookup("twice"))).toMatchObject({ state: "succeeded", received: 10 })
            expect(yield* second.pending).toEqual([])
          })
        )
      )
    }

    const between = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
    const id = between(0, 4)
    const Command = Schema.Union([
      Schema.TaggedStruct("register", { id, amount: between(1, 3) }),
      Schema.TaggedStruct("release", { id }),
      Schema.TaggedStruct("complete", { id, settled: Schema.Boolean }),
      Schema.TaggedStruct("wait", { minutes: between(1, 40) })
    ])
    const Commands = Schema.Array(Command).check(Schema.isMaxLength(30))

    it.effect.prop(
      "New, Replay and Conflict, states, pending and expiry agree with a map of live ids",
      [Commands],
      ([commands]) =>
        withLedger(
          store,
          (ledger) =>
            Effect.gen(function* () {
              const model = new Map<number, { amount: number; at: number; state: RequestLedger.State }>()
              let now = 0
              const alive = (id: number) => {
                const m = model.get(id)
                return m !== undefined && now < m.at + 3_600_000 ? m : undefined
              }
              for (const c of commands) {
                switch (c._tag) {
                  case "register": {
                    const r = yield* ledger.register(request(`m-${c.id}`, c.amount))
                    const m = alive(c.id)
                    expect(r._tag).toBe(m === undefined ? "New" : m.amount === c.amount ? "Replay" : "Conflict")
                    if (m === undefined) model.set(c.id, { amount: c.amount, at: now, state: "in-flight" })
                    break
                  }
                  case "release":
                    expect(yield* ledger.release(`m-${c.id}`)).toBe(alive(c.id) !== undefined)
                    model.delete(c.id)
                    break
                  case "complete": {
                    const outcome = c.settled
                      ? RequestLedger.Outcome.Succeeded({ transaction: { id: `t-${c.id}` } })
                      : RequestLedger.Outcome.Unknown({ message: "lost" })
                    const exit = yield* Effect.exit(ledger.complete(`m-${c.id}`, outcome))
                    const m = alive(c.id)
                    expect(Exit.isSuccess(exit)).toBe(m !== undefined)
                    if (m !== undefined) m.state = c.settled ? "succeeded" : "unknown"
                    break
                  }
                  case "wait":
                    yield* TestClock.adjust(Duration.minutes(c.minutes))
                    now += c.minutes * 60_000
                    for (const [id, m] of model) if (now >= m.at + 3_600_000) model.delete(id)
                    break
                }
              }
              const byAge = [...model.entries()].sort(([a, x], [b, y]) => x.at - y.at || (a < b ? -1 : 1))
              expect((yield* ledger.entries).map((e) => [e.requestId, e.state]).sort()).toEqual(
                byAge.map(([id, m]) => [`m-${id}`, m.state]).sort()
              )
              expect((yield* ledger.pending).map((e) => e.requestId).sort()).toEqual(
                byAge
                  .filter(([, m]) => RequestLedger.isPending(m.state))
                  .map(([id]) => `m-${id}`)
                  .sort()
              )
            }),
          { window: "1 hour" }
        ),
      // command lists grow up to the 30 commands that the Schema allows
      { arbitrary: { runs: store.modelRuns, size: 30 } }
    )
  })
}
