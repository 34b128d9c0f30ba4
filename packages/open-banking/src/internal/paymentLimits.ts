/**
 * The text limits of the international payment response, per profile, with their sources.
 *
 * @internal
 */
import type { Profile } from "../Profile.js"
import { text } from "./text.js"

/** A length limit on a text field, in Unicode code points, per profile, with its source. @internal */
export interface Limit {
  /** the field, as a dotted path from `Data` (`*` for every element of an array) */
  readonly field: string
  readonly minLength: number
  readonly maxLength: { readonly [P in Profile]: number }
  readonly source: string
}

const OBIE = "Open Banking 3.1.11 data dictionary"
const same = (n: number) => ({ revolut: n, "obie-3.1.11": n })

/** @internal */
export const limitList = [
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
    maxLength: { revolut: 140, "obie-3.1.11": 350 },
    source: `Revolut's OpenAPI document publishes 140; ${OBIE}, OBInternational3/Creditor/Name (OBPartyIdentification43, Max350Text)`
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

/** @internal */
export type LimitField = (typeof limitList)[number]["field"]

const limitOf = (field: LimitField): Limit => limitList.find((l) => l.field === field)!

/** The Open Banking text type of a limit in a profile (`Max35Text`). @internal */
export const kind = (limit: Limit, profile: Profile): string => `Max${limit.maxLength[profile]}Text`

/**
 * A text Schema with the limit of a field in a profile; `pattern` (a regular expression source) guides what its
 * arbitrary draws. @internal
 */
export const textOf = (field: LimitField, profile: Profile, pattern?: string) => {
  const l = limitOf(field)
  return text(kind(l, profile), l.minLength, l.maxLength[profile], pattern)
}
