/**
 * Exact decimal amounts on effect `BigDecimal` (D4): from JSON numbers (exchange amounts) and from decimal strings
 * (Open Banking amounts), with the scale checked against a currency's ISO 4217 exponent. Never floats.
 *
 * @since 0.1.0
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Currency from "./Currency.js"
import * as decimalText from "./internal/decimalText.js"
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

const notFinite = (n: number): MoneyError.MoneyError => MoneyError.make("NotFinite", `${n} is not a finite number`)

/**
 * The exact decimal of a JSON number as it was written. A number is refused when it is not finite, or when its
 * shortest decimal form has more than 15 significant digits: then the double does not hold the written value
 * (`0.1 + 0.2` arrives as `0.30000000000000004`), and rounding it would move money.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromNumber = (n: number): Result.Result<BigDecimal.BigDecimal, MoneyError.MoneyError> => {
  if (!Number.isFinite(n)) return Result.fail(notFinite(n))
  const numeral = String(n)
  const digits = significantDigits(numeral)
  if (digits > MAX_SIGNIFICANT_DIGITS) {
    return Result.fail(
      MoneyError.make(
        "NotExactlyRepresentable",
        `${numeral} has ${digits} significant digits: a JSON number of more than ${MAX_SIGNIFICANT_DIGITS} cannot be read exactly as written (a result of float arithmetic such as 0.1 + 0.2?)`
      )
    )
  }
  return Result.succeed(BigDecimal.fromStringUnsafe(numeral))
}

/** the smallest normal double: below it a double has fewer than 15 significant digits */
const MIN_NORMAL = 2.2250738585072014e-308

/**
 * The number whose decimal form is the amount, when a double holds it exactly: at most 15 significant digits, within
 * the range of doubles (an amount such as 1e400, which would be `Infinity`, or 1e-400, which would be 0, is refused).
 *
 * @since 0.1.0
 * @category conversions
 */
export const toNumber = (amount: BigDecimal.BigDecimal): Result.Result<number, MoneyError.MoneyError> => {
  const text = BigDecimal.format(BigDecimal.normalize(amount))
  const digits = significantDigits(text)
  if (digits > MAX_SIGNIFICANT_DIGITS) {
    return Result.fail(
      MoneyError.make(
        "NotExactlyRepresentable",
        `${text} has ${digits} significant digits, more than a JSON number carries exactly (${MAX_SIGNIFICANT_DIGITS})`
      )
    )
  }
  const n = Number(text)
  // a normal double holds 15 significant digits exactly; outside that range (and at 0) the number read back decides
  const exact =
    Number.isFinite(n) &&
    (Math.abs(n) >= MIN_NORMAL ||
      Option.exists(BigDecimal.fromString(String(n)), (back) => BigDecimal.equals(back, amount)))
  return exact
    ? Result.succeed(n)
    : Result.fail(
        MoneyError.make(
          "NotExactlyRepresentable",
          `${text} is outside the range of numbers a JSON number carries exactly`
        )
      )
}

/**
 * The plain decimal text of an amount keeping its scale (`10.50` stays `10.50`), padded to at least
 * `minFractionDigits` decimals. Never uses exponent notation.
 *
 * @since 0.1.0
 * @category conversions
 */
export const toFixedString: (amount: BigDecimal.BigDecimal, minFractionDigits?: number) => string =
  decimalText.toFixedString

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

// why `s` is not a decimal string of `format`, or `undefined` when it is one
const syntaxError = (s: string, format: StringFormat): string | undefined => {
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
  return ok ? undefined : `${JSON.stringify(s.slice(0, 40))} is not an amount: expected ${describe(format)}`
}

/**
 * Parses a decimal string of the given format, keeping its scale.
 *
 * @example
 * ```ts
 * import { DecimalAmount } from "@payrules/money"
 *
 * DecimalAmount.parseString("10.50", DecimalAmount.decimal13x5) // Success(10.50), scale 2
 * DecimalAmount.parseString("10", DecimalAmount.decimal13x5) // Failure(MoneyError: Syntax)
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseString = (
  s: string,
  format: StringFormat = integerOrDecimal13x5
): Result.Result<BigDecimal.BigDecimal, MoneyError.MoneyError> => {
  const why = syntaxError(s, format)
  return why === undefined
    ? Result.succeed(BigDecimal.fromStringUnsafe(s))
    : Result.fail(MoneyError.make("Syntax", why))
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
): Result.Result<BigDecimal.BigDecimal, MoneyError.MoneyError> => {
  const known = Currency.get(currency)
  if (Option.isNone(known)) {
    return Result.fail(
      MoneyError.make("UnknownCurrency", Currency.validate(currency) ?? `unknown currency ${currency}`)
    )
  }
  const exponent = known.value.exponent
  if (Option.isNone(exponent)) return Result.succeed(amount)
  const s = scale(amount)
  return s > exponent.value
    ? Result.fail(
        MoneyError.make(
          "ScaleExceedsExponent",
          `${decimalText.preview(amount)} has ${s} decimals but ${currency} has ${exponent.value} (ISO 4217)`
        )
      )
    : Result.succeed(amount)
}

// a MoneyError as the issue of a Schema transformation, with the error's message
const toIssue = <A>(
  result: Result.Result<A, MoneyError.MoneyError>,
  input: unknown,
  options: SchemaAST.ParseOptions
): Effect.Effect<A, SchemaIssue.Issue> =>
  Result.isSuccess(result)
    ? Effect.succeed(result.success)
    : Effect.fail(new SchemaIssue.InvalidValue({ message: result.failure.message }, input, options))

// decimals that a JSON number carries exactly: at most 15 significant digits, both signs, up to 8 decimals
const ExactAmount = Schema.BigDecimal.annotate({
  toCodecArbitrary: () =>
    Schema.link<BigDecimal.BigDecimal>()(
      Schema.Struct({
        value: Schema.BigInt.check(Schema.isBetweenBigInt({ minimum: -(10n ** 15n) + 1n, maximum: 10n ** 15n - 1n })),
        scale: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 8 }))
      }),
      {
        decode: SchemaGetter.transform(({ scale, value }) => BigDecimal.make(value, scale)),
        encode: SchemaGetter.transform(({ scale, value }) => ({ scale, value }))
      }
    )
})

/**
 * A JSON number decoded to the exact decimal it was written as (see {@link fromNumber}); encodes back to the same
 * number. Its arbitrary (`Arbitrary.schema(DecimalAmount.FromNumber)`) draws amounts of up to 15 significant digits
 * and 8 decimals, both signs.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FromNumber: Schema.Codec<BigDecimal.BigDecimal, number> = Schema.Number.annotate({
  message: "expected a JSON number"
})
  .check(
    Schema.makeFilter((n: number) => (Number.isFinite(n) ? undefined : notFinite(n).message)),
    // never fails after the check above; it tells effect's JSON codec and JSON Schema that the number is finite
    Schema.isFinite()
  )
  .pipe(
    Schema.decodeTo(ExactAmount, {
      decode: SchemaGetter.transformEffect((n: number, options) => toIssue(fromNumber(n), n, options)),
      encode: SchemaGetter.transformEffect((amount: BigDecimal.BigDecimal, options) =>
        toIssue(toNumber(amount), amount, options)
      )
    })
  )
  .annotate({
    identifier: "DecimalAmountFromNumber",
    description: "an amount as a JSON number, read as the exact decimal written (at most 15 significant digits)"
  })

// decimals of a format: no sign, up to `maxIntegerDigits` digits before the point and `maxFractionDigits` after it
const formatAmount = (format: StringFormat) => {
  const integer = `(?:0|[1-9][0-9]{0,${format.maxIntegerDigits - 1}})`
  const fraction = `\\.[0-9]{1,${format.maxFractionDigits}}`
  const text = format.fractionRequired ? `^${integer}${fraction}$` : `^${integer}(?:${fraction})?$`
  return Schema.BigDecimal.annotate({
    toCodecArbitrary: () =>
      Schema.link<BigDecimal.BigDecimal>()(Schema.String.check(Schema.isPattern(new RegExp(text))), {
        decode: SchemaGetter.transform(BigDecimal.fromStringUnsafe),
        encode: SchemaGetter.transform((amount) => toFixedString(amount))
      })
  })
}

/**
 * A decimal string of `format` decoded to an exact decimal with its scale; encodes back with the same scale (at
 * least one decimal when the format requires the point). Its arbitrary (`Arbitrary.schema(DecimalAmount.fromString(
 * format))`) draws the amounts that the format can write.
 *
 * @since 0.1.0
 * @category schemas
 */
export const fromString = (format: StringFormat): Schema.Codec<BigDecimal.BigDecimal, string> =>
  Schema.String.check(
    Schema.makeFilter((s: string) => syntaxError(s, format), {
      toJsonSchema: () => ({ pattern: pattern(format) })
    })
  )
    .pipe(
      Schema.decodeTo(formatAmount(format), {
        // the check above let through digits with at most one point: the decimal keeps their scale ("10.50": 2)
        decode: SchemaGetter.transform(BigDecimal.fromStringUnsafe),
        encode: SchemaGetter.transform((amount: BigDecimal.BigDecimal) =>
          toFixedString(amount, format.fractionRequired ? 1 : 0)
        )
      })
    )
    .annotate({
      identifier: format.fractionRequired ? "DecimalAmountString" : "DecimalAmountOrIntegerString",
      description: `a decimal amount as a string: ${describe(format)}`
    })
