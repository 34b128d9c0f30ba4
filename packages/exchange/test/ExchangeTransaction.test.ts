import { describe, expect, it } from "@effect/vitest"
import { ExchangeState, ExchangeTransaction } from "@payrules/exchange"
import { issuesOf, schemaLaws } from "@payrules/vitest"
import { DateTime, Result, Schema } from "effect"

const base = {
  id: "ac57c9e7-8f0e-4a2e-9a6c-2f36a2d1a3b9",
  type: "exchange",
  created_at: "2024-03-31T12:00:00.250Z",
  completed_at: "2024-03-31T13:00:01+01:00"
}

const encode = Schema.encodeSync(ExchangeTransaction.Lenient)

const withReason = new Set<ExchangeState.State>(["declined", "failed"])

const cases = ExchangeState.states.flatMap((state) =>
  [true, false].map((present) => [state, present, withReason.has(state) === present] as const)
)

describe("ExchangeTransaction: reason_code (D5)", () => {
  it.each(cases)("state %s with reason_code %s: valid %s", (state, present, valid) => {
    const body = present ? { ...base, state, reason_code: "insufficient_balance" } : { ...base, state }
    const strict = ExchangeTransaction.decode(body)
    const lenient = Result.getOrThrow(ExchangeTransaction.decodeLenient(body))
    expect(encode(lenient.transaction)).toEqual(body)
    if (valid) {
      expect(Result.map(strict, encode)).toEqual(Result.succeed(body))
      expect(lenient.warnings).toEqual([])
    } else {
      const issues = issuesOf(Result.getOrThrow(Result.flip(strict)))
      expect(issues).toHaveLength(1)
      expect(issues[0]?.path).toEqual(["reason_code"])
      expect(issues[0]?.message).toBe(lenient.warnings[0]?.message)
      expect(lenient.warnings).toHaveLength(1)
      expect(lenient.warnings[0]?.path).toEqual(["reason_code"])
    }
  })

  it("says which way the rule is broken", () => {
    const warning = (u: unknown) => Result.getOrThrow(ExchangeTransaction.decodeLenient(u)).warnings[0]?.message
    expect(warning({ state: "declined" })).toBe(
      "reason_code is missing: a declined transaction says why it was declined"
    )
    expect(warning({ state: "completed", reason_code: "x" })).toBe(
      "reason_code must be absent when the state is completed: only declined and failed transactions carry one"
    )
    expect(warning({ reason_code: "x" })).toBe(
      "reason_code must be absent when the state is not given: only declined and failed transactions carry one"
    )
  })

  it("every field is optional, and unknown fields are tolerated and dropped", () => {
    expect(ExchangeTransaction.decode({})).toEqual(Result.succeed({}))
    expect(ExchangeTransaction.decode({ state: "completed", legs: [{ amount: 1 }], fee: 0 })).toEqual(
      Result.succeed({ state: "completed" })
    )
  })

  // issue 34 changes the lenient side on purpose: a well-formed unknown state ("processing") is now read, as
  // { _tag: "Unknown" } with a warning (see "states added since" below); the strict decoder still refuses it
  it("refuses a malformed state and wrong types in both modes, with paths; the strict one an unknown state too", () => {
    const strictPath = (u: unknown) => issuesOf(Result.getOrThrow(Result.flip(ExchangeTransaction.decode(u))))[0]?.path
    expect(strictPath({ state: "processing" })).toEqual(["state"])
    const decoders: ReadonlyArray<(u: unknown) => Result.Result<unknown, Schema.SchemaError>> = [
      ExchangeTransaction.decode,
      ExchangeTransaction.decodeLenient
    ]
    for (const decode of decoders) {
      const path = (u: unknown) => issuesOf(Result.getOrThrow(Result.flip(decode(u))))[0]?.path
      expect(path({ state: "in progress" })).toEqual(["state"])
      expect(path({ state: "" })).toEqual(["state"])
      expect(path({ state: 3 })).toEqual(["state"])
      expect(path({ id: 5 })).toEqual(["id"])
      expect(path({ created_at: "yesterday" })).toEqual(["created_at"])
      expect(path({ completed_at: null })).toEqual(["completed_at"])
    }
  })
})

describe("ExchangeTransaction date-times", () => {
  it("decode to DateTime.Zoned at their offset and encode back", () => {
    const t = Result.getOrThrow(ExchangeTransaction.decode(base))
    expect(t.created_at?.epochMilliseconds).toBe(Date.UTC(2024, 2, 31, 12, 0, 0, 250))
    expect(t.completed_at !== undefined && DateTime.zonedOffset(t.completed_at)).toBe(3_600_000)
    expect(encode(t)).toEqual(base)
  })

  it("refuses a date-time without a timezone, or one that does not exist", () => {
    const message = (s: string) =>
      issuesOf(Result.getOrThrow(Result.flip(ExchangeTransaction.decode({ created_at: s }))))[0]?.message
    expect(message("2024-03-31T12:00:00")).toContain("has no timezone")
    expect(message("2023-02-29T12:00:00Z")).toContain("does not exist")
    expect(message("2016-12-31T23:59:60Z")).toContain("leap seconds")
  })
})

// a transaction of the lenient Schema in a known state (or none): the Lenient arbitrary also draws states added since
const KnownState = ExchangeTransaction.Lenient.check(
  Schema.makeFilter((t: ExchangeTransaction.Lenient) => t.state === undefined || ExchangeState.isKnown(t.state), {
    identifier: "KnownState"
  })
)

describe("ExchangeTransaction strict and lenient (D11)", () => {
  // issue 34: the Lenient arbitrary now draws unknown states too, which the strict decoder refuses at ["state"]; this
  // property keeps to known states (unknown ones have their own below), and the warnings carry severity and rule
  it.prop(
    "strict decoding accepts a transaction exactly when check finds nothing; lenient reads it with those warnings",
    [KnownState],
    ([t]) => {
      const wire: unknown = JSON.parse(JSON.stringify(encode(t)))
      const warnings = ExchangeTransaction.check(t)
      expect(Result.getOrThrow(ExchangeTransaction.decodeLenient(wire)).warnings).toEqual(warnings)
      const strict = ExchangeTransaction.decode(wire)
      expect(Result.isSuccess(strict)).toBe(warnings.length === 0)
      if (Result.isFailure(strict)) {
        expect(issuesOf(strict.failure)).toEqual(warnings.map(({ message, path }) => ({ path, message })))
      }
    },
    { arbitrary: { runs: 300 } }
  )
})

describe("ExchangeTransaction laws", () => {
  schemaLaws("ExchangeTransaction", ExchangeTransaction.ExchangeTransaction)
  schemaLaws("ExchangeTransaction.Lenient", ExchangeTransaction.Lenient)
})

describe("ExchangeTransaction: the warning of a state added since", () => {
  it("names the states this version knows, so a reader sees why held is unknown (bug: the list run together or lost)", () => {
    const read = Result.getOrThrow(ExchangeTransaction.decodeLenient({ id: "t-1", state: "held" }))
    expect(read.warnings.map((w) => w.message)).toEqual([
      'state "held" is not a state this version of payrules knows (created, pending, completed, declined, failed, reverted): the transaction exists, so its request_id is settled and never sent again; its state is reported as unknown ({ _tag: "Unknown", value: "held" }), and the reason_code rule (D5) cannot be checked'
    ])
  })
})
