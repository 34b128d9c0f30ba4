import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, BigDecimal, Effect, Result, Schema } from "effect"
import fc from "fast-check"
import { RateFromNumber, RateFromString } from "../src/internal/paymentLeaves.js"

const decodeRate = Schema.decodeUnknownResult(RateFromString)
const encodeRate = Schema.encodeResult(RateFromString)

describe("the revolut Data-level ExchangeRate, a decimal string", () => {
  const rates = fc.stringMatching(/^-?(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,8})?$/)

  it("property: read exactly, with the scale it was written with, and written back as it was read (bug: a rate read as a float, or its trailing zeros lost)", () => {
    fc.assert(
      fc.property(rates, (s) => {
        const rate = Result.getOrThrow(decodeRate(s))
        const fraction = s.includes(".") ? s.slice(s.indexOf(".") + 1).length : 0
        expect(BigDecimal.equals(rate, BigDecimal.fromStringUnsafe(s))).toBe(true)
        expect(rate.scale).toBe(fraction)
        // -0 and -0.00 are zero, which has no sign
        expect(Result.getOrThrow(encodeRate(rate))).toBe(/^-0(?:\.0+)?$/.test(s) ? s.slice(1) : s)
      }),
      { numRuns: 500 }
    )
  })

  it.each([
    ["1.17120", 117120n, 5],
    ["-0.50", -50n, 2],
    ["2", 2n, 0],
    ["0.00000001", 1n, 8]
  ])("%s is %s at scale %s", (s, value, scale) => {
    expect(Result.getOrThrow(decodeRate(s))).toStrictEqual(BigDecimal.make(value, scale))
  })
})

describe("what the rates' arbitraries draw", () => {
  it.effect.each([
    ["a decimal string (revolut)", RateFromString],
    ["a JSON number", RateFromNumber]
  ] as const)("%s: mostly positive rates of up to 10 digits and 8 decimals, a few of 0 or less", ([, schema]) =>
    Effect.gen(function* () {
      const rates = yield* Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: 300, seed: 9 })
      for (const rate of rates) {
        expect(rate.scale).toBeGreaterThanOrEqual(0)
        expect(rate.scale).toBeLessThanOrEqual(8)
        expect(rate.value).toBeGreaterThanOrEqual(-(10n ** 6n))
        expect(rate.value).toBeLessThanOrEqual(10n ** 9n)
      }
      const notPositive = rates.filter((r) => r.value <= 0n).length
      expect(notPositive).toBeGreaterThan(0)
      expect(notPositive).toBeLessThan(rates.length / 4)
      expect(rates.some((r) => r.scale >= 6)).toBe(true)
      expect(rates.some((r) => r.value >= 10n ** 8n)).toBe(true)
      expect(rates.some((r) => r.value <= -(10n ** 5n))).toBe(true)
    })
  )
})
