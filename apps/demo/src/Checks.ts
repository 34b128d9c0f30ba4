/**
 * Checks of option values, run before a command does anything: each failure names the option and says why.
 *
 * @since 0.1.0
 */
import { Currency, DecimalAmount } from "@payrules/money"
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { CliError } from "./CliError.js"

const fail = (where: string, reason: string) => Result.fail(new CliError({ where, reason }))

/**
 * An ISO 4217 code of the list (`ZZZ` is not one; `gbp` is refused with the upper-case form).
 *
 * @since 0.1.0
 * @category checks
 */
export const currency = (option: string, value: string): Result.Result<Currency.CurrencyCode, CliError> => {
  const problem = Currency.validate(value)
  return problem === undefined ? Result.succeed(value as Currency.CurrencyCode) : fail(option, problem)
}

/**
 * A currency that money can be exchanged into or out of: on the list and with a minor unit, so not one of the codes
 * ISO 4217 marks "N.A." (XXX "no currency", XTS "testing", metals, SDR).
 *
 * @since 0.1.0
 * @category checks
 */
export const exchangeableCurrency = (option: string, value: string): Result.Result<Currency.CurrencyCode, CliError> =>
  Result.flatMap(currency(option, value), (code) =>
    Option.match(Currency.get(code), {
      onNone: () => fail(option, `${code} is not an ISO 4217 currency code`),
      onSome: (c) =>
        Option.isNone(c.exponent)
          ? fail(option, `${code} (${c.name}) has no minor unit in ISO 4217, so no money is exchanged in it`)
          : Result.succeed(code)
    })
  )

/**
 * A whole number of at least `min` (and at most `max`), written in decimal digits.
 *
 * @since 0.1.0
 * @category checks
 */
export const wholeNumber = (
  option: string,
  value: string,
  range: { readonly min: number; readonly max?: number; readonly what?: string }
): Result.Result<number, CliError> => {
  const n = /^[+-]?\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN
  const max = range.max ?? Number.MAX_SAFE_INTEGER
  const what = range.what ?? `a whole number from ${range.min}${range.max === undefined ? " up" : ` to ${max}`}`
  return Number.isSafeInteger(n) && n >= range.min && n <= max
    ? Result.succeed(n)
    : fail(option, `${value} is not ${what}`)
}

/**
 * A TCP port: 0 (any free port) to 65535.
 *
 * @since 0.1.0
 * @category checks
 */
export const port = (option: string, value: string): Result.Result<number, CliError> =>
  wholeNumber(option, value, { min: 0, max: 65535, what: "a port (0 to 65535; 0 picks a free one)" })

/**
 * An absolute http or https URL without credentials, as the base URL of an API.
 *
 * @since 0.1.0
 * @category checks
 */
export const baseUrl = (option: string, value: string): Result.Result<string, CliError> => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return fail(option, `${value} is not an absolute URL (give one like https://api.example.com/v1)`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return fail(option, `${value} is not an http or https URL`)
  }
  if (url.username !== "" || url.password !== "") {
    return fail(option, "credentials do not belong in the URL: set PAYRULES_TOKEN (or the family's token) instead")
  }
  if (url.search !== "" || url.hash !== "") {
    return fail(option, `${value} has a query or a fragment; give the API's base URL only`)
  }
  return Result.succeed(value.endsWith("/") ? value.slice(0, -1) : value)
}

/**
 * An optional base URL (no option: the embedded sandbox).
 *
 * @since 0.1.0
 * @category checks
 */
export const optionalBaseUrl = (value: Option.Option<string>): Result.Result<Option.Option<string>, CliError> =>
  Option.match(value, {
    onNone: () => Result.succeed(Option.none()),
    onSome: (s) => Result.map(baseUrl("--base-url", s), Option.some)
  })

/**
 * An amount of money in a currency: a decimal greater than 0 with no more decimals than the currency has.
 *
 * @since 0.1.0
 * @category checks
 */
export const amount = (
  option: string,
  value: string,
  currencyCode: Currency.CurrencyCode
): Result.Result<BigDecimal.BigDecimal, CliError> =>
  Option.match(/^\d+(\.\d+)?$/.test(value) ? BigDecimal.fromString(value) : Option.none(), {
    onNone: () => fail(option, `${value} is not a decimal amount (digits, optionally a point and more digits: 25.50)`),
    onSome: (d) =>
      !BigDecimal.isPositive(d)
        ? fail(option, `the amount must be greater than 0; got ${value}`)
        : Result.mapError(
            DecimalAmount.checkScale(d, currencyCode),
            (e) => new CliError({ where: option, reason: e.message })
          )
  })

/**
 * One of a fixed set of values (`--format table|json|svg`).
 *
 * @since 0.1.0
 * @category checks
 */
export const choice = <const A extends string>(
  option: string,
  value: string,
  choices: ReadonlyArray<A>
): Result.Result<A, CliError> =>
  choices.includes(value as A)
    ? Result.succeed(value as A)
    : fail(option, `${value === "" ? "nothing" : value} is not one of ${choices.join(", ")}`)
