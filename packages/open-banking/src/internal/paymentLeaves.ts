/**
 * The leaves of the international payment Schemas: ids, enumerations, exchange rates (as strings and as numbers,
 * read exactly), countries.
 *
 * @internal
 */
import { AccountIdentification } from "@payrules/accounts"
import { DecimalAmount } from "@payrules/money"
import * as BigDecimal from "effect/BigDecimal"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { Profile } from "../Profile.js"
import { type Arb, type FastCheckModule, ID_ALPHABET, preview, stringOf } from "./text.js"

/** @internal */
export const idArbitrary = (max: number) => (fc: FastCheckModule) =>
  fc.oneof(
    fc.uuid(),
    stringOf(fc, ID_ALPHABET, 1, max),
    fc
      .tuple(fc.hexaString({ minLength: 8, maxLength: 8 }), fc.hexaString({ minLength: 12, maxLength: 12 }))
      .map(([a, b]) => `${a}-xxxx-xxxx-xxxx-${b}`)
  )

const oneOf = (what: string, values: ReadonlyArray<string>) => () => ({
  message: `expected ${what}: ${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`,
  override: true
})

/** @internal */
export const enumeration = <const L extends ReadonlyArray<string>>(
  identifier: string,
  what: string,
  description: string,
  ...values: L
) => Schema.Literal(...values).annotations({ identifier, description, message: oneOf(what, values) })

/** @internal */
export const RateType = enumeration(
  "RateType",
  "a RateType",
  "how the exchange rate was set: Actual, Agreed or Indicative",
  "Actual",
  "Agreed",
  "Indicative"
)

/** @internal */
export const SchemeName = AccountIdentification.SchemeName.annotations({
  message: oneOf("a SchemeName", AccountIdentification.schemeNames)
})

const RATE_STRING = /^-?[0-9]+(?:\.[0-9]+)?$/

const rateArbitrary = (fc: FastCheckModule): Arb<BigDecimal.BigDecimal> =>
  fc
    .oneof(
      { weight: 8, arbitrary: fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.integer({ min: 0, max: 8 })) },
      { weight: 1, arbitrary: fc.tuple(fc.bigInt({ min: -(10n ** 6n), max: 0n }), fc.integer({ min: 0, max: 4 })) }
    )
    .map(([value, scale]) => BigDecimal.make(value, scale))

/** `revolut`: the Data-level rate as a decimal string ("1.1128"), kept with its scale */
/** @internal */
export const RateFromString: Schema.Schema<BigDecimal.BigDecimal, string> = Schema.transformOrFail(
  Schema.String,
  Schema.BigDecimalFromSelf.annotations({ arbitrary: () => rateArbitrary }),
  {
    strict: true,
    decode: (s, _, ast) => {
      if (!RATE_STRING.test(s)) {
        return ParseResult.fail(
          new ParseResult.Type(
            ast,
            s,
            `${JSON.stringify(preview(s))} is not an exchange rate: expected a decimal string such as "1.1128"`
          )
        )
      }
      const negative = s.startsWith("-")
      const digits = negative ? s.slice(1) : s
      const dot = digits.indexOf(".")
      const fraction = dot < 0 ? "" : digits.slice(dot + 1)
      const value = BigInt((dot < 0 ? digits : digits.slice(0, dot)) + fraction)
      return ParseResult.succeed(BigDecimal.make(negative ? -value : value, fraction.length))
    },
    encode: (rate) => ParseResult.succeed(DecimalAmount.toFixedString(rate))
  }
).annotations({
  identifier: "ExchangeRateString",
  description: "an exchange rate as a decimal string, e.g. 1.1128 (read exactly, never as a float)",
  jsonSchema: { type: "string", pattern: RATE_STRING.source }
})

/** the rate as a JSON number, read as the exact decimal written */
/** @internal */
export const RateFromNumber: Schema.Schema<BigDecimal.BigDecimal, number> = Schema.transform(
  DecimalAmount.FromNumber,
  Schema.BigDecimalFromSelf.annotations({ arbitrary: () => rateArbitrary }),
  { strict: true, decode: (d) => d, encode: (d) => d }
).annotations({
  identifier: "ExchangeRateNumber",
  description: "an exchange rate as a JSON number (BaseOneRate), read as the exact decimal written"
})

const COUNTRY = /^[A-Z]{2}$/

/** @internal */
export const country = (profile: Profile): Schema.Schema<string> =>
  profile === "revolut"
    ? Schema.String.pipe(
        Schema.filter((s) => (s.length > 0 ? undefined : "expected a country name, got an empty string"), {
          description: "a country name (the specification says so and publishes no format or length)",
          jsonSchema: { minLength: 1 },
          arbitrary: () => (fc) =>
            fc.constantFrom("United Kingdom", "UK", "Germany", "France", "India", "United States")
        })
      )
    : Schema.String.pipe(
        Schema.filter(
          (s) =>
            COUNTRY.test(s)
              ? undefined
              : `expected an ISO 3166-1 alpha-2 country code such as GB, got ${JSON.stringify(preview(s))}`,
          {
            description: "an ISO 3166-1 alpha-2 country code (CountryCode, ^[A-Z]{2,2}$)",
            jsonSchema: { pattern: "^[A-Z]{2}$" },
            arbitrary: () => (fc) => fc.constantFrom("GB", "DE", "FR", "IN", "US", "JP", "AE")
          }
        )
      )

/** @internal */
export const AGENT_SCHEMES = ["UK.OBIE.BICFI", "UK.OBIE.NCC", "US.ABA", "DE.BLZ"]
