/**
 * Amounts in minor units (pence, cents, yen, fils): non-negative safe integers, and their exact conversion to and
 * from decimal amounts with the currency's ISO 4217 exponent (9900 GBP = 99.00, 100 JPY = 100, 1000 KWD = 1.000).
 *
 * @since 0.1.0
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Order from "effect/Order"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Currency from "./Currency.js"
import * as DecimalAmount from "./DecimalAmount.js"
import * as decimalText from "./internal/decimalText.js"
import * as MoneyError from "./MoneyError.js"

/**
 * A non-negative safe integer number of minor units, as subscription phase amounts are sent. Its arbitrary
 * (`Arbitrary.schema(MinorUnits.MinorUnits)`) draws whole numbers from 0 to `Number.MAX_SAFE_INTEGER`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MinorUnits: Schema.Codec<number, number> = Schema.Number.check(
  Schema.makeFilter(
    (n: number) =>
      Number.isSafeInteger(n) && n >= 0
        ? undefined
        : `an amount in minor units is a whole number from 0 to ${Number.MAX_SAFE_INTEGER}; got ${n}`,
    {
      title: "amount in minor units",
      description: "a non-negative integer amount in the currency's minor unit (pence, cents)",
      toJsonSchema: () => ({ type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
      arbitraryConstraint: { order: Order.Number, minimum: 0, maximum: Number.MAX_SAFE_INTEGER, number: "integer" }
    }
  ),
  // never fails after the check above (which gives the message); it tells effect's JSON codec and JSON Schema that
  // the number is an integer (without it, NaN and the infinities would be JSON strings)
  Schema.isInt()
)

const exponentFor = (currency: string): Result.Result<number, MoneyError.MoneyError> => {
  const known = Currency.get(currency)
  if (Option.isNone(known)) {
    return Result.fail(
      MoneyError.make("UnknownCurrency", Currency.validate(currency) ?? `${currency} is not an ISO 4217 code`)
    )
  }
  return Option.match(known.value.exponent, {
    onNone: () =>
      Result.fail(
        MoneyError.make("NoMinorUnit", `${currency} (${known.value.name}) has no minor unit in ISO 4217 (N.A.)`)
      ),
    onSome: Result.succeed
  })
}

/**
 * The decimal amount of `minor` minor units: 9900 GBP is 99.00, 100 JPY is 100, 1000 KWD is 1.000 (the result has
 * the currency's scale). Any safe integer, negative included, or any `bigint` (a sum past 2^53, exactly; since 0.2.0).
 *
 * @since 0.1.0
 * @category conversions
 */
export const toDecimal = (
  minor: number | bigint,
  currency: string
): Result.Result<BigDecimal.BigDecimal, MoneyError.MoneyError> => {
  if (typeof minor === "number" && !Number.isSafeInteger(minor)) {
    return Result.fail(MoneyError.make("NotSafeInteger", `${minor} is not a whole number of minor units`))
  }
  return Result.map(exponentFor(currency), (e) => BigDecimal.make(BigInt(minor), e))
}

/**
 * The number of minor units of a decimal amount. Fails when the amount has more decimals than the currency allows
 * (99.001 GBP), or when the result is not a safe integer.
 *
 * @since 0.1.0
 * @category conversions
 */
export const fromDecimal = (
  amount: BigDecimal.BigDecimal,
  currency: string
): Result.Result<number, MoneyError.MoneyError> =>
  Result.flatMap(exponentFor(currency), (e) => {
    if (DecimalAmount.scale(amount) > e) {
      return Result.fail(
        MoneyError.make(
          "ScaleExceedsExponent",
          `${decimalText.preview(amount)} has more decimals than ${currency} allows (${e})`
        )
      )
    }
    // 10^16 minor units and more are beyond a safe integer: refused before scaling (1e100000000 would take seconds)
    const minor = BigDecimal.make(amount.value, amount.scale - e)
    if (decimalText.integerDigits(minor) > 16) {
      return Result.fail(
        MoneyError.make("NotSafeInteger", `${decimalText.preview(minor)} minor units is beyond a safe integer`)
      )
    }
    const scaled = BigDecimal.scale(BigDecimal.normalize(amount), e).value
    if (scaled > BigInt(Number.MAX_SAFE_INTEGER) || scaled < -BigInt(Number.MAX_SAFE_INTEGER)) {
      return Result.fail(MoneyError.make("NotSafeInteger", `${scaled} minor units is beyond a safe integer`))
    }
    return Result.succeed(Number(scaled))
  })
