import { describe, expect, it, layer } from "@effect/vitest"
import { ExchangeRequest, RequestLedger } from "@payrules/exchange"
import { schemaLaws } from "@payrules/vitest"
import { DateTime, Duration, Effect, Equal, Exit, Option, Result, Schema } from "effect"
import { TestClock } from "effect/testing"

const request = (requestId: string, amount = 100.5, reorder = false) => {
  const from = { account_id: "a-gbp", currency: "GBP", amount }
  const to = { account_id: "a-eur", currency: "EUR" }
  return Result.getOrThrow(
    ExchangeRequest.parse(
      reorder
        ? { request_id: requestId, to: { currency: to.currency, account_id: to.account_id }, from }
        : { from, to, request_id: requestId }
    )
  )
}

const tags = (rs: ReadonlyArray<RequestLedger.Registration>) => rs.map((r) => r._tag).sort()

layer(RequestLedger.layer)("RequestLedger (one ledger for the block)", (it) => {
  it.effect("New, then Replay for the same body, then Conflict for a different body", () =>
    Effect.gen(function* () {
      const first = yield* RequestLedger.register(request("r-1"))
      expect(first._tag).toBe("New")
      const again = yield* RequestLedger.register(request("r-1", 100.5, true))
      expect(again._tag).toBe("Replay")
      if (again._tag === "Replay") expect(again.outcome).toEqual(Option.none())
      const other = yield* RequestLedger.register(request("r-1", 200))
      expect(other._tag).toBe("Conflict")
      if (other._tag === "Conflict") {
        expect(other.recorded).toBe(ExchangeRequest.fingerprint(request("r-1")))
        expect(other.given).toBe(ExchangeRequest.fingerprint(request("r-1", 200)))
        expect(other.message).toContain('request_id "r-1" was used for a different body')
      }
      // a conflict does not replace what was recorded
      expect((yield* RequestLedger.register(request("r-1")))._tag).toBe("Replay")
    })
  )

  it.effect("Replay carries the recorded outcome; a later outcome replaces an earlier one", () =>
    Effect.gen(function* () {
      yield* RequestLedger.register(request("r-2"))
      yield* RequestLedger.complete("r-2", RequestLedger.Outcome.Unknown({ message: "timeout" }))
      const transaction = { id: "t-1", state: "completed" as const }
      const entry = yield* RequestLedger.complete("r-2", RequestLedger.Outcome.Succeeded({ transaction }))
      expect(entry.outcome).toEqual(Option.some(RequestLedger.Outcome.Succeeded({ transaction })))
      const replay = yield* RequestLedger.register(request("r-2"))
      expect(replay).toMatchObject({ _tag: "Replay", outcome: Option.some({ _tag: "Succeeded", transaction }) })
      const found = yield* RequestLedger.lookup("r-2")
      expect(Option.map(found, (e) => e.fingerprint)).toEqual(Option.some(ExchangeRequest.fingerprint(request("r-2"))))
    })
  )

  it.effect("complete refuses an id it does not hold", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        RequestLedger.complete("never", RequestLedger.Outcome.Rejected({ status: 400, message: "bad request" }))
      )
      expect(error).toMatchObject({ _tag: "RequestLedgerError", reason: "NotRegistered", requestId: "never" })
      expect(yield* RequestLedger.lookup("never")).toEqual(Option.none())
    })
  )
})

describe("RequestLedger expiry (TestClock)", () => {
  it.effect("entries live for 24 hours by default", () =>
    Effect.gen(function* () {
      const first = yield* RequestLedger.register(request("r-3"))
      expect(first).toMatchObject({ _tag: "New", entry: { registeredAt: 0, expiresAt: Duration.toMillis("24 hours") } })
      yield* TestClock.adjust(Duration.subtract(RequestLedger.defaultWindow, Duration.millis(1)))
      expect((yield* RequestLedger.register(request("r-3")))._tag).toBe("Replay")
      expect((yield* RequestLedger.register(request("r-3", 7)))._tag).toBe("Conflict")
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* RequestLedger.lookup("r-3")).toEqual(Option.none())
      expect(
        Exit.isFailure(
          yield* Effect.exit(RequestLedger.complete("r-3", RequestLedger.Outcome.Unknown({ message: "" })))
        )
      ).toBe(true)
      // after the window the id is free again, for any body
      const reused = yield* RequestLedger.register(request("r-3", 7))
      expect(reused).toMatchObject({ _tag: "New", entry: { registeredAt: Duration.toMillis("24 hours") } })
    }).pipe(Effect.provide(RequestLedger.layer))
  )

  it.effect("layerWith sets the window; expired entries are dropped as time passes", () =>
    Effect.gen(function* () {
      yield* RequestLedger.register(request("old"))
      yield* TestClock.adjust("30 minutes")
      yield* RequestLedger.register(request("newer"))
      yield* TestClock.adjust("30 minutes")
      expect(yield* RequestLedger.lookup("old")).toEqual(Option.none())
      expect(Option.isSome(yield* RequestLedger.lookup("newer"))).toBe(true)
      expect((yield* RequestLedger.register(request("old", 1)))._tag).toBe("New")
      yield* TestClock.adjust("2 hours")
      expect((yield* RequestLedger.register(request("newer", 1)))._tag).toBe("New")
    }).pipe(Effect.provide(RequestLedger.layerWith({ window: "1 hour" })))
  )
})

describe("RequestLedger concurrency", () => {
  it.effect("fibers registering the same new id at once: exactly one New", () =>
    Effect.gen(function* () {
      const results = yield* Effect.all(
        Array.from({ length: 50 }, () => RequestLedger.register(request("same"))),
        { concurrency: "unbounded" }
      )
      expect(tags(results)).toEqual(["New", ...Array.from({ length: 49 }, () => "Replay")])
    }).pipe(Effect.provide(RequestLedger.layer))
  )

  it.effect("fibers registering the same id with different bodies: one New, the others Conflict", () =>
    Effect.gen(function* () {
      const results = yield* Effect.all(
        Array.from({ length: 20 }, (_, i) => RequestLedger.register(request("contested", i + 1))),
        { concurrency: "unbounded" }
      )
      expect(tags(results)).toEqual([...Array.from({ length: 19 }, () => "Conflict"), "New"])
      const winner = results.find((r) => r._tag === "New")!
      const entry = Option.getOrThrow(yield* RequestLedger.lookup("contested"))
      if (winner._tag === "New") expect(entry.fingerprint).toBe(winner.entry.fingerprint)
    }).pipe(Effect.provide(RequestLedger.layer))
  )

  it.effect("many ids at once: each gets one New", () =>
    Effect.gen(function* () {
      const ids = Array.from({ length: 30 }, (_, i) => `id-${i % 10}`)
      const results = yield* Effect.all(
        ids.map((id) => RequestLedger.register(request(id))),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "New")).toHaveLength(10)
      expect(results.filter((r) => r._tag === "Replay")).toHaveLength(20)
    }).pipe(Effect.provideServiceEffect(RequestLedger.RequestLedger, RequestLedger.make()))
  )
})

describe("RequestLedger results, releases and counts", () => {
  it.effect("counts every registration and conflict; a stored refusal is replayed with its code", () =>
    Effect.gen(function* () {
      yield* RequestLedger.register(request("c-1"))
      yield* RequestLedger.register(request("c-1"))
      yield* RequestLedger.register(request("c-1", 3))
      const rejected = RequestLedger.Outcome.Rejected({ status: 500, code: 9500, message: "failed" })
      yield* RequestLedger.complete("c-1", rejected)
      const again = yield* RequestLedger.register(request("c-1"))
      expect(again).toMatchObject({
        _tag: "Replay",
        outcome: Option.some(rejected),
        entry: { received: 4, conflicts: 1 }
      })
    }).pipe(Effect.provide(RequestLedger.layer))
  )

  it.effect("a released id is free again, for any body; nothing of it is left", () =>
    Effect.gen(function* () {
      yield* RequestLedger.register(request("rel-1"))
      expect(yield* RequestLedger.release("rel-1")).toBe(true)
      expect(yield* RequestLedger.release("rel-1")).toBe(false)
      expect(yield* RequestLedger.lookup("rel-1")).toEqual(Option.none())
      const error = yield* Effect.flip(RequestLedger.complete("rel-1", RequestLedger.Outcome.Unknown({ message: "" })))
      expect(error).toMatchObject({ reason: "NotRegistered" })
      expect(yield* RequestLedger.register(request("rel-1", 99))).toMatchObject({
        _tag: "New",
        entry: { received: 1, conflicts: 0 }
      })
    }).pipe(Effect.provide(RequestLedger.layer))
  )

  it.effect("under a stream of new ids, expired entries are dropped as new ones arrive: memory stays bounded", () =>
    Effect.gen(function* () {
      const ledger = yield* RequestLedger.RequestLedger
      const perHalfHour = 500
      for (let step = 0; step < 20; step++) {
        for (let i = 0; i < perHalfHour; i++) yield* ledger.register(request(`s-${step}-${i}`))
        yield* TestClock.adjust("30 minutes")
      }
      // 10,000 ids over ten hours: the ledger holds the live ones (the last half hour) and at most the half hour
      // that expired since the last registration; prune reports (and drops) those
      const live = (yield* ledger.entries).length
      const expired = yield* ledger.prune
      expect(live).toBe(perHalfHour)
      expect(live + expired).toBeLessThanOrEqual(2 * perHalfHour)
      expect(yield* ledger.prune).toBe(0)
    }).pipe(Effect.provideServiceEffect(RequestLedger.RequestLedger, RequestLedger.make({ window: "1 hour" })))
  )
})

describe("RequestLedger against a model", () => {
  const between = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
  const id = between(0, 5)
  const Command = Schema.Union([
    Schema.TaggedStruct("register", { id, amount: between(1, 3) }),
    Schema.TaggedStruct("release", { id }),
    Schema.TaggedStruct("complete", { id }),
    Schema.TaggedStruct("wait", { minutes: between(1, 40) })
  ])
  const Commands = Schema.Array(Command).check(Schema.isMaxLength(60))

  it.effect.prop(
    "New, Replay and Conflict, outcomes and expiry agree with a map of live ids",
    [Commands],
    ([commands]) =>
      Effect.gen(function* () {
        const ledger = yield* RequestLedger.make({ window: "1 hour" })
        const model = new Map<number, { amount: number; at: number; done: boolean }>()
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
              const expected = m === undefined ? "New" : m.amount === c.amount ? "Replay" : "Conflict"
              expect(r._tag).toBe(expected)
              if (r._tag === "Replay") expect(Option.isSome(r.outcome)).toBe(m!.done)
              if (m === undefined) model.set(c.id, { amount: c.amount, at: now, done: false })
              break
            }
            case "release":
              expect(yield* ledger.release(`m-${c.id}`)).toBe(model.has(c.id))
              model.delete(c.id)
              break
            case "complete": {
              const exit = yield* Effect.exit(
                ledger.complete(`m-${c.id}`, RequestLedger.Outcome.Unknown({ message: "lost" }))
              )
              expect(Exit.isSuccess(exit)).toBe(alive(c.id) !== undefined)
              const m = alive(c.id)
              if (m !== undefined) m.done = true
              break
            }
            case "wait":
              yield* TestClock.adjust(Duration.minutes(c.minutes))
              now += c.minutes * 60_000
              for (const [id, m] of model) if (now >= m.at + 3_600_000) model.delete(id)
              break
          }
        }
        const live = (yield* ledger.entries).map((e) => e.requestId).sort()
        expect(live).toEqual([...model.keys()].map((id) => `m-${id}`).sort())
      }),
    // command lists grow up to the 60 commands that the Schema allows
    { arbitrary: { runs: 200, size: 60 } }
  )

  it.effect.prop(
    "any request: New, then Replay; the entry holds its fingerprint, and requestOf gives the request back",
    [ExchangeRequest.ExchangeRequest],
    ([sent]) =>
      Effect.gen(function* () {
        const ledger = yield* RequestLedger.make()
        expect((yield* ledger.register(sent))._tag).toBe("New")
        expect((yield* ledger.register(sent))._tag).toBe("Replay")
        const entry = Option.getOrThrow(yield* ledger.lookup(sent.request_id))
        expect(entry.fingerprint).toBe(ExchangeRequest.fingerprint(sent))
        const back = Result.getOrThrow(RequestLedger.requestOf(entry))
        expect(back._tag).toBe(sent._tag)
        expect(ExchangeRequest.fingerprint(back)).toBe(entry.fingerprint)
      }),
    { arbitrary: { runs: 200 } }
  )
})

describe("RequestLedger states, pending and stored outcomes", () => {
  it.effect("the state follows the outcome; pending lists the in-flight and unknown entries, oldest first", () =>
    Effect.gen(function* () {
      const ledger = yield* RequestLedger.RequestLedger
      for (const id of ["p-1", "p-2", "p-3", "p-4"]) {
        yield* ledger.register(request(id))
        yield* TestClock.adjust("1 second")
      }
      expect((yield* ledger.complete("p-1", RequestLedger.Outcome.Unknown({ message: "lost" }))).state).toBe("unknown")
      const transaction = { id: "t-1", state: "completed" as const }
      expect((yield* ledger.complete("p-2", RequestLedger.Outcome.Succeeded({ transaction }))).state).toBe("succeeded")
      const refused = RequestLedger.Outcome.Rejected({ status: 500, code: 9500, message: "failed" })
      expect((yield* ledger.complete("p-3", refused)).state).toBe("refused")
      expect((yield* RequestLedger.pending).map((e) => [e.requestId, e.state])).toEqual([
        ["p-1", "unknown"],
        ["p-4", "in-flight"]
      ])
      expect(RequestLedger.isPending("in-flight") && RequestLedger.isPending("unknown")).toBe(true)
      expect(RequestLedger.isPending("succeeded") || RequestLedger.isPending("refused")).toBe(false)
      expect(RequestLedger.stateOf(Option.none())).toBe("in-flight")
    }).pipe(Effect.provide(RequestLedger.layer))
  )

  it.effect("requestOf gives back the request an entry holds (its canonical body)", () =>
    Effect.gen(function* () {
      const sent = Result.getOrThrow(
        ExchangeRequest.parse({
          from: { account_id: "a", currency: "GBP" },
          to: { account_id: "b", currency: "JPY", amount: 1200 },
          reference: "tuition",
          request_id: "buy-1",
          exchange_reason_code: "education"
        })
      )
      yield* RequestLedger.register(sent)
      const entry = Option.getOrThrow(yield* RequestLedger.lookup("buy-1"))
      const back = Result.getOrThrow(RequestLedger.requestOf(entry))
      expect(back).toMatchObject({ _tag: "Buy", request_id: "buy-1", reference: "tuition" })
      expect(ExchangeRequest.fingerprint(back)).toBe(entry.fingerprint)
      expect(Result.isFailure(RequestLedger.requestOf({ ...entry, fingerprint: "{not json" }))).toBe(true)
      expect(Result.isFailure(RequestLedger.requestOf({ ...entry, fingerprint: '{"request_id":"x"}' }))).toBe(true)
    }).pipe(Effect.provide(RequestLedger.layer))
  )

  it("OutcomeSchema stores every outcome as JSON and reads back the same one", () => {
    const encode = Schema.encodeSync(Schema.fromJsonString(RequestLedger.OutcomeSchema))
    const decode = Schema.decodeUnknownResult(Schema.fromJsonString(RequestLedger.OutcomeSchema))
    const zoned = DateTime.makeZonedUnsafe("2024-05-01T10:00:00+02:00", {
      timeZone: DateTime.zoneMakeOffset(7_200_000)
    })
    for (const outcome of [
      RequestLedger.Outcome.Succeeded({ transaction: { id: "t-9", state: "completed", created_at: zoned } }),
      RequestLedger.Outcome.Succeeded({ transaction: {} }),
      RequestLedger.Outcome.Rejected({ status: 500, code: 9500, message: "failed during execution" }),
      RequestLedger.Outcome.Rejected({ status: 503, message: "unavailable" }),
      RequestLedger.Outcome.Unknown({ message: "timed out" })
    ]) {
      expect(Result.getOrThrow(decode(encode(outcome)))).toEqual(outcome)
    }
    expect(JSON.parse(encode(RequestLedger.Outcome.Rejected({ status: 503, message: "x" })))).toEqual({
      _tag: "Rejected",
      status: 503,
      message: "x"
    })
    for (const bad of ["{", '{"_tag":"Other"}', '{"_tag":"Rejected","status":"500","message":"x"}']) {
      const result = decode(bad)
      expect(Result.isFailure(result)).toBe(true)
    }
  })
})

describe("RequestLedger.OutcomeSchema laws", () => {
  schemaLaws("RequestLedger.OutcomeSchema", RequestLedger.OutcomeSchema)
})

describe("RequestLedger edges (named after the bugs they guard)", () => {
  it("the service key is the package's, so two copies of the package find one ledger (bug: an empty or renamed key)", () => {
    expect(RequestLedger.RequestLedger.key).toBe("@payrules/exchange/RequestLedger")
  })

  it("the outcome type refuses what is no Outcome, naming it (bug: a guard that lets anything in)", () => {
    const OutcomeType = Schema.toType(RequestLedger.OutcomeSchema)
    for (const u of [{}, { _tag: "Other" }, null, "Unknown"]) expect(Schema.is(OutcomeType)(u)).toBe(false)
    expect(Schema.is(OutcomeType)(RequestLedger.Outcome.Unknown({ message: "lost" }))).toBe(true)
  })

  it("a refusal without an API code reads back from its stored form without a code key, Equal to the one stored (bug: code: undefined added)", () => {
    const encode = Schema.encodeSync(RequestLedger.OutcomeSchema)
    const decode = Schema.decodeUnknownSync(RequestLedger.OutcomeSchema)
    for (const outcome of [
      RequestLedger.Outcome.Rejected({ status: 503, message: "unavailable" }),
      RequestLedger.Outcome.Rejected({ status: 500, code: 9500, message: "failed" })
    ]) {
      const back = decode(JSON.parse(JSON.stringify(encode(outcome))))
      expect(Object.keys(back)).toEqual(Object.keys(outcome))
      expect(Equal.equals(back, outcome)).toBe(true)
    }
  })
})
