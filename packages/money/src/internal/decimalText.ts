/**
 * Decimal amounts as text: the plain form (`toFixedString`), and the short form that messages and out-of-range
 * displays use, made at once whatever the size of the amount.
 *
 * @internal
 */
import * as BigDecimal from "effect/BigDecimal"

/** The plain decimal text of an amount keeping its scale: see `DecimalAmount.toFixedString`. @internal */
export const toFixedString = (amount: BigDecimal.BigDecimal, minFractionDigits = 0): string => {
  let { scale: s, value } = amount
  if (s < 0) {
    // zero at any power of ten is 0 (10n ** 2000000000n would take a very long time to compute)
    if (value !== 0n) value = value * 10n ** BigInt(-s)
    s = 0
  }
  if (s < minFractionDigits) {
    value = value * 10n ** BigInt(minFractionDigits - s)
    s = minFractionDigits
  }
  const negative = value < 0n
  const digits = (negative ? -value : value).toString()
  const padded = digits.padStart(s + 1, "0")
  const text = s === 0 ? padded : `${padded.slice(0, padded.length - s)}.${padded.slice(padded.length - s)}`
  return negative ? `-${text}` : text
}

/** the digits of the value, without its sign */
const digitsOf = (value: bigint): string => (value < 0n ? -value : value).toString()

/**
 * The number of digits before the decimal point of an amount's value (0 for an amount below 1 in magnitude), counted
 * without building its text.
 *
 * @internal
 */
export const integerDigits = (amount: BigDecimal.BigDecimal): number =>
  amount.value === 0n ? 0 : Math.max(0, digitsOf(amount.value).length - amount.scale)

/** the longest plain text a message shows; longer amounts are shown by their leading digits and power of ten */
const MAX_PLAIN = 40

/**
 * An amount as a message shows it: its plain text (`10.50`) when that is at most 40 characters, otherwise its
 * leading digits and its power of ten (`1e+100000000`, `-1.234567890123456…e-60`).
 *
 * @internal
 */
export const preview = (amount: BigDecimal.BigDecimal): string => {
  const digits = digitsOf(amount.value)
  const s = amount.scale
  const plain = (amount.value < 0n ? 1 : 0) + (s <= 0 ? digits.length - s : Math.max(digits.length, s + 1) + 1)
  if (plain <= MAX_PLAIN) return toFixedString(amount)
  const n = BigDecimal.normalize(amount)
  const significant = digitsOf(n.value)
  const power = significant.length - 1 - n.scale
  const head =
    significant.length === 1
      ? significant
      : `${significant[0]}.${significant.slice(1, 16)}${significant.length > 16 ? "…" : ""}`
  return `${n.value < 0n ? "-" : ""}${head}e${power < 0 ? "-" : "+"}${Math.abs(power)}`
}
