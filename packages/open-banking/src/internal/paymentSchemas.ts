/**
 * The Schemas of the international payment response, built per profile and per currency mode (strict: listed
 * currency codes and closed enumerations; lenient: any well-formed code and open enumerations); the public module
 * (`InternationalPayment`) names them and decodes with them. The accounts are in `paymentAccounts.ts`.
 *
 * @internal
 */
import { OffsetDateTime } from "@payrules/iso8601"
import { Currency, DecimalAmount } from "@payrules/money"
import type * as BigDecimal from "effect/BigDecimal"
import * as Schema from "effect/Schema"
import * as PaymentStatus from "../PaymentStatus.js"
import type { Profile } from "../Profile.js"
import { type Currencies, isLenient, perProfile, prefix } from "./mode.js"
import { creditorAccount, debtorAccount } from "./paymentAccounts.js"
import {
  AGENT_SCHEMES,
  country,
  enumeration,
  idPattern,
  openEnumeration,
  RateFromNumber,
  RateFromString,
  RateType,
  RateTypeLenient
} from "./paymentLeaves.js"
import { textOf } from "./paymentLimits.js"
import { ID_CHARACTERS, oneOfPattern } from "./text.js"
import { AbsoluteUri } from "./uri.js"

const opt = Schema.optionalKey

const rateType = (currencies: Currencies) => (isLenient(currencies) ? RateTypeLenient : RateType)

const currencyCode = (currencies: Currencies) =>
  currencies === "listed" ? Currency.CurrencyCode : Currency.currencyCode({ allowUnknown: true })

/** the identifier of a Schema that carries currency codes, per currency mode */
const named = (profile: Profile, name: string, currencies: Currencies) =>
  `${prefix(profile)}${name}${currencies === "listed" ? "" : "AnyCurrency"}`

// ---------------------------------------------------------------------------------------------------------------
// objects shared by both profiles (same types, profile-specific limits)
// ---------------------------------------------------------------------------------------------------------------

const atMostSevenLines = Schema.makeFilter(
  (lines: ReadonlyArray<string>) =>
    lines.length <= 7 || `at most 7 address lines (OBPostalAddress6), got ${lines.length}`,
  {
    expected: "at most 7 address lines",
    toJsonSchema: () => ({ maxItems: 7 }),
    arbitraryConstraint: { maxLength: 7 },
    "~structural": true
  }
)

const postalAddress = perProfile((profile) =>
  Schema.Struct({
    Department: opt(textOf("PostalAddress.Department", profile)),
    SubDepartment: opt(textOf("PostalAddress.SubDepartment", profile)),
    StreetName: opt(textOf("PostalAddress.StreetName", profile)),
    BuildingNumber: opt(textOf("PostalAddress.BuildingNumber", profile)),
    PostCode: opt(textOf("PostalAddress.PostCode", profile)),
    TownName: opt(textOf("PostalAddress.TownName", profile)),
    CountrySubDivision: opt(textOf("PostalAddress.CountrySubDivision", profile)),
    Country: opt(country(profile)),
    AddressLine: opt(Schema.Array(textOf("PostalAddress.AddressLine.*", profile)).check(atMostSevenLines))
  }).annotate({ identifier: `${prefix(profile)}PostalAddress`, description: "a postal address" })
)

const creditor = perProfile((profile) =>
  Schema.Struct({
    Name: opt(textOf("Data.Initiation.Creditor.Name", profile)),
    PostalAddress: opt(postalAddress(profile))
  }).annotate({ identifier: `${prefix(profile)}Creditor`, description: "the party the money is due to" })
)

const instructedAmount = (profile: Profile, currencies: Currencies) =>
  Schema.Struct({
    Amount: DecimalAmount.fromString(
      profile === "revolut" ? DecimalAmount.decimal13x5 : DecimalAmount.integerOrDecimal13x5
    ),
    Currency: currencyCode(currencies)
  }).annotate({
    identifier: named(profile, "InstructedAmount", currencies),
    description: "the amount moved between debtor and creditor before charges, and its currency"
  })

/** what the arbitrary of a ContractIdentification draws */
const CONTRACT_ID = `^${ID_CHARACTERS}{1,40}$`

const initiationExchangeRateInformation = (profile: Profile, currencies: Currencies) =>
  Schema.Struct({
    UnitCurrency: currencyCode(currencies),
    ExchangeRate: opt(RateFromNumber),
    RateType: rateType(currencies),
    ContractIdentification: opt(
      textOf("Data.Initiation.ExchangeRateInformation.ContractIdentification", profile, CONTRACT_ID)
    )
  }).annotate({
    identifier: named(profile, "InitiationExchangeRateInformation", currencies),
    description: "the exchange rate requested in the initiation (ExchangeRate a number, optional)"
  })

const dataExchangeRateInformation = <I>(
  profile: Profile,
  rate: Schema.Codec<BigDecimal.BigDecimal, I>,
  currencies: Currencies
) =>
  Schema.Struct({
    UnitCurrency: currencyCode(currencies),
    ExchangeRate: rate,
    RateType: rateType(currencies),
    ContractIdentification: opt(textOf("Data.ExchangeRateInformation.ContractIdentification", profile, CONTRACT_ID)),
    ExpirationDateTime: opt(OffsetDateTime.OffsetDateTimeFromString)
  }).annotate({
    identifier: named(profile, "ExchangeRateInformation", currencies),
    description: "the exchange rate actually used in the payment"
  })

const remittanceInformation = perProfile((profile) =>
  Schema.Struct({
    Unstructured: opt(textOf("Data.Initiation.RemittanceInformation.Unstructured", profile)),
    Reference: opt(textOf("Data.Initiation.RemittanceInformation.Reference", profile))
  }).annotate({
    identifier: `${prefix(profile)}RemittanceInformation`,
    description: "remittance information; when both are given, Unstructured is ignored (D7)"
  })
)

const links = perProfile((profile) =>
  Schema.Struct({
    Self: AbsoluteUri,
    Next: opt(AbsoluteUri),
    Prev: opt(AbsoluteUri)
  }).annotate({ identifier: `${prefix(profile)}Links`, description: "links to the resource and its pages" })
)

const meta = perProfile((profile) =>
  Schema.Struct({
    TotalPages: opt(
      Schema.Number.annotate({ format: "int32" }).check(
        Schema.isInt(),
        Schema.isBetween({ minimum: 0, maximum: 2_147_483_647 }, { message: "TotalPages is an int32 of at least 0" })
      )
    )
  }).annotate({ identifier: `${prefix(profile)}Meta`, description: "meta data of the response" })
)

const initiationFields = <CB extends Schema.Top, CA extends Schema.Top>(
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
  CreditorAccount: creditorAccount(profile, currencies),
  RemittanceInformation: opt(remittanceInformation(profile)),
  DebtorAccount: opt(debtorAccount(profile, currencies))
})

const dataFields = <S extends Schema.Top, R extends Schema.Top, I extends Schema.Top>(
  profile: Profile,
  status: S,
  exchangeRateInformation: R,
  initiation: I
) => ({
  InternationalPaymentId: textOf("Data.InternationalPaymentId", profile, idPattern(40)),
  ConsentId: textOf("Data.ConsentId", profile, idPattern(128)),
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
    Schema.Array(textOf("Data.Initiation.CreditorAgent.SchemeName", "revolut", oneOfPattern(AGENT_SCHEMES)))
  ),
  Identification: opt(textOf("Data.Initiation.CreditorAgent.Identification", "revolut")),
  Name: opt(textOf("Data.Initiation.CreditorAgent.Name", "revolut")),
  PostalAddress: opt(postalAddress("revolut"))
}).annotate({
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

const RevolutChargeBearerLenient = openEnumeration(
  "RevolutChargeBearerLenient",
  "who bears the charges: BorneByDebtor or FollowingServiceLevel",
  "BorneByDebtor",
  "FollowingServiceLevel"
)

const DEBTOR_ACCOUNT_MISSING =
  "DebtorAccount is missing: the specification marks it present (published examples leave it out: decode in lenient mode to accept such a response with a DebtorAccountMissing finding)"

/**
 * The initiation: with DebtorAccount present, as the specification requires (strict mode, `required`), or optional
 * (lenient mode).
 */
const revolutInitiation = (currencies: Currencies, required: boolean) => {
  const fields = initiationFields(
    "revolut",
    opt(isLenient(currencies) ? RevolutChargeBearerLenient : RevolutChargeBearer),
    opt(RevolutCreditorAgent),
    currencies
  )
  return required
    ? Schema.Struct({
        ...fields,
        DebtorAccount: debtorAccount("revolut", currencies).pipe(
          Schema.annotateKey({ messageMissingKey: DEBTOR_ACCOUNT_MISSING })
        )
      }).annotate({
        identifier: named("revolut", "Initiation", currencies),
        description: "the initiation payload, with DebtorAccount present as the specification requires"
      })
    : Schema.Struct(fields).annotate({
        identifier: named("revolut", "InitiationLenient", currencies),
        description: "the initiation payload; DebtorAccount may be missing (lenient mode)"
      })
}

const revolutResponse = <I extends Schema.Top>(initiation: I, currencies: Currencies, identifier: string) =>
  Schema.Struct({
    Data: Schema.Struct(
      dataFields(
        "revolut",
        isLenient(currencies) ? PaymentStatus.RevolutStatusLenient : PaymentStatus.RevolutStatus,
        opt(dataExchangeRateInformation("revolut", RateFromString, currencies)),
        initiation
      )
    ).annotate({ identifier: `${identifier}Data` }),
    Links: links("revolut"),
    Meta: meta("revolut")
  }).annotate({ identifier, title: "International payment (revolut profile)" })

/**
 * The `revolut` response, lenient: any well-formed currency code, every enumeration open (Status, RateType,
 * ChargeBearer, the accounts' SchemeName), DebtorAccount optional. Its type is the type of both `revolut` Schemas.
 * @internal
 */
export const revolutLenient = revolutResponse(
  revolutInitiation("any", false),
  "any",
  "RevolutInternationalPaymentLenient"
)

/** The `revolut` response, strict: listed currency codes, DebtorAccount required. @internal */
export const revolutStrict: Schema.Codec<typeof revolutLenient.Type, typeof revolutLenient.Encoded> = revolutResponse(
  revolutInitiation("listed", true),
  "listed",
  "RevolutInternationalPayment"
)

// ---------------------------------------------------------------------------------------------------------------
// obie-3.1.11
// ---------------------------------------------------------------------------------------------------------------

const ObieCreditorAgent = Schema.Struct({
  SchemeName: opt(textOf("Data.Initiation.CreditorAgent.SchemeName", "obie-3.1.11", oneOfPattern(AGENT_SCHEMES))),
  Identification: opt(textOf("Data.Initiation.CreditorAgent.Identification", "obie-3.1.11")),
  Name: opt(textOf("Data.Initiation.CreditorAgent.Name", "obie-3.1.11")),
  PostalAddress: opt(postalAddress("obie-3.1.11"))
}).annotate({
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

const ObieChargeBearerLenient = openEnumeration(
  "ObieChargeBearerLenient",
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
        isLenient(currencies) ? PaymentStatus.StatusLenient : PaymentStatus.Status,
        opt(dataExchangeRateInformation("obie-3.1.11", RateFromNumber, currencies)),
        Schema.Struct(
          initiationFields(
            "obie-3.1.11",
            opt(isLenient(currencies) ? ObieChargeBearerLenient : ObieChargeBearer),
            opt(ObieCreditorAgent),
            currencies
          )
        ).annotate({
          identifier: named("obie-3.1.11", "Initiation", currencies),
          description: "the initiation payload (OBInternational3)"
        })
      )
    ).annotate({ identifier: named("obie-3.1.11", "InternationalPaymentData", currencies) }),
    Links: opt(links("obie-3.1.11")),
    Meta: opt(meta("obie-3.1.11"))
  }).annotate({
    identifier: named("obie-3.1.11", "InternationalPayment", currencies),
    title: "International payment (obie-3.1.11 profile)"
  })

/**
 * The `obie-3.1.11` response, lenient: any well-formed currency code, every enumeration open. Its type is the type
 * of both `obie-3.1.11` Schemas. @internal
 */
export const obieLenient = obieResponse("any")

/** The `obie-3.1.11` response, strict: listed currency codes. @internal */
export const obieStrict: Schema.Codec<typeof obieLenient.Type, typeof obieLenient.Encoded> = obieResponse("listed")
