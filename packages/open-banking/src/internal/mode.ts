/**
 * What the Schemas of the international payment share: the profile's prefix of identifiers, a cache per profile, and
 * the mode of a set of Schemas (strict or lenient), named by the currency codes it accepts.
 *
 * @internal
 */
import type { Profile } from "../Profile.js"

/** the prefix of the identifiers of a profile's Schemas */
export const prefix = (profile: Profile): string => (profile === "revolut" ? "Revolut" : "Obie")

/**
 * The currency codes a set of Schemas accepts: those of the bundled ISO 4217 list (strict mode, what we send), or
 * any well-formed code (lenient mode, what we read: `InternationalPaymentCheck` reports an unlisted one). The
 * lenient Schemas (`any`) also read every enumeration open (an unknown value kept as `{ _tag: "Unknown", value }`,
 * reported as an `UnknownValue` finding).
 */
export type Currencies = "listed" | "any"

/** the enumerations of a mode: closed in strict mode (`listed`), open in lenient mode (`any`) */
export const isLenient = (currencies: Currencies): boolean => currencies === "any"

/**
 * `make` called once per profile: a Schema used at several places of a response (a postal address, an account) is
 * one Schema, so that the JSON Schema defines it once and decoding compiles it once.
 */
export const perProfile = <A>(make: (profile: Profile) => A): ((profile: Profile) => A) => {
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
