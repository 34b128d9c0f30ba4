/**
 * The response of GET /international-payments/{InternationalPaymentId} (`Data`, `Links`, `Meta`) as Schemas, in the
 * two profiles of D8 and two modes:
 *
 * - `revolut`: the specification as Revolut publishes it: four statuses, amounts `^\d{1,13}\.\d{1,5}$`, the
 *   Data-level `ExchangeRate` a string, account names of at most 70 characters, `CreditorAgent.SchemeName` an array,
 *   `PostalAddress.Country` a country name, `Links` and `Meta` present;
 * - `obie-3.1.11`: Open Banking (UK) Read/Write 3.1.11 (OBWriteInternationalResponse5): six statuses, integer amounts
 *   too, `ExchangeRate` a number, account names of at most 350 characters, four `ChargeBearer` values,
 *   `CreditorAgent.SchemeName` a string, `Country` an ISO 3166 alpha-2 code, `Links` and `Meta` optional.
 *
 * `strict` mode follows the field tables, with currency codes of the bundled ISO 4217 list: for what you build and
 * send. `lenient` mode is for what you read from a server (D11): it decodes every well-formed value, and
 * `InternationalPaymentCheck` reports what it let through as findings next to the payment:
 *
 * - a well-formed currency code that is not on the list (`XYZ`, or a code published after the list): in both
 *   profiles, reported as `CurrencyNotListed`;
 * - a `revolut` response without `Initiation.DebtorAccount` (the specification marks it present, Revolut's own
 *   examples leave it out), reported as `DebtorAccountMissing`. In `obie-3.1.11` DebtorAccount is optional (0..1) in
 *   both modes, as the standard says;
 * - a well-formed value of an enumeration that this version does not know (a value the API adds later): `Status`,
 *   both `RateType`s, `ChargeBearer` and the accounts' `SchemeName`, read as `{ _tag: "Unknown", value }` (the
 *   `OpenEnum` of @payrules/lenient) and reported as `UnknownValue`. An account under an unknown `SchemeName` keeps
 *   its `Identification` as read: it cannot be checked under a scheme this version does not know. The status
 *   lifecycle cannot check a move into or out of an unknown status (`PaymentStatus.checkObserved`).
 *
 * Fields that the tables do not list are tolerated and dropped in both modes; an enum value that is not well-formed
 * (not a string, empty, spaces, over 128 characters), a malformed currency code (`gbp`) or a text over its limit is
 * an error in both; strict mode also refuses an unknown enum value.
 *
 * The Schemas carry their arbitraries (effect's `Arbitrary`): `Arbitrary.schema(InternationalPayment.RevolutStrict)`
 * draws valid payments of the profile and mode, with account identifications valid under their scheme; a lenient
 * Schema also draws what it admits (unlisted currency codes, a `revolut` payment without `DebtorAccount`).
 *
 * @since 0.1.0
 */

import { type OpenEnum, Reader } from "@payrules/lenient"
import type { Currency } from "@payrules/money"
import type * as BigDecimal from "effect/BigDecimal"
import type * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { fromDocument, toDraft202012 } from "./internal/jsonSchema.js"
import * as limitsInternal from "./internal/paymentLimits.js"
import { obieLenient, obieStrict, revolutLenient, revolutStrict } from "./internal/paymentSchemas.js"
import type { Profile } from "./Profile.js"

/**
 * A length limit on a text field, in Unicode code points, per profile, with its source.
 *
 * @since 0.1.0
 * @category models
 */
export interface Limit extends limitsInternal.Limit {}

/**
 * Every text limit the Schemas enforce, with its source. `Account.*` applies to `CreditorAccount` and
 * `DebtorAccount`, `PostalAddress.*` to the addresses of `Creditor` and `CreditorAgent`.
 *
 * @since 0.1.0
 * @category constants
 */
export const limits: ReadonlyArray<Limit> = limitsInternal.limitList

/**
 * The Open Banking text type of a limit in a profile (`Max35Text`).
 *
 * @since 0.1.0
 * @category getters
 */
export const kind: (limit: Limit, profile: Profile) => string = limitsInternal.kind

/**
 * A decoded `revolut` response. `DebtorAccount` is typed optional, and the enumerations open
 * (`{ _tag: "Unknown", value }`), because lenient mode admits them; strict mode guarantees a DebtorAccount and known
 * values. Amounts and rates are exact `BigDecimal`s, date-times `DateTime.Zoned` at their offset.
 *
 * @since 0.1.0
 * @category models
 */
export interface Revolut extends Schema.Schema.Type<typeof revolutLenient> {}

/**
 * The wire form of a `revolut` response.
 *
 * @since 0.1.0
 * @category models
 */
export interface RevolutEncoded extends Schema.Codec.Encoded<typeof revolutLenient> {}

/**
 * A decoded `obie-3.1.11` response; the enumerations are open (`{ _tag: "Unknown", value }`) because lenient mode
 * admits them, strict mode guarantees known values.
 *
 * @since 0.1.0
 * @category models
 */
export interface Obie extends Schema.Schema.Type<typeof obieLenient> {}

/**
 * The wire form of an `obie-3.1.11` response.
 *
 * @since 0.1.0
 * @category models
 */
export interface ObieEncoded extends Schema.Codec.Encoded<typeof obieLenient> {}

/**
 * A decoded response of either profile: what `InternationalPaymentCheck.check` reads.
 *
 * @since 0.1.0
 * @category models
 */
export type InternationalPayment = Revolut | Obie

/**
 * The decoded response of a profile.
 *
 * @since 0.1.0
 * @category models
 */
export type PaymentOf<P extends Profile> = P extends "revolut" ? Revolut : Obie

/**
 * The wire form of a profile.
 *
 * @since 0.1.0
 * @category models
 */
export type EncodedOf<P extends Profile> = P extends "revolut" ? RevolutEncoded : ObieEncoded

/**
 * The `Initiation` of a decoded response.
 *
 * @since 0.1.0
 * @category models
 */
export type Initiation = InternationalPayment["Data"]["Initiation"]

/**
 * An `ExchangeRateInformation`, Data-level or Initiation-level (`ExchangeRate` optional).
 *
 * @since 0.1.0
 * @category models
 */
export interface ExchangeRateInformation {
  readonly UnitCurrency: Currency.CurrencyCode
  readonly ExchangeRate?: BigDecimal.BigDecimal
  /** an unknown one (`{ _tag: "Unknown", value }`) only from lenient mode */
  readonly RateType: OpenEnum.OpenEnum<"Actual" | "Agreed" | "Indicative">
  readonly ContractIdentification?: string
}

/**
 * `strict` follows the field tables with currency codes of the bundled ISO 4217 list (for what you send); `lenient`
 * also admits a well-formed code that is not on the list, a well-formed enum value this version does not know, and
 * what published examples do (a `revolut` response without `DebtorAccount`): for what you read, checked with
 * `InternationalPaymentCheck`.
 *
 * @since 0.1.0
 * @category models
 */
export type Mode = "strict" | "lenient"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** default `strict` */
  readonly mode?: Mode | undefined
}

/**
 * The `revolut` response, strict: currency codes of the list, `Initiation.DebtorAccount` required.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RevolutStrict: Schema.Codec<Revolut, RevolutEncoded> = revolutStrict

/**
 * The `revolut` response, lenient: any well-formed currency code, `Initiation.DebtorAccount` may be missing, and
 * every enumeration open: `Data.Status`, the `RateType`s, `ChargeBearer` and the accounts' `SchemeName` read a
 * well-formed value they do not know as `{ _tag: "Unknown", value }` (issue 34).
 *
 * @since 0.1.0
 * @category schemas
 */
export const RevolutLenient: Schema.Codec<Revolut, RevolutEncoded> = revolutLenient

/**
 * The `obie-3.1.11` response (OBWriteInternationalResponse5), strict: currency codes of the list. `DebtorAccount` is
 * optional (0..1) in the standard, in both modes.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ObieStrict: Schema.Codec<Obie, ObieEncoded> = obieStrict

/**
 * The `obie-3.1.11` response, lenient: any well-formed currency code, every enumeration open (as
 * {@link RevolutLenient}).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ObieLenient: Schema.Codec<Obie, ObieEncoded> = obieLenient

const schemas = {
  revolut: { strict: RevolutStrict, lenient: RevolutLenient },
  "obie-3.1.11": { strict: ObieStrict, lenient: ObieLenient }
} as const

/**
 * The Schema of a profile in a mode (strict by default).
 *
 * @since 0.1.0
 * @category schemas
 */
export const schema = <P extends Profile>(profile: P, options?: Options): Schema.Codec<PaymentOf<P>, EncodedOf<P>> =>
  schemas[profile][options?.mode ?? "strict"] as unknown as Schema.Codec<PaymentOf<P>, EncodedOf<P>>

// a lenient read tries the strict Schema first: an answer of known values (nearly all of them) decodes with the
// literals' single comparisons instead of the open enums' checks, with the same value (see Reader.closedFirst)
const decoders = {
  revolut: {
    strict: Schema.decodeUnknownResult(RevolutStrict, { errors: "all" }),
    lenient: Reader.closedFirst(RevolutStrict, RevolutLenient, { errors: "all" })
  },
  "obie-3.1.11": {
    strict: Schema.decodeUnknownResult(ObieStrict, { errors: "all" }),
    lenient: Reader.closedFirst(ObieStrict, ObieLenient, { errors: "all" })
  }
} as const

const encoders = {
  revolut: Schema.encodeResult(RevolutLenient),
  "obie-3.1.11": Schema.encodeResult(ObieLenient)
} as const

/**
 * Decodes a response body (parsed JSON) in a profile and mode, reporting every issue (`errors: "all"`), each with
 * the path of its field from the root (`["Data", "Initiation", "CreditorAccount", "Identification"]`). The lenient
 * mode tries the strict Schema first (`Reader.closedFirst` of `@payrules/lenient`): a payment of known values reads
 * faster, to the same value; the result is always what the lenient Schema gives.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = <P extends Profile>(
  profile: P,
  input: unknown,
  options?: Options
): Result.Result<PaymentOf<P>, Schema.SchemaError> =>
  decoders[profile][options?.mode ?? "strict"](input) as Result.Result<PaymentOf<P>, Schema.SchemaError>

/**
 * Encodes a decoded response back to its wire form (amounts and rates with their scale, date-times at their offset).
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = <P extends Profile>(
  profile: P,
  payment: PaymentOf<P>
): Result.Result<EncodedOf<P>, Schema.SchemaError> =>
  (encoders[profile] as unknown as (payment: PaymentOf<P>) => Result.Result<EncodedOf<P>, Schema.SchemaError>)(payment)

/**
 * The JSON Schema (draft 2020-12) of a profile's response in strict mode, as committed in
 * `schemas/international-payment.<profile>.json`. Made by `Schema.toJsonSchemaDocument` (draft 2020-12: definitions
 * under `$defs`, `$ref`s to `#/$defs/...`), with the 2020-12 `$schema`, a title and a description, and open to
 * unknown properties (no `additionalProperties: false`) because the decoders tolerate and drop them. What JSON Schema
 * cannot say (the Identification under its SchemeName, that a currency code is on the list) is only in the Schemas.
 *
 * @since 0.1.0
 * @category json schema
 */
export const jsonSchema = (profile: Profile): { readonly [key: string]: unknown } =>
  toDraft202012(fromDocument(Schema.toJsonSchemaDocument(schema(profile, { mode: "strict" }))), {
    title: `International payment (${profile} profile, strict mode)`,
    description: `The response of GET /international-payments/{InternationalPaymentId} in the ${profile} profile of @payrules/open-banking, strict mode. Generated from the Schemas by scripts/generate-json-schema.ts: do not edit.`
  })
