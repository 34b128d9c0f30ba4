/**
 * The rules behind `ExchangeRequest.issues` at their edges: the key the rule travels under and the description each
 * issue carries, a rule found inside a filter, what `issues` makes of issues it did not write, the words that tell a
 * lone surrogate from a control character, and the type-side guards. Each test names the bug it guards.
 */
import { describe, expect, it } from "@effect/vitest"
import { ExchangeRequest } from "@payrules/exchange"
import { BigDecimal, Result, Schema } from "effect"
import * as SchemaIssue from "effect/SchemaIssue"

const sell = {
  from: { account_id: "a", currency: "GBP", amount: 10.5 },
  to: { account_id: "b", currency: "EUR" },
  request_id: "r-1"
}

const failure = (u: unknown): Schema.SchemaError =>
  Result.match(ExchangeRequest.parse(u), {
    onFailure: (e) => e,
    onSuccess: () => {
      throw new Error("expected a failure")
    }
  })

const problems = (u: unknown) => ExchangeRequest.issues(failure(u)).map(({ rule, path }) => ({ rule, path }))

/** every InvalidValue of an issue tree, with the path it is found at */
const invalidValues = (
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<PropertyKey> = []
): Array<{ readonly path: ReadonlyArray<PropertyKey>; readonly issue: SchemaIssue.InvalidValue }> => {
  switch (issue._tag) {
    case "InvalidValue":
      return [{ path, issue }]
    case "Pointer":
      return invalidValues(issue.issue, [...path, ...issue.path])
    case "Encoding":
    case "Filter":
      return invalidValues(issue.issue, path)
    case "Composite":
    case "AnyOf":
      return issue.issues.flatMap((i) => invalidValues(i, path))
    default:
      return []
  }
}

/** one body breaking each rule our decoder finds, with the field the rule is about */
const broken: ReadonlyArray<readonly [ExchangeRequest.Rule, unknown, string]> = [
  ["EmptyAccountId", { ...sell, from: { ...sell.from, account_id: "" } }, "account_id"],
  ["UnknownCurrency", { ...sell, from: { ...sell.from, currency: "gbp" } }, "currency"],
  ["SameCurrency", { ...sell, to: { ...sell.to, currency: "GBP" } }, "currency"],
  ["MissingAmount", { ...sell, from: { account_id: "a", currency: "GBP" } }, "amount"],
  ["TwoAmounts", { ...sell, to: { ...sell.to, amount: 1 } }, "amount"],
  ["InexactAmount", { ...sell, from: { ...sell.from, amount: 0.1 + 0.2 } }, "amount"],
  ["AmountNotPositive", { ...sell, from: { ...sell.from, amount: 0 } }, "amount"],
  ["ScaleExceedsExponent", { ...sell, from: { ...sell.from, amount: 10.505 } }, "amount"],
  ["RequestIdLength", { ...sell, request_id: "" }, "request_id"],
  ["RequestIdCharacters", { ...sell, request_id: "a\u0000" }, "request_id"],
  ["ReferenceLength", { ...sell, reference: "x".repeat(41) }, "reference"],
  ["ReferenceCharacters", { ...sell, reference: "x\u0007" }, "reference"]
]

describe("ExchangeRequest.issues: the rule on the issue", () => {
  it("RuleAnnotationId is the registered symbol, so two copies of the package read each other's issues: guards a renamed key", () => {
    expect(ExchangeRequest.RuleAnnotationId).toBe(Symbol.for("@payrules/exchange/ExchangeRequest/Rule"))
  })

  it.each(broken)(
    "%s: the raw issue carries the rule under the key and a description about its field: guards a lost description",
    (rule, body, field) => {
      const found = invalidValues(failure(body).issue).filter(
        ({ issue }) => (issue.annotations as Record<PropertyKey, unknown>)[ExchangeRequest.RuleAnnotationId] === rule
      )
      expect(found).toHaveLength(1)
      const description = found[0]?.issue.annotations?.description
      expect(description).toContain(field)
      expect(ExchangeRequest.issues(failure(body)).map((i) => i.rule)).toEqual([rule])
    }
  )

  it("a number that is not finite is InexactAmount at the side's amount (a rule found inside a filter): guards the filter not unwrapped", () => {
    for (const amount of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(problems({ ...sell, from: { ...sell.from, amount } })).toEqual([
        { rule: "InexactAmount", path: ["from", "amount"] }
      ])
      expect(problems({ ...sell, from: { account_id: "a", currency: "GBP" }, to: { ...sell.to, amount } })).toEqual([
        { rule: "InexactAmount", path: ["to", "amount"] }
      ])
    }
  })

  it("an issue it did not write is Shape, and never throws: guards trusting any annotation, or one that is no Rule", () => {
    const rulesOf = (issue: SchemaIssue.Issue) =>
      ExchangeRequest.issues(new Schema.SchemaError(issue)).map(({ rule, path }) => ({ rule, path }))
    const key = ExchangeRequest.RuleAnnotationId
    const at = (issue: SchemaIssue.Issue) => new SchemaIssue.Pointer(["x"], issue)
    // an InvalidValue without annotations
    expect(rulesOf(at(new SchemaIssue.InvalidValue()))).toEqual([{ rule: "Shape", path: ["x"] }])
    // the key with a value that is not one of the rules
    for (const value of ["Bogus", "toString", 1, { toString: () => "EmptyAccountId" }]) {
      expect(rulesOf(at(new SchemaIssue.InvalidValue({ message: "m", [key]: value })))).toEqual([
        { rule: "Shape", path: ["x"] }
      ])
    }
    // only an InvalidValue carries a rule
    expect(rulesOf(at(new SchemaIssue.Forbidden({ message: "m", [key]: "EmptyAccountId" })))).toEqual([
      { rule: "Shape", path: ["x"] }
    ])
    // and one that does is read
    expect(rulesOf(at(new SchemaIssue.InvalidValue({ message: "m", [key]: "EmptyAccountId" })))).toEqual([
      { rule: "EmptyAccountId", path: ["x"] }
    ])
  })

  it("a rule inside an AnyOf or a Composite keeps its rule and path: guards the members handed to the plain formatter", () => {
    const key = ExchangeRequest.RuleAnnotationId
    const rule = (r: ExchangeRequest.Rule, path: ReadonlyArray<PropertyKey>) =>
      new SchemaIssue.Pointer(path, new SchemaIssue.InvalidValue({ message: r, [key]: r }))
    const members = [rule("EmptyAccountId", ["from", "account_id"]), rule("RequestIdLength", ["request_id"])] as const
    const expected = [
      { rule: "EmptyAccountId", path: ["from", "account_id"], message: "EmptyAccountId" },
      { rule: "RequestIdLength", path: ["request_id"], message: "RequestIdLength" }
    ]
    const union = Schema.Union([Schema.String, Schema.Number]).ast
    expect(ExchangeRequest.issues(new Schema.SchemaError(new SchemaIssue.AnyOf(union, members, "x")))).toEqual(expected)
    expect(ExchangeRequest.issues(new Schema.SchemaError(new SchemaIssue.Composite(union, members, "x")))).toEqual(
      expected
    )
  })

  it("a request built by hand that breaks a rule is refused at the field's path: guards the formatter's path lost", () => {
    const ok = Result.getOrThrow(ExchangeRequest.parse(sell))
    const at = (r: ExchangeRequest.ExchangeRequest) =>
      Result.match(ExchangeRequest.encode(r), {
        onFailure: (e) => ExchangeRequest.issues(e).map((i) => i.path),
        onSuccess: () => []
      })
    expect(at({ ...ok, to: { ...ok.to, currency: ok.from.currency } })).toEqual([["to", "currency"]])
    expect(at({ ...ok, amount: BigDecimal.fromStringUnsafe("10.505") })).toEqual([["amount"]])
    expect(at({ ...ok, from: { ...ok.from, account_id: "" } })).toEqual([["from", "account_id"]])
    expect(at({ ...ok, request_id: "" })).toEqual([["request_id"]])
  })

  it("an empty AnyOf (a request of no known tag) is one Shape issue at the root: guards it dropped", () => {
    const ok = Result.getOrThrow(ExchangeRequest.parse(sell))
    const r = ExchangeRequest.encode({ ...ok, _tag: "Swap" } as unknown as ExchangeRequest.ExchangeRequest)
    expect(Result.isFailure(r)).toBe(true)
    if (Result.isFailure(r)) {
      expect(ExchangeRequest.issues(r.failure).map(({ rule, path }) => ({ rule, path }))).toEqual([
        { rule: "Shape", path: [] }
      ])
    }
  })
})

describe("ExchangeRequest.issues: what the message names", () => {
  it("a lone surrogate is called one, from U+D800 on, and a control character is called that: guards the two swapped", () => {
    const message = (request_id: string) => ExchangeRequest.issues(failure({ ...sell, request_id }))[0]?.message ?? ""
    for (const s of ["a\ud800", "\udbffb", "a\udc00", "\udfff"]) {
      expect(message(s)).toContain("lone surrogate")
      expect(message(s)).not.toContain("control character;")
    }
    expect(message("a\ud800")).toContain("U+D800")
    for (const s of ["\u0000", "a\u001f", "\u007f", "\u009f"]) {
      expect(message(s)).toContain("a control character")
      expect(message(s)).not.toContain("surrogate")
    }
  })
})

describe("ExchangeRequest: the type-side guards", () => {
  const ok = Result.getOrThrow(ExchangeRequest.parse(sell))

  it("isSell and isBuy tell the two apart: guards a constant or a wrong tag", () => {
    const buy = Result.getOrThrow(
      ExchangeRequest.parse({ ...sell, from: { account_id: "a", currency: "GBP" }, to: { ...sell.to, amount: 3 } })
    )
    expect([ExchangeRequest.isSell(ok), ExchangeRequest.isBuy(ok)]).toEqual([true, false])
    expect([ExchangeRequest.isSell(buy), ExchangeRequest.isBuy(buy)]).toEqual([false, true])
  })

  it("Schema.is(Sell) refuses an amount built by hand with more than 15 significant digits: guards the exactness check", () => {
    const is = Schema.is(ExchangeRequest.Sell)
    expect(is(ok)).toBe(true)
    expect(is({ ...ok, amount: BigDecimal.fromStringUnsafe("100.500000000000") })).toBe(true)
    expect(is({ ...ok, amount: BigDecimal.fromStringUnsafe("100.50000000000000001") })).toBe(false)
    expect(is({ ...ok, amount: BigDecimal.fromStringUnsafe("1234567890123456") })).toBe(false)
    expect(is({ ...ok, amount: BigDecimal.fromStringUnsafe("123456789012345") })).toBe(true)
  })
})

describe("ExchangeRequest: rules that meet", () => {
  it("the same unknown currency on both sides is UnknownCurrency twice, not SameCurrency: guards the comparison of invalid codes", () => {
    expect(problems({ ...sell, from: { ...sell.from, currency: "gbp" }, to: { ...sell.to, currency: "gbp" } })).toEqual(
      [
        { rule: "UnknownCurrency", path: ["from", "currency"] },
        { rule: "UnknownCurrency", path: ["to", "currency"] }
      ]
    )
    expect(problems({ ...sell, to: { ...sell.to, currency: "GBP" } })).toEqual([
      { rule: "SameCurrency", path: ["to", "currency"] }
    ])
  })

  it("the message of an amount that is not finite names its side: guards the side's name lost", () => {
    const message = (u: unknown) => ExchangeRequest.issues(failure(u))[0]?.message ?? ""
    expect(message({ ...sell, from: { ...sell.from, amount: Number.NaN } })).toMatch(/^from\.amount: NaN .*finite/)
    expect(
      message({
        ...sell,
        from: { account_id: "a", currency: "GBP" },
        to: { ...sell.to, amount: Number.NEGATIVE_INFINITY }
      })
    ).toMatch(/^to\.amount: -Infinity .*finite/)
  })
})

describe("ExchangeRequest: a request built by hand", () => {
  const ok = Result.getOrThrow(ExchangeRequest.parse(sell))
  const encodeMessages = (r: ExchangeRequest.ExchangeRequest) =>
    Result.match(ExchangeRequest.encode(r), {
      onFailure: (e) => ExchangeRequest.issues(e).map((i) => i.message),
      onSuccess: () => []
    })

  // encoding reports these as Shape, so the message is all that says which rule broke
  it("encoding one that breaks a rule says which: guards an empty message", () => {
    expect(encodeMessages({ ...ok, from: { ...ok.from, account_id: "" } })).toEqual([
      expect.stringContaining("account_id must not be empty")
    ])
    for (const amount of ["0", "-1.5"]) {
      expect(encodeMessages({ ...ok, amount: BigDecimal.fromStringUnsafe(amount) })).toEqual([
        expect.stringContaining("greater than 0")
      ])
    }
    expect(encodeMessages({ ...ok, amount: BigDecimal.fromStringUnsafe("100.50000000000000001") })).toEqual([
      expect.stringContaining("15 significant digits")
    ])
  })

  it("Schema.is(Sell) refuses a reference over 40 characters (code points): guards the reference filter", () => {
    const is = Schema.is(ExchangeRequest.Sell)
    expect(is({ ...ok, reference: "😀".repeat(40) })).toBe(true)
    expect(is({ ...ok, reference: "x".repeat(41) })).toBe(false)
    expect(is({ ...ok, from: { ...ok.from, account_id: "" } })).toBe(false)
  })
})

describe("ExchangeRequest: JSON Schema", () => {
  it("the body's definition is named ExchangeRequestEncoded, the name documents refer to: guards a lost identifier", () => {
    const document = Schema.toJsonSchemaDocument(ExchangeRequest.ExchangeRequest)
    expect(document.schema).toEqual({ $ref: "#/$defs/ExchangeRequestEncoded" })
    expect(Object.keys(document.definitions)).toEqual(["ExchangeRequestEncoded"])
  })
})
