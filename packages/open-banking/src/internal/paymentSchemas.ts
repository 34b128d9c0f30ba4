/**
 * The Schemas of the international payment response, built per profile and per currency mode; the public module
 * (`InternationalPayment`) names them and decodes with them.
 *
 * @internal
 */
import { AccountIdentification } from "@payrules/accounts"
import { OffsetDateTime } from "@payrules/iso8601"
import { Currency, DecimalAmount } from "@payrules/money"
import * as Arbitrary from "effect/Arbitrary"
import type * as BigDecimal from "effect/BigDecimal"
import * as Schema from "effect/Schema"
import * as PaymentStatus from "../PaymentStatus.js"
import type { Profile } from "../Profile.js"
import {
  AGENT_SCHEMES,
  country,
  enumeration,
  idArbitrary,
  RateFromNumber,
  RateFromString,
  RateType,
  SchemeName
} from "./paymentLeaves.js"
import { textOf } from "./paymentLimits.js"
import { ID_ALPHABET, stringOf } from "./text.js"
import { AbsoluteUri } from "./uri.js"

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

const prefix = (profile: Profile): string => (profile === "revolut" ? "Revolut" : "Obie")

/**
 * The currency codes a set of Schemas accepts: those of the bundled ISO 4217 list (strict mode, what we send), or
 * any well-formed code (lenient mode, what we read: `InternationalPaymentCheck` reports an unlisted one). @internal
 */
export type Currencies = "listed" | "any"

const currencyCode = (currencies: Currencies) =>
  currencies === "listed" ? Currency.CurrencyCode : Currency.currencyCode({ allowUnknown: true })

/** the identifier of a Schema that carries currency codes, per currency mode */
const named = (profile: Profile, name: string, currencies: Currencies) =>
  `${prefix(profile)}${name}${currencies === "listed" ? "" : "AnyCurrency"}`

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

const instructedAmount = (profile: Profile, currencies: Currencies) =>
  Schema.Struct({
    Amount: DecimalAmount.fromString(
      profile === "revolut" ? DecimalAmount.decimal13x5 : DecimalAmount.integerOrDecimal13x5
    ),
    Currency: currencyCode(currencies)
  }).annotations({
    identifier: named(profile, "InstructedAmount", currencies),
    description: "the amount moved between debtor and creditor before charges, and its currency"
  })

const initiationExchangeRateInformation = (profile: Profile, currencies: Currencies) =>
  Schema.Struct({
    UnitCurrency: currencyCode(currencies),
    ExchangeRate: opt(RateFromNumber),
    RateType,
    ContractIdentification: opt(
      textOf("Data.Initiation.ExchangeRateInformation.ContractIdentification", profile, (fc) =>
        stringOf(fc, ID_ALPHABET, 1, 40)
      )
    )
  }).annotations({
    identifier: named(profile, "InitiationExchangeRateInformation", currencies),
    description: "the exchange rate requested in the initiation (ExchangeRate a number, optional)"
  })

const dataExchangeRateInformation = <I>(
  profile: Profile,
  rate: Schema.Schema<BigDecimal.BigDecimal, I>,
  currencies: Currencies
) =>
  Schema.Struct({
    UnitCurrency: currencyCode(currencies),
    ExchangeRate: rate,
    RateType,
    ContractIdentification: opt(
      textOf("Data.ExchangeRateInformation.ContractIdentification", profile, (fc) => stringOf(fc, ID_ALPHABET, 1, 40))
    ),
    ExpirationDateTime: opt(OffsetDateTime.OffsetDateTimeFromString)
  }).annotations({
    identifier: named(profile, "ExchangeRateInformation", currencies),
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
        Schema.annotations({
          jsonSchema: { format: "int32", minimum: 0, maximum: 2_147_483_647 },
          arbitrary: () => (fc) => fc.integer({ min: 0, max: 20 })
        })
      )
    )
  }).annotations({ identifier: `${prefix(profile)}Meta`, description: "meta data of the response" })

const initiationFields = <CB extends Schema.Struct.Field, CA extends Schema.Struct.Field>(
  profile: Profile,
  chargeBearer: CB,
  creditorAgent: CA,
  currencies: Currencies
) => ({
  InstructionIdentification: textOf("Data.Initiation.InstructionIdentification", profile),
  EndToEndIdentification: textOf("Data.Initiation.EndToEndIdentification", profile),
  ChargeBearer: chargeBearer,
  CurrencyOfTransfer: currencyCode(currencies),
  InstructedAmount: instructedAmount(profile, currencies),
  ExchangeRateInformation: opt(initiationExchangeRateInformation(profile, currencies)),
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

const RevolutChargeBearer = enumeration(
  "RevolutChargeBearer",
  "a revolut ChargeBearer",
  "who bears the charges: BorneByDebtor or FollowingServiceLevel",
  "BorneByDebtor",
  "FollowingServiceLevel"
)

/** the initiation, DebtorAccount optional */
const revolutInitiation = (currencies: Currencies) =>
  Schema.Struct(
    initiationFields("revolut", opt(RevolutChargeBearer), opt(RevolutCreditorAgent), currencies)
  ).annotations({
    identifier: named("revolut", "InitiationLenient", currencies),
    description: "the initiation payload; DebtorAccount may be missing (lenient mode)"
  })

const DEBTOR_ACCOUNT_MISSING =
  "DebtorAccount is missing: the specification marks it present (published examples leave it out: decode in lenient mode to accept such a response with a DebtorAccountMissing finding)"

type RevolutInitiation = ReturnType<typeof revolutInitiation>

/** the initiation with DebtorAccount present, as the specification requires (strict mode) */
const requireDebtorAccount = (initiation: RevolutInitiation) =>
  initiation.pipe(
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

const revolutResponse = (
  initiation: Schema.Schema<RevolutInitiation["Type"], RevolutInitiation["Encoded"]>,
  currencies: Currencies,
  identifier: string
) =>
  Schema.Struct({
    Data: Schema.Struct(
      dataFields(
        "revolut",
        PaymentStatus.RevolutStatus,
        opt(dataExchangeRateInformation("revolut", RateFromString, currencies)),
        initiation
      )
    ).annotations({ identifier: `${identifier}Data` }),
    Links: links("revolut"),
    Meta: meta("revolut")
  }).annotations({ identifier, title: "International payment (revolut profile)" })

/**
 * The `revolut` response, lenient: any well-formed currency code, DebtorAccount optional. Its type is the type of
 * both `revolut` Schemas. @internal
 */
export const revolutLenient = revolutResponse(revolutInitiation("any"), "any", "RevolutInternationalPaymentLenient")

/** The `revolut` response, strict: listed currency codes, DebtorAccount required. @internal */
export const revolutStrict: Schema.Schema<typeof revolutLenient.Type, typeof revolutLenient.Encoded> = revolutResponse(
  requireDebtorAccount(revolutInitiation("listed")),
  "listed",
  "RevolutInternationalPayment"
)

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

const ObieChargeBearer = enumeration(
  "ObieChargeBearer",
  "an obie-3.1.11 ChargeBearer",
  "who bears the charges (OBChargeBearerType1Code)",
  "BorneByCreditor",
  "BorneByDebtor",
  "FollowingServiceLevel",
  "Shared"
)

const obieResponse = (currencies: Currencies) =>
  Schema.Struct({
    Data: Schema.Struct(
      dataFields(
        "obie-3.1.11",
        PaymentStatus.Status,
        opt(dataExchangeRateInformation("obie-3.1.11", RateFromNumber, currencies)),
        Schema.Struct(
          initiationFields("obie-3.1.11", opt(ObieChargeBearer), opt(ObieCreditorAgent), currencies)
        ).annotations({
          identifier: named("obie-3.1.11", "Initiation", currencies),
          description: "the initiation payload (OBInternational3)"
        })
      )
    ).annotations({ identifier: named("obie-3.1.11", "InternationalPaymentData", currencies) }),
    Links: opt(links("obie-3.1.11")),
    Meta: opt(meta("obie-3.1.11"))
  }).annotations({
    identifier: named("obie-3.1.11", "InternationalPayment", currencies),
    title: "International payment (obie-3.1.11 profile)"
  })

/** The `obie-3.1.11` response, strict: listed currency codes. @internal */
export const obieStrict = obieResponse("listed")

/** The `obie-3.1.11` response, lenient: any well-formed currency code. @internal */
export const obieLenient: typeof obieStrict = obieResponse("any")
