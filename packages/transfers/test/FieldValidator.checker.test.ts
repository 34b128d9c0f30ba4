/**
 * The compiled checker behind `validate` (src/internal/checker.ts): values of the wrong JSON type, `amount` from
 * JavaScript callers, and objects of more fields than the bits of an int (where the checker tracks the fields it has
 * seen in an array instead of a bitset).
 */
import { describe, expect } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import type { FieldValidator } from "@payrules/transfers"
import { Result } from "effect"
import {
  base,
  compile,
  found,
  lazily,
  type Rule,
  type Strictness,
  schemaPaths,
  validatePaths
} from "./support/validator.js"

const issuesOf = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<FieldValidator.Issue> =>
  Result.match(v.validate(body), { onFailure: (issues) => issues, onSuccess: () => [] })

// ---------------------------------------------------------------------------------------------------------------------
// values of the wrong JSON type
// ---------------------------------------------------------------------------------------------------------------------

const rules: ReadonlyArray<Rule> = [
  {
    name: "note",
    required: false,
    validation: { min_length: 2, max_length: 5, regex: { pattern: "[a-z]+", description: "lower case letters" } }
  },
  { name: "charge_bearer", required: true, options: [{ value: "shared" }, { value: "debtor" }] },
  { name: "receiver.address.city", required: true }
]
const validator = lazily(() => compile(rules))
const valid = {
  ...base,
  receiver: { counterparty_id: "cp", card_id: "card", address: { city: "Bern" } },
  note: "abc",
  charge_bearer: "shared"
}

type Kind = "string" | "number" | "object"

/** every field of the body, with the JSON type it must have */
const targets: ReadonlyArray<readonly [ReadonlyArray<string>, Kind]> = [
  [["amount"], "number"],
  [["currency"], "string"],
  [["account_id"], "string"],
  [["request_id"], "string"],
  [["note"], "string"],
  [["charge_bearer"], "string"],
  [["receiver"], "object"],
  [["receiver", "counterparty_id"], "string"],
  [["receiver", "card_id"], "string"],
  [["receiver", "address"], "object"],
  [["receiver", "address", "city"], "string"]
]

const typeMessage = (path: ReadonlyArray<string>, kind: Kind): string =>
  kind === "object"
    ? `${path.join(".")} must be a JSON object`
    : kind === "number"
      ? `${path.join(".")} must be a JSON number`
      : `${path.join(".")} must be a string`

/** a copy of `body` with the value at `path` replaced */
const replaced = (body: unknown, path: ReadonlyArray<string>, value: unknown): unknown => {
  if (path.length === 0) return value
  const [head, ...rest] = path
  const o = body as Record<string, unknown>
  return { ...o, [head!]: replaced(o[head!], rest, value) }
}

const isPlainObject = (u: unknown): boolean => typeof u === "object" && u !== null && !Array.isArray(u)

/** JSON values that are not of the kind (objects, arrays, null, booleans, numbers, strings, as each case needs) */
const notOfKind = (kind: Kind): fc.Arbitrary<unknown> =>
  fc
    .oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom<unknown>(null, [], {}, true, false, 0, 12.5, -1, "", "12.5", "shared", [{ city: "Bern" }])
    )
    .filter((u) =>
      kind === "object" ? !isPlainObject(u) : kind === "number" ? typeof u !== "number" : typeof u !== "string"
    )

describe("FieldValidator.validate: a value of the wrong JSON type", () => {
  test.prop([
    fc.constantFrom(...targets).chain(([path, kind]) => fc.tuple(fc.constant(path), fc.constant(kind), notOfKind(kind)))
  ])(
    "is one Type issue at its path saying which JSON type the field must be (bug: a wrong type read as missing, as a length or pattern issue, or with the message of another kind)",
    ([path, kind, value]) => {
      const body = replaced(valid, path, value)
      expect(issuesOf(validator(), body)).toEqual([{ path, rule: "Type", message: typeMessage(path, kind) }])
      expect(schemaPaths(validator(), body)).toEqual(validatePaths(validator(), body))
    }
  )

  test.prop([notOfKind("object")])(
    "a body that is not a JSON object is one Type issue at the root (bug: an array or null body read as an object with every field missing)",
    (body) => {
      expect(issuesOf(validator(), body)).toEqual([
        { path: [], rule: "Type", message: "the payment body must be a JSON object" }
      ])
    }
  )

  test("null where an object is required is a wrong type, not a missing field (bug: receiver: null reported as receiver.counterparty_id missing)", () => {
    expect(issuesOf(validator(), { ...valid, receiver: null })).toEqual([
      { path: ["receiver"], rule: "Type", message: "receiver must be a JSON object" }
    ])
    expect(issuesOf(validator(), { ...valid, receiver: { ...valid.receiver, address: null } })).toEqual([
      { path: ["receiver", "address"], rule: "Type", message: "receiver.address must be a JSON object" }
    ])
    // an absent object is what is missing
    const { receiver: _, ...noReceiver } = valid
    expect(issuesOf(validator(), noReceiver)).toEqual([
      { path: ["receiver"], rule: "Required", message: "receiver is required" }
    ])
  })

  test("an array is not an object, even one that carries the object's fields (bug: arrays read as objects)", () => {
    const receiver = Object.assign([], valid.receiver)
    expect(issuesOf(validator(), { ...valid, receiver })).toEqual([
      { path: ["receiver"], rule: "Type", message: "receiver must be a JSON object" }
    ])
    expect(issuesOf(validator(), Object.assign([], valid))).toEqual([
      { path: [], rule: "Type", message: "the payment body must be a JSON object" }
    ])
  })

  test("null for an optional text field is a wrong type, not an absent field (bug: null taken as absent)", () => {
    expect(issuesOf(validator(), { ...valid, note: null })).toEqual([
      { path: ["note"], rule: "Type", message: "note must be a string" }
    ])
    const { note: _, ...noNote } = valid
    expect(validator().validate(noNote)).toEqual(Result.succeed(noNote))
  })

  test("every field of the wrong type is reported, each with its own message (bug: one kind's message for all)", () => {
    const body = {
      amount: "12.50",
      currency: 978,
      account_id: {},
      receiver: "cp",
      request_id: null,
      note: ["abc"],
      charge_bearer: true
    }
    expect(issuesOf(validator(), body)).toEqual([
      { path: ["amount"], rule: "Type", message: "amount must be a JSON number" },
      { path: ["currency"], rule: "Type", message: "currency must be a string" },
      { path: ["account_id"], rule: "Type", message: "account_id must be a string" },
      { path: ["receiver"], rule: "Type", message: "receiver must be a JSON object" },
      { path: ["request_id"], rule: "Type", message: "request_id must be a string" },
      { path: ["note"], rule: "Type", message: "note must be a string" },
      { path: ["charge_bearer"], rule: "Type", message: "charge_bearer must be a string" }
    ])
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// amount, from JavaScript callers
// ---------------------------------------------------------------------------------------------------------------------

describe("FieldValidator.validate: amount", () => {
  const v = compile([])

  test.prop([
    fc.oneof(
      fc.double(),
      fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, 1e-7)
    )
  ])(
    "passes exactly the finite numbers above 0, and says why not with the value (bug: NaN, Infinity or -Infinity accepted)",
    (amount) => {
      const body = { ...base, amount }
      if (Number.isFinite(amount) && amount > 0) expect(v.validate(body)).toEqual(Result.succeed(body))
      else {
        expect(issuesOf(v, body)).toEqual([
          {
            path: ["amount"],
            rule: "PositiveAmount",
            message: `amount must be a finite number greater than 0; got ${amount}`
          }
        ])
      }
      expect(schemaPaths(v, body)).toEqual(validatePaths(v, body))
    }
  )

  test("NaN, Infinity and -Infinity are refused by name (bug: non-finite amounts accepted)", () => {
    for (const amount of [NaN, Infinity, -Infinity]) {
      expect(issuesOf(v, { ...base, amount }).map((i) => [i.rule, i.message])).toEqual([
        ["PositiveAmount", `amount must be a finite number greater than 0; got ${amount}`]
      ])
    }
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// objects of many fields: the checker's bitset of seen fields becomes an array above the bits of an int
// ---------------------------------------------------------------------------------------------------------------------

const fieldName = (i: number) => `f${String(i).padStart(2, "0")}`
const extraName = (i: number) => `x${String(i).padStart(2, "0")}`

type Container = "" | "details" | "receiver"

const prefixOf = (container: Container) => (container === "" ? "" : `${container}.`)

/** `n` fields in the container, each required or not */
const rulesOf = (container: Container, required: ReadonlyArray<boolean>): ReadonlyArray<Rule> =>
  required.map((r, i) => ({ name: `${prefixOf(container)}${fieldName(i)}`, required: r }))

/** a body with the fields of `present` and the unknown fields `extras` in the container, the base fields valid */
const bodyOf = (
  container: Container,
  present: ReadonlyArray<boolean>,
  extras: ReadonlyArray<string>
): Record<string, unknown> => {
  const fields: Record<string, unknown> = {}
  present.forEach((p, i) => {
    if (p) fields[fieldName(i)] = `v${i}`
  })
  for (const x of extras) fields[x] = "?"
  if (container === "") return { ...base, ...fields }
  if (container === "receiver") return { ...base, receiver: { ...base.receiver, ...fields } }
  return { ...base, details: fields }
}

const expectedIssues = (
  container: Container,
  required: ReadonlyArray<boolean>,
  present: ReadonlyArray<boolean>,
  extras: ReadonlyArray<string>,
  strictness: Strictness
): ReadonlyArray<string> => {
  const prefix = prefixOf(container)
  const missing = required.flatMap((r, i) => (r && !present[i] ? [`${prefix}${fieldName(i)}|Required`] : []))
  const unknown = strictness === "error" ? extras.map((x) => `${prefix}${x}|UnknownField`) : []
  return [...missing, ...unknown].sort()
}

/** what `strip` gives for a valid body: the body without its unknown fields, and nothing for the absent ones */
const stripped = (container: Container, present: ReadonlyArray<boolean>): Record<string, unknown> =>
  bodyOf(container, present, [])

const manyFields = fc
  .record({
    n: fc.oneof(fc.constantFrom(30, 31, 32, 33, 34), fc.integer({ min: 1, max: 40 })),
    container: fc.constantFrom<Container>("", "details", "receiver"),
    strictness: fc.constantFrom<Strictness>("error", "strip", "allow")
  })
  .chain(({ n, container, strictness }) =>
    fc.record({
      container: fc.constant(container),
      strictness: fc.constant(strictness),
      required: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      bodies: fc.array(
        fc.record({
          present: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
          extras: fc.uniqueArray(fc.integer({ min: 0, max: 39 }).map(extraName), { maxLength: 30 })
        }),
        { minLength: 1, maxLength: 4 }
      )
    })
  )

describe("FieldValidator.validate: objects of many fields", () => {
  test.prop([manyFields], { numRuns: 300 })(
    "reports exactly the missing required fields and the unknown ones, for any number of fields (bug: a field above the 31st taken for another, or missed)",
    ({ container, strictness, required, bodies }) => {
      const v = compile(rulesOf(container, required), { unknownFields: strictness })
      // several bodies of different shapes through one validator
      for (const { present, extras } of bodies) {
        const body = bodyOf(container, present, extras)
        const want = expectedIssues(container, required, present, extras, strictness)
        expect(found(v.validate(body))).toEqual(want)
        if (want.length > 0) continue
        const out = Result.getOrThrow(v.validate(body))
        if (strictness === "strip" && extras.length > 0) expect(out).toStrictEqual(stripped(container, present))
        else expect(out).toBe(body)
      }
    }
  )

  for (const n of [1, 30, 31, 32, 33, 40]) {
    test(`${n} required fields: each missing one is reported, and only it (bug: the ${n}-field bitset or array confuses fields)`, () => {
      const v = compile(
        rulesOf(
          "details",
          Array.from({ length: n }, () => true)
        )
      )
      const all = Array.from({ length: n }, () => true)
      const complete = bodyOf("details", all, [])
      expect(v.validate(complete)).toEqual(Result.succeed(complete))
      for (let i = 0; i < n; i++) {
        const present = all.map((_, j) => j !== i)
        expect(issuesOf(v, bodyOf("details", present, []))).toEqual([
          { path: ["details", fieldName(i)], rule: "Required", message: `details.${fieldName(i)} is required` }
        ])
        const onlyOne = all.map((_, j) => j === i)
        expect(found(v.validate(bodyOf("details", onlyOne, [])))).toEqual(
          all.flatMap((_, j) => (j === i ? [] : [`details.${fieldName(j)}|Required`])).sort()
        )
      }
      expect(found(v.validate(bodyOf("details", all, ["x00", fieldName(n)])))).toEqual(
        [`details.${fieldName(n)}|UnknownField`, "details.x00|UnknownField"].sort()
      )
    })

    test(`${n} optional fields under strip: the copy has exactly the fields given (bug: an absent field copied as undefined)`, () => {
      const v = compile(
        rulesOf(
          "details",
          Array.from({ length: n }, () => false)
        ),
        { unknownFields: "strip" }
      )
      for (let i = 0; i < n; i++) {
        const present = Array.from({ length: n }, (_, j) => j === i || j === n - 1 - i)
        const out = Result.getOrThrow(v.validate(bodyOf("details", present, ["x00"])))
        expect(Object.keys(out.details as object)).toEqual(present.flatMap((p, j) => (p ? [fieldName(j)] : [])))
        expect(out).toStrictEqual(stripped("details", present))
      }
    })
  }

  test("a receiver of 40 fields still refuses both account_id and card_id (bug: the rule reads the wrong fields of the array)", () => {
    const v = compile(
      rulesOf(
        "receiver",
        Array.from({ length: 40 }, () => false)
      )
    )
    const fields = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [fieldName(i), "v"]))
    const receiver = { counterparty_id: "cp", ...fields }
    expect(issuesOf(v, { ...base, receiver: { ...receiver, account_id: "a", card_id: "c" } })).toEqual([
      {
        path: ["receiver"],
        rule: "OneReceiverMethod",
        message: "give receiver.account_id (a bank transfer) or receiver.card_id (a card transfer), not both"
      }
    ])
    for (const one of [{ account_id: "a" }, { card_id: "c" }, {}]) {
      const body = { ...base, receiver: { ...receiver, ...one } }
      expect(v.validate(body)).toEqual(Result.succeed(body))
    }
    expect(found(v.validate({ ...base, receiver: { counterparty_id: "cp", account_id: "a", f39: "v" } }))).toEqual([])
  })
})
