/**
 * International Bank Account Numbers (ISO 13616): normalised, checked against the country's length and BBAN format
 * (from the country specifications of `ibantools`), the ISO 7064 MOD 97-10 check digits and, in the 17 countries
 * where ibantools knows them, the national check digits inside the BBAN (Spain's DC, France's RIB key, ...).
 *
 * @since 0.1.0
 */
import * as Arbitrary from "effect/Arbitrary"
import type * as Brand from "effect/Brand"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import * as internal from "./internal/iban.js"
import { preview } from "./internal/preview.js"
import { withArbitrary } from "./internal/schema.js"

/**
 * An IBAN in electronic form: upper case, no spaces, valid for its country's length, BBAN format, check digits and
 * national check digits.
 *
 * @since 0.1.0
 * @category models
 */
export type Iban = string & Brand.Brand<"Iban">

/**
 * What `ibantools` knows of a country that issues IBANs.
 *
 * @since 0.1.0
 * @category models
 */
export interface Country {
  /** ISO 3166-1 alpha-2 code, e.g. "GB" */
  readonly code: string
  /** characters of the whole IBAN in electronic form */
  readonly length: number
  /** the BBAN format in the SWIFT registry's notation, e.g. "4!a14!n" */
  readonly bbanFormat: string
  /** listed in the SWIFT IBAN registry */
  readonly inRegistry: boolean
  readonly sepa: boolean
  /**
   * The national check digits inside the BBAN that `parse` checks, named (e.g. "Spain's DC (dígitos de control: ...)");
   * none where the country has none or ibantools does not know them (Italy's CIN, Germany's ...).
   *
   * @since 0.1.0
   */
  readonly nationalCheck: Option.Option<string>
}

const toCountry = (c: internal.Country): Country => ({
  code: c.code,
  length: c.length,
  bbanFormat: c.bbanFormat,
  inRegistry: c.inRegistry,
  sepa: c.sepa,
  nationalCheck: Option.fromNullishOr(c.national?.rule)
})

/**
 * Every country that issues IBANs, in and outside the SWIFT IBAN registry, ordered by code.
 *
 * @since 0.1.0
 * @category constants
 */
export const countries: ReadonlyArray<Country> = [...internal.countries.values()].map(toCountry)

/**
 * The countries of the SWIFT IBAN registry, ordered by code.
 *
 * @since 0.1.0
 * @category constants
 */
export const registryCountries: ReadonlyArray<Country> = countries.filter((c) => c.inRegistry)

/**
 * @since 0.1.0
 * @category getters
 */
export const country = (code: string): Option.Option<Country> =>
  Option.map(Option.fromNullishOr(internal.countries.get(code)), toCountry)

/**
 * Which check an IBAN failed, in the order they run:
 * - `Syntax`: a character other than letters, digits and spaces, or no `CCdd` start (country letters, check digits)
 * - `UnknownCountry`: no country issues IBANs under that code
 * - `NotInRegistry`: the country issues IBANs outside the SWIFT registry and the option does not admit them
 * - `Length`: not the country's IBAN length
 * - `BbanFormat`: the account part does not follow the country's format (letters where digits belong, ...)
 * - `Checksum`: the MOD 97-10 check fails, or the check digits are 00, 01 or 99
 * - `NationalCheckDigits`: MOD 97-10 holds, but the check digits of the domestic account number inside the BBAN do
 *   not (Spain's DC, France's RIB key, Belgium's MOD 97, ...); the message names the country's rule
 *
 * @since 0.1.0
 * @category errors
 */
export type IbanErrorReason = internal.Reason

/**
 * @since 0.1.0
 * @category errors
 */
export class IbanError extends Data.TaggedError("IbanError")<{
  readonly input: string
  readonly reason: IbanErrorReason
  readonly message: string
}> {}

const messageOf = (input: string, failure: internal.Failure): string =>
  `Invalid IBAN ${JSON.stringify(preview(input))}: ${failure.detail}`

const toError = (input: string, failure: internal.Failure): IbanError =>
  new IbanError({ input, reason: failure.reason, message: messageOf(input, failure) })

/**
 * @since 0.1.0
 * @category models
 */
export interface ParseOptions {
  /**
   * Admit the countries that issue IBANs outside the SWIFT IBAN registry (for example several West and Central
   * African countries); their length and format still apply. Default `false`.
   */
  readonly allowNonRegistryCountries?: boolean | undefined
}

/**
 * Parses an IBAN in print form (`GB82 WEST 1234 5698 7654 32`) or electronic form, in either case: spaces are
 * removed and letters upper-cased, then the country, length, BBAN format, check digits and national check digits
 * are checked.
 *
 * @example
 * ```ts
 * import { Iban } from "@payrules/accounts"
 * import { Result } from "effect"
 *
 * console.log(Result.getOrThrow(Iban.parse("gb82 west 1234 5698 7654 32"))) // GB82WEST12345698765432
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (input: string, options?: ParseOptions): Result.Result<Iban, IbanError> => {
  const r = internal.scan(input, options?.allowNonRegistryCountries === true)
  return r.ok ? Result.succeed(r.iban as Iban) : Result.fail(toError(input, r.failure))
}

/**
 * Like {@link parse}, but throws the `IbanError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseUnsafe = (input: string, options?: ParseOptions): Iban => {
  const r = internal.scan(input, options?.allowNonRegistryCountries === true)
  if (!r.ok) throw toError(input, r.failure)
  return r.iban as Iban
}

/**
 * @deprecated Use {@link parseUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParse: (input: string, options?: ParseOptions) => Iban = parseUnsafe

/**
 * `true` when {@link parse} would succeed.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isValid = (input: string, options?: ParseOptions): boolean =>
  internal.scan(input, options?.allowNonRegistryCountries === true).ok

/**
 * The print form: groups of four characters separated by spaces (`GB82 WEST 1234 5698 7654 32`).
 *
 * @since 0.1.0
 * @category formatting
 */
export const format = (self: Iban): string => internal.format(self)

/**
 * @since 0.1.0
 * @category getters
 */
export const countryCode = (self: Iban): string => self.slice(0, 2)

/**
 * @since 0.1.0
 * @category getters
 */
export const checkDigits = (self: Iban): string => self.slice(2, 4)

/**
 * The Basic Bank Account Number: everything after the check digits.
 *
 * @since 0.1.0
 * @category getters
 */
export const bban = (self: Iban): string => self.slice(4)

/**
 * @since 0.1.0
 * @category models
 */
export interface ArbitraryOptions {
  /** country codes to draw from (default: every country of the SWIFT registry) */
  readonly countries?: ReadonlyArray<string> | undefined
}

const among = (codes: ReadonlyArray<string> | undefined): ReadonlyArray<internal.Country> => {
  const chosen =
    codes === undefined
      ? internal.registryCountries
      : codes.map((code) => {
          const c = internal.countries.get(code)
          if (c === undefined) throw new Error(`Iban.arbitrary: ${JSON.stringify(code)} is not a country with IBANs`)
          return c
        })
  if (chosen.length === 0) throw new Error("Iban.arbitrary: no countries to draw from")
  return chosen
}

/**
 * A generator of valid IBANs in electronic form (effect's `Arbitrary`): a BBAN built from each country's format, with
 * its national check digits computed where the country has them, and the IBAN check digits. Every country of the
 * registry by default; `countries` narrows it (non-registry countries may be named). `Arbitrary.schema` of
 * {@link IbanFromSelf} or {@link IbanFromString} draws the same IBANs over the whole registry.
 *
 * @example
 * ```ts
 * import { Iban } from "@payrules/accounts"
 * import { Arbitrary, Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const [sample] = yield* Arbitrary.sampleEffect(Iban.arbitrary({ countries: ["DE"] }), { count: 1, seed: 1 })
 *   console.log(sample?.length) // 22
 * })
 * ```
 *
 * @since 0.1.0
 * @category arbitraries
 */
export const arbitrary = (options?: ArbitraryOptions): Arbitrary.Arbitrary<Iban> =>
  Arbitrary.map(Arbitrary.schema(internal.source(among(options?.countries))), (drawn) => internal.build(drawn) as Iban)

const electronicForm = Schema.String.check(
  Schema.makeFilter(
    (s: string) => {
      const r = internal.scan(s, true)
      if (!r.ok) return messageOf(s, r.failure)
      return r.iban === s || `IBAN ${JSON.stringify(preview(s))} is not in electronic form (upper case, no spaces)`
    },
    { expected: "an IBAN in electronic form" }
  )
).pipe(Schema.brand("Iban"))

/**
 * An {@link Iban} in electronic form, as a Schema: the string must already be upper case without spaces; any
 * country that issues IBANs is accepted (registry or not). It carries its arbitrary: `Arbitrary.schema(IbanFromSelf)`
 * draws valid IBANs of every registry country, as {@link arbitrary} does.
 *
 * @since 0.1.0
 * @category schemas
 */
export const IbanFromSelf: Schema.Codec<Iban, string> = withArbitrary(
  electronicForm,
  internal.source(internal.registryCountries),
  (drawn) => internal.build(drawn) as Iban
).annotate({
  identifier: "Iban",
  title: "IBAN",
  description: "an IBAN in electronic form (upper case, no spaces), e.g. GB82WEST12345698765432",
  examples: ["GB82WEST12345698765432" as Iban]
})

/**
 * An IBAN string in print or electronic form, either case, decoded to the electronic form (`gb82 west 1234 5698 7654
 * 32` decodes to `GB82WEST12345698765432`); the country must be in the SWIFT registry. Encodes to the electronic form.
 * Its arbitrary is that of {@link IbanFromSelf}.
 *
 * @since 0.1.0
 * @category schemas
 */
export const IbanFromString: Schema.Codec<Iban, string> = Schema.String.annotate({
  identifier: "IbanFromString",
  title: "IBAN",
  description: "an IBAN (ISO 13616) in print or electronic form, e.g. GB82 WEST 1234 5698 7654 32"
}).pipe(
  Schema.decodeTo(IbanFromSelf, {
    decode: SchemaGetter.transformEffect((s: string, options) => {
      const r = internal.scan(s, false)
      return r.ok
        ? Effect.succeed(r.iban)
        : Effect.fail(new SchemaIssue.InvalidValue({ message: messageOf(s, r.failure) }, s, options))
    }),
    encode: SchemaGetter.passthrough()
  })
)
