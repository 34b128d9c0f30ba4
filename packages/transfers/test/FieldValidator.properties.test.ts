import { describe, expect, it } from "@effect/vitest"
import { SchemeLimits } from "@payrules/accounts"
import { Currency } from "@payrules/money"
import { FieldValidator } from "@payrules/transfers"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { found, type Rule, type Strictness, schemaPaths, validatePaths } from "./support/validator.js"

// ---------------------------------------------------------------------------------------------------------------------
// properties: a slow, obviously correct reference checker; the Schema; the form
// ---------------------------------------------------------------------------------------------------------------------

/** patterns whose meaning is the same in the dialect and in a JavaScript RegExp with the `u` flag */
const patternPool: ReadonlyArray<{ readonly source: string; readonly min: number; readonly max: number }> = [
  { source: "[A-Z]{2}", min: 2, max: 2 },
  { source: "\\d{3,5}", min: 3, max: 5 },
  { source: "[a-z]+", min: 1, max: Infinity },
  { source: "[a-z]+[a-z0-9]*", min: 1, max: Infinity },
  { source: "x|xy", min: 1, max: 2 },
  { source: "(ab)*", min: 0, max: Infinity },
  { source: "[^ ]{2,}", min: 2, max: Infinity },
  { source: "[A-Za-z0-9 -]{1,18}", min: 1, max: 18 },
  { source: "^\\w{4}$", min: 4, max: 4 }
]
const names = [
  "reference",
  "charge_bearer",
  "transfer_reason_code",
  "note",
  "receiver.address.city",
  "receiver.address.postcode",
  "receiver.bank.code",
  "a.b.c",
  "request_id",
  "currency",
  "receiver.account_id"
]
const optionValues = ["A", "B", "shared", "debtor", "ab", "x😀", "EUR", "GBP", "r-1"]
const unit = fc.constantFrom("a", "b", "z", "A", "Z", "0", "9", " ", "-", "x", "y", "é", "😀")

interface GenRule extends Rule {
  readonly pattern?: (typeof patternPool)[number]
}

const ruleArb = (name: string): fc.Arbitrary<GenRule> =>
  fc
    .record(
      {
        required: fc.boolean(),
        min: fc.option(fc.nat(6), { nil: undefined }),
        max: fc.option(fc.integer({ min: 0, max: 24 }), { nil: undefined }),
        pattern: fc.option(fc.constantFrom(...patternPool), { nil: undefined }),
        options: fc.option(fc.uniqueArray(fc.constantFrom(...optionValues), { maxLength: 4 }), {
          nil: undefined,
          freq: 2
        })
      },
      { requiredKeys: ["required"] }
    )
    .map((r) => {
      const validation = {
        ...(r.min === undefined ? {} : { min_length: r.min }),
        ...(r.max === undefined ? {} : { max_length: r.max }),
        ...(r.pattern === undefined
          ? {}
          : { regex: { pattern: r.pattern.source, description: `like ${r.pattern.source}` } })
      }
      return {
        name,
        required: r.required,
        ...(Object.keys(validation).length === 0 ? {} : { validation }),
        ...(r.options === undefined ? {} : { options: r.options.map((value, i) => ({ value, default: i === 0 })) }),
        ...(r.pattern === undefined ? {} : { pattern: r.pattern })
      }
    })

const setup = fc.record({
  rules: fc
    .uniqueArray(fc.constantFrom(...names), { maxLength: 6 })
    .chain(
      (ns): fc.Arbitrary<ReadonlyArray<GenRule>> => (ns.length === 0 ? fc.constant([]) : fc.tuple(...ns.map(ruleArb)))
    ),
  schemes: fc.subarray([SchemeLimits.FasterPayments, SchemeLimits.OpenBanking, SchemeLimits.Swift]),
  strictness: fc.constantFrom<Strictness>("strip", "error", "allow")
})

type Setup = {
  readonly rules: ReadonlyArray<GenRule>
  readonly schemes: ReadonlyArray<SchemeLimits.LimitSet>
  readonly strictness: Strictness
}

// ----- the reference checker: written out again, slowly, with nothing shared with the package -----

interface Expected {
  kind: "string" | "currency" | "amount"
  required: boolean
  min: number
  max: number
  patterns: Array<RegExp>
  options: Array<string> | undefined
  /** no control characters, no lone surrogates */
  text?: boolean
}

const baseExpected = (): Map<string, Expected> =>
  new Map<string, Expected>([
    ["amount", { kind: "amount", required: true, min: 0, max: Infinity, patterns: [], options: undefined }],
    ["currency", { kind: "currency", required: true, min: 0, max: Infinity, patterns: [], options: undefined }],
    ["account_id", { kind: "string", required: true, min: 1, max: Infinity, patterns: [], options: undefined }],
    [
      "receiver.counterparty_id",
      { kind: "string", required: true, min: 1, max: Infinity, patterns: [], options: undefined }
    ],
    [
      "receiver.account_id",
      { kind: "string", required: false, min: 1, max: Infinity, patterns: [], options: undefined }
    ],
    ["receiver.card_id", { kind: "string", required: false, min: 1, max: Infinity, patterns: [], options: undefined }],
    ["request_id", { kind: "string", required: true, min: 1, max: 40, patterns: [], options: undefined, text: true }],
    ["reference", { kind: "string", required: false, min: 0, max: Infinity, patterns: [], options: undefined }]
  ])

const length = (s: string) => [...s].length

/** a C0 or C1 control character, or a surrogate without its pair (read code point by code point) */
const hasControl = (s: string) =>
  [...s].some((c) => {
    const code = c.codePointAt(0)!
    return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff)
  })

const passesAllButOptions = (e: Expected, s: string): boolean =>
  length(s) >= e.min &&
  length(s) <= e.max &&
  (e.kind !== "currency" || Currency.isKnown(s)) &&
  !(e.text === true && hasControl(s)) &&
  e.patterns.every((p) => p.test(s))

/** the expected fields, or "empty" when no value can satisfy some field */
const expectedFields = (s: Setup): Map<string, Expected> | "empty" => {
  const fields = baseExpected()
  const referenceLimits = s.schemes.flatMap((set) =>
    set.limits.filter((l) => l.field === "Reference").map((l) => l.maxLength)
  )
  fields.get("reference")!.max = Math.min(Infinity, ...referenceLimits)
  let empty = false
  for (const r of s.rules) {
    const e = fields.get(r.name) ?? {
      kind: "string",
      required: false,
      min: 0,
      max: Infinity,
      patterns: [],
      options: undefined
    }
    e.required ||= r.required
    e.min = Math.max(e.min, r.validation?.min_length ?? 0)
    e.max = Math.min(e.max, r.validation?.max_length ?? Infinity)
    if (r.pattern !== undefined) {
      e.patterns.push(new RegExp(`^(?:${r.pattern.source})$`, "u"))
      if (r.pattern.min > e.max || r.pattern.max < e.min) empty = true
    }
    fields.set(r.name, e)
    if (e.min > e.max) empty = true
  }
  for (const r of s.rules) {
    if (r.options === undefined) continue
    const e = fields.get(r.name)!
    e.options = [...new Set(r.options.map((o) => o.value))].filter((v) => passesAllButOptions(e, v))
    if (e.options.length === 0) empty = true
  }
  return empty ? "empty" : fields
}

const plainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const referenceIssues = (s: Setup, fields: Map<string, Expected>, body: unknown): ReadonlyArray<string> => {
  const issues: Array<string> = []
  const childrenOf = (prefix: string) => {
    const out = new Set<string>()
    for (const name of fields.keys()) {
      if (prefix === "" || name.startsWith(`${prefix}.`)) {
        const rest = prefix === "" ? name : name.slice(prefix.length + 1)
        out.add(rest.split(".")[0]!)
      }
    }
    return out
  }
  const requiredBelow = (prefix: string) => [...fields].some(([name, e]) => e.required && name.startsWith(`${prefix}.`))
  const visit = (prefix: string, value: unknown): void => {
    const before = issues.length
    if (!plainObject(value)) {
      issues.push(`${prefix}|Type`)
      return
    }
    for (const key of childrenOf(prefix)) {
      const name = prefix === "" ? key : `${prefix}.${key}`
      const e = fields.get(name)
      const present = Object.hasOwn(value, key)
      if (e === undefined) {
        if (present) visit(name, value[key])
        else if (requiredBelow(name) || name === "receiver") issues.push(`${name}|Required`)
        continue
      }
      if (!present) {
        if (e.required) issues.push(`${name}|Required`)
        continue
      }
      const v = value[key]
      if (e.kind === "amount") {
        if (typeof v !== "number") issues.push(`${name}|Type`)
        else if (!(v > 0 && Number.isFinite(v))) issues.push(`${name}|PositiveAmount`)
        continue
      }
      if (typeof v !== "string") {
        issues.push(`${name}|Type`)
        continue
      }
      if (e.options !== undefined) {
        if (!e.options.includes(v)) issues.push(`${name}|OneOf`)
      } else if (length(v) < e.min) issues.push(`${name}|MinLength`)
      else if (length(v) > e.max) issues.push(`${name}|MaxLength`)
      else if (e.kind === "currency" && !Currency.isKnown(v)) issues.push(`${name}|Currency`)
      else if (e.text === true && hasControl(v)) issues.push(`${name}|Characters`)
      else if (!e.patterns.every((p) => p.test(v))) issues.push(`${name}|Pattern`)
    }
    if (s.strictness === "error") {
      const known = childrenOf(prefix)
      for (const key of Object.keys(value)) {
        if (!known.has(key)) issues.push(`${prefix === "" ? key : `${prefix}.${key}`}|UnknownField`)
      }
    }
    if (
      prefix === "receiver" &&
      issues.length === before &&
      Object.hasOwn(value, "account_id") &&
      Object.hasOwn(value, "card_id")
    ) {
      issues.push("receiver|OneReceiverMethod")
    }
  }
  visit("", body)
  return issues.sort()
}

// ----- bodies generated for a rule set -----

/** the strings a pattern matches, one arbitrary per pattern: building one costs milliseconds, sampling it microseconds */
const matchingCache = new Map<string, fc.Arbitrary<string>>()
const matching = (source: string): fc.Arbitrary<string> => {
  let arb = matchingCache.get(source)
  if (arb === undefined) {
    arb = fc.stringMatching(new RegExp(`^(?:${source})$`))
    matchingCache.set(source, arb)
  }
  return arb
}

/** request_ids with control characters and lone surrogates among ordinary characters */
const controlled = fc.string({
  unit: fc.constantFrom("a", "😀", "\n", "\u0000", "\u007f", "\u009f", "\ud800", "\udc00"),
  maxLength: 6
})

const stringFor = (rule: GenRule | undefined, name: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit, maxLength: 8 }),
    ...(name === "request_id" ? [controlled] : []),
    fc.string({ unit, minLength: 15, maxLength: 45 }),
    fc.string({ unit: fc.constantFrom("😀", "𝄞", "a"), maxLength: 8 }),
    ...(rule?.options === undefined || rule.options.length === 0
      ? []
      : [fc.constantFrom(...rule.options.map((o) => o.value))]),
    ...(rule?.pattern === undefined ? [] : [matching(rule.pattern.source).filter((x) => x.length < 30)])
  )

const wrong = fc.constantFrom<unknown>(5, null, true, {}, [], "")

const define = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })

const alnum = fc.constantFrom("a", "b", "Z", "0", "7", "x", "é", "😀")

/** a body that tries to satisfy every rule (options, pattern-shaped strings, lengths within the bounds) */
const validAttempt = (s: Setup, fields: Map<string, Expected>): fc.Arbitrary<unknown> => {
  const byName = new Map(s.rules.map((r) => [r.name, r]))
  const leaves = [...fields.keys()].filter((n) => n !== "amount" && n !== "receiver.card_id")
  return fc
    .tuple(
      ...leaves.map((name) => {
        const e = fields.get(name)!
        const pattern = byName.get(name)?.pattern
        const value: fc.Arbitrary<string> =
          e.options !== undefined
            ? fc.constantFrom(...e.options)
            : e.kind === "currency"
              ? fc.constantFrom("EUR", "GBP")
              : pattern !== undefined
                ? matching(pattern.source)
                : fc.string({ unit: alnum, minLength: e.min, maxLength: Math.min(e.max, e.min + 10) })
        return e.required ? value : fc.option(value, { nil: undefined })
      })
    )
    .map((values) => {
      const root: Record<string, unknown> = { amount: 3 }
      leaves.forEach((name, i) => {
        const v = values[i]
        if (v === undefined) return
        const path = name.split(".")
        let o = root
        for (const segment of path.slice(0, -1)) {
          if (!plainObject(o[segment])) o[segment] = {}
          o = o[segment] as Record<string, unknown>
        }
        o[path[path.length - 1]!] = v
      })
      return root
    })
}

const bodyFor = (s: Setup): fc.Arbitrary<unknown> => {
  const fields = expectedFields(s)
  return fields === "empty" ? randomBody(s) : fc.oneof(randomBody(s), validAttempt(s, fields))
}

const randomBody = (s: Setup): fc.Arbitrary<unknown> => {
  const byName = new Map(s.rules.map((r) => [r.name, r]))
  const leaves = [
    ...new Set([
      "account_id",
      "receiver.counterparty_id",
      "receiver.account_id",
      "receiver.card_id",
      "request_id",
      "reference",
      ...s.rules.map((r) => r.name)
    ])
  ]
  return fc
    .record({
      amount: fc.oneof(fc.constant(12.5), fc.constantFrom<unknown>(0, -1, "12.5", 1e-7)),
      currency: fc.oneof(fc.constantFrom("EUR", "GBP", "CHF"), fc.constantFrom<unknown>("gbp", "XYZ", 978)),
      values: fc.tuple(
        ...leaves.map((name) =>
          fc.oneof(
            { weight: 2, arbitrary: fc.constant<unknown>(undefined) },
            { weight: 6, arbitrary: stringFor(byName.get(name), name) as fc.Arbitrary<unknown> },
            { weight: 1, arbitrary: wrong }
          )
        )
      ),
      extra: fc.subarray(["extra", "receiver.nick", "receiver.address.zip", "__proto__", "receiver.__proto__"], {
        maxLength: 2
      }),
      brokenObject: fc.option(fc.constantFrom("receiver", "receiver.address", "a.b", "root"), {
        nil: undefined,
        freq: 8
      })
    })
    .map((g) => {
      const root: Record<string, unknown> = {}
      const put = (name: string, value: unknown) => {
        const path = name.split(".")
        let o = root
        for (const segment of path.slice(0, -1)) {
          if (!plainObject(o[segment]) || !Object.hasOwn(o, segment)) define(o, segment, {})
          o = o[segment] as Record<string, unknown>
        }
        define(o, path[path.length - 1]!, value)
      }
      put("amount", g.amount)
      put("currency", g.currency)
      leaves.forEach((name, i) => {
        const v = g.values[i]
        if (v !== undefined) put(name, v)
        else if (name === "receiver.counterparty_id") put("receiver.counterparty_id", "cp")
      })
      for (const name of g.extra) put(name, name.endsWith("__proto__") ? { polluted: true } : "?")
      if (g.brokenObject === "root") return JSON.parse(JSON.stringify([root]))
      if (g.brokenObject !== undefined) put(g.brokenObject, "not an object")
      // through JSON, as a body arrives: a "__proto__" key becomes an own property
      return JSON.parse(JSON.stringify(root))
    })
}

const toFields = (rules: ReadonlyArray<GenRule>): ReadonlyArray<Rule> => rules.map(({ pattern: _, ...rule }) => rule)

const withBodies = setup.chain((s) => fc.tuple(fc.constant(s), fc.array(bodyFor(s), { minLength: 1, maxLength: 6 })))

describe("FieldValidator: properties", () => {
  it("validate agrees with a slow reference checker, and compile refuses exactly the empty rule sets", () => {
    let compiled = 0
    let refused = 0
    let validBodies = 0
    fc.assert(
      fc.property(withBodies, ([s, bodies]) => {
        const expected = expectedFields(s)
        const result = FieldValidator.compile(toFields(s.rules), { schemes: s.schemes, unknownFields: s.strictness })
        if (expected === "empty") {
          expect(Result.isFailure(result) && result.failure.every((e) => e.reason === "EmptyIntersection")).toBe(true)
          refused++
          return
        }
        if (Result.isFailure(result)) throw new Error(result.failure.map((e) => e.message).join("; "))
        compiled++
        for (const body of bodies) {
          const got = found(result.success.validate(body))
          expect({ body, got }).toEqual({ body, got: referenceIssues(s, expected, body) })
          if (got.length === 0) validBodies++
        }
      }),
      { numRuns: 800 }
    )
    expect(compiled).toBeGreaterThan(100)
    expect(refused).toBeGreaterThan(10)
    expect(validBodies).toBeGreaterThan(20)
  })

  it("the Schema and validate accept the same bodies, with issues at the same paths and the same output", () => {
    fc.assert(
      fc.property(withBodies, ([s, bodies]) => {
        const result = FieldValidator.compile(toFields(s.rules), { schemes: s.schemes, unknownFields: s.strictness })
        if (Result.isFailure(result)) return
        const v = result.success
        for (const body of bodies) {
          expect({ body, paths: schemaPaths(v, body) }).toEqual({ body, paths: validatePaths(v, body) })
          const ours = v.validate(body)
          if (Result.isSuccess(ours) && s.strictness !== "allow") {
            expect(Schema.decodeUnknownSync(v.schema)(body)).toEqual(ours.success)
          }
        }
      }),
      { numRuns: 300 }
    )
  })

  it("the form lists exactly the compiled fields: the server's, then the fields a scheme limits", () => {
    fc.assert(
      fc.property(setup, (s) => {
        const result = FieldValidator.compile(toFields(s.rules), { schemes: s.schemes, unknownFields: s.strictness })
        if (Result.isFailure(result)) return
        const limited = s.schemes.some((set) => set.limits.some((l) => l.field === "Reference"))
        const names = s.rules.map((r) => r.name)
        const expected = limited && !names.includes("reference") ? [...names, "reference"] : names
        const form = result.success.form
        expect(form.map((f) => f.name)).toEqual(expected)
        for (const f of form) {
          expect(f.path.join(".")).toBe(f.name)
          const rule = s.rules.find((r) => r.name === f.name)
          expect(f.required).toBe(rule?.required === true || ["currency", "request_id"].includes(f.name))
          if (f.minLength !== undefined && f.maxLength !== undefined)
            expect(f.minLength).toBeLessThanOrEqual(f.maxLength)
          if (rule?.options !== undefined)
            expect(f.options!.map((o) => o.value).every((x) => rule.options!.some((o) => o.value === x))).toBe(true)
        }
      }),
      { numRuns: 300 }
    )
  })
})
