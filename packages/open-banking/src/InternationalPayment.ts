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
 * `strict` mode follows the field tables; `lenient` mode also accepts what published examples do although the
 * tables forbid it: a `revolut` response without `Initiation.DebtorAccount` (the specification marks it present,
 * Revolut's own examples leave it out; `InternationalPaymentCheck` reports it as `DebtorAccountMissing`). In
 * `obie-3.1.11` DebtorAccount is optional (0..1) in both modes, as the standard says. Fields that the tables do not
 * list are tolerated and dropped in both modes; an unknown enum value is an error in both.
 *
 * @since 0.1.0
 */
import { AccountIdentification } from "@payrules/accounts"
import { OffsetDateTime } from "@payrules/iso8601"
import { Currency, DecimalAmount } from "@payrules/money"
import * as Arbitrary from "effect/Arbitrary"
import * as BigDecimal from "effect/BigDecimal"
import type * as Either from "effect/Either"
import * as JSONSchema from "effect/JSONSchema"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { toDraft202012 } from "./internal/jsonSchema.js"
import { type Arb, type FastCheckModule, ID_ALPHABET, preview, stringOf, text } from "./internal/text.js"
import { AbsoluteUri } from "./internal/uri.js"
import * as PaymentStatus from "./PaymentStatus.js"
import type { Profile } from "./Profile.js"

// ---------------------------------------------------------------------------------------------------------------
// limits
// ---------------------------------------------------------------------------------------------------------------

/**
 * A length limit on a text field, in Unicode code points, per profile, with its source.
 *
 * @since 0.1.0
 * @category models
 */
export interface Limit {
  /** the field, as a dotted path from `Data` (`*` for every element of an array) */
  readonly field: string
  readonly minLength: number
  readonly maxLength: { readonly [P in Profile]: number }
  readonly source: string
}

const OBIE = "Open Banking 3.1.11 data dictionary"
const same = (n: number) => ({ revolut: n, "obie-3.1.11": n })

const limitList = [
  {
    field: "Data.InternationalPaymentId",
    minLength: 1,
    maxLength: same(40),
    source: `${OBIE}, OBWriteInternationalResponse5/Data/InternationalPaymentId`
  },
  {
    field: "Data.ConsentId",
    minLength: 1,
    maxLength: same(128),
    source: `${OBIE}, OBWriteInternationalResponse5/Data/ConsentId`
  },
  {
    field: "Data.ExchangeRateInformation.ContractIdentification",
    minLength: 1,
    maxLength: same(256),
    source: `${OBIE}, OBExchangeRate2/ContractIdentification`
  },
  {
    field: "Data.Initiation.InstructionIdentification",
    minLength: 1,
    maxLength: same(35),
    source: `${OBIE}, OBInternational3/InstructionIdentification; D7`
  },
  {
    field: "Data.Initiation.EndToEndIdentification",
    minLength: 1,
    maxLength: same(35),
    source: `${OBIE}, OBInternational3/EndToEndIdentification; D7`
  },
  {
    field: "Data.Initiation.ExchangeRateInformation.ContractIdentification",
    minLength: 1,
    maxLength: same(256),
    source: `${OBIE}, OBInternational3/ExchangeRateInformation/ContractIdentification`
  },
  {
    field: "Data.Initiation.Creditor.Name",
    minLength: 1,
    maxLength: same(350),
    source: `${OBIE}, OBInternational3/Creditor/Name (OBPartyIdentification43)`
  },
  {
    field: "PostalAddress.Department",
    minLength: 1,
    maxLength: same(70),
    source: `${OBIE}, OBPostalAddress6/Department`
  },
  {
    field: "PostalAddress.SubDepartment",
    minLength: 1,
    maxLength: same(70),
    source: `${OBIE}, OBPostalAddress6/SubDepartment`
  },
  {
    field: "PostalAddress.StreetName",
    minLength: 1,
    maxLength: same(70),
    source: `${OBIE}, OBPostalAddress6/StreetName`
  },
  {
    field: "PostalAddress.BuildingNumber",
    minLength: 1,
    maxLength: same(16),
    source: `${OBIE}, OBPostalAddress6/BuildingNumber`
  },
  {
    field: "PostalAddress.PostCode",
    minLength: 1,
    maxLength: same(16),
    source: `${OBIE}, OBPostalAddress6/PostCode`
  },
  {
    field: "PostalAddress.TownName",
    minLength: 1,
    maxLength: same(35),
    source: `${OBIE}, OBPostalAddress6/TownName`
  },
  {
    field: "PostalAddress.CountrySubDivision",
    minLength: 1,
    maxLength: same(35),
    source: `${OBIE}, OBPostalAddress6/CountrySubDivision`
  },
  {
    field: "PostalAddress.AddressLine.*",
    minLength: 1,
    maxLength: same(70),
    source: `${OBIE}, OBPostalAddress6/AddressLine (0..7 lines)`
  },
  {
    field: "Data.Initiation.CreditorAgent.SchemeName",
    minLength: 1,
    maxLength: same(40),
    source: `${OBIE}, OBBranchAndFinancialInstitutionIdentification6/SchemeName (OBExternalFinancialInstitutionIdentification4Code); in revolut each element of the array`
  },
  {
    field: "Data.Initiation.CreditorAgent.Identification",
    minLength: 1,
    maxLength: same(35),
    source: `${OBIE}, OBBranchAndFinancialInstitutionIdentification6/Identification`
  },
  {
    field: "Data.Initiation.CreditorAgent.Name",
    minLength: 1,
    maxLength: same(140),
    source: `${OBIE}, OBBranchAndFinancialInstitutionIdentification6/Name`
  },
  {
    field: "Account.Identification",
    minLength: 1,
    maxLength: same(256),
    source: `${OBIE}, OBCashAccountCreditor3 and OBCashAccountDebtor4/Identification; checked under its SchemeName by @payrules/accounts`
  },
  {
    field: "Account.Name",
    minLength: 1,
    maxLength: { revolut: 70, "obie-3.1.11": 350 },
    source: `D8 (Revolut publishes 70); ${OBIE}, OBCashAccountCreditor3 and OBCashAccountDebtor4/Name (Max350Text)`
  },
  {
    field: "Account.SecondaryIdentification",
    minLength: 1,
    maxLength: same(34),
    source: `${OBIE}, OBCashAccountCreditor3 and OBCashAccountDebtor4/SecondaryIdentification`
  },
  {
    field: "Data.Initiation.RemittanceInformation.Unstructured",
    minLength: 1,
    maxLength: same(140),
    source: `${OBIE}, OBRemittanceInformation1/Unstructured; D7`
  },
  {
    field: "Data.Initiation.RemittanceInformation.Reference",
    minLength: 1,
    maxLength: same(35),
    source: `${OBIE}, OBRemittanceInformation1/Reference; D7`
  }
] as const satisfies ReadonlyArray<Limit>

/**
 * Every text limit the Schemas enforce, with its source. `Account.*` applies to `CreditorAccount` and
 * `DebtorAccount`, `PostalAddress.*` to the addresses of `Creditor` and `CreditorAgent`.
 *
 * @since 0.1.0
 * @category constants
 */
export const limits: ReadonlyArray<Limit> = limitList

type LimitField = (typeof limitList)[number]["field"]

const limitOf = (field: LimitField): Limit => limitList.find((l) => l.field === field)!

/**
 * The Open Banking text type of a limit in a profile (`Max35Text`).
 *
 * @since 0.1.0
 * @category getters
 */
export const kind = (limit: Limit, profile: Profile): string => `Max${limit.maxLength[profile]}Text`

const textOf = (field: LimitField, profile: Profile, arbitrary?: (fc: FastCheckModule) => Arb<string>) => {
  const l = limitOf(field)
  return text(kind(l, profile), l.minLength, l.maxLength[profile], arbitrary)
}

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

const prefix = (profile: Profile): string => (profile === "revolut" ? "Revolut" : "Obie")

// ---------------------------------------------------------------------------------------------------------------
// leaves
// ---------------------------------------------------------------------------------------------------------------

const idArbitrary = (max: number) => (fc: FastCheckModule) =>
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

const enumeration = <const L extends ReadonlyArray<string>>(
  identifier: string,
  what: string,
  description: string,
  ...values: L
) => Schema.Literal(...values).annotations({ identifier, description, message: oneOf(what, values) })

const RateType = enumeration(
  "RateType",
  "a RateType",
  "how the exchange rate was set: Actual, Agreed or Indicative",
  "Actual",
  "Agreed",
  "Indicative"
)

const SchemeName = AccountIdentification.SchemeName.annotations({
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
const RateFromString: Schema.Schema<BigDecimal.BigDecimal, string> = Schema.transformOrFail(
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
const RateFromNumber: Schema.Schema<BigDecimal.BigDecimal, number> = Schema.transform(
  DecimalAmount.FromNumber,
  Schema.BigDecimalFromSelf.annotations({ arbitrary: () => rateArbitrary }),
  { strict: true, decode: (d) => d, encode: (d) => d }
).annotations({
  identifier: "ExchangeRateNumber",
  description: "an exchange rate as a JSON number (BaseOneRate), read as the exact decimal written"
})

const COUNTRY = /^[A-Z]{2}$/

const country = (profile: Profile): Schema.Schema<string> =>
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

const AGENT_SCHEMES = ["UK.OBIE.BICFI", "UK.OBIE.NCC", "US.ABA", "DE.BLZ"]

// ---------------------------------------------------------------------------------------------------------------
// objects shared by both profiles (same types, profile-specific limits)
// ---------------------------------------------------------------------------------------------------------------

const postalAddress = (profile: Profile) =>
  Schema.Struct({
    Department: opt(textOf("PostalAddress.Department", profile)),
    SubDepartment: opt(textOf("PostalAddress.SubDepartment", profile)),
    StreetName: opt(textOf("PostalAddress.StreetName", profile)),
    BuildingNumber: opt(textOf("PostalAddress.BuildingNumber", profile)),
    PostCode: opt(textOf("PostalAddress.PostCode", profile)),
    TownName: opt(textOf("PostalAddress.TownName", profile)),
    CountrySubDivision: opt(textOf("PostalAddress.CountrySubDivision", profile)),
    Country: opt(country(profile)),
    AddressLine: opt(
      Schema.Array(textOf("PostalAddress.AddressLine.*", profile)).pipe(
        Schema.maxItems(7, {
          message: (issue) =>
            `at most 7 address lines (OBPostalAddress6), got ${Array.isArray(issue.actual) ? issue.actual.length : "more"}`
        })
      )
    )
  }).annotations({ identifier: `${prefix(profile)}PostalAddress`, description: "a postal address" })

const creditor = (profile: Profile) =>
  Schema.Struct({
    Name: opt(textOf("Data.Initiation.Creditor.Name", profile)),
    PostalAddress: opt(postalAddress(profile))
  }).annotations({ identifier: `${prefix(profile)}Creditor`, description: "the party the money is due to" })

const identified = <A extends AccountIdentification.SchemeIdentification, I>(
  profile: Profile,
  name: "CreditorAccount" | "DebtorAccount",
  struct: Schema.Schema<A, I>
) =>
  AccountIdentification.checkIdentification(struct).annotations({
    identifier: `${prefix(profile)}${name}`,
    description: `the ${name === "CreditorAccount" ? "creditor" : "debtor"} account: an Identification valid under its SchemeName`,
    arbitrary: (from) => (fc) =>
      fc
        .tuple(from(fc), Arbitrary.makeLazy(AccountIdentification.SchemeAndIdentification)(fc))
        .map(([a, pair]) => ({ ...(a as A), SchemeName: pair.SchemeName, Identification: pair.Identification }))
  })

const creditorAccount = (profile: Profile) =>
  identified(
    profile,
    "CreditorAccount",
    Schema.Struct({
      SchemeName,
      Identification: textOf("Account.Identification", profile),
      Name: textOf("Account.Name", profile),
      SecondaryIdentification: opt(textOf("Account.SecondaryIdentification", profile))
    })
  )

const debtorAccount = (profile: Profile) =>
  identified(
    profile,
    "DebtorAccount",
    Schema.Struct({
      SchemeName,
      Identification: textOf("Account.Identification", profile),
      Name: opt(textOf("Account.Name", profile)),
      SecondaryIdentification: opt(textOf("Account.SecondaryIdentification", profile))
    })
  )

const instructedAmount = (profile: Profile) =>
  Schema.Struct({
    Amount: DecimalAmount.fromString(
      profile === "revolut" ? DecimalAmount.decimal13x5 : DecimalAmount.integerOrDecimal13x5
    ),
    Currency: Currency.CurrencyCode
  }).annotations({
    identifier: `${prefix(profile)}InstructedAmount`,
    description: "the amount moved between debtor and creditor before charges, and its currency"
  })

const initiationExchangeRateInformation = (profile: Profile) =>
  Schema.Struct({
    UnitCurrency: Currency.CurrencyCode,
    ExchangeRate: opt(RateFromNumber),
    RateType,
    ContractIdentification: opt(
      textOf("Data.Initiation.ExchangeRateInformation.ContractIdentification", profile, (fc) =>
        stringOf(fc, ID_ALPHABET, 1, 40)
      )
    )
  }).annotations({
    identifier: `${prefix(profile)}InitiationExchangeRateInformation`,
    description: "the exchange rate requested in the initiation (ExchangeRate a number, optional)"
  })

const dataExchangeRateInformation = <I>(profile: Profile, rate: Schema.Schema<BigDecimal.BigDecimal, I>) =>
  Schema.Struct({
    UnitCurrency: Currency.CurrencyCode,
    ExchangeRate: rate,
    RateType,
    ContractIdentification: opt(
      textOf("Data.ExchangeRateInformation.ContractIdentification", profile, (fc) => stringOf(fc, ID_ALPHABET, 1, 40))
    ),
    ExpirationDateTime: opt(OffsetDateTime.OffsetDateTimeFromString)
  }).annotations({
    identifier: `${prefix(profile)}ExchangeRateInformation`,
    description: "the exchange rate actually used in the payment"
  })

const remittanceInformation = (profile: Profile) =>
  Schema.Struct({
    Unstructured: opt(textOf("Data.Initiation.RemittanceInformation.Unstructured", profile)),
    Reference: opt(textOf("Data.Initiation.RemittanceInformation.Reference", profile))
  }).annotations({
    identifier: `${prefix(profile)}RemittanceInformation`,
    description: "remittance information; when both are given, Unstructured is ignored (D7)"
  })

const links = (profile: Profile) =>
  Schema.Struct({
    Self: AbsoluteUri,
    Next: opt(AbsoluteUri),
    Prev: opt(AbsoluteUri)
  }).annotations({ identifier: `${prefix(profile)}Links`, description: "links to the resource and its pages" })

const meta = (profile: Profile) =>
  Schema.Struct({
    TotalPages: opt(
      Schema.Int.pipe(
        Schema.between(0, 2_147_483_647, { message: () => "TotalPages is an int32 of at least 0" }),
        Schema.annotations({ arbitrary: () => (fc) => fc.integer({ min: 0, max: 20 }) })
      )
    )
  }).annotations({ identifier: `${prefix(profile)}Meta`, description: "meta data of the response" })

const initiationFields = <CB extends Schema.Struct.Field, CA extends Schema.Struct.Field>(
  profile: Profile,
  chargeBearer: CB,
  creditorAgent: CA
) => ({
  InstructionIdentification: textOf("Data.Initiation.InstructionIdentification", profile),
  EndToEndIdentification: textOf("Data.Initiation.EndToEndIdentification", profile),
  ChargeBearer: chargeBearer,
  CurrencyOfTransfer: Currency.CurrencyCode,
  InstructedAmount: instructedAmount(profile),
  ExchangeRateInformation: opt(initiationExchangeRateInformation(profile)),
  Creditor: opt(creditor(profile)),
  CreditorAgent: creditorAgent,
  CreditorAccount: creditorAccount(profile),
  RemittanceInformation: opt(remittanceInformation(profile)),
  DebtorAccount: opt(debtorAccount(profile))
})

const dataFields = <S extends Schema.Struct.Field, R extends Schema.Struct.Field, I extends Schema.Struct.Field>(
  profile: Profile,
  status: S,
  exchangeRateInformation: R,
  initiation: I
) => ({
  InternationalPaymentId: textOf("Data.InternationalPaymentId", profile, idArbitrary(40)),
  ConsentId: textOf("Data.ConsentId", profile, idArbitrary(128)),
  CreationDateTime: OffsetDateTime.OffsetDateTimeFromString,
  Status: status,
  StatusUpdateDateTime: OffsetDateTime.OffsetDateTimeFromString,
  ExchangeRateInformation: exchangeRateInformation,
  Initiation: initiation
})

// ---------------------------------------------------------------------------------------------------------------
// revolut
// ---------------------------------------------------------------------------------------------------------------

const RevolutCreditorAgent = Schema.Struct({
  SchemeName: opt(
    Schema.Array(
      textOf("Data.Initiation.CreditorAgent.SchemeName", "revolut", (fc) => fc.constantFrom(...AGENT_SCHEMES))
    )
  ),
  Identification: opt(textOf("Data.Initiation.CreditorAgent.Identification", "revolut")),
  Name: opt(textOf("Data.Initiation.CreditorAgent.Name", "revolut")),
  PostalAddress: opt(postalAddress("revolut"))
}).annotations({
  identifier: "RevolutCreditorAgent",
  description: "the servicer of the beneficiary account; SchemeName is an array of scheme names in this profile"
})

const RevolutInitiation = Schema.Struct(
  initiationFields(
    "revolut",
    opt(
      enumeration(
        "RevolutChargeBearer",
        "a revolut ChargeBearer",
        "who bears the charges: BorneByDebtor or FollowingServiceLevel",
        "BorneByDebtor",
        "FollowingServiceLevel"
      )
    ),
    opt(RevolutCreditorAgent)
  )
).annotations({
  identifier: "RevolutInitiationLenient",
  description: "the initiation payload; DebtorAccount may be missing (lenient mode)"
})

const DEBTOR_ACCOUNT_MISSING =
  "DebtorAccount is missing: the specification marks it present (published examples leave it out: decode in lenient mode to accept such a response with a DebtorAccountMissing finding)"

const RevolutInitiationStrict = RevolutInitiation.pipe(
  Schema.filter(
    (i) => (i.DebtorAccount === undefined ? { path: ["DebtorAccount"], message: DEBTOR_ACCOUNT_MISSING } : true),
    {
      identifier: "RevolutInitiation",
      description: "the initiation payload, with DebtorAccount present as the specification requires",
      jsonSchema: { allOf: [{ required: ["DebtorAccount"] }] },
      arbitrary: (from) => (fc) =>
        fc
          .tuple(from(fc), Arbitrary.makeLazy(debtorAccount("revolut"))(fc))
          .map(([i, d]) => (i.DebtorAccount === undefined ? { ...i, DebtorAccount: d } : i))
    }
  )
)

const revolutData = (initiation: Schema.Schema<typeof RevolutInitiation.Type, typeof RevolutInitiation.Encoded>) =>
  Schema.Struct(
    dataFields(
      "revolut",
      PaymentStatus.RevolutStatus,
      opt(dataExchangeRateInformation("revolut", RateFromString)),
      initiation
    )
  )

const revolutResponse = (
  initiation: Schema.Schema<typeof RevolutInitiation.Type, typeof RevolutInitiation.Encoded>,
  identifier: string
) =>
  Schema.Struct({
    Data: revolutData(initiation).annotations({ identifier: `${identifier}Data` }),
    Links: links("revolut"),
    Meta: meta("revolut")
  }).annotations({ identifier, title: "International payment (revolut profile)" })

const revolutLenient = revolutResponse(RevolutInitiation, "RevolutInternationalPaymentLenient")

// ---------------------------------------------------------------------------------------------------------------
// obie-3.1.11
// ---------------------------------------------------------------------------------------------------------------

const ObieCreditorAgent = Schema.Struct({
  SchemeName: opt(
    textOf("Data.Initiation.CreditorAgent.SchemeName", "obie-3.1.11", (fc) => fc.constantFrom(...AGENT_SCHEMES))
  ),
  Identification: opt(textOf("Data.Initiation.CreditorAgent.Identification", "obie-3.1.11")),
  Name: opt(textOf("Data.Initiation.CreditorAgent.Name", "obie-3.1.11")),
  PostalAddress: opt(postalAddress("obie-3.1.11"))
}).annotations({
  identifier: "ObieCreditorAgent",
  description: "the servicer of the beneficiary account (OBBranchAndFinancialInstitutionIdentification6)"
})

const ObieInitiation = Schema.Struct(
  initiationFields(
    "obie-3.1.11",
    opt(
      enumeration(
        "ObieChargeBearer",
        "an obie-3.1.11 ChargeBearer",
        "who bears the charges (OBChargeBearerType1Code)",
        "BorneByCreditor",
        "BorneByDebtor",
        "FollowingServiceLevel",
        "Shared"
      )
    ),
    opt(ObieCreditorAgent)
  )
).annotations({ identifier: "ObieInitiation", description: "the initiation payload (OBInternational3)" })

const obieResponse = Schema.Struct({
  Data: Schema.Struct(
    dataFields(
      "obie-3.1.11",
      PaymentStatus.Status,
      opt(dataExchangeRateInformation("obie-3.1.11", RateFromNumber)),
      ObieInitiation
    )
  ).annotations({ identifier: "ObieInternationalPaymentData" }),
  Links: opt(links("obie-3.1.11")),
  Meta: opt(meta("obie-3.1.11"))
}).annotations({ identifier: "ObieInternationalPayment", title: "International payment (obie-3.1.11 profile)" })

// ---------------------------------------------------------------------------------------------------------------
// public types and schemas
// ---------------------------------------------------------------------------------------------------------------

/**
 * A decoded `revolut` response. `DebtorAccount` is typed optional because lenient mode admits its absence; strict
 * mode guarantees it. Amounts and rates are exact `BigDecimal`s, date-times `DateTime.Zoned` at their offset.
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
export interface RevolutEncoded extends Schema.Schema.Encoded<typeof revolutLenient> {}

/**
 * A decoded `obie-3.1.11` response.
 *
 * @since 0.1.0
 * @category models
 */
export interface Obie extends Schema.Schema.Type<typeof obieResponse> {}

/**
 * The wire form of an `obie-3.1.11` response.
 *
 * @since 0.1.0
 * @category models
 */
export interface ObieEncoded extends Schema.Schema.Encoded<typeof obieResponse> {}

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
  readonly RateType: "Actual" | "Agreed" | "Indicative"
  readonly ContractIdentification?: string
}

/**
 * `strict` follows the field tables; `lenient` also admits what published examples do (a `revolut` response without
 * `DebtorAccount`).
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
 * The `revolut` response, strict: `Initiation.DebtorAccount` is required.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RevolutStrict: Schema.Schema<Revolut, RevolutEncoded> = revolutResponse(
  RevolutInitiationStrict,
  "RevolutInternationalPayment"
)

/**
 * The `revolut` response, lenient: `Initiation.DebtorAccount` may be missing.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RevolutLenient: Schema.Schema<Revolut, RevolutEncoded> = revolutLenient

/**
 * The `obie-3.1.11` response (OBWriteInternationalResponse5). `DebtorAccount` is optional (0..1) in the standard, so
 * strict and lenient mode are the same Schema.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ObieStrict: Schema.Schema<Obie, ObieEncoded> = obieResponse

/**
 * Same as {@link ObieStrict}: see there.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ObieLenient: Schema.Schema<Obie, ObieEncoded> = obieResponse

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
export const schema = <P extends Profile>(profile: P, options?: Options): Schema.Schema<PaymentOf<P>, EncodedOf<P>> =>
  schemas[profile][options?.mode ?? "strict"] as unknown as Schema.Schema<PaymentOf<P>, EncodedOf<P>>

const decoders = {
  revolut: {
    strict: Schema.decodeUnknownEither(RevolutStrict, { errors: "all" }),
    lenient: Schema.decodeUnknownEither(RevolutLenient, { errors: "all" })
  },
  "obie-3.1.11": {
    strict: Schema.decodeUnknownEither(ObieStrict, { errors: "all" }),
    lenient: Schema.decodeUnknownEither(ObieLenient, { errors: "all" })
  }
} as const

/**
 * Decodes a response body (parsed JSON) in a profile and mode, reporting every issue (`errors: "all"`), each with
 * the path of its field from the root (`["Data", "Initiation", "CreditorAccount", "Identification"]`).
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = <P extends Profile>(
  profile: P,
  input: unknown,
  options?: Options
): Either.Either<PaymentOf<P>, ParseResult.ParseError> =>
  decoders[profile][options?.mode ?? "strict"](input) as Either.Either<PaymentOf<P>, ParseResult.ParseError>

/**
 * Encodes a decoded response back to its wire form (amounts and rates with their scale, date-times at their offset).
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = <P extends Profile>(
  profile: P,
  payment: PaymentOf<P>
): Either.Either<EncodedOf<P>, ParseResult.ParseError> =>
  Schema.encodeEither(schemas[profile].lenient as unknown as Schema.Schema<PaymentOf<P>, EncodedOf<P>>)(payment)

/**
 * The JSON Schema (draft 2020-12) of a profile's response in strict mode, as committed in
 * `schemas/international-payment.<profile>.json`. Made by `JSONSchema.make` with target `jsonSchema2020-12`
 * (definitions under `$defs`, `$ref`s to `#/$defs/...`, the 2020-12 `$schema`), then opened to unknown properties
 * (no `additionalProperties: false`) because the decoders tolerate and drop them. What JSON Schema cannot say (the
 * Identification under its SchemeName, code point counts of astral characters aside) is only in the Schemas.
 *
 * @since 0.1.0
 * @category json schema
 */
export const jsonSchema = (profile: Profile): { readonly [key: string]: unknown } =>
  toDraft202012(JSONSchema.make(schema(profile, { mode: "strict" }), { target: "jsonSchema2020-12" }), {
    title: `International payment (${profile} profile, strict mode)`,
    description: `The response of GET /international-payments/{InternationalPaymentId} in the ${profile} profile of @payrules/open-banking, strict mode. Generated from the Schemas by scripts/generate-json-schema.ts: do not edit.`
  })
