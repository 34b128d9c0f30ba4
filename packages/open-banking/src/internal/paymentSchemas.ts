/**
 * The Schemas of the international payment response, built per profile and per currency mode; the public module
 * (`InternationalPayment`) names them and decodes with them.
 *
 * @internal
 */
import { AccountIdentification } from "@payrules/accounts"
import { OffsetDateTime } from "@payrules/iso8601"
import { Currency, DecimalAmount } from "@payrules/money"
import type * as BigDecimal from "effect/BigDecimal"
import * as Schema from "effect/Schema"
import * as PaymentStatus from "../PaymentStatus.js"
import type { Profile } from "../Profile.js"
import {
  AGENT_SCHEMES,
  country,
  enumeration,
  idPattern,
  RateFromNumber,
  RateFromString,
  RateType,
  SchemeName
} from "./paymentLeaves.js"
import { textOf } from "./paymentLimits.js"
import { withArbitrary } from "./schema.js"
import { ID_CHARACTERS, oneOfPattern } from "./text.js"
import { AbsoluteUri } from "./uri.js"

const opt = Schema.optionalKey

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

/**
 * `make` called once per profile: a Schema used at several places of a response (a postal address, an account) is
 * one Schema, so that the JSON Schema defines it once and decoding compiles it once.
 */
const perProfile = <A>(make: (profile: Profile) => A): ((profile: Profile) => A) => {
  const made = new Map<Profile, A>()
  return (profile) => {
    let a = made.get(profile)
    if (a === undefined) {
      a = make(profile)
      made.set(profile, a)
    }
    return a
  }
}

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

/**
 * An account of a profile with its Identification checked under its SchemeName (a filter of @payrules/accounts). Its
 * arbitrary draws the other fields from `struct` and a valid `{ SchemeName, Identification }` pair from
 * `AccountIdentification.SchemeAndIdentification`: random identifications are almost never valid.
 */
const identified = <S extends Schema.Top & { readonly Type: AccountIdentification.SchemeIdentification }>(
  profile: Profile,
  name: "CreditorAccount" | "DebtorAccount",
  struct: S
) => {
  const identifier = `${prefix(profile)}${name}`
  const description = `the ${name === "CreditorAccount" ? "creditor" : "debtor"} account: an Identification valid under its SchemeName`
  return withArbitrary(
    // the identifier on the check too: the JSON Schema then defines the account once, under that name (a struct
    // rebuilds to its own type, which TypeScript does not see through the generic `S`)
    AccountIdentification.checkIdentification(struct.annotate({ identifier, description }) as S).annotate({
      identifier
    }) as S,
    Schema.Struct({ account: struct, pair: AccountIdentification.SchemeAndIdentification }),
    (drawn): S["Type"] => {
      const { account, pair } = drawn as {
        readonly account: S["Type"]
        readonly pair: AccountIdentification.SchemeIdentification
      }
      return { ...account, SchemeName: pair.SchemeName, Identification: pair.Identification }
    }
  )
}

const creditorAccount = perProfile((profile) =>
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
)

const debtorAccount = perProfile((profile) =>
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
    RateType,
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
    RateType,
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
  CreditorAccount: creditorAccount(profile),
  RemittanceInformation: opt(remittanceInformation(profile)),
  DebtorAccount: opt(debtorAccount(profile))
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

const DEBTOR_ACCOUNT_MISSING =
  "DebtorAccount is missing: the specification marks it present (published examples leave it out: decode in lenient mode to accept such a response with a DebtorAccountMissing finding)"

/**
 * The initiation: with DebtorAccount present, as the specification requires (strict mode, `required`), or optional
 * (lenient mode).
 */
const revolutInitiation = (currencies: Currencies, required: boolean) => {
  const fields = initiationFields("revolut", opt(RevolutChargeBearer), opt(RevolutCreditorAgent), currencies)
  return required
    ? Schema.Struct({
        ...fields,
        DebtorAccount: debtorAccount("revolut").pipe(Schema.annotateKey({ messageMissingKey: DEBTOR_ACCOUNT_MISSING }))
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
        PaymentStatus.RevolutStatus,
        opt(dataExchangeRateInformation("revolut", RateFromString, currencies)),
        initiation
      )
    ).annotate({ identifier: `${identifier}Data` }),
    Links: links("revolut"),
    Meta: meta("revolut")
  }).annotate({ identifier, title: "International payment (revolut profile)" })

/**
 * The `revolut` response, lenient: any well-formed currency code, DebtorAccount optional. Its type is the type of
 * both `revolut` Schemas. @internal
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

const obieResponse = (currencies: Currencies) =>
  Schema.Struct({
    Data: Schema.Struct(
      dataFields(
        "obie-3.1.11",
        PaymentStatus.Status,
        opt(dataExchangeRateInformation("obie-3.1.11", RateFromNumber, currencies)),
        Schema.Struct(
          initiationFields("obie-3.1.11", opt(ObieChargeBearer), opt(ObieCreditorAgent), currencies)
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

/** The `obie-3.1.11` response, strict: listed currency codes. @internal */
export const obieStrict = obieResponse("listed")

/** The `obie-3.1.11` response, lenient: any well-formed currency code. @internal */
export const obieLenient: typeof obieStrict = obieResponse("any")
