/**
 * Issue 34: what the exchange package reads from a server keeps working the day the API adds a state or sends one bad
 * item. A well-formed state this version does not know reads as `{ _tag: "Unknown", value }` with a warning (the
 * transaction exists: its request_id is settled); lists keep their readable items; the strict Schemas stay strict.
 */
import { describe, expect, it } from "@effect/vitest"
import { ExchangeReason, ExchangeRequest, ExchangeState, ExchangeTransaction, RequestLedger } from "@payrules/exchange"
import { OpenEnum } from "@payrules/lenient"
import { issuesOf } from "@payrules/vitest"
import { Effect, Option, Result, Schema } from "effect"

const encode = Schema.encodeSync(ExchangeTransaction.Lenient)
const wireOf = (t: ExchangeTransaction.Lenient): Record<string, unknown> => JSON.parse(JSON.stringify(encode(t)))

const KnownState = ExchangeTransaction.Lenient.check(
  Schema.makeFilter((t: ExchangeTransaction.Lenient) => t.state === undefined || ExchangeState.isKnown(t.state), {
    identifier: "KnownState"
  })
)
const UnknownState = OpenEnum.UnknownFromString(ExchangeState.states)

const held = {
  id: "8b0d3f3e-0c3a-4d59-9a4e-8f5c1f2b7a10",
  type: "exchange",
  state: "held",
  created_at: "2024-03-31T12:00:00Z"
}

const strictPath = (u: unknown) => issuesOf(Result.getOrThrow(Result.flip(ExchangeTransaction.decode(u))))[0]?.path

describe("ExchangeState.StateLenient", () => {
  it.prop(
    "a known state decodes exactly as the strict State does",
    [ExchangeState.State],
    ([state]) => {
      expect(Schema.decodeUnknownSync(ExchangeState.StateLenient)(state)).toBe(
        Schema.decodeUnknownSync(ExchangeState.State)(state)
      )
    },
    { arbitrary: { runs: 50 } }
  )

  it.prop(
    "a state added since decodes to Unknown with its raw value, and encodes back to it",
    [UnknownState],
    ([unknown]) => {
      const decoded = Schema.decodeUnknownSync(ExchangeState.StateLenient)(unknown.value)
      expect(decoded).toEqual({ _tag: "Unknown", value: unknown.value })
      expect(ExchangeState.isUnknown(decoded) && !ExchangeState.isKnown(decoded)).toBe(true)
      expect(ExchangeState.valueOf(decoded)).toBe(unknown.value)
      expect(Schema.encodeSync(ExchangeState.StateLenient)(decoded)).toBe(unknown.value)
      expect(Result.isFailure(Schema.decodeUnknownResult(ExchangeState.State)(unknown.value))).toBe(true)
    },
    { arbitrary: { runs: 200 } }
  )
})

describe("ExchangeTransaction: a state added since (issue 34)", () => {
  it("an exchange answered in state held is read, not refused: an unknown state and one UnknownValue warning", () => {
    const read = Result.getOrThrow(ExchangeTransaction.decodeLenient(held))
    expect(read.transaction.state).toEqual({ _tag: "Unknown", value: "held" })
    expect(read.transaction.id).toBe(held.id)
    expect(read.warnings).toEqual([
      {
        severity: "warning",
        rule: "UnknownValue",
        path: ["state"],
        raw: "held",
        message: expect.stringContaining('"held"')
      }
    ])
    expect(read.warnings[0]?.message).toContain("request_id is settled")
    expect(encode(read.transaction)).toEqual(held)
    // strict stays strict
    expect(strictPath(held)).toEqual(["state"])
  })

  it("the D5 rule cannot be checked against an unknown state: no ReasonCode warning, with or without reason_code", () => {
    for (const body of [held, { ...held, reason_code: "insufficient_balance" }]) {
      const read = Result.getOrThrow(ExchangeTransaction.decodeLenient(body))
      expect(read.warnings.map((w) => w.rule)).toEqual(["UnknownValue"])
      expect(ExchangeTransaction.check(read.transaction)).toEqual([])
    }
  })

  it.prop(
    "a transaction in any state added since is read as that unknown state with one warning at state",
    [KnownState, UnknownState],
    ([t, unknown]) => {
      const wire = { ...wireOf(t), state: unknown.value }
      const read = Result.getOrThrow(ExchangeTransaction.decodeLenient(wire))
      expect(read.transaction.state).toEqual(unknown)
      expect(wireOf(read.transaction)).toEqual(wire)
      expect(read.warnings).toHaveLength(1)
      expect(read.warnings[0]).toMatchObject({
        severity: "warning",
        rule: "UnknownValue",
        path: ["state"],
        raw: unknown.value
      })
      expect(read.warnings[0]?.message).toContain(JSON.stringify(unknown.value))
      expect(strictPath(wire)).toEqual(["state"])
    },
    { arbitrary: { runs: 200 } }
  )

  it.prop(
    "a transaction in a known state decodes leniently exactly as the strict Schema decodes it",
    [ExchangeTransaction.ExchangeTransaction],
    ([t]) => {
      const wire = wireOf(t)
      const strict = Result.getOrThrow(ExchangeTransaction.decode(wire))
      const read = Result.getOrThrow(ExchangeTransaction.decodeLenient(wire))
      expect(read.transaction).toEqual(strict)
      expect(read.warnings).toEqual([])
    },
    { arbitrary: { runs: 200 } }
  )
})

// what a server could send in place of a transaction: not an object, or a field of the wrong type or malformed
const CorruptedTransaction = Schema.Union([
  Schema.Null,
  Schema.Int,
  Schema.Boolean,
  Schema.String,
  Schema.Struct({ id: Schema.Int }),
  Schema.Struct({ state: Schema.Literals(["", "two words"]) }),
  Schema.Struct({ created_at: Schema.Literal("yesterday") })
])
// ... and in place of a reason (which needs a non-empty code)
const CorruptedReason = Schema.Union([CorruptedTransaction, Schema.Struct({ code: Schema.Literal("") })])
const Position = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1000 }))

describe("ExchangeTransaction.readList (GET /transactions)", () => {
  it("one undecodable transaction no longer costs the caller the others: they are read, it is reported", () => {
    const list = [{ id: "t-1", state: "completed" }, { id: 7, state: "completed" }, held]
    const read = Result.getOrThrow(ExchangeTransaction.decodeListLenient(list))
    expect(read.transactions.map((t) => t.id)).toEqual(["t-1", held.id])
    expect(read.indices).toEqual([0, 2])
    expect(read.warnings).toEqual([
      {
        severity: "warning",
        rule: "UnreadableItem",
        path: [1, "id"],
        index: 1,
        raw: list[1],
        message: expect.stringContaining("item 1")
      },
      {
        severity: "warning",
        rule: "UnknownValue",
        path: [2, "state"],
        raw: "held",
        message: expect.stringContaining('"held"')
      }
    ])
  })

  it("the envelope stays strict: an answer that is not a list is an error", () => {
    expect(Result.isFailure(ExchangeTransaction.decodeListLenient({ transactions: [] }))).toBe(true)
    expect(Result.getOrThrow(ExchangeTransaction.decodeListLenient([]))).toEqual({
      transactions: [],
      indices: [],
      warnings: []
    })
  })

  it.prop(
    "a list with one corrupted transaction keeps every other one and reports exactly that index",
    [Schema.Array(KnownState).check(Schema.isMinLength(1), Schema.isMaxLength(6)), Position, CorruptedTransaction],
    ([transactions, position, corrupted]) => {
      const index = position % transactions.length
      const wires = transactions.map(wireOf)
      const list = wires.map((w, i) => (i === index ? corrupted : w))
      const read = ExchangeTransaction.readList(list)
      expect(read.transactions.map(wireOf)).toEqual(wires.filter((_, i) => i !== index))
      expect(read.indices).toEqual(wires.map((_, i) => i).filter((i) => i !== index))
      const unreadable = read.warnings.filter((w) => w.rule === "UnreadableItem")
      expect(unreadable).toHaveLength(1)
      expect(unreadable[0]).toMatchObject({ index, raw: corrupted })
      expect(unreadable[0]?.path[0]).toBe(index)
      // the others' warnings (the D5 rule) keep their own index
      for (const w of read.warnings) if (w.rule !== "UnreadableItem") expect(w.path[0]).not.toBe(index)
    },
    { arbitrary: { runs: 150 } }
  )
})

describe("ExchangeReason.readList (GET /exchange-reasons)", () => {
  it("an entry without a code no longer costs the caller the list: the others are read, it is reported", () => {
    const list = [
      { code: "fees", name: "Fees" },
      { name: "no code" },
      { code: "gift_2027", name: "A code added since" }
    ]
    const read = Result.getOrThrow(ExchangeReason.decodeListLenient(list))
    expect(read.reasons).toEqual([list[0], list[2]])
    expect(read.warnings).toEqual([
      {
        severity: "warning",
        rule: "UnreadableItem",
        path: [1, "code"],
        index: 1,
        raw: list[1],
        message: expect.stringContaining("exchange reason 1")
      }
    ])
    // the strict list stays strict
    expect(Result.isFailure(Schema.decodeUnknownResult(ExchangeReason.ExchangeReasonList)(list))).toBe(true)
    expect(Result.isFailure(ExchangeReason.decodeListLenient({ reasons: list }))).toBe(true)
  })

  it.prop(
    "a list with one corrupted reason keeps every other one and reports exactly that index",
    [
      Schema.Array(ExchangeReason.ExchangeReason).check(Schema.isMinLength(1), Schema.isMaxLength(8)),
      Position,
      CorruptedReason
    ],
    ([reasons, position, corrupted]) => {
      const index = position % reasons.length
      const list = reasons.map((r, i) => (i === index ? corrupted : r))
      const read = ExchangeReason.readList(list)
      expect(read.reasons).toEqual(reasons.filter((_, i) => i !== index))
      expect(read.warnings).toHaveLength(1)
      expect(read.warnings[0]).toMatchObject({ rule: "UnreadableItem", index, raw: corrupted })
      expect(read.warnings[0]?.path[0]).toBe(index)
    },
    { arbitrary: { runs: 150 } }
  )

  it.prop(
    "a list without a bad entry reads exactly as the strict ExchangeReasonList",
    [ExchangeReason.ExchangeReasonList],
    ([reasons]) => {
      const read = Result.getOrThrow(ExchangeReason.decodeListLenient(reasons))
      expect(read.reasons).toEqual(Schema.decodeUnknownSync(ExchangeReason.ExchangeReasonList)(reasons))
      expect(read.warnings).toEqual([])
    },
    { arbitrary: { runs: 100 } }
  )
})

describe("RequestLedger: a transaction in a state added since settles its request_id", () => {
  const heldTransaction = Result.getOrThrow(ExchangeTransaction.decodeLenient(held)).transaction
  const Stored = Schema.fromJsonString(RequestLedger.OutcomeSchema)

  it("the stored form keeps the raw state, and reads back the same unknown state", () => {
    const outcome = RequestLedger.Outcome.Succeeded({ transaction: heldTransaction })
    const text = Schema.encodeSync(Stored)(outcome)
    expect(JSON.parse(text)).toEqual({ _tag: "Succeeded", transaction: held })
    const back = Schema.decodeUnknownSync(Stored)(text)
    expect(back).toEqual(outcome)
    expect(RequestLedger.stateOf(Option.some(back))).toBe("succeeded")
  })

  it.effect("the in-memory ledger records it as succeeded: not pending, replayed to a repeat", () =>
    Effect.gen(function* () {
      const ledger = yield* RequestLedger.make()
      const request = Result.getOrThrow(
        ExchangeRequest.parse({
          from: { account_id: "a", currency: "GBP", amount: 10 },
          to: { account_id: "b", currency: "EUR" },
          request_id: "held-1"
        })
      )
      yield* ledger.register(request)
      const entry = yield* ledger.complete("held-1", RequestLedger.Outcome.Succeeded({ transaction: heldTransaction }))
      expect(entry.state).toBe("succeeded")
      expect(yield* ledger.pending).toEqual([])
      const replay = yield* ledger.register(request)
      expect(replay).toMatchObject({ _tag: "Replay" })
      if (replay._tag === "Replay") {
        expect(replay.outcome).toEqual(Option.some(RequestLedger.Outcome.Succeeded({ transaction: heldTransaction })))
      }
    })
  )
})
