/**
 * @since 0.1.0
 */

/**
 * ISO 4217 currencies and the `CurrencyCode` Schema.
 *
 * @since 0.1.0
 */
export * as Currency from "./Currency.js"

/**
 * Exact decimal amounts from JSON numbers and decimal strings.
 *
 * @since 0.1.0
 */
export * as DecimalAmount from "./DecimalAmount.js"

/**
 * Amounts in minor units and their conversion to decimals.
 *
 * @since 0.1.0
 */
export * as MinorUnits from "./MinorUnits.js"

/**
 * Formatting amounts for display.
 *
 * @since 0.1.0
 */
export * as Money from "./Money.js"

/**
 * The error type of the package.
 *
 * @since 0.1.0
 */
export * as MoneyError from "./MoneyError.js"
