import { describe, expect, it } from "@effect/vitest"
import { Currency } from "@payrules/money"
import { schemaLaws } from "@payrules/vitest"
import { Arbitrary, Effect, Option, Result, Schema } from "effect"

describe("Currency", () => {
  it("carries ISO 4217 list one with its publication date", () => {
    expect(Currency.publicationDate).toBe("2026-01-01")
    expect(Currency.all.length).toBe(178)
    expect(new Set(Currency.all.map((c) => c.code)).size).toBe(Currency.all.length)
    const gbp = Option.getOrThrow(Currency.get("GBP"))
    expect(gbp).toMatchObject({ numeric: "826", name: "Pound Sterling", fund: false })
  })

  it.each([
    ["JPY", 0],
    ["ISK", 0],
    ["KWD", 3],
    ["BHD", 3],
    ["OMR", 3],
    ["TND", 3],
    ["JOD", 3],
    ["IQD", 3],
    ["LYD", 3],
    ["CLF", 4],
    ["UYW", 4],
    ["GBP", 2],
    ["EUR", 2],
    ["USD", 2],
    ["INR", 2],
    ["CHF", 2],
    ["UYI", 0]
  ])("%s has exponent %d", (code, exponent) => {
    expect(Currency.exponent(code)).toEqual(Option.some(exponent))
  })

  it("metals, SDR and testing codes have no minor unit (N.A.), unlike what Intl or other packages say", () => {
    for (const code of ["XAU", "XAG", "XPT", "XPD", "XDR", "XTS", "XXX"]) {
      expect(Currency.isKnown(code)).toBe(true)
      expect(Currency.exponent(code)).toEqual(Option.none())
    }
  })

  it("follows the amendments published after 2024-06-25 (176, 178, 179, 180)", () => {
    // 176: the Caribbean guilder replaces the Netherlands Antillean guilder, with its numeric code, from 2025-03-31
    expect(Currency.get("XCG")).toEqual(
      Option.some({ code: "XCG", numeric: "532", name: "Caribbean Guilder", exponent: Option.some(2), fund: false })
    )
    expect(Currency.isKnown("ANG")).toBe(false)
    // 178: the Cuban convertible peso is historic; 180: Bulgaria uses the euro from 2026-01-01
    expect(Currency.isKnown("CUC")).toBe(false)
    expect(Currency.isKnown("BGN")).toBe(false)
    // 179: the Arab Accounting Dinar of the Arab Monetary Fund, from 2025-05-12
    expect(Currency.get("XAD")).toEqual(
      Option.some({ code: "XAD", numeric: "396", name: "Arab Accounting Dinar", exponent: Option.some(2), fund: false })
    )
  })

  it("unknown codes have no exponent", () => {
    expect(Currency.exponent("ABC")).toEqual(Option.none())
    expect(Currency.exponent("HRK")).toEqual(Option.none()) // withdrawn 2023
  })
})

describe("CurrencyCode", () => {
  const decode = Schema.decodeUnknownResult(Currency.CurrencyCode)
  const message = (u: unknown) => Result.getOrThrow(Result.flip(decode(u))).message

  it("accepts known codes", () => {
    expect(decode("GBP")).toEqual(Result.succeed("GBP"))
  })

  it("gives each way to be wrong its own message", () => {
    expect(message("gbp")).toContain("upper case: GBP")
    expect(message("GB")).toContain("three upper-case letters")
    expect(message("ABC")).toContain("ABC is not an ISO 4217 currency code")
    expect(message(42)).toContain("Expected string")
  })

  it("admits unknown well-formed codes when asked (forward compatibility)", () => {
    const lenient = Schema.decodeUnknownResult(Currency.currencyCode({ allowUnknown: true }))
    expect(lenient("XYZ")).toEqual(Result.succeed("XYZ"))
    expect(Result.isFailure(lenient("xyz"))).toBe(true)
    expect(message("XYZ")).toContain("XYZ is not an ISO 4217 currency code (list published 2026-01-01)")
  })

  it("makeCode / makeCodeUnsafe (and its deprecated name unsafeMakeCode)", () => {
    expect(Currency.makeCode("EUR")).toEqual(Option.some("EUR"))
    expect(Currency.makeCode("EURO")).toEqual(Option.none())
    expect(() => Currency.makeCodeUnsafe("eur")).toThrow("upper case")
    expect(Currency.makeCodeUnsafe("EUR")).toBe("EUR")
    // the deprecated name keeps working
    expect(() => Currency.unsafeMakeCode("eur")).toThrow("upper case")
  })

  it.effect("its arbitrary draws codes of the list; with allowUnknown, any three upper-case letters", () =>
    Effect.gen(function* () {
      const listed = yield* Arbitrary.sampleEffect(Arbitrary.schema(Currency.CurrencyCode), { count: 200, seed: 7 })
      expect(listed.every(Currency.isKnown)).toBe(true)
      expect(new Set(listed).size).toBeGreaterThan(50)
      const lenient = Arbitrary.schema(Currency.currencyCode({ allowUnknown: true }))
      const any = yield* Arbitrary.sampleEffect(lenient, { count: 200, seed: 7 })
      expect(any.every((code) => /^[A-Z]{3}$/.test(code))).toBe(true)
      expect(any.some((code) => !Currency.isKnown(code))).toBe(true)
    })
  )

  schemaLaws("CurrencyCode", Currency.CurrencyCode)
  schemaLaws("CurrencyCode (allowUnknown)", Currency.currencyCode({ allowUnknown: true }))
})
