import { describe, expect, it } from "@effect/vitest"
import { Currency, DecimalAmount, MinorUnits, Money, MoneyError } from "@payrules/money"
import { Arbitrary, BigDecimal, Effect, Result, Schema, SchemaAST } from "effect"
import fc from "fast-check"

const dec = BigDecimal.fromStringUnsafe

/** the MoneyError of a failed result (the test fails when it succeeded) */
const failure = <A>(result: Result.Result<A, MoneyError.MoneyError>): MoneyError.MoneyError =>
  Result.getOrThrow(Result.flip(result))

const documentOf = (schema: Schema.Top) => {
  const document = Schema.toJsonSchemaDocument(schema)
  return { schema: document.schema, definitions: document.definitions }
}

describe("Currency edges (named after the bugs they guard)", () => {
  it("a code of more or fewer than three letters is refused, also with allowUnknown (bug: GBPX or XGBP taken as a code)", () => {
    const lenient = Schema.decodeUnknownResult(Currency.currencyCode({ allowUnknown: true }))
    for (const code of ["GBPX", "XGBP", "GB", "G1P", "GBP "]) {
      expect(Result.isFailure(lenient(code)), code).toBe(true)
      expect(Currency.validate(code, { allowUnknown: true }), code).toContain("three upper-case letters")
    }
  })

  it("only three letters in the wrong case are told to be upper-cased (bug: 'gbpx' told to write GBPX)", () => {
    expect(Currency.validate("gbp")).toBe("currency codes are upper case: GBP, not gbp")
    for (const code of ["gbpx", "xgbp", "1gb", "gb1"]) {
      expect(Currency.validate(code), code).toContain("three upper-case letters")
    }
  })

  it("the message about a malformed code quotes at most 20 characters of it (bug: a megabyte of input echoed in the error)", () => {
    const why = Currency.validate("x".repeat(100_000)) ?? ""
    expect(why).toContain(JSON.stringify("x".repeat(20)))
    expect(why.length).toBeLessThan(200)
  })

  it("makeCodeUnsafe throws a MoneyError of reason UnknownCurrency (bug: callers that match on the reason miss it)", () => {
    for (const code of ["eur", "ABC"]) {
      try {
        Currency.makeCodeUnsafe(code)
        expect.unreachable()
      } catch (e) {
        expect(e).toBeInstanceOf(MoneyError.MoneyError)
        expect((e as MoneyError.MoneyError).reason).toBe("UnknownCurrency")
      }
    }
  })

  it("a MoneyError carries the tag MoneyError, so Effect.catchTag can recover it (bug: an untagged or renamed error)", () =>
    Effect.gen(function* () {
      const error = MoneyError.make("Syntax", "bad")
      expect(error._tag).toBe("MoneyError")
      const recovered = yield* Effect.fail(error).pipe(Effect.catchTag("MoneyError", (e) => Effect.succeed(e.reason)))
      expect(recovered).toBe("Syntax")
    }).pipe(Effect.runPromise))

  it("the JSON Schema of a code has its pattern, title and description (bug: an API document that says only 'string')", () => {
    for (const schema of [Currency.CurrencyCode, Currency.currencyCode({ allowUnknown: true })]) {
      expect(documentOf(schema)).toEqual({
        schema: {
          type: "string",
          pattern: "^[A-Z]{3}$",
          title: "ISO 4217 currency code",
          description: "three upper-case letters naming an ISO 4217 currency, e.g. GBP"
        },
        definitions: {}
      })
    }
  })
})

describe("MinorUnits edges (named after the bugs they guard)", () => {
  it("the Schema takes 0 minor units (bug: a free phase or a zero fee refused)", () => {
    expect(Schema.decodeUnknownResult(MinorUnits.MinorUnits)(0)).toEqual(Result.succeed(0))
  })

  it("the JSON Schema of minor units is a bounded integer with its title and description (bug: docs without them)", () => {
    expect(documentOf(MinorUnits.MinorUnits)).toEqual({
      schema: {
        type: "integer",
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        title: "amount in minor units",
        description: "a non-negative integer amount in the currency's minor unit (pence, cents)"
      },
      definitions: {}
    })
  })

  it("a lower-case code is told to be upper-cased when converting (bug: 'gbp is not an ISO 4217 code', no hint)", () => {
    expect(failure(MinorUnits.toDecimal(100, "gbp")).message).toBe("currency codes are upper case: GBP, not gbp")
    expect(failure(MinorUnits.fromDecimal(dec("1"), "gbp")).message).toBe("currency codes are upper case: GBP, not gbp")
    expect(failure(MinorUnits.toDecimal(100, "ABC")).message).toContain("ABC is not an ISO 4217 currency code")
  })

  it("each refusal says what was wrong with which amount and currency (bug: an empty message in the error)", () => {
    const noMinor = failure(MinorUnits.toDecimal(1, "XAU"))
    expect([noMinor.reason, noMinor.message]).toEqual([
      "NoMinorUnit",
      "XAU (Gold) has no minor unit in ISO 4217 (N.A.)"
    ])
    const notWhole = failure(MinorUnits.toDecimal(1.5, "GBP"))
    expect([notWhole.reason, notWhole.message]).toEqual(["NotSafeInteger", "1.5 is not a whole number of minor units"])
    const tooFine = failure(MinorUnits.fromDecimal(dec("99.001"), "GBP"))
    expect([tooFine.reason, tooFine.message]).toEqual([
      "ScaleExceedsExponent",
      "99.001 has more decimals than GBP allows (2)"
    ])
    const tooBig = failure(MinorUnits.fromDecimal(dec("1e30"), "GBP"))
    expect([tooBig.reason, tooBig.message]).toEqual([
      "NotSafeInteger",
      "100000000000000000000000000000000 minor units is beyond a safe integer"
    ])
  })

  it("amounts of any size are refused, checked and shown at once, in short messages (bug: 27 s and a 100,000,001-digit message for 1e100000000 GBP, and £∞ for 1e309)", () => {
    const huge = BigDecimal.make(1n, -100_000_000)
    expect(failure(MinorUnits.fromDecimal(huge, "GBP")).message).toBe(
      "1e+100000002 minor units is beyond a safe integer"
    )
    expect(failure(MinorUnits.fromDecimal(BigDecimal.negate(huge), "JPY")).message).toBe(
      "-1e+100000000 minor units is beyond a safe integer"
    )
    expect(failure(DecimalAmount.checkScale(BigDecimal.make(1n, 100_000_000), "GBP")).message).toBe(
      "1e-100000000 has 100000000 decimals but GBP has 2 (ISO 4217)"
    )
    expect(failure(MinorUnits.fromDecimal(BigDecimal.make(-123456789012345678901n, 60), "GBP")).message).toBe(
      "-1.234567890123456…e-40 has more decimals than GBP allows (2)"
    )
    // 10^16 minor units, the first count of 17 digits, and the largest of 16, which is beyond a safe integer too
    expect(failure(MinorUnits.fromDecimal(dec("1e14"), "GBP")).message).toBe(
      "10000000000000000 minor units is beyond a safe integer"
    )
    expect(failure(MinorUnits.fromDecimal(dec("99999999999999.99"), "GBP")).message).toBe(
      "9999999999999999 minor units is beyond a safe integer"
    )
    // what Intl cannot show exactly (beyond a double's range: ∞; beyond 100 decimals: rounded) is shown in short
    expect(Money.format(huge, "GBP")).toBe("GBP 1e+100000000")
    expect(Money.format(dec("1e309"), "GBP")).toBe("GBP 1e+309")
    expect(Money.format(dec("-1.8e308"), "GBP")).toBe("GBP -1.8e+308")
    expect(Money.format(BigDecimal.make(1n, 101), "GBP")).toBe("GBP 1e-101")
    const largest = Money.format(dec("1.7e308"), "GBP")
    expect(largest).toBe(`£170${",000".repeat(102)}.00`)
    expect(Money.format(BigDecimal.make(1n, 100), "GBP")).toBe(`£0.${"0".repeat(99)}1`)
    // up to 40 characters an amount is written in full, sign included; from 41, as its digits and power of ten
    const scaleMessage = (amount: BigDecimal.BigDecimal) =>
      failure(DecimalAmount.checkScale(amount, "GBP")).message.replace(
        / has \d+ decimals but GBP has 2 \(ISO 4217\)$/,
        ""
      )
    const minorMessage = (amount: BigDecimal.BigDecimal) =>
      failure(MinorUnits.fromDecimal(amount, "JPY")).message.replace(/ minor units is beyond a safe integer$/, "")
    const fraction = "2".repeat(38)
    expect(scaleMessage(dec(`1.${fraction}`))).toBe(`1.${fraction}`)
    expect(scaleMessage(dec(`1.${fraction}3`))).toBe("1.222222222222222…e+0")
    expect(scaleMessage(dec(`-1.${fraction.slice(1)}`))).toBe(`-1.${fraction.slice(1)}`)
    expect(scaleMessage(dec(`-1.${fraction}`))).toBe("-1.222222222222222…e+0")
    expect(scaleMessage(BigDecimal.make(1n, 38))).toBe(`0.${"0".repeat(37)}1`)
    expect(scaleMessage(BigDecimal.make(1n, 39))).toBe("1e-39")
    expect(scaleMessage(BigDecimal.make(1234567890123456n, 60))).toBe("1.234567890123456e-45")
    expect(minorMessage(BigDecimal.make(1n, -39))).toBe(`1${"0".repeat(39)}`)
    expect(minorMessage(dec(`1${"0".repeat(39)}`))).toBe(`1${"0".repeat(39)}`)
    expect(minorMessage(BigDecimal.make(1n, -40))).toBe("1e+40")
    expect(minorMessage(BigDecimal.make(-1n, -39))).toBe("-1e+39")
    expect(minorMessage(BigDecimal.make(-1n, -38))).toBe(`-1${"0".repeat(38)}`)
    // zero at a power of ten far from 1 is zero, at once
    const zero = BigDecimal.make(0n, -2_000_000_000)
    expect(DecimalAmount.toFixedString(zero)).toBe("0")
    expect(Money.format(zero, "GBP")).toBe("£0.00")
    expect(MinorUnits.fromDecimal(zero, "GBP")).toEqual(Result.succeed(0))
  })

  it("bug: format of a code in another case showed its symbol without its exponent (gbp: £1.5), and a malformed one threw", () => {
    const d = BigDecimal.fromStringUnsafe
    expect(Money.format(d("1.5"), "GBP")).toBe("£1.50")
    expect(Money.format(d("1.5"), "KWD")).toBe("KWD\u00a01.500")
    for (const [code, shown] of [
      ["gbp", "gbp 1.5"],
      ["kwd", "kwd 1.5"],
      ["Jpy", "Jpy 1.5"],
      ["", " 1.5"],
      ["12", "12 1.5"],
      ["GB", "GB 1.5"],
      ["GBPX", "GBPX 1.5"]
    ] as const) {
      expect(Money.format(d("1.5"), code), JSON.stringify(code)).toBe(shown)
    }
    // formatMinor refuses such a code, as it did
    expect(Result.isFailure(Money.formatMinor(150, "gbp"))).toBe(true)
  })

  it("formatMinor and toDecimal take a bigint exactly however large (a sum of many amounts), a number only when safe", () => {
    expect(Money.formatMinor(15_000_000_000_000_000n, "GBP")).toEqual(Result.succeed("£150,000,000,000,000.00"))
    expect(Result.map(MinorUnits.toDecimal(-(2n ** 70n), "KWD"), BigDecimal.format)).toEqual(
      Result.succeed(`-${(2n ** 70n / 1000n).toString()}.${(2n ** 70n % 1000n).toString().padStart(3, "0")}`)
    )
    expect(Result.isFailure(Money.formatMinor(15_000_000_000_000_000, "GBP"))).toBe(true)
    expect(Result.isFailure(Money.formatMinor(15n, "gbp"))).toBe(true)
  })

  it("fromDecimal agrees with exact arithmetic for amounts of every size, its messages at most 80 characters", () => {
    const currencies = [
      ["GBP", 2],
      ["JPY", 0],
      ["KWD", 3],
      ["CLF", 4]
    ] as const
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.oneof(fc.integer({ min: -40, max: 40 }), fc.integer({ min: -2_000_000_000, max: 2_000_000_000 })),
        fc.constantFrom(...currencies),
        (value, scale, [currency, exponent]) => {
          const amount = BigDecimal.make(value, scale)
          const normalized = BigDecimal.normalize(amount)
          const expected =
            normalized.scale > exponent
              ? "ScaleExceedsExponent"
              : exponent - normalized.scale > 40
                ? "NotSafeInteger"
                : (() => {
                    const minor = normalized.value * 10n ** BigInt(exponent - normalized.scale)
                    return minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < -BigInt(Number.MAX_SAFE_INTEGER)
                      ? "NotSafeInteger"
                      : Number(minor)
                  })()
          const result = MinorUnits.fromDecimal(amount, currency)
          if (Result.isFailure(result)) expect(result.failure.message.length).toBeLessThanOrEqual(80)
          expect(Result.match(result, { onFailure: (e) => e.reason, onSuccess: (n) => n })).toBe(
            value === 0n ? 0 : expected
          )
        }
      ),
      { numRuns: 1000 }
    )
  })

  it("a negative amount beyond a safe integer is refused (bug: -1e30 GBP became an inexact number of pence)", () => {
    expect(failure(MinorUnits.fromDecimal(dec("-1e30"), "GBP")).reason).toBe("NotSafeInteger")
    expect(failure(MinorUnits.fromDecimal(dec("-90071992547409.92"), "GBP")).reason).toBe("NotSafeInteger")
    // the smallest safe integer itself is fine
    expect(MinorUnits.fromDecimal(dec("-90071992547409.91"), "GBP")).toEqual(Result.succeed(-Number.MAX_SAFE_INTEGER))
    expect(MinorUnits.fromDecimal(dec("90071992547409.91"), "GBP")).toEqual(Result.succeed(Number.MAX_SAFE_INTEGER))
  })
})

describe("DecimalAmount edges (named after the bugs they guard)", () => {
  it("counts significant digits apart from the sign, the exponent and the zeros around them (bug: exact numbers refused)", () => {
    for (const [numeral, digits] of [
      ["-123456789012345", 15],
      ["+1.5", 2],
      ["1.23456789012345e-7", 15],
      ["1e+21", 1],
      ["0.00123456789012345", 15],
      ["123456789012345000", 15],
      ["-0.0120", 2]
    ] as const) {
      expect(DecimalAmount.significantDigits(numeral), numeral).toBe(digits)
    }
  })

  it("reads a JSON number of 15 significant digits exactly, whatever its zeros, sign or exponent (bug: refused)", () => {
    for (const n of [-123456789012345, 1.23456789012345e-7, 0.00123456789012345, 123456789012345000, -0.001]) {
      const amount = Result.getOrThrow(DecimalAmount.fromNumber(n))
      expect(BigDecimal.equals(amount, dec(String(n))), String(n)).toBe(true)
      expect(DecimalAmount.toNumber(amount)).toEqual(Result.succeed(n))
    }
  })

  it("toNumber refuses an amount of 16 significant digits with its reason (bug: a float that moves the amount)", () => {
    const e = failure(DecimalAmount.toNumber(dec("0.1234567890123456")))
    expect(e.reason).toBe("NotExactlyRepresentable")
    expect(e.message).toContain("has 16 significant digits, more than a JSON number carries exactly (15)")
    const out = failure(DecimalAmount.toNumber(dec("1e400")))
    expect(out.message).toBe("1e+400 is outside the range of numbers a JSON number carries exactly")
  })

  it("toFixedString writes an amount of negative scale in full (bug: 1.5E+3 normalized written as '15.')", () => {
    expect(DecimalAmount.toFixedString(BigDecimal.make(15n, -2))).toBe("1500")
    expect(DecimalAmount.toFixedString(BigDecimal.normalize(dec("-1500")))).toBe("-1500")
    expect(DecimalAmount.toFixedString(BigDecimal.make(15n, -2), 2)).toBe("1500.00")
  })

  it("toFixedString with a minimum below zero writes an amount of negative scale in full (bug: 1.5E+3 written '150.')", () => {
    expect(DecimalAmount.toFixedString(BigDecimal.make(15n, -2), -1)).toBe("1500")
    expect(DecimalAmount.toFixedString(dec("10.5"), -3)).toBe("10.5")
  })

  it("toFixedString pads an amount that has decimals to the minimum (bug: 10.5 padded to 2 written as 105.000)", () => {
    expect(DecimalAmount.toFixedString(dec("10.5"), 2)).toBe("10.50")
    expect(DecimalAmount.toFixedString(dec("-0.5"), 3)).toBe("-0.500")
    expect(DecimalAmount.toFixedString(dec("10.125"), 2)).toBe("10.125")
  })

  it("a decimal string with anything but digits around its point is refused (bug: 1e3, 12a or 1.5a read as amounts)", () => {
    for (const format of [DecimalAmount.decimal13x5, DecimalAmount.integerOrDecimal13x5]) {
      for (const s of ["1e3", "12a", "a12", "1.5a", "1.a5", "1.5.5", "1.", ".5", "0x10", "1 ", "-1"]) {
        const e = failure(DecimalAmount.parseString(s, format))
        expect(e.reason, s).toBe("Syntax")
      }
    }
  })

  it("the message of a refused decimal string says what the format takes, with an example (bug: an empty hint)", () => {
    expect(failure(DecimalAmount.parseString("10", DecimalAmount.decimal13x5)).message).toBe(
      '"10" is not an amount: expected up to 13 digits, a point and 1 to 5 decimals, no sign (e.g. 10.50)'
    )
    expect(failure(DecimalAmount.parseString("1.123456", DecimalAmount.integerOrDecimal13x5)).message).toBe(
      '"1.123456" is not an amount: expected up to 13 digits, optionally a point and 1 to 5 decimals, no sign (e.g. 10 or 10.50)'
    )
  })

  it("the message of a refused decimal string quotes at most 40 characters of it (bug: a megabyte echoed in the error)", () => {
    const e = failure(DecimalAmount.parseString("9".repeat(100_000)))
    expect(e.message.startsWith(`${JSON.stringify("9".repeat(40))} is not an amount`)).toBe(true)
    expect(e.message.length).toBeLessThan(200)
  })

  it("checkScale names the reason and the decimals (bug: ScaleExceedsExponent reported without its reason)", () => {
    const e = failure(DecimalAmount.checkScale(dec("1.5"), "JPY"))
    expect([e.reason, e.message]).toEqual(["ScaleExceedsExponent", "1.5 has 1 decimals but JPY has 0 (ISO 4217)"])
    expect(failure(DecimalAmount.checkScale(dec("1"), "jpy")).message).toBe(
      "currency codes are upper case: JPY, not jpy"
    )
    // no minor unit: any scale
    expect(DecimalAmount.checkScale(dec("1.123456789"), "XAU")).toEqual(Result.succeed(dec("1.123456789")))
  })

  it("the JSON Schemas of the amounts are named by their identifiers (bug: $defs that API tools cannot tell apart)", () => {
    expect(documentOf(DecimalAmount.FromNumber).schema).toEqual({ $ref: "#/$defs/DecimalAmountFromNumberEncoded" })
    expect(documentOf(DecimalAmount.fromString(DecimalAmount.decimal13x5)).schema).toEqual({
      $ref: "#/$defs/DecimalAmountStringEncoded"
    })
    expect(documentOf(DecimalAmount.fromString(DecimalAmount.integerOrDecimal13x5)).schema).toEqual({
      $ref: "#/$defs/DecimalAmountOrIntegerStringEncoded"
    })
  })

  it("the JSON Schema of a decimal string has the pattern of its format (bug: an integer-or-decimal amount without one)", () => {
    expect(documentOf(DecimalAmount.fromString(DecimalAmount.integerOrDecimal13x5)).definitions).toEqual({
      DecimalAmountOrIntegerStringEncoded: { type: "string", pattern: "^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$" }
    })
    expect(DecimalAmount.pattern({ maxIntegerDigits: 3, maxFractionDigits: 2, fractionRequired: false })).toBe(
      "^\\d{1,3}$|^\\d{1,3}\\.\\d{1,2}$"
    )
  })

  it("the amount Schemas describe what they take (bug: a description lost from the docs)", () => {
    expect(SchemaAST.resolveDescription(DecimalAmount.FromNumber.ast)).toBe(
      "an amount as a JSON number, read as the exact decimal written (at most 15 significant digits)"
    )
    expect(SchemaAST.resolveDescription(DecimalAmount.fromString(DecimalAmount.decimal13x5).ast)).toBe(
      "a decimal amount as a string: up to 13 digits, a point and 1 to 5 decimals, no sign (e.g. 10.50)"
    )
    expect(SchemaAST.resolveDescription(DecimalAmount.fromString(DecimalAmount.integerOrDecimal13x5).ast)).toBe(
      "a decimal amount as a string: up to 13 digits, optionally a point and 1 to 5 decimals, no sign (e.g. 10 or 10.50)"
    )
  })

  it.effect(
    "the FromNumber arbitrary draws only amounts a JSON number carries (bug: 16-digit amounts that fail to encode)",
    () =>
      Effect.gen(function* () {
        const drawn = yield* Arbitrary.sampleEffect(Arbitrary.schema(DecimalAmount.FromNumber), {
          count: 2000,
          seed: 11
        })
        for (const amount of drawn) {
          expect(Result.isSuccess(DecimalAmount.toNumber(amount)), DecimalAmount.toFixedString(amount)).toBe(true)
        }
      })
  )

  it.effect(
    "the decimal string arbitraries draw the whole range of their format (bug: 14 integer digits that fail to encode, only amounts below 1, never decimals)",
    () =>
      Effect.gen(function* () {
        for (const format of [DecimalAmount.decimal13x5, DecimalAmount.integerOrDecimal13x5]) {
          const schema = DecimalAmount.fromString(format)
          // the default size draws at most 8 integer digits: a larger one reaches the format's 13
          const drawn = yield* Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: 2000, seed: 11, size: 100 })
          const encode = Schema.encodeResult(schema)
          const integerDigits = drawn.map((amount) => DecimalAmount.toFixedString(amount).split(".")[0]?.length ?? 0)
          for (const amount of drawn)
            expect(Result.isSuccess(encode(amount)), DecimalAmount.toFixedString(amount)).toBe(true)
          expect(Math.max(...integerDigits)).toBe(13)
          expect(drawn.some((amount) => DecimalAmount.scale(amount) >= 2)).toBe(true)
          expect(drawn.some((amount) => BigDecimal.isGreaterThanOrEqualTo(amount, dec("1")))).toBe(true)
        }
      })
  )
})
