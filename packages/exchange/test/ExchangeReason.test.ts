import { describe, expect, it } from "@effect/vitest"
import { ExchangeReason, ExchangeRequest } from "@payrules/exchange"
import { issuesOf, schemaLaws } from "@payrules/vitest"
import { BigDecimal, Result, Schema } from "effect"

const policy = Schema.decodeUnknownSync(ExchangeReason.Policy)({
  rules: [
    { country: "GB", currency: "GBP", threshold: 10000 },
    { country: "GB", currency: "EUR", threshold: 12000.5 }
  ]
})

const dec = BigDecimal.fromStringUnsafe

const request = (amount: number, extra: object = {}) =>
  Result.getOrThrow(
    ExchangeRequest.parse({
      from: { account_id: "a", currency: "GBP", amount },
      to: { account_id: "b", currency: "EUR" },
      request_id: "r-1",
      ...extra
    })
  )

const reasons = Schema.decodeUnknownSync(ExchangeReason.ExchangeReasonList)([
  { code: "investment", name: "Investment" },
  { code: "intra_group", name: "Transfer within the group", description: "tolerated" }
])

describe("ExchangeReason policy", () => {
  it("ships no rules: the empty policy never requires a reason", () => {
    expect(ExchangeReason.empty.rules).toEqual([])
    expect(
      ExchangeReason.isRequired(ExchangeReason.empty, { country: "GB", amount: dec("1e12"), currency: "GBP" })
    ).toBe(false)
  })

  it.each([
    ["GB", "10000", "GBP", true],
    ["GB", "9999.99", "GBP", false],
    ["GB", "250000", "GBP", true],
    ["GB", "12000.50", "EUR", true],
    ["GB", "12000.49", "EUR", false],
    ["GB", "1000000", "USD", false],
    ["DE", "1000000", "GBP", false]
  ] as const)("%s %s %s: required %s", (country, amount, currency, required) => {
    expect(ExchangeReason.isRequired(policy, { country, amount: dec(amount), currency })).toBe(required)
  })

  it("matchingRules names the rules that apply", () => {
    expect(ExchangeReason.matchingRules(policy, { country: "GB", amount: dec("20000"), currency: "GBP" })).toEqual([
      policy.rules[0]
    ])
    expect(ExchangeReason.make(policy.rules)).toEqual(policy)
  })

  it("refuses bad policies with paths", () => {
    const path = (u: unknown) =>
      issuesOf(Result.getOrThrow(Result.flip(Schema.decodeUnknownResult(ExchangeReason.Policy)(u))))[0]
    expect(path({ rules: [{ country: "UK", currency: "GBP", threshold: 1 }] })).toMatchObject({
      path: ["rules", 0, "country"],
      message: "UK is not an ISO 3166-1 country code: the United Kingdom is GB"
    })
    expect(path({ rules: [{ country: "GB", currency: "GBP", threshold: -1 }] })?.path).toEqual([
      "rules",
      0,
      "threshold"
    ])
    expect(path({ rules: [{ country: "GB", currency: "XXY", threshold: 1 }] })?.path).toEqual(["rules", 0, "currency"])
  })

  it("country codes are the assigned ISO 3166-1 alpha-2 codes", () => {
    const decode = Schema.decodeUnknownResult(ExchangeReason.CountryCode)
    expect(decode("GB")).toEqual(Result.succeed("GB"))
    expect(ExchangeReason.validateCountry("gb")).toBe("country codes are upper case: GB, not gb")
    expect(ExchangeReason.validateCountry("ZZ")).toContain("is not an ISO 3166-1 alpha-2 country code")
    expect(ExchangeReason.validateCountry("toString")).toContain("is not an ISO 3166-1 alpha-2 country code")
  })

  it.prop(
    "check requires exchange_reason_code exactly when a rule matches: same country and currency, threshold <= amount",
    [ExchangeReason.Policy, ExchangeRequest.ExchangeRequest, ExchangeReason.CountryCode, Schema.Boolean],
    ([others, request, country, atThreshold]) => {
      const currency = ExchangeRequest.amountCurrency(request)
      // one rule for this request, at its amount or just above it, among the drawn ones
      const threshold = atThreshold ? request.amount : BigDecimal.sum(request.amount, BigDecimal.make(1n, 20))
      const policy = ExchangeReason.make([...others.rules, { country, currency, threshold }])
      const matches = policy.rules.some(
        (r) => r.country === country && r.currency === currency && BigDecimal.Order(r.threshold, request.amount) <= 0
      )
      expect(ExchangeReason.isRequired(policy, { country, amount: request.amount, currency })).toBe(matches)
      const result = ExchangeReason.check(policy, request, { country })
      expect(Result.isFailure(result)).toBe(matches && request.exchange_reason_code === undefined)
      if (Result.isFailure(result)) expect(result.failure.reason).toBe("Required")
    },
    { arbitrary: { runs: 300 } }
  )

  schemaLaws("ExchangeReason.CountryCode", ExchangeReason.CountryCode)
  schemaLaws("ExchangeReason.Rule", ExchangeReason.Rule)
  schemaLaws("ExchangeReason.Policy", ExchangeReason.Policy)
})

describe("ExchangeReason codes", () => {
  it("checkCode finds the code in GET /exchange-reasons", () => {
    expect(ExchangeReason.checkCode("investment", reasons)).toEqual(
      Result.succeed({ code: "investment", name: "Investment" })
    )
    const e = Result.getOrThrow(Result.flip(ExchangeReason.checkCode("holiday", reasons)))
    expect(e).toMatchObject({ _tag: "ExchangeReasonError", reason: "UnknownCode", code: "holiday" })
    expect(e.message).toBe(
      '"holiday" is not an exchange reason code of GET /exchange-reasons; expected one of investment, intra_group'
    )
  })

  it("check: required and missing, required and unknown, required and known, not required", () => {
    const reason = (r: ExchangeRequest.ExchangeRequest, withList = true) =>
      Result.match(ExchangeReason.check(policy, r, { country: "GB", reasons: withList ? reasons : undefined }), {
        onFailure: (e) => e.reason,
        onSuccess: () => "ok"
      })
    expect(reason(request(10000))).toBe("Required")
    expect(reason(request(10000, { exchange_reason_code: "holiday" }))).toBe("UnknownCode")
    expect(reason(request(10000, { exchange_reason_code: "holiday" }), false)).toBe("ok")
    expect(reason(request(10000, { exchange_reason_code: "investment" }))).toBe("ok")
    // not required: the API ignores the code, so does the check
    expect(reason(request(50))).toBe("ok")
    expect(reason(request(50, { exchange_reason_code: "holiday" }))).toBe("ok")
    const e = Result.getOrThrow(Result.flip(ExchangeReason.check(policy, request(10000), { country: "GB" })))
    expect(e.message).toBe("exchange_reason_code is required for GB from 10000 GBP; the amount is 10000 GBP")
  })

  it("the list tolerates extra fields and refuses entries without a code", () => {
    expect(reasons[1]).toEqual({ code: "intra_group", name: "Transfer within the group" })
    const bad = Schema.decodeUnknownResult(ExchangeReason.ExchangeReasonList)([{ code: "", name: "x" }])
    expect(issuesOf(Result.getOrThrow(Result.flip(bad)))[0]?.path).toEqual([0, "code"])
  })

  schemaLaws("ExchangeReason.ExchangeReasonList", ExchangeReason.ExchangeReasonList)
})

describe("ExchangeReason edges (named after the bugs they guard)", () => {
  it("the message about a malformed country code quotes at most 20 characters of it (bug: a megabyte of input echoed in the error)", () => {
    const why = ExchangeReason.validateCountry("x".repeat(100_000)) ?? ""
    expect(why).toContain(JSON.stringify("x".repeat(20)))
    expect(why).not.toContain("x".repeat(21))
  })

  it("a negative threshold is refused at its path with the rule it breaks (bug: an empty message)", () => {
    const issues = issuesOf(
      Result.getOrThrow(
        Result.flip(
          Schema.decodeUnknownResult(ExchangeReason.Policy)({
            rules: [{ country: "GB", currency: "GBP", threshold: -1 }]
          })
        )
      )
    )
    expect(issues).toEqual([{ path: ["rules", 0, "threshold"], message: "a threshold is 0 or more" }])
  })

  it("an entry of GET /exchange-reasons without a code is refused saying so (bug: an empty message)", () => {
    const bad = Schema.decodeUnknownResult(ExchangeReason.ExchangeReasonList)([{ code: "", name: "x" }])
    expect(issuesOf(Result.getOrThrow(Result.flip(bad)))).toEqual([
      { path: [0, "code"], message: "a reason code is a non-empty string" }
    ])
  })

  it("checkCode against an empty list says the list is empty (bug: 'expected one of' followed by nothing)", () => {
    const e = Result.getOrThrow(Result.flip(ExchangeReason.checkCode("investment", [])))
    expect(e).toMatchObject({ reason: "UnknownCode", code: "investment" })
    expect(e.message).toBe('"investment" is not an exchange reason code of GET /exchange-reasons (the list is empty)')
  })

  it("checkCode names at most 10 of the known codes, and says when there are more (bug: a long list echoed, or cut silently)", () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => ({ code: `c${i}`, name: `C ${i}` }))
    const message = (n: number) => Result.getOrThrow(Result.flip(ExchangeReason.checkCode("x", list(n)))).message
    const codes = (n: number) =>
      list(n)
        .map((r) => r.code)
        .join(", ")
    expect(message(10)).toBe(
      `"x" is not an exchange reason code of GET /exchange-reasons; expected one of ${codes(10)}`
    )
    expect(message(11)).toBe(
      `"x" is not an exchange reason code of GET /exchange-reasons; expected one of ${codes(10)}, ...`
    )
    expect(message(11)).not.toContain("c10")
  })

  it("check with the list of reasons gives back the request itself (bug: a success without the request)", () => {
    const r = request(10000, { exchange_reason_code: "investment" })
    expect(ExchangeReason.check(policy, r, { country: "GB", reasons })).toEqual(Result.succeed(r))
    expect(ExchangeReason.check(policy, r, { country: "GB" })).toEqual(Result.succeed(r))
    expect(ExchangeReason.check(policy, request(50), { country: "GB", reasons })).toEqual(Result.succeed(request(50)))
  })
})
