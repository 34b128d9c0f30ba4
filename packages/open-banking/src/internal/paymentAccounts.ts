/**
 * The accounts of the international payment (`CreditorAccount`, `DebtorAccount`) per profile and mode: in strict mode
 * a SchemeName of the four and an Identification valid under it; in lenient mode also a SchemeName added since, whose
 * Identification is kept as read.
 *
 * @internal
 */
import { AccountIdentification } from "@payrules/accounts"
import { OpenEnum } from "@payrules/lenient"
import * as Schema from "effect/Schema"
import type { Profile } from "../Profile.js"
import { type Currencies, isLenient, perProfile, prefix } from "./mode.js"
import { SchemeName, SchemeNameLenient } from "./paymentLeaves.js"
import { textOf } from "./paymentLimits.js"
import { withArbitrary } from "./schema.js"

const opt = Schema.optionalKey

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

/** what the arbitrary of a lenient account draws in place of a valid pair, now and then: a scheme added since */
const unknownScheme = Schema.Struct({
  SchemeName: Schema.toType(OpenEnum.UnknownFromString(AccountIdentification.schemeNames))
})

/**
 * An account as read from a server (lenient mode): its SchemeName may be one this version does not know, and its
 * Identification is then kept as read (`checkIdentificationLenient`); `InternationalPaymentCheck` reports it. The
 * arbitrary draws valid pairs of the four schemes and, now and then, an unknown scheme with any identification.
 */
const identifiedLenient = <S extends Schema.Top & { readonly Type: AccountIdentification.SchemeIdentificationLenient }>(
  profile: Profile,
  name: "CreditorAccount" | "DebtorAccount",
  struct: S
) => {
  const identifier = `${prefix(profile)}${name}Lenient`
  const description = `the ${name === "CreditorAccount" ? "creditor" : "debtor"} account: an Identification valid under its SchemeName, or kept as read under a scheme this version does not know`
  return withArbitrary(
    AccountIdentification.checkIdentificationLenient(struct.annotate({ identifier, description }) as S).annotate({
      identifier
    }) as S,
    Schema.Struct({
      account: struct,
      pair: Schema.Union([AccountIdentification.SchemeAndIdentification, unknownScheme])
    }),
    (drawn): S["Type"] => {
      const { account, pair } = drawn as {
        readonly account: S["Type"]
        readonly pair: AccountIdentification.SchemeIdentification | typeof unknownScheme.Type
      }
      return "Identification" in pair
        ? { ...account, SchemeName: pair.SchemeName, Identification: pair.Identification }
        : { ...account, SchemeName: pair.SchemeName }
    }
  )
}

const creditorFields = (profile: Profile) => ({
  Identification: textOf("Account.Identification", profile),
  Name: textOf("Account.Name", profile),
  SecondaryIdentification: opt(textOf("Account.SecondaryIdentification", profile))
})

const debtorFields = (profile: Profile) => ({
  Identification: textOf("Account.Identification", profile),
  Name: opt(textOf("Account.Name", profile)),
  SecondaryIdentification: opt(textOf("Account.SecondaryIdentification", profile))
})

const creditorAccountStrict = perProfile((profile) =>
  identified(profile, "CreditorAccount", Schema.Struct({ SchemeName, ...creditorFields(profile) }))
)

const creditorAccountLenient = perProfile((profile) =>
  identifiedLenient(
    profile,
    "CreditorAccount",
    Schema.Struct({ SchemeName: SchemeNameLenient, ...creditorFields(profile) })
  )
)

const debtorAccountStrict = perProfile((profile) =>
  identified(profile, "DebtorAccount", Schema.Struct({ SchemeName, ...debtorFields(profile) }))
)

const debtorAccountLenient = perProfile((profile) =>
  identifiedLenient(
    profile,
    "DebtorAccount",
    Schema.Struct({ SchemeName: SchemeNameLenient, ...debtorFields(profile) })
  )
)

/** the accounts of a mode: a strict SchemeName (`listed`), or one open to schemes added since (`any`) @internal */
export const creditorAccount = (profile: Profile, currencies: Currencies) =>
  isLenient(currencies) ? creditorAccountLenient(profile) : creditorAccountStrict(profile)

/** @internal */
export const debtorAccount = (profile: Profile, currencies: Currencies) =>
  isLenient(currencies) ? debtorAccountLenient(profile) : debtorAccountStrict(profile)
