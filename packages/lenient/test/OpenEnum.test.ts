import { describe, expect, it } from "@effect/vitest"
import { OpenEnum } from "@payrules/lenient"
import { schemaLaws } from "@payrules/vitest"
import { Result, Schema } from "effect"
import fc from "fast-check"

const known = ["created", "pending", "completed"] as const
const State = OpenEnum.make(known, { identifier: "TestState" })
const decode = Schema.decodeUnknownResult(State)
const encode = Schema.encodeResult(State)

/** the grammar of a well-formed value, written out again as the reference: visible ASCII, 1 to 128 */
const wellFormedValue = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 128
})
const unknownValue = wellFormedValue.filter((s) => !(known as ReadonlyArray<string>).includes(s))

describe("OpenEnum.make", () => {
  it("a known value decodes exactly as the strict literal does (the same string, not a wrapper)", () => {
    const strict = Schema.decodeUnknownResult(Schema.Literals(known))
    for (const value of known) {
      expect(decode(value)).toStrictEqual(strict(value))
      expect(decode(value)).toStrictEqual(Result.succeed(value))
    }
  })

  it("a value added to the API since (here `held`) is kept as { _tag: Unknown, value } instead of failing the read", () => {
    expect(decode("held")).toStrictEqual(Result.succeed({ _tag: "Unknown", value: "held" }))
  })

  it("property: every well-formed unknown value decodes to Unknown and encodes back to the same text", () => {
    fc.assert(
      fc.property(unknownValue, (value) => {
        const decoded = decode(value)
        expect(decoded).toStrictEqual(Result.succeed(OpenEnum.unknown(value)))
        expect(Result.map(decoded, (d) => encode(d))).toStrictEqual(Result.succeed(Result.succeed(value)))
      })
    )
  })

  it("is case-sensitive: `Completed` is not `completed`, so it is unknown, not silently mapped", () => {
    expect(decode("Completed")).toStrictEqual(Result.succeed(OpenEnum.unknown("Completed")))
  })

  it.each([
    ["a number", 3],
    ["null", null],
    ["an object", { state: "held" }],
    ["the empty string", ""],
    ["a space inside", "on hold"],
    ["a control character", "held\u0000"],
    ["a non-ASCII letter", "gehalten\u00e9"],
    ["129 characters", "x".repeat(129)]
  ])("a value that is not well-formed (%s) is still a decoding error with a message", (_, value) => {
    const result = decode(value)
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) expect(result.failure.message).toMatch(/TestState|visible ASCII|Expected/)
  })

  it("128 characters is the longest value read (a bound, not an off-by-one)", () => {
    expect(decode("x".repeat(128))).toStrictEqual(Result.succeed(OpenEnum.unknown("x".repeat(128))))
  })

  const U = OpenEnum.UnknownFromString(known)
  it("the Unknown case alone refuses the known values", () => {
    expect(Result.isFailure(Schema.decodeUnknownResult(U)("pending"))).toBe(true)
  })

  it.prop("its arbitrary draws well-formed values that are none of the known ones", [U], ([u]) => {
    expect((known as ReadonlyArray<string>).includes(u.value)).toBe(false)
    expect(OpenEnum.wellFormed.test(u.value)).toBe(true)
  })

  it("valueOf gives the text as sent for both cases", () => {
    expect(OpenEnum.valueOf<"created">("created")).toBe("created")
    expect(OpenEnum.valueOf(OpenEnum.unknown("held"))).toBe("held")
  })
})

schemaLaws("OpenEnum.make", State)

describe("OpenEnum.findUnknown", () => {
  it("finds every Unknown value with its path, in document order, and nothing else", () => {
    const value = {
      state: OpenEnum.unknown("held"),
      name: "Unknown",
      items: [{ state: "created" }, { state: OpenEnum.unknown("archived"), tags: [OpenEnum.unknown("x")] }],
      when: new Date(0)
    }
    expect(OpenEnum.findUnknown(value)).toStrictEqual([
      { path: ["state"], value: "held" },
      { path: ["items", 1, "state"], value: "archived" },
      { path: ["items", 1, "tags", 0], value: "x" }
    ])
  })

  it("a value at the root is found at the empty path; a known literal is not a finding", () => {
    expect(OpenEnum.findUnknown(OpenEnum.unknown("held"))).toStrictEqual([{ path: [], value: "held" }])
    expect(OpenEnum.findUnknown("created")).toStrictEqual([])
    expect(OpenEnum.findUnknown(null)).toStrictEqual([])
  })

  it("does not descend into class instances (DateTime, BigDecimal hold no enum)", () => {
    class Holder {
      readonly inner = OpenEnum.unknown("hidden")
    }
    expect(OpenEnum.findUnknown({ holder: new Holder() })).toStrictEqual([])
  })

  it("property: a decoded struct of open enums reports exactly its unknown fields", () => {
    const Row = Schema.Struct({ a: State, b: State })
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...known), unknownValue),
        fc.oneof(fc.constantFrom(...known), unknownValue),
        (a, b) => {
          const row = Schema.decodeUnknownSync(Row)({ a, b })
          const expected = [
            ...((known as ReadonlyArray<string>).includes(a) ? [] : [{ path: ["a"], value: a }]),
            ...((known as ReadonlyArray<string>).includes(b) ? [] : [{ path: ["b"], value: b }])
          ]
          expect(OpenEnum.findUnknown(row)).toStrictEqual(expected)
        }
      )
    )
  })

  it("message names the field and the raw value", () => {
    expect(OpenEnum.message({ path: ["transactions", 0, "state"], value: "held" })).toBe(
      'state "held" is not a value this version of payrules knows: read as { _tag: "Unknown", value: "held" }'
    )
    expect(OpenEnum.message({ path: [2], value: "x" })).toMatch(/^the value "x"/)
  })
})

describe("OpenEnum, what users see of it (from the mutation run)", () => {
  const messageOf = (result: Result.Result<unknown, Schema.SchemaError>) =>
    Result.isFailure(result) ? result.failure.message : "decoded"

  it("a value that is not well-formed, or not a string, names the enum, its known values and the rule", () => {
    const expected =
      "TestState is one of created, pending, completed, or another value of 1 to 128 visible ASCII characters"
    expect(messageOf(decode("on hold"))).toBe(expected)
    expect(messageOf(decode(42))).toBe(expected)
  })

  it("UnknownFromString: encodes back to the raw text, refuses a known value and a malformed one, each saying why", () => {
    const U = OpenEnum.UnknownFromString(known)
    expect(Schema.encodeSync(U)(OpenEnum.unknown("held"))).toBe("held")
    expect(messageOf(Schema.decodeUnknownResult(U)("pending"))).toContain('"pending" is a known value')
    expect(messageOf(Schema.decodeUnknownResult(U)("on hold"))).toContain(
      "an enum value is 1 to 128 visible ASCII characters (no space or control character)"
    )
  })

  it("the JSON Schema of what is read names the enum and its Unknown case, with the description given or the default", () => {
    const definitionsOf = (schema: Schema.Top) =>
      (
        Schema.toJsonSchemaDocument(Schema.toType(schema)) as unknown as {
          definitions: Record<string, { description?: string }>
        }
      ).definitions
    const byDefault = definitionsOf(State)
    expect(Object.keys(byDefault).sort()).toEqual(["TestState", "TestStateUnknown"])
    expect(byDefault.TestState!.description).toBe(
      'one of created, pending, completed, or a value added to the API since (kept as { _tag: "Unknown", value })'
    )
    const described = definitionsOf(OpenEnum.make(known, { identifier: "Described", description: "the state" }))
    expect(described.Described!.description).toBe("the state")
    expect(Object.keys(definitionsOf(OpenEnum.UnknownFromString(known)))).toEqual(["UnknownEnumValue"])
    expect(Object.keys(definitionsOf(OpenEnum.UnknownFromString(known, { identifier: "Held" })))).toEqual(["Held"])
  })

  it.each([
    ["the Unknown case", OpenEnum.unknown("held"), true],
    ["a value that is not a string", { _tag: "Unknown", value: 1 }, false],
    ["another tag", { _tag: "Known", value: "held" }, false],
    ["no tag", { value: "held" }, false],
    ["no value", { _tag: "Unknown" }, false],
    ["null", null, false],
    ["the text Unknown", "Unknown", false]
  ])("isUnknown: %s", (_, u, expected) => {
    expect(OpenEnum.isUnknown(u)).toBe(expected)
  })

  it("findUnknown walks objects without a prototype and steps over undefined and primitive fields", () => {
    const bare = Object.assign(Object.create(null) as object, { state: OpenEnum.unknown("held") })
    expect(OpenEnum.findUnknown({ a: undefined, b: 1, c: "x", d: true, e: bare })).toStrictEqual([
      { path: ["e", "state"], value: "held" }
    ])
  })
})
