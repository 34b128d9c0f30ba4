/**
 * The issues `validate` gives (src/internal/checker.ts) where the other files do not look: unknown fields with long
 * names, bodies of more fields than the checker remembers positions for, the body it gives back under `strip`, a body
 * that throws when read; the form's bounds and pattern descriptions; the UnreadableRule error; the cache key's hash.
 */
import { describe, expect, it } from "@effect/vitest"
import { FieldValidator } from "@payrules/transfers"
import { Result } from "effect"
import { base, compile, type Rule, ruleErrors } from "./support/validator.js"

const issuesOf = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<FieldValidator.Issue> =>
  Result.match(v.validate(body), { onFailure: (issues) => issues, onSuccess: () => [] })

// ---------------------------------------------------------------------------------------------------------------------
// unknown fields
// ---------------------------------------------------------------------------------------------------------------------

describe("validate: unknown fields", () => {
  it("names the field, whole up to 48 characters and cut to 45 and '...' beyond, and the object it is not a field of (bug: a long key echoed whole, or a short one cut)", () => {
    const v = compile([{ name: "receiver.address.city", required: false }])
    const k48 = "k".repeat(48)
    const k49 = `${"k".repeat(48)}x`
    expect(
      issuesOf(v, {
        ...base,
        [k48]: 1,
        [k49]: 2,
        receiver: { counterparty_id: "cp", nick: "x", address: { town: "Bern" } }
      })
    ).toEqual([
      { path: ["receiver", "nick"], rule: "UnknownField", message: '"nick" is not a field of receiver' },
      {
        path: ["receiver", "address", "town"],
        rule: "UnknownField",
        message: '"town" is not a field of receiver.address'
      },
      { path: [k48], rule: "UnknownField", message: `"${k48}" is not a field of the payment body` },
      { path: [k49], rule: "UnknownField", message: `"${"k".repeat(45)}..." is not a field of the payment body` }
    ])
  })

  it("finds the fields of a body of more than 64 keys, past the positions it remembers (bug: a key beyond the 64th taken for a field)", () => {
    const v = compile([{ name: "reference", required: true }])
    const extras = Array.from({ length: 70 }, (_, i) => `x${i}`)
    // the known fields after the 64th key, one of them of the wrong type
    const body: Record<string, unknown> = {}
    for (const k of extras) body[k] = k
    Object.assign(body, base, { reference: 5 })
    expect(issuesOf(v, body)).toEqual([
      ...extras.map((k) => ({ path: [k], rule: "UnknownField", message: `"${k}" is not a field of the payment body` })),
      { path: ["reference"], rule: "Type", message: "reference must be a string" }
    ])
    // the same shape again (the positions remembered), and a valid one under allow
    expect(issuesOf(v, { ...body, reference: "ok" })).toHaveLength(70)
    const allow = compile([{ name: "reference", required: true }], { unknownFields: "allow" })
    const ok = { ...body, reference: "ok" }
    expect(allow.validate(ok)).toEqual(Result.succeed(ok))
    const { reference: _, ...missing } = ok
    expect(issuesOf(allow, missing)).toEqual([
      { path: ["reference"], rule: "Required", message: "reference is required" }
    ])
  })

  it("under strip, gives a body whose fields can be changed and removed as a parsed body's can (bug: read-only fields)", () => {
    const v = compile([{ name: "receiver.address.city", required: false }], { unknownFields: "strip" })
    const out = Result.getOrThrow(
      v.validate({ ...base, extra: 1, receiver: { counterparty_id: "cp", address: { city: "Bern", zip: "3000" } } })
    ) as unknown as Record<string, unknown> & { receiver: { address: Record<string, unknown> } }
    expect(out).toStrictEqual({ ...base, receiver: { counterparty_id: "cp", address: { city: "Bern" } } })
    out.amount = 20
    out.receiver.address.city = "Basel"
    delete out.request_id
    expect(out).toStrictEqual({
      amount: 20,
      currency: "GBP",
      account_id: "acc",
      receiver: { counterparty_id: "cp", address: { city: "Basel" } }
    })
    expect(v.unknownFields).toBe("strip")
    expect(compile([]).unknownFields).toBe("error")
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// bodies that throw
// ---------------------------------------------------------------------------------------------------------------------

describe("validate: a body that throws when read", () => {
  it("is one Type issue at the root that says what was thrown, or that it threw (bug: the reason lost)", () => {
    const v = compile([])
    const throwing = (thrown: unknown) =>
      new Proxy(
        {},
        {
          ownKeys: () => {
            throw thrown
          }
        }
      )
    expect(issuesOf(v, throwing(new Error("revoked")))).toEqual([
      { path: [], rule: "Type", message: "the payment body could not be read: revoked" }
    ])
    expect(issuesOf(v, throwing("a string"))).toEqual([
      { path: [], rule: "Type", message: "the payment body could not be read: it threw while being read" }
    ])
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// the form
// ---------------------------------------------------------------------------------------------------------------------

describe("form", () => {
  it("leaves out a bound there is none of and a blank pattern description (bug: Infinity, 0 or '' shown)", () => {
    const v = compile([
      { name: "open", required: false },
      { name: "blank", required: true, validation: { min_length: 2, regex: { pattern: "[a-z]+", description: " " } } },
      { name: "told", required: false, validation: { max_length: 9, regex: { pattern: "[a-z]+", description: "az" } } }
    ])
    expect(v.form.map((f) => [f.name, f.minLength, f.maxLength, f.patternDescription, f.htmlPattern])).toEqual([
      ["open", undefined, undefined, undefined, undefined],
      ["blank", 2, undefined, undefined, "[a-z]+"],
      ["told", undefined, 9, "az", "[a-z]+"]
    ])
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// rules that cannot be read
// ---------------------------------------------------------------------------------------------------------------------

describe("compile: a rule that cannot be read (UnreadableRule)", () => {
  it("names the rule by its index, and by its name only when the name is a string (bug: a number taken for a name)", () => {
    const errors = ruleErrors([
      { name: "ok", required: true },
      { name: 5, required: true },
      { name: "reference", required: "yes" }
    ] as unknown as ReadonlyArray<Rule>)
    expect(errors.map((e) => [e.reason, e.field])).toEqual([
      ["UnreadableRule", undefined],
      ["UnreadableRule", "reference"]
    ])
    expect(errors[0]!.message).toMatch(/^fields\[1\]: the rule could not be read \(/)
    expect(errors[1]!.message).toMatch(/^fields\[2\] \(reference\): the rule could not be read \(/)
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// the hash
// ---------------------------------------------------------------------------------------------------------------------

describe("FieldValidator.hash", () => {
  it.each<readonly [string, ReadonlyArray<Rule>, string]>([
    ["no rules", [], "d095202279b28c9e"],
    ["one rule", [{ name: "reference", required: true }], "8f038ef08f113225"],
    // halves whose first digit is 0: still 16 digits
    ["a first half below 0x10000000", [{ name: "f2", required: true }], "0782e30af32635ca"],
    ["a second half below 0x10000000", [{ name: "f16", required: true }], "4e748c5d05b4f01e"]
  ])(
    "is the same from one version to the next, 16 digits always: %s (bug: a cache key that changes, or loses a digit)",
    (_, rules, hash) => {
      expect(FieldValidator.hash(rules)).toBe(hash)
    }
  )
})

// ---------------------------------------------------------------------------------------------------------------------
// the base fields
// ---------------------------------------------------------------------------------------------------------------------

describe("validate: the receiver's fields of the base schema", () => {
  it("requires receiver.counterparty_id, and tells each empty id by name (bug: a receiver without its counterparty taken)", () => {
    const v = compile([])
    expect(issuesOf(v, { ...base, receiver: {} })).toEqual([
      { path: ["receiver", "counterparty_id"], rule: "Required", message: "receiver.counterparty_id is required" }
    ])
    expect(issuesOf(v, { ...base, receiver: { counterparty_id: "", account_id: "" } })).toEqual([
      {
        path: ["receiver", "counterparty_id"],
        rule: "MinLength",
        message: "receiver.counterparty_id must not be empty"
      },
      { path: ["receiver", "account_id"], rule: "MinLength", message: "receiver.account_id must not be empty" }
    ])
    expect(issuesOf(v, { ...base, receiver: { counterparty_id: "cp", card_id: "" } })).toEqual([
      { path: ["receiver", "card_id"], rule: "MinLength", message: "receiver.card_id must not be empty" }
    ])
  })
})

describe("compile: rules and options read as given", () => {
  it("a length of the wrong JSON type is an unreadable rule, told with its path (bug: read as a length)", () => {
    const errors = ruleErrors([
      { name: "a", required: true, validation: { min_length: "5" } }
    ] as unknown as ReadonlyArray<Rule>)
    expect(errors.map((e) => [e.reason, e.field, e.message])).toEqual([
      [
        "UnreadableRule",
        "a",
        "fields[0] (a): the rule could not be read (the rule at fields[0] could not be read and was left out (Expected number at fields.0.validation.min_length): its field is not checked); a validator without it would not check what the server asks, so it is not compiled (compile the read's fields alone to go on without it)"
      ]
    ])
  })

  it("a limit mapping entry without a field maps nothing: the body field stays unknown (bug: an empty entry makes a field)", () => {
    const v = compile([], { limitFields: { reference: undefined } as unknown as Record<string, never> })
    expect(issuesOf(v, { ...base, reference: "r" }).map((i) => [i.path.join("."), i.rule])).toEqual([
      ["reference", "UnknownField"]
    ])
  })
})
