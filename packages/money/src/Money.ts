/**
 * Displaying amounts: the number of decimals comes from ISO 4217, only symbols and grouping from `Intl`.
 *
 * @since 0.1.0
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Currency from "./Currency.js"
import * as DecimalAmount from "./DecimalAmount.js"
import * as decimalText from "./internal/decimalText.js"
import * as MinorUnits from "./MinorUnits.js"
import type * as MoneyError from "./MoneyError.js"

const formatters = new Map<string, Intl.NumberFormat>()

/** the most decimals `Intl.NumberFormat` shows (its `maximumFractionDigits`) */
const MAX_INTL_DECIMALS = 100

/** the form of an ISO 4217 code: three capital letters */
const CODE = /^[A-Z]{3}$/

const formatterFor = (locale: string, currency: string, fractionDigits: number): Intl.NumberFormat => {
  const key = `${locale}|${currency}|${fractionDigits}`
  let f = formatters.get(key)
  if (f === undefined) {
    f = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits
    })
    formatters.set(key, f)
  }
  return f
}

/**
 * Formats an exact amount for display: with exactly the currency's ISO 4217 decimals (more when the amount has more,
 * so nothing is rounded away), and the locale's symbol and grouping. Exact: the digits never pass through a float.
 * Locale defaults to `en-GB`. `Intl` shows up to 100 decimals and magnitudes within a double's range (below about
 * 1.8e308; beyond, it writes ∞): an amount outside those is shown as its code and its leading digits and power of ten
 * (`GBP 1e+400`, `GBP 1e-101`), never rounded, never as ∞, and at once whatever its size. A currency that is not
 * three capital letters (`gbp`, `GB`) is no ISO 4217 code: the amount is shown as written after it (`gbp 1.5`).
 *
 * A well-formed code that is not on the bundled list (a code published after {@link Currency.publicationDate}, or
 * `XYZ`) has no fallback exponent: the amount is shown with the decimals it has, none added and none removed
 * (`1.5 XYZ` shows as `XYZ 1.5`), because a guessed exponent would pad or imply digits the currency may not have.
 * Codes whose minor unit ISO 4217 gives as "N.A." (XAU, XDR, ...) are shown the same way.
 *
 * @example
 * ```ts
 * import { Money } from "@payrules/money"
 * import { BigDecimal } from "effect"
 *
 * console.log(Money.format(BigDecimal.fromStringUnsafe("1234.5"), "GBP")) // £1,234.50
 * console.log(Money.format(BigDecimal.fromStringUnsafe("1.5"), "KWD")) // KWD 1.500
 * ```
 *
 * @since 0.1.0
 * @category formatting
 */
export const format = (amount: BigDecimal.BigDecimal, currency: string, locale = "en-GB"): string => {
  const scale = DecimalAmount.scale(amount)
  const integerDigits = decimalText.integerDigits(amount)
  if (scale > MAX_INTL_DECIMALS || integerDigits > 309) return `${currency} ${decimalText.preview(amount)}`
  // not a code (`gbp`, `GB`, ""): Intl would upper-case it and show £ without GBP's exponent, or throw
  if (!CODE.test(currency)) return `${currency} ${DecimalAmount.toFixedString(amount)}`
  const exponent = Option.getOrElse(Currency.exponent(currency), () => scale)
  const digits = Math.min(Math.max(exponent, scale), MAX_INTL_DECIMALS)
  const text = DecimalAmount.toFixedString(amount)
  // 309 digits: from 1e308, of which a double holds up to about 1.8e308
  if (integerDigits === 309 && !Number.isFinite(Number(text))) return `${currency} ${decimalText.preview(amount)}`
  // Intl formats numeric strings exactly (ECMA-402 NumberFormat v3)
  return formatterFor(locale, currency, digits).format(text as unknown as number)
}

/**
 * Formats an amount given in minor units (9900 GBP displays as £99.00), a `bigint` exactly however large (a sum of
 * many amounts; since 0.2.0). Fails as {@link MinorUnits.toDecimal} does (an unknown code, a code without a minor
 * unit, a number that is not a safe integer).
 *
 * @example
 * ```ts
 * import { Money } from "@payrules/money"
 *
 * Money.formatMinor(9900, "GBP") // Success("£99.00")
 * Money.formatMinor(9900, "XAU") // Failure(MoneyError: NoMinorUnit)
 * ```
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatMinor = (
  minor: number | bigint,
  currency: string,
  locale = "en-GB"
): Result.Result<string, MoneyError.MoneyError> =>
  Result.map(MinorUnits.toDecimal(minor, currency), (d) => format(d, currency, locale))
