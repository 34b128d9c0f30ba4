/**
 * The fingerprint of a request built by hand with values a decoded request never has (objects, numbers, null,
 * `undefined` where text belongs, an amount that is not a BigDecimal): it is still the canonical JSON of the body,
 * keys sorted at every depth, so the ledger's equality stays content equality. Each test names the bug it guards.
 */
import { describe, expect, it } from "@effect/vitest"
import { ExchangeRequest } from "@payrules/exchange"
import { BigDecimal, Result } from "effect"
import fc from "fast-check"
import { sortedJson as reference } from "./support/sortedJson.js"

const sellWire = {
  from: { account_id: "a", currency: "GBP", amount: 10.5 },
  to: { account_id: "b", currency: "EUR" },
  reference: "inv-1",
  request_id: "r-1",
  exchange_reason_code: "investment"
}
const buyWire = {
  from: { account_id: "a", currency: "GBP" },
  to: { account_id: "b", currency: "EUR", amount: 10.5 },
  request_id: "r-1"
}
const sell = Result.getOrThrow(ExchangeRequest.parse(sellWire))
const buy = Result.getOrThrow(ExchangeRequest.parse(buyWire))

type Field = "from.account_id" | "from.currency" | "to.account_id" | "to.currency" | Top
type Top = "reference" | "request_id" | "exchange_reason_code"
const fields: ReadonlyArray<Field> = [
  "from.account_id",
  "from.currency",
  "to.account_id",
  "to.currency",
  "reference",
  "request_id",
  "exchange_reason_code"
]

/** the request and its wire body, with one field set to a value a decoded request never holds there */
const withField = <R extends ExchangeRequest.ExchangeRequest, W extends object>(
  request: R,
  wire: W,
  field: Field,
  value: unknown
): readonly [ExchangeRequest.ExchangeRequest, unknown] => {
  const [side, key] = field.split(".") as ["from" | "to", string] | [Top]
  if (key === undefined) {
    return [{ ...request, [side]: value } as unknown as R, { ...wire, [side]: value }]
  }
  const s = side as "from" | "to"
  return [
    { ...request, [s]: { ...request[s], [key]: value } } as unknown as R,
    { ...wire, [s]: { ...(wire as Record<string, object>)[s], [key]: value } }
  ]
}

describe("ExchangeRequest.fingerprint of a request built by hand", () => {
  it.each(fields)(
    "%s holding an object: its keys are sorted too, in a sell and in a buy: guards the fast path taken for a value that is not text",
    (field) => {
      for (const [request, wire] of [
        [sell, sellWire],
        [buy, buyWire]
      ] as const) {
        const [a, aWire] = withField(request, wire, field, { b: 1, a: [2, { d: null, c: "x" }] })
        const [b] = withField(request, wire, field, { a: [2, { c: "x", d: null }], b: 1 })
        expect(ExchangeRequest.fingerprint(a)).toBe(reference(aWire))
        expect(ExchangeRequest.fingerprint(b)).toBe(ExchangeRequest.fingerprint(a))
        expect(ExchangeRequest.fingerprint(a)).not.toBe(ExchangeRequest.fingerprint(request))
      }
    }
  )

  it("any JSON value in any field gives the canonical JSON of the body: guards the general writer given a wrong body", () => {
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), fc.boolean(), (field, value, isSell) => {
        const [request, wire] = withField(isSell ? sell : buy, isSell ? sellWire : buyWire, field, value)
        expect(ExchangeRequest.fingerprint(request)).toBe(reference(wire))
      }),
      { numRuns: 300 }
    )
  })

  it("a field left undefined is left out, as JSON.stringify does: guards `undefined` written into the text", () => {
    for (const field of fields) {
      const [request, wire] = withField(sell, sellWire, field, undefined)
      expect(ExchangeRequest.fingerprint(request)).toBe(reference(wire))
      expect(ExchangeRequest.fingerprint(request)).not.toContain("undefined")
    }
  })

  it("an amount that is not a BigDecimal is written as JSON, on the side of the tag: guards the amount on the wrong side or dropped", () => {
    const amount = 10.5 as unknown as BigDecimal.BigDecimal
    expect(ExchangeRequest.fingerprint({ ...sell, amount })).toBe(reference(sellWire))
    expect(ExchangeRequest.fingerprint({ ...buy, amount })).toBe(reference(buyWire))
  })

  it("a BigDecimal amount beside an odd field is written as JSON writes its number, on the side of the tag: guards the amount's leaf writer (also for an exponent)", () => {
    const [odd, oddWire] = withField(sell, sellWire, "reference", 7)
    expect(ExchangeRequest.fingerprint(odd)).toBe(reference(oddWire))
    expect(ExchangeRequest.fingerprint(odd)).toContain('"amount":10.5,')
    const [oddBuy, oddBuyWire] = withField(buy, buyWire, "request_id", null)
    expect(ExchangeRequest.fingerprint(oddBuy)).toBe(reference(oddBuyWire))
    const digits = { ...odd, amount: BigDecimal.fromStringUnsafe("100.50000000000000001") }
    expect(ExchangeRequest.fingerprint(digits)).toContain('"amount":100.50000000000000001,')
    // a number JSON writes with an exponent is written as JSON writes it, as its wire body's canonical JSON has it
    const tiny = { ...odd, amount: BigDecimal.fromStringUnsafe("0.0000001") }
    expect(ExchangeRequest.fingerprint(tiny)).toBe(
      reference({ ...(oddWire as object), from: { ...sellWire.from, amount: 1e-7 } })
    )
    expect(ExchangeRequest.fingerprint(tiny)).toContain('"amount":1e-7,')
  })
})
