import { describe, expect, it } from "@effect/vitest"
import { OpenEnum, Reader } from "@payrules/lenient"
import { Result, Schema } from "effect"
import fc from "fast-check"

const states = ["active", "deactivated"] as const

/** a Schema whose filter counts the values it sees: how often a reader ran it */
const counted = <S extends Schema.Top>(schema: S) => {
  const seen = { count: 0 }
  const filter = Schema.makeFilter(() => {
    seen.count++
    return undefined
  })
  return { schema: schema.check(filter as never) as S, seen }
}

const Strict = Schema.Struct({
  id: Schema.String,
  state: Schema.Literals(states),
  note: Schema.optionalKey(Schema.String)
})
const Lenient = Schema.Struct({
  id: Schema.String,
  state: OpenEnum.make(states, { identifier: "PlanState" }),
  note: Schema.optionalKey(Schema.String)
})

/** what a server may send: known states, unknown ones, malformed ones, wrong types, extra and missing keys */
const answer = fc.oneof(
  fc.record(
    {
      id: fc.oneof(fc.string(), fc.integer()),
      state: fc.oneof(fc.constantFrom(...states), fc.string(), fc.constant(null)),
      note: fc.oneof(fc.string(), fc.integer())
    },
    { requiredKeys: [] }
  ),
  fc.anything()
)

const same = (a: Result.Result<unknown, Schema.SchemaError>, b: Result.Result<unknown, Schema.SchemaError>) => {
  expect(Result.isSuccess(a)).toBe(Result.isSuccess(b))
  if (Result.isSuccess(a) && Result.isSuccess(b)) expect(a.success).toStrictEqual(b.success)
  if (Result.isFailure(a) && Result.isFailure(b)) expect(a.failure.message).toBe(b.failure.message)
}

describe("Reader.closedFirst", () => {
  it("property: reads every answer exactly as the open Schema alone reads it (value, or the open Schema's errors)", () => {
    const read = Reader.closedFirst(Strict, Lenient, { errors: "all" })
    const open = Schema.decodeUnknownResult(Lenient, { errors: "all" })
    fc.assert(
      fc.property(answer, (input) => same(read(input), open(input))),
      { numRuns: 500 }
    )
  })

  it("an answer with a value added since reads with the open Schema: the unknown value is kept", () => {
    const read = Reader.closedFirst(Strict, Lenient)
    expect(read({ id: "p1", state: "archived" })).toStrictEqual(
      Result.succeed({ id: "p1", state: { _tag: "Unknown", value: "archived" } })
    )
  })

  it("a malformed answer fails with the open Schema's errors, all of them when asked (the closed read's never show)", () => {
    const read = Reader.closedFirst(Strict, Lenient, { errors: "all" })
    const result = read({ id: 1, state: "" })
    expect(Result.isFailure(result)).toBe(true)
    const message = Result.isFailure(result) ? result.failure.message : ""
    expect(message).toContain(`["id"]`)
    expect(message).toContain(`["state"]`)
    expect(message).toContain("PlanState is one of active, deactivated")
  })

  it("the open Schema runs only when the closed one fails: an answer of known values costs one strict read", () => {
    const open = counted(Lenient)
    const closed = counted(Strict)
    const read = Reader.closedFirst(closed.schema, open.schema)
    expect(Result.isSuccess(read({ id: "p1", state: "active" }))).toBe(true)
    expect([closed.seen.count, open.seen.count]).toStrictEqual([1, 0])
    expect(Result.isSuccess(read({ id: "p2", state: "archived" }))).toBe(true)
    expect([closed.seen.count, open.seen.count]).toStrictEqual([1, 1])
  })
})
