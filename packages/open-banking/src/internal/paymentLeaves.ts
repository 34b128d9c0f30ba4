/**
 * The leaves of the international payment Schemas: ids, enumerations, exchange rates (as strings and as numbers,
 * read exactly), countries.
 *
 * @internal
 */
import { AccountIdentification } from "@payrules/accounts"
import { OpenEnum } from "@payrules/lenient"
import { DecimalAmount } from "@payrules/money"
import * as BigDecimal from "effect/BigDecimal"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaGetter from "effect/SchemaGetter"
import type { Profile } from "../Profile.js"
import { ID_CHARACTERS, oneOfPattern, preview } from "./text.js"

const HEX = "[0-9a-f]"

/**
 * What the arbitrary of an opaque id of at most `max` characters draws: UUIDs, strings of letters, digits and `-`,
 * and ids masked as the published examples are (`71c0a2d4-xxxx-xxxx-xxxx-93f6e1b0c2dd`). @internal
 */
export const idPattern = (max: number): string =>
  `^(?:${HEX}{8}-${HEX}{4}-[1-5]${HEX}{3}-[89ab]${HEX}{3}-${HEX}{12}|${ID_CHARACTERS}{1,${max}}|${HEX}{8}-xxxx-xxxx-xxxx-${HEX}{12})$`

const oneOf = (what: string, values: ReadonlyArray<string>): string =>
  `expected ${what}: ${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`

/** @internal */
export const enumeration = <const L extends ReadonlyArray<string>>(
  identifier: string,
  what: string,
  description: string,
  ...values: L
) => Schema.Literals(values).annotate({ identifier, description, message: oneOf(what, values) })

/** @internal */
export const RateType = enumeration(
  "RateType",
  "a RateType",
  "how the exchange rate was set: Actual, Agreed or Indicative",
  "Actual",
  "Agreed",
  "Indicative"
)

/**
 * An enumeration as read from a server (D11): each of `values` decodes to itself, any other well-formed value to
 * `{ _tag: "Unknown", value }`, which `InternationalPaymentCheck` reports as an `UnknownValue` finding. @internal
 */
export const openEnumeration = <const L extends ReadonlyArray<string>>(
  identifier: string,
  description: string,
  ...values: L
) =>
  OpenEnum.make(values, {
    identifier,
    description: `${description}, or a value added since (kept as { _tag: "Unknown", value })`
  })

/** RateType as read from a server: Actual, Agreed, Indicative, or a type added since @internal */
export const RateTypeLenient = openEnumeration(
  "RateTypeLenient",
  "how the exchange rate was set: Actual, Agreed or Indicative",
  "Actual",
  "Agreed",
  "Indicative"
)

/** @internal */
export const SchemeName = AccountIdentification.SchemeName.annotate({
  message: oneOf("a SchemeName", AccountIdentification.schemeNames)
})

/** the SchemeName of an account as read from a server: one of the four, or a scheme added since @internal */
export const SchemeNameLenient = AccountIdentification.SchemeNameLenient

/** what the arbitrary of a rate draws: mostly positive decimals of up to 10 digits and 8 decimals, a few of 0 or less */
const rateLink = (): SchemaAST.Link =>
  Schema.link<BigDecimal.BigDecimal>()(
    Schema.Struct({
      value: Schema.BigInt.check(Schema.isBetweenBigInt({ minimum: -(10n ** 6n), maximum: 10n ** 9n })),
      scale: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 8 }))
    }),
    {
      decode: SchemaGetter.transform(({ scale, value }) => BigDecimal.make(value, scale)),
      encode: SchemaGetter.forbiddenEncoding
    }
  )

/** an exchange rate, exact, with the scale it was written with */
const Rate = Schema.BigDecimal.annotate({ toCodecArbitrary: rateLink })

const RATE_STRING = /^-?[0-9]+(?:\.[0-9]+)?$/

/** the digits of a decimal string that matches RATE_STRING, with their scale ("1.17120": 117120 at scale 5) */
const parseRate = (s: string): BigDecimal.BigDecimal => {
  const negative = s.startsWith("-")
  const digits = negative ? s.slice(1) : s
  const dot = digits.indexOf(".")
  const fraction = dot < 0 ? "" : digits.slice(dot + 1)
  const value = BigInt((dot < 0 ? digits : digits.slice(0, dot)) + fraction)
  return BigDecimal.make(negative ? -value : value, fraction.length)
}

/** `revolut`: the Data-level rate as a decimal string ("1.1128"), kept with its scale @internal */
export const RateFromString: Schema.Codec<BigDecimal.BigDecimal, string> = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      RATE_STRING.test(s) ||
      `${JSON.stringify(preview(s))} is not an exchange rate: expected a decimal string such as "1.1128"`,
    { expected: "a decimal string", toJsonSchema: () => ({ pattern: RATE_STRING.source }) }
  )
)
  .annotate({
    identifier: "ExchangeRateString",
    description: "an exchange rate as a decimal string, e.g. 1.1128 (read exactly, never as a float)"
  })
  .pipe(
    Schema.decodeTo(Rate, {
      decode: SchemaGetter.transform(parseRate),
      encode: SchemaGetter.transform((rate: BigDecimal.BigDecimal) => DecimalAmount.toFixedString(rate))
    })
  )

/** the rate as a JSON number, read as the exact decimal written @internal */
export const RateFromNumber: Schema.Codec<BigDecimal.BigDecimal, number> = DecimalAmount.FromNumber.annotate({
  identifier: "ExchangeRateNumber",
  description: "an exchange rate as a JSON number (BaseOneRate), read as the exact decimal written",
  toCodecArbitrary: rateLink
})

const COUNTRY = /^[A-Z]{2}$/
const COUNTRY_NAMES = ["United Kingdom", "UK", "Germany", "France", "India", "United States"]
const COUNTRY_CODES = ["GB", "DE", "FR", "IN", "US", "JP", "AE"]

const countryName = Schema.String.check(
  Schema.makeFilter((s: string) => (s.length > 0 ? undefined : "expected a country name, got an empty string"), {
    expected: "a country name",
    description: "a country name (the specification says so and publishes no format or length)",
    toJsonSchema: () => ({ minLength: 1 }),
    arbitraryConstraint: { patterns: [{ source: oneOfPattern(COUNTRY_NAMES), flags: "" }] }
  })
)

const countryCode = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      COUNTRY.test(s)
        ? undefined
        : `expected an ISO 3166-1 alpha-2 country code such as GB, got ${JSON.stringify(preview(s))}`,
    {
      expected: "an ISO 3166-1 alpha-2 country code",
      description: "an ISO 3166-1 alpha-2 country code (CountryCode, ^[A-Z]{2,2}$)",
      toJsonSchema: () => ({ pattern: COUNTRY.source }),
      arbitraryConstraint: { patterns: [{ source: oneOfPattern(COUNTRY_CODES), flags: "" }] }
    }
  )
)

/** @internal */
export const country = (profile: Profile): Schema.Codec<string> => (profile === "revolut" ? countryName : countryCode)

/** @internal */
export const AGENT_SCHEMES = ["UK.OBIE.BICFI", "UK.OBIE.NCC", "US.ABA", "DE.BLZ"]
