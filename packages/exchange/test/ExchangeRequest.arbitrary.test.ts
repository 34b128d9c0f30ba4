/**
 * What the arbitrary of `ExchangeRequest` draws, on a fixed seed: not only valid requests (the law tests see that) but
 * the variety a property test of a user relies on: sells and buys, amounts with the decimals of the currency they are
 * in, whole amounts, UUIDs, both reason literals. Each test names the bug it guards.
 */
import { describe, expect, it } from "@effect/vitest"
import { ExchangeRequest } from "@payrules/exchange"
import { Currency } from "@payrules/money"
import { Arbitrary, BigDecimal, Effect, Option } from "effect"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const sample = Arbitrary.sampleEffect(Arbitrary.schema(ExchangeRequest.ExchangeRequest), { count: 2000, seed: 1 })

const exponentOf = (code: string): number | undefined => Option.getOrUndefined(Currency.exponent(code))
/** the decimals of an amount once its trailing zeros are dropped */
const decimals = (amount: BigDecimal.BigDecimal): number => Math.max(0, BigDecimal.normalize(amount).scale)

describe("ExchangeRequest: the arbitrary", () => {
  it.effect("draws sells and buys, and both reason literals: guards a tag or a literal lost", () =>
    Effect.gen(function* () {
      const requests = yield* sample
      expect(requests.some(ExchangeRequest.isSell)).toBe(true)
      expect(requests.some(ExchangeRequest.isBuy)).toBe(true)
      const reasons = new Set(requests.map((r) => r.exchange_reason_code))
      expect(reasons.has("intra_group_transfer")).toBe(true)
      expect(reasons.has("investment")).toBe(true)
    })
  )

  it.effect("draws UUIDs as account_id and request_id: guards the UUID pattern", () =>
    Effect.gen(function* () {
      const requests = yield* sample
      expect(requests.some((r) => UUID.test(r.request_id))).toBe(true)
      expect(requests.some((r) => UUID.test(r.from.account_id) || UUID.test(r.to.account_id))).toBe(true)
    })
  )

  it.effect(
    "scales the amount to the currency it is in, for sells and buys alike: guards the other side's exponent used",
    () =>
      Effect.gen(function* () {
        const requests = yield* sample
        // a side with decimals facing a side without: the amount has decimals only when it is in the first
        for (const tag of ["Sell", "Buy"] as const) {
          const mixed = requests.filter((r) => {
            const [inAmount, other] = tag === "Sell" ? [r.from, r.to] : [r.to, r.from]
            return r._tag === tag && (exponentOf(inAmount.currency) ?? 0) >= 2 && exponentOf(other.currency) === 0
          })
          expect(mixed.some((r) => decimals(r.amount) > 0)).toBe(true)
        }
      })
  )

  it.effect(
    "draws whole amounts and amounts with every decimal of a currency with decimals: guards scales pushed up or down",
    () =>
      Effect.gen(function* () {
        const requests = yield* sample
        const withDecimals = requests.filter((r) => (exponentOf(ExchangeRequest.amountCurrency(r)) ?? 0) >= 2)
        expect(withDecimals.some((r) => decimals(r.amount) === 0)).toBe(true)
        expect(withDecimals.some((r) => decimals(r.amount) === exponentOf(ExchangeRequest.amountCurrency(r)))).toBe(
          true
        )
        expect(withDecimals.some((r) => decimals(r.amount) === 1)).toBe(true)
        // a currency without a minor unit (gold, SDR) takes any scale up to 8, none included
        const anyScale = requests.filter((r) => exponentOf(ExchangeRequest.amountCurrency(r)) === undefined)
        expect(anyScale.some((r) => decimals(r.amount) === 0)).toBe(true)
        expect(anyScale.some((r) => decimals(r.amount) === 8)).toBe(true)
      })
  )
})
