/**
 * ISO 4217 currencies: alphabetic and numeric codes, names and minor-unit exponents, from ISO 4217 list one
 * (never from `Intl`, which does not follow the standard for every currency).
 *
 * @since 0.1.0
 */
import type * as Brand from "effect/Brand"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { publicationDate as published, table } from "./internal/iso4217.js"
import * as MoneyError from "./MoneyError.js"

/**
 * An ISO 4217 alphabetic code: three upper-case letters, checked against the list (or, with `allowUnknown`, only
 * for its form).
 *
 * @since 0.1.0
 * @category models
 */
export type CurrencyCode = string & Brand.Brand<"CurrencyCode">

/**
 * @since 0.1.0
 * @category models
 */
export interface Currency {
  readonly code: CurrencyCode
  /** the three-digit numeric code, with leading zeros ("008") */
  readonly numeric: string
  readonly name: string
  /**
   * Digits after the decimal separator (the minor unit): 2 for GBP, 0 for JPY and ISK, 3 for KWD, 4 for CLF. `None`
   * where ISO 4217 says "N.A." (gold and other metals, SDR, the testing and "no currency" codes): such amounts have
   * no minor unit at all.
   */
  readonly exponent: Option.Option<number>
  /** a fund code (CLF, BOV, USN, ...) rather than a currency in circulation */
  readonly fund: boolean
}

/**
 * The publication date of the ISO 4217 list the data comes from.
 *
 * @since 0.1.0
 * @category constants
 */
export const publicationDate: string = published

/**
 * Every active code of the list, in alphabetical order.
 *
 * @since 0.1.0
 * @category constants
 */
export const all: ReadonlyArray<Currency> = table.map(([code, numeric, name, exponent, fund]) => ({
  code: code as CurrencyCode,
  numeric,
  name,
  exponent: exponent === null ? Option.none() : Option.some(exponent),
  fund
}))

const byCode = new Map(all.map((c) => [c.code as string, c]))

/**
 * @since 0.1.0
 * @category getters
 */
export const get = (code: string): Option.Option<Currency> => Option.fromUndefinedOr(byCode.get(code))

/**
 * @since 0.1.0
 * @category predicates
 */
export const isKnown = (code: string): boolean => byCode.has(code)

/**
 * The minor-unit exponent of a known currency; `None` for unknown codes and for codes without a minor unit.
 *
 * @since 0.1.0
 * @category getters
 */
export const exponent = (code: string): Option.Option<number> => {
  const c = byCode.get(code)
  return c === undefined ? Option.none() : c.exponent
}

const FORM = /^[A-Z]{3}$/

/**
 * Why a string is not a currency code, or `undefined` when it is one.
 *
 * @since 0.1.0
 * @category validation
 */
export const validate = (s: string, options?: { readonly allowUnknown?: boolean | undefined }): string | undefined => {
  if (!FORM.test(s)) {
    if (/^[A-Za-z]{3}$/.test(s)) return `currency codes are upper case: ${s.toUpperCase()}, not ${s}`
    return `a currency code is three upper-case letters (ISO 4217), e.g. GBP; got ${JSON.stringify(s.slice(0, 20))}`
  }
  if (options?.allowUnknown !== true && !byCode.has(s)) {
    return `${s} is not an ISO 4217 currency code (list published ${published})`
  }
  return undefined
}

// what the arbitraries draw: the codes of the list (one alternation), or any three upper-case letters
const LISTED = `^(?:${all.map((c) => c.code).join("|")})$`
const WELL_FORMED = "^[A-Z]{3}$"

/**
 * A `CurrencyCode` Schema. By default only codes of the list are accepted; a well-formed code that is not on it is
 * refused with its own message. `allowUnknown: true` accepts any three upper-case letters, for forward compatibility
 * with codes published after the list bundled here.
 *
 * Its arbitrary (`Arbitrary.schema(Currency.CurrencyCode)`) draws the codes of the list; with `allowUnknown`, any
 * three upper-case letters.
 *
 * @since 0.1.0
 * @category schemas
 */
export const currencyCode = (options?: {
  readonly allowUnknown?: boolean | undefined
}): Schema.Codec<CurrencyCode, string> => {
  const allowUnknown = options?.allowUnknown === true
  // no `identifier`: effect 4 would name the schema with it in the message of a value that is not a string
  // ("Expected CurrencyCode" instead of "Expected string")
  return Schema.String.check(
    Schema.makeFilter((s: string) => validate(s, options), {
      title: "ISO 4217 currency code",
      description: "three upper-case letters naming an ISO 4217 currency, e.g. GBP",
      toJsonSchema: () => ({ pattern: WELL_FORMED }),
      arbitraryConstraint: { patterns: [{ source: allowUnknown ? WELL_FORMED : LISTED, flags: "" }] }
    })
  ).pipe(Schema.brand("CurrencyCode"))
}

/**
 * A known ISO 4217 currency code.
 *
 * @example
 * ```ts
 * import { Currency } from "@payrules/money"
 * import { Schema } from "effect"
 *
 * Schema.decodeUnknownResult(Currency.CurrencyCode)("GBP") // Success("GBP")
 * Schema.decodeUnknownResult(Currency.CurrencyCode)("gbp") // Failure: currency codes are upper case: GBP, not gbp
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const CurrencyCode: Schema.Codec<CurrencyCode, string> = currencyCode()

/**
 * Checks a string and brands it, or returns `None`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeCode = (s: string): Option.Option<CurrencyCode> =>
  validate(s) === undefined ? Option.some(s as CurrencyCode) : Option.none()

/**
 * Like {@link makeCode}, but throws a `MoneyError` (reason `UnknownCurrency`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeCodeUnsafe = (s: string): CurrencyCode => {
  const why = validate(s)
  if (why !== undefined) throw MoneyError.make("UnknownCurrency", why)
  return s as CurrencyCode
}

/**
 * @deprecated Use {@link makeCodeUnsafe}.
 * @since 0.1.0
 * @category constructors
 */
export const unsafeMakeCode: (s: string) => CurrencyCode = makeCodeUnsafe
