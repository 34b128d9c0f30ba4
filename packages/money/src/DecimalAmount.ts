/**
 * Exact decimal amounts on effect `BigDecimal` (D4): from JSON numbers (exchange amounts) and from decimal strings
 * (Open Banking amounts), with the scale checked against a currency's ISO 4217 exponent. Never floats.
 *
 * @since 0.1.0
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Currency from "./Currency.js"
import * as MoneyError from "./MoneyError.js"

/**
 * Doubles hold every decimal of up to 15 significant digits exactly as written (IEEE 754 binary64, DBL_DIG = 15).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_SIGNIFICANT_DIGITS = 15

/**
 * The number of significant digits of a decimal numeral (`"0.0120"` has 2, `"1e+21"` has 1).
 *
 * @since 0.1.0
 * @category getters
 */
export const significantDigits = (numeral: string): number => {
  const mantissa = numeral
    .replace(/^[+-]/, "")
    .replace(/[eE].*$/, "")
    .replace(".", "")
  const trimmed = mantissa.replace(/^0+/, "").replace(/0+$/, "")
  return trimmed.length
}

/**
 * The number of digits after the decimal point of the value (trailing zeros do not count; never negative).
 *
 * @since 0.1.0
 * @category getters
 */
export const scale = (amount: BigDecimal.BigDecimal): number => Math.max(0, BigDecimal.normalize(amount).scale)

/**
 * The exact decimal of a JSON number as it was written. A number is refused when it is not finite, or when its
 * shortest decimal form has more than 15 significant digits: then the double does not hold the written value
 * (`0.1 + 0.2` arrives as `0.30000000000000004`), and rounding it would move money.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromNumber = (n: number): Either.Either<BigDecimal.BigDecimal, MoneyError.MoneyError> => {
  if (!Number.isFinite(n)) return Either.left(MoneyError.make("NotFinite", `${n} is not a finite number`))
  const numeral = String(n)
  const digits = significantDigits(numeral)
  if (digits > MAX_SIGNIFICANT_DIGITS) {
    return Either.left(
      MoneyError.make(
        "NotExactlyRepresentable",
        `${numeral} has ${digits} significant digits: a JSON number of more than ${MAX_SIGNIFICANT_DIGITS} cannot be read exactly as written (a result of float arithmetic such as 0.1 + 0.2?)`
      )
    )
  }
  return Either.right(BigDecimal.unsafeFromString(numeral))
}

/**
 * The number whose decimal form is the amount, when a double holds it exactly (at most 15 significant digits).
 *
 * @since 0.1.0
 * @category conversions
 */
export const toNumber = (amount: BigDecimal.BigDecimal): Either.Either<number, MoneyError.MoneyError> => {
  const text = BigDecimal.format(BigDecimal.normalize(amount))
  const digits = significantDigits(text)
  return digits > MAX_SIGNIFICANT_DIGITS
    ? Either.left(
        MoneyError.make(
          "NotExactlyRepresentable",
          `${text} has ${digits} significant digits, more than a JSON number carries exactly (${MAX_SIGNIFICANT_DIGITS})`
        )
      )
    : Either.right(Number(text))
}

/**
 * The plain decimal text of an amount keeping its scale (`10.50` stays `10.50`), padded to at least
 * `minFractionDigits` decimals. Never uses exponent notation.
 *
 * @since 0.1.0
 * @category conversions
 */
export const toFixedString = (amount: BigDecimal.BigDecimal, minFractionDigits = 0): string => {
  let { scale: s, value } = amount
  if (s < 0) {
    value = value * 10n ** BigInt(-s)
    s = 0
  }
  if (s < minFractionDigits) {
    value = value * 10n ** BigInt(minFractionDigits - s)
    s = minFractionDigits
  }
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(s + 1, "0")
  const text = s === 0 ? digits : `${digits.slice(0, digits.length - s)}.${digits.slice(digits.length - s)}`
  return negative ? `-${text}` : text
}

/**
 * The shape of a decimal string: at most `maxIntegerDigits` before the point and `maxFractionDigits` after it, and
 * whether the fraction is required. No sign, no exponent, no grouping.
 *
 * @since 0.1.0
 * @category models
 */
export interface StringFormat {
  readonly maxIntegerDigits: number
  readonly maxFractionDigits: number
  readonly fractionRequired: boolean
}

/**
 * `^\d{1,13}\.\d{1,5}$`: the Open Banking amount as Revolut's profile publishes it.
 *
 * @since 0.1.0
 * @category constants
 */
export const decimal13x5: StringFormat = { maxIntegerDigits: 13, maxFractionDigits: 5, fractionRequired: true }

/**
 * `^\d{1,13}$|^\d{1,13}\.\d{1,5}$`: the Open Banking 3.1 amount, where integers are allowed too.
 *
 * @since 0.1.0
 * @category constants
 */
export const integerOrDecimal13x5: StringFormat = {
  maxIntegerDigits: 13,
  maxFractionDigits: 5,
  fractionRequired: false
}

/**
 * The regular expression of a format (for docs and JSON Schema).
 *
 * @since 0.1.0
 * @category getters
 */
export const pattern = (format: StringFormat): string =>
  format.fractionRequired
    ? `^\\d{1,${format.maxIntegerDigits}}\\.\\d{1,${format.maxFractionDigits}}$`
    : `^\\d{1,${format.maxIntegerDigits}}$|^\\d{1,${format.maxIntegerDigits}}\\.\\d{1,${format.maxFractionDigits}}$`

const describe = (format: StringFormat): string =>
  `up to ${format.maxIntegerDigits} digits, ${format.fractionRequired ? "a point and " : "optionally a point and "}1 to ${format.maxFractionDigits} decimals, no sign (e.g. ${format.fractionRequired ? "10.50" : "10 or 10.50"})`

/**
 * Parses a decimal string of the given format, keeping its scale.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseString = (
  s: string,
  format: StringFormat = integerOrDecimal13x5
): Either.Either<BigDecimal.BigDecimal, MoneyError.MoneyError> => {
  const dot = s.indexOf(".")
  const integer = dot < 0 ? s : s.slice(0, dot)
  const fraction = dot < 0 ? "" : s.slice(dot + 1)
  const ok =
    integer.length >= 1 &&
    integer.length <= format.maxIntegerDigits &&
    /^\d+$/.test(integer) &&
    (dot < 0
      ? !format.fractionRequired
      : fraction.length >= 1 && fraction.length <= format.maxFractionDigits && /^\d+$/.test(fraction))
  if (!ok) {
    return Either.left(
      MoneyError.make("Syntax", `${JSON.stringify(s.slice(0, 40))} is not an amount: expected ${describe(format)}`)
    )
  }
  return Either.right(BigDecimal.make(BigInt(integer + fraction), fraction.length))
}

/**
 * Checks that the amount has no more decimals than the currency's exponent (trailing zeros aside: 10.50 GBP fits,
 * 10.505 GBP and 1.5 JPY do not). Currencies without a minor unit accept any scale.
 *
 * @since 0.1.0
 * @category validation
 */
export const checkScale = (
  amount: BigDecimal.BigDecimal,
  currency: string
): Either.Either<BigDecimal.BigDecimal, MoneyError.MoneyError> => {
  const known = Currency.get(currency)
  if (Option.isNone(known)) {
    return Either.left(
      MoneyError.make("UnknownCurrency", Currency.validate(currency) ?? `unknown currency ${currency}`)
    )
  }
  const exponent = known.value.exponent
  if (Option.isNone(exponent)) return Either.right(amount)
  const s = scale(amount)
  return s > exponent.value
    ? Either.left(
        MoneyError.make(
          "ScaleExceedsExponent",
          `${toFixedString(amount)} has ${s} decimals but ${currency} has ${exponent.value} (ISO 4217)`
        )
      )
    : Either.right(amount)
}

const finite = (amount: BigDecimal.BigDecimal): boolean => significantDigits(BigDecimal.format(amount)) <= 15

/**
 * A JSON number decoded to the exact decimal it was written as (see {@link fromNumber}); encodes back to the same
 * number. Its arbitrary draws amounts of up to 15 significant digits, both signs.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FromNumber: Schema.Schema<BigDecimal.BigDecimal, number> = Schema.transformOrFail(
  Schema.Number.annotations({ message: () => "expected a JSON number" }),
  Schema.BigDecimalFromSelf.annotations({
    arbitrary: () => (fc) =>
      fc
        .tuple(fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }), fc.integer({ min: 0, max: 8 }))
        .map(([value, s]) => BigDecimal.make(value, s))
        .filter(finite)
  }),
  {
    strict: true,
    decode: (n, _, ast) =>
      Either.match(fromNumber(n), {
        onLeft: (e) => ParseResult.fail(new ParseResult.Type(ast, n, e.message)),
        onRight: ParseResult.succeed
      }),
    encode: (amount, _, ast) =>
      Either.match(toNumber(amount), {
        onLeft: (e) => ParseResult.fail(new ParseResult.Type(ast, amount, e.message)),
        onRight: ParseResult.succeed
      })
  }
).annotations({
  identifier: "DecimalAmountFromNumber",
  description: "an amount as a JSON number, read as the exact decimal written (at most 15 significant digits)"
})

/**
 * A decimal string of `format` decoded to an exact decimal with its scale; encodes back with the same scale (at
 * least one decimal when the format requires the point).
 *
 * @since 0.1.0
 * @category schemas
 */
export const fromString = (format: StringFormat): Schema.Schema<BigDecimal.BigDecimal, string> =>
  Schema.transformOrFail(
    Schema.String,
    Schema.BigDecimalFromSelf.annotations({
      arbitrary: () => (fc) =>
        fc
          .tuple(
            fc.stringMatching(new RegExp(`^(0|[1-9][0-9]{0,${format.maxIntegerDigits - 1}})$`)),
            fc.stringMatching(new RegExp(`^[0-9]{${format.fractionRequired ? 1 : 0},${format.maxFractionDigits}}$`))
          )
          .map(([i, f]) => BigDecimal.make(BigInt(i + f), f.length))
    }),
    {
      strict: true,
      decode: (s, _, ast) =>
        Either.match(parseString(s, format), {
          onLeft: (e) => ParseResult.fail(new ParseResult.Type(ast, s, e.message)),
          onRight: ParseResult.succeed
        }),
      encode: (amount, _, ast) => {
        const text = toFixedString(amount, format.fractionRequired ? 1 : 0)
        return Either.match(parseString(text, format), {
          onLeft: (e) => ParseResult.fail(new ParseResult.Type(ast, amount, e.message)),
          onRight: () => ParseResult.succeed(text)
        })
      }
    }
  ).annotations({
    identifier: format.fractionRequired ? "DecimalAmountString" : "DecimalAmountOrIntegerString",
    description: `a decimal amount as a string: ${describe(format)}`,
    jsonSchema: { type: "string", pattern: pattern(format) }
  })
