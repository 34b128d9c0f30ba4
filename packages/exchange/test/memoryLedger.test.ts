/**
 * The in-memory ledger at its edges: the exact millisecond an entry expires, how many expired entries one call drops,
 * the order of the map that the sweep relies on, what `release` leaves behind, and the counters of an entry. Each
 * test names the bug it guards; time is `TestClock` (it starts at 0), so `registeredAt` is the adjusted time.
 */
import { describe, expect, it } from "@effect/vitest"
import { ExchangeRequest, RequestLedger } from "@payrules/exchange"
import { Duration, Effect, Option, Result } from "effect"
import { TestClock } from "effect/testing"

const request = (requestId: string, amount = 100.5) =>
  Result.getOrThrow(
    ExchangeRequest.parse({
      from: { account_id: "a-gbp", currency: "GBP", amount },
      to: { account_id: "a-eur", currency: "EUR" },
      request_id: requestId
    })
  )

const window = Duration.toMillis("1 hour")
const ledger = RequestLedger.make({ window: "1 hour" })
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`)
const unknown = RequestLedger.Outcome.Unknown({ message: "lost" })

describe("memory ledger: the millisecond of expiry", () => {
  it.effect("one millisecond before registeredAt + window the entry is live (guards expiring it early)", () =>
    Effect.gen(function* () {
      const l = yield* ledger
      yield* l.register(request("edge"))
      yield* TestClock.adjust(Duration.millis(window - 1))
      expect(Option.map(yield* l.lookup("edge"), (e) => e.expiresAt)).toEqual(Option.some(window))
      expect(yield* l.register(request("edge"))).toMatchObject({ _tag: "Replay", entry: { received: 2 } })
      expect(yield* l.register(request("edge", 7))).toMatchObject({ _tag: "Conflict" })
      expect((yield* l.complete("edge", unknown)).state).toBe("unknown")
      expect((yield* l.entries).map((e) => e.requestId)).toEqual(["edge"])
      expect((yield* l.pending).map((e) => e.requestId)).toEqual(["edge"])
      // the sweep leaves it too: prune finds nothing expired
      expect(yield* l.prune).toBe(0)
      expect(yield* l.release("edge")).toBe(true)
    })
  )

  it.effect(
    "at exactly registeredAt + window the entry is expired everywhere (guards `<=` keeping it 1 ms longer)",
    () =>
      Effect.gen(function* () {
        const l = yield* ledger
        yield* l.register(request("edge"))
        yield* l.register(request("other"))
        yield* l.complete("other", unknown)
        yield* TestClock.adjust(Duration.millis(window))
        expect(yield* l.lookup("edge")).toEqual(Option.none())
        expect(yield* l.entries).toEqual([])
        expect(yield* l.pending).toEqual([])
        const error = yield* Effect.flip(l.complete("other", unknown))
        expect(error).toMatchObject({ _tag: "RequestLedgerError", reason: "NotRegistered", requestId: "other" })
        // a new body under the expired id is New, not a Conflict, and starts a fresh entry
        expect(yield* l.register(request("other", 7))).toMatchObject({
          _tag: "New",
          entry: { registeredAt: window, expiresAt: 2 * window, received: 1, conflicts: 0, outcome: Option.none() }
        })
      })
  )

  it.effect("prune at exactly registeredAt + window drops the entry (guards the sweep keeping it 1 ms longer)", () =>
    Effect.gen(function* () {
      const l = yield* ledger
      for (const id of ids("e", 3)) yield* l.register(request(id))
      yield* TestClock.adjust(Duration.millis(window - 1))
      expect(yield* l.prune).toBe(0)
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* l.prune).toBe(3)
      expect(yield* l.prune).toBe(0)
    })
  )
})

describe("memory ledger: how much one call sweeps", () => {
  it.effect("a registration drops at most 8 expired entries, not all (guards the per-call bound of the sweep)", () =>
    Effect.gen(function* () {
      const l = yield* ledger
      for (const id of ids("old", 20)) yield* l.register(request(id))
      yield* TestClock.adjust(Duration.millis(window))
      expect((yield* l.register(request("new-1")))._tag).toBe("New")
      // the expired backlog drains by SWEEP (8) per new id: prune, which drops every expired entry, finds the rest
      expect(yield* l.prune).toBe(20 - 8)
      expect(yield* l.prune).toBe(0)
      expect((yield* l.entries).map((e) => e.requestId)).toEqual(["new-1"])
    })
  )

  it.effect(
    "each registration drops up to 8 more, so a backlog drains while new ids arrive (guards a sweep of 1)",
    () =>
      Effect.gen(function* () {
        const l = yield* ledger
        for (const id of ids("old", 20)) yield* l.register(request(id))
        yield* TestClock.adjust(Duration.millis(window))
        yield* l.register(request("new-1"))
        yield* l.register(request("new-2"))
        expect(yield* l.prune).toBe(20 - 2 * 8)
      })
  )

  it.effect("the sweep stops at the first live entry and never drops one (guards a sweep ignoring expiry)", () =>
    Effect.gen(function* () {
      const l = yield* ledger
      for (const id of ids("old", 2)) yield* l.register(request(id))
      yield* TestClock.adjust(Duration.millis(1))
      for (const id of ids("young", 5)) yield* l.register(request(id))
      yield* TestClock.adjust(Duration.millis(window - 1))
      yield* l.register(request("new-1"))
      expect((yield* l.entries).map((e) => e.requestId)).toEqual([...ids("young", 5), "new-1"])
      for (const id of ids("young", 5)) expect(Option.isSome(yield* l.lookup(id))).toBe(true)
      expect(yield* l.prune).toBe(0)
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* l.prune).toBe(5)
    })
  )

  it.effect("prune drops every expired entry at once, however many, and reports how many", () =>
    Effect.gen(function* () {
      const l = yield* ledger
      for (const id of ids("old", 50)) yield* l.register(request(id))
      yield* TestClock.adjust(Duration.millis(window))
      expect(yield* l.prune).toBe(50)
      expect(yield* l.prune).toBe(0)
    })
  )
})

describe("memory ledger: the order of the map", () => {
  it.effect(
    "an expired id registered again moves to the end, behind older live entries (guards it blocking the sweep)",
    () =>
      Effect.gen(function* () {
        const l = yield* ledger
        // 8 expired entries in front of "again", so the sweep of its registration stops before reaching it
        for (const id of ids("front", 8)) yield* l.register(request(id))
        yield* l.register(request("again"))
        yield* TestClock.adjust(Duration.millis(1))
        for (const id of ids("b", 3)) yield* l.register(request(id))
        yield* TestClock.adjust(Duration.millis(window - 1))
        expect(yield* l.register(request("again", 7))).toMatchObject({ _tag: "New", entry: { registeredAt: window } })
        // pending lists oldest first: the renewed entry is the newest
        expect((yield* l.pending).map((e) => e.requestId)).toEqual([...ids("b", 3), "again"])
        yield* TestClock.adjust(Duration.millis(1))
        // the b-* expire now; the next registration sweeps them from the front and keeps the renewed entry
        yield* l.register(request("new-1"))
        expect(yield* l.prune).toBe(0)
        expect((yield* l.entries).map((e) => e.requestId)).toEqual(["again", "new-1"])
      })
  )
})

describe("memory ledger: release", () => {
  it.effect(
    "release forgets a live entry: lookup none, complete refused, the id New again (guards a no-op release)",
    () =>
      Effect.gen(function* () {
        const l = yield* ledger
        yield* l.register(request("rel"))
        yield* l.complete("rel", unknown)
        expect(yield* l.release("rel")).toBe(true)
        expect(yield* l.lookup("rel")).toEqual(Option.none())
        expect(yield* l.entries).toEqual([])
        expect(yield* l.pending).toEqual([])
        expect(yield* Effect.flip(l.complete("rel", unknown))).toMatchObject({ reason: "NotRegistered" })
        expect(yield* l.register(request("rel"))).toMatchObject({
          _tag: "New",
          entry: { received: 1, outcome: Option.none() }
        })
      })
  )

  it.effect("release answers whether a live entry was held: false for an unknown, a released or an expired id", () =>
    Effect.gen(function* () {
      const l = yield* ledger
      expect(yield* l.release("never")).toBe(false)
      yield* l.register(request("twice"))
      expect(yield* l.release("twice")).toBe(true)
      expect(yield* l.release("twice")).toBe(false)
      yield* l.register(request("late"))
      yield* TestClock.adjust(Duration.millis(window))
      expect(yield* l.release("late")).toBe(false)
    })
  )

  it.effect("releasing an expired entry still drops it (guards it staying in memory until a sweep)", () =>
    Effect.gen(function* () {
      const l = yield* ledger
      yield* l.register(request("late"))
      yield* l.register(request("kept"))
      yield* TestClock.adjust(Duration.millis(window))
      expect(yield* l.release("late")).toBe(false)
      // only "kept" is left for prune to drop
      expect(yield* l.prune).toBe(1)
    })
  )
})

describe("memory ledger: counters", () => {
  it.effect("Replay and Conflict count on the entry; a conflict keeps the recorded body and times", () =>
    Effect.gen(function* () {
      const l = yield* ledger
      yield* l.register(request("c"))
      yield* TestClock.adjust(Duration.millis(10))
      expect(yield* l.register(request("c"))).toMatchObject({
        _tag: "Replay",
        entry: { received: 2, conflicts: 0, registeredAt: 0, expiresAt: window }
      })
      expect((yield* l.register(request("c", 7)))._tag).toBe("Conflict")
      expect((yield* l.register(request("c", 8)))._tag).toBe("Conflict")
      const entry = Option.getOrThrow(yield* l.lookup("c"))
      expect(entry).toMatchObject({ received: 4, conflicts: 2, registeredAt: 0, expiresAt: window })
      expect(entry.fingerprint).toBe(ExchangeRequest.fingerprint(request("c")))
      expect(yield* l.register(request("c"))).toMatchObject({ _tag: "Replay", entry: { received: 5, conflicts: 2 } })
    })
  )
})

describe("memory ledger: errors", () => {
  it.effect("complete of an id the ledger does not hold says which id and why (bug: an empty message)", () =>
    Effect.gen(function* () {
      const l = yield* ledger
      const error = yield* Effect.flip(l.complete("gone-1", unknown))
      expect(error.message).toBe('request_id "gone-1" is not in the ledger (never registered, released, or expired)')
    })
  )
})
