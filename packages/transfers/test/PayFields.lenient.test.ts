/**
 * Issue 34: a /pay/fields answer with one rule the server got wrong keeps the other rules (each unreadable rule
 * reported with its index, path and raw value), and the compiler never leaves an unreadable rule out in silence.
 */
import { describe, expect, it } from "@effect/vitest"
import { FieldValidator, PayFields } from "@payrules/transfers"
import { readFixture } from "@payrules/vitest"
import { Result, Schema } from "effect"
import fc from "fast-check"

const decodeStrict = Schema.decodeUnknownResult(PayFields.FieldsResponse)

/** rules the server could get wrong: each one fails FieldRequirement */
const corrupted: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, 1, "reference", [], true),
  fc.record({ name: fc.integer(), required: fc.boolean() }),
  fc.record({ name: fc.constant("reference"), required: fc.constantFrom("yes", 1, null) }),
  fc.record({ name: fc.constant("reference"), required: fc.boolean(), validation: fc.constant({ max_length: -1 }) }),
  fc.record({ name: fc.constant("reference"), required: fc.boolean(), validation: fc.constant({ regex: {} }) }),
  fc.record({ name: fc.constant("charge_bearer"), required: fc.boolean(), options: fc.constant([{ label: "x" }]) })
)

/** well-formed rules, written out as a grammar of the answer (JSON as the server sends it) */
const rule = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 12 }),
    required: fc.boolean(),
    validation: fc.record(
      {
        min_length: fc.nat(20),
        max_length: fc.nat(200),
        regex: fc.record({ pattern: fc.string(), description: fc.string() })
      },
      { requiredKeys: [] }
    ),
    options: fc.array(fc.record({ value: fc.string(), default: fc.boolean() }, { requiredKeys: ["value"] }), {
      maxLength: 3
    })
  },
  { requiredKeys: ["name", "required"] }
)
const rules = fc.array(rule, { maxLength: 8 })

describe("PayFields.decodeLenient", () => {
  it.prop(
    "a well-formed answer reads exactly as with the strict Schema, with no finding",
    [PayFields.FieldsResponse],
    ([response]) => {
      const wire = JSON.parse(JSON.stringify(Schema.encodeSync(PayFields.FieldsResponse)(response)))
      const read = Result.getOrThrow(PayFields.decodeLenient(wire))
      expect(read.findings).toEqual([])
      expect({ fields: read.fields }).toEqual(Result.getOrThrow(decodeStrict(wire)))
    }
  )

  it("property: one rule the server got wrong no longer costs the caller the other rules", () => {
    fc.assert(
      fc.property(rules, corrupted, fc.nat(), (wire, bad, at) => {
        const index = at % (wire.length + 1)
        const list = [...wire.slice(0, index), bad, ...wire.slice(index)]
        // the strict Schema loses the whole answer
        expect(Result.isFailure(decodeStrict({ fields: list }))).toBe(true)
        const read = Result.getOrThrow(PayFields.decodeLenient({ fields: list }))
        expect(read.fields).toEqual(Result.getOrThrow(decodeStrict({ fields: wire })).fields)
        expect(read.findings).toHaveLength(1)
        const [finding] = read.findings
        expect(finding).toMatchObject({ severity: "warning", rule: "UnreadableItem", index, raw: bad })
        expect(finding!.path.slice(0, 2)).toEqual(["fields", index])
        expect(finding!.message).toContain(`fields[${index}]`)
      }),
      { seed: 34, numRuns: 200 }
    )
  })

  it("names the path of what broke inside the rule", () => {
    const read = Result.getOrThrow(
      PayFields.decodeLenient({
        fields: [
          { name: "reference", required: true, validation: { max_length: 140 } },
          { name: "charge_bearer", required: true, validation: { max_length: -1 } },
          { name: "transfer_reason_code", required: true, options: [{ value: "goods" }] }
        ]
      })
    )
    expect(read.fields.map((f) => f.name)).toEqual(["reference", "transfer_reason_code"])
    expect(read.findings).toEqual([
      {
        severity: "warning",
        rule: "UnreadableItem",
        path: ["fields", 1, "validation", "max_length"],
        message: expect.stringMatching(
          /^the rule at fields\[1\] could not be read and was left out \(.+ at fields\.1\.validation\.max_length\): its field is not checked$/
        ),
        index: 1,
        raw: { name: "charge_bearer", required: true, validation: { max_length: -1 } }
      }
    ])
  })

  it("the envelope stays strict: an answer without a fields array fails, with its path", () => {
    for (const input of [{}, { fields: "none" }, null, []]) {
      expect(Result.isFailure(PayFields.decodeLenient(input))).toBe(true)
    }
  })

  it("options[].type, default and description are kept as sent: a kind of option added since cannot break the read", () => {
    const read = Result.getOrThrow(
      PayFields.decodeLenient({
        fields: [
          {
            name: "charge_bearer",
            required: false,
            options: [{ value: "shared", type: "new_kind", default: "maybe", description: { en: "Shared" } }]
          }
        ]
      })
    )
    expect(read.findings).toEqual([])
    expect(read.fields[0]!.options).toEqual([
      { value: "shared", type: "new_kind", default: "maybe", description: { en: "Shared" } }
    ])
  })

  it("reads the fixtures' answers as the strict Schema does", () => {
    for (const name of ["swift", "inr", "swiss-qr", "gb-faster-payments"]) {
      const { response } = readFixture<{ response: unknown }>(import.meta.url, `fixtures/${name}.json`)
      const read = Result.getOrThrow(PayFields.decodeLenient(response))
      expect(read.findings).toEqual([])
      expect(read.fields).toEqual(Result.getOrThrow(decodeStrict(response)).fields)
    }
  })
})

describe("FieldValidator.compile and rules it cannot read", () => {
  const answer = {
    fields: [
      { name: "reference", required: true, validation: { max_length: 18 } },
      { name: "transfer_reason_code", required: "yes", options: [{ value: "goods" }] }
    ]
  }

  it("a lenient read with an unreadable rule is refused with UnreadableRule, naming the field: never left out in silence", () => {
    const read = Result.getOrThrow(PayFields.decodeLenient(answer))
    const compiled = FieldValidator.compile(read)
    expect(Result.isFailure(compiled)).toBe(true)
    if (Result.isFailure(compiled)) {
      expect(compiled.failure.map((e) => [e.reason, e.field])).toEqual([["UnreadableRule", "transfer_reason_code"]])
      expect(compiled.failure[0]!.message).toContain("fields[1] (transfer_reason_code): the rule could not be read")
    }
  })

  it("compiling the read's fields alone goes on without the unreadable rule, on purpose", () => {
    const read = Result.getOrThrow(PayFields.decodeLenient(answer))
    const validator = FieldValidator.compileUnsafe(read.fields)
    expect(validator.form.map((f) => f.name)).toEqual(["reference"])
  })

  it("a read without findings, or a whole answer, compiles as its fields do", () => {
    const ok = { fields: [answer.fields[0]!] }
    const read = Result.getOrThrow(PayFields.decodeLenient(ok))
    const fromRead = FieldValidator.compileUnsafe(read)
    const fromAnswer = FieldValidator.compileUnsafe(Schema.decodeUnknownSync(PayFields.FieldsResponse)(ok))
    const fromFields = FieldValidator.compileUnsafe(read.fields)
    expect(fromRead.form).toEqual(fromFields.form)
    expect(fromAnswer.form).toEqual(fromFields.form)
  })

  it("rules given as untyped JSON: an unreadable one is an UnreadableRule error beside the others' errors", () => {
    const fields = [
      { name: "a", required: true, validation: { min_length: -1 } },
      { name: "b", required: "no" },
      42,
      { name: "c", required: true, validation: { regex: { pattern: "(", description: "" } } }
    ] as unknown as ReadonlyArray<PayFields.FieldRequirement>
    const compiled = FieldValidator.compile(fields)
    expect(Result.isFailure(compiled) && compiled.failure.map((e) => [e.reason, e.field])).toEqual([
      ["UnreadableRule", "b"],
      ["UnreadableRule", undefined],
      ["InvalidLength", "a"],
      ["InvalidPattern", "c"]
    ])
  })

  it("property: compiling a read with one corrupted rule fails with exactly one UnreadableRule", () => {
    fc.assert(
      fc.property(corrupted, fc.nat({ max: 3 }), (bad, at) => {
        const list: Array<unknown> = [
          { name: "reference", required: true },
          { name: "note", required: false },
          { name: "code", required: false }
        ]
        list.splice(at, 0, bad)
        const read = Result.getOrThrow(PayFields.decodeLenient({ fields: list }))
        const compiled = FieldValidator.compile(read)
        expect(Result.isFailure(compiled) && compiled.failure.map((e) => e.reason)).toEqual(["UnreadableRule"])
        expect(Result.isSuccess(FieldValidator.compile(read.fields))).toBe(true)
      }),
      { seed: 34 }
    )
  })
})
