/**
 * The identifiers panel's work: one input read as an IBAN, a UK sort code and account number, a US routing number
 * or an ISO 8601 duration (by its shape), with what was parsed or the typed reason it was refused.
 */
import { AbaRouting, Iban, ModulusChecker, UkAccount } from "@payrules/accounts"
import { IsoDuration } from "@payrules/iso8601"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { extractIBAN } from "ibantools"

export type Kind = "iban" | "uk" | "aba" | "duration"

export const kindNames: Record<Kind, string> = {
  iban: "an IBAN",
  uk: "a UK sort code and account number",
  aba: "a US routing number",
  duration: "an ISO 8601 duration"
}

/** What a line of the result says: a name and a value. */
export interface Fact {
  readonly name: string
  readonly value: string
}

export type Reading =
  | { readonly _tag: "Empty" }
  | { readonly _tag: "Unrecognised"; readonly message: string }
  | { readonly _tag: "Parsed"; readonly kind: Kind; readonly facts: ReadonlyArray<Fact> }
  /** refused: the typed error's tag and reason, and its message */
  | {
      readonly _tag: "Refused"
      readonly kind: Kind
      readonly error: string
      readonly reason: string
      readonly message: string
    }

/** a sort code and an account number written apart (`12-34-56 12345678`), or the 14 digits of the pair */
const ukParts = (input: string): readonly [string, string] | undefined => {
  const s = input.trim()
  const apart = /^([\d-]+)[\s,/]+(\d+)$/.exec(s)
  if (apart !== null) return [apart[1]!, apart[2]!]
  return /^\d{14}$/.test(s) ? [s.slice(0, 6), s.slice(6)] : undefined
}

/**
 * By shape: a duration starts with P (after a sign), an IBAN with two letters, a UK pair is a sort code and an
 * account number written apart (or 14 digits), a routing number is up to 9 digits.
 */
export const kindOf = (input: string): Kind | undefined => {
  const s = input.trim()
  if (/^[+-]?[Pp]/.test(s)) return "duration"
  if (/^[A-Za-z]{2}/.test(s)) return "iban"
  if (ukParts(s) !== undefined) return "uk"
  if (/^\d{1,9}$/.test(s.replace(/[\s-]/g, ""))) return "aba"
  return undefined
}

const yesNo = (b: boolean) => (b ? "yes" : "no")

const readIban = (s: string): Reading =>
  Result.match(Iban.parse(s), {
    onFailure: (e): Reading => ({ _tag: "Refused", kind: "iban", error: e._tag, reason: e.reason, message: e.message }),
    onSuccess: (iban): Reading => {
      const country = Option.getOrUndefined(Iban.country(Iban.countryCode(iban)))
      const parts = extractIBAN(iban)
      const facts: Array<Fact> = [
        { name: "IBAN", value: Iban.format(iban) },
        {
          name: "country",
          value: `${Iban.countryCode(iban)} (IBAN length ${country?.length}, BBAN ${country?.bbanFormat})`
        },
        { name: "SEPA", value: yesNo(country?.sepa === true) },
        { name: "check digits", value: `${Iban.checkDigits(iban)} (MOD 97-10: valid)` },
        { name: "BBAN", value: Iban.bban(iban) }
      ]
      if (parts.bankIdentifier !== undefined && parts.bankIdentifier !== "")
        facts.push({ name: "bank", value: parts.bankIdentifier })
      if (parts.branchIdentifier !== undefined && parts.branchIdentifier !== "")
        facts.push({ name: "branch", value: parts.branchIdentifier })
      if (parts.accountNumber !== undefined && parts.accountNumber !== "")
        facts.push({ name: "account", value: parts.accountNumber })
      facts.push({
        name: "national check",
        value: Option.match(country?.nationalCheck ?? Option.none(), {
          onNone: () => "none known for this country",
          onSome: (rule) => `${rule}: valid`
        })
      })
      return { _tag: "Parsed", kind: "iban", facts }
    }
  })

const readUk = (s: string): Reading => {
  const [sortCode, account] = ukParts(s) ?? ["", ""]
  return Result.match(UkAccount.parse(sortCode, account), {
    onFailure: (e): Reading => ({ _tag: "Refused", kind: "uk", error: e._tag, reason: e.reason, message: e.message }),
    onSuccess: (a): Reading => ({
      _tag: "Parsed",
      kind: "uk",
      facts: [
        { name: "sort code", value: UkAccount.formatSortCode(a.sortCode) },
        { name: "account number", value: a.accountNumber },
        { name: "UK.OBIE.SortCodeAccountNumber", value: UkAccount.formatIdentifier(a) }
      ]
    })
  })
}

const readAba = (s: string): Reading =>
  Result.match(AbaRouting.parse(s.replace(/[\s-]/g, "")), {
    onFailure: (e): Reading => ({ _tag: "Refused", kind: "aba", error: e._tag, reason: e.reason, message: e.message }),
    onSuccess: (r): Reading => ({
      _tag: "Parsed",
      kind: "aba",
      facts: [
        { name: "routing number", value: r },
        { name: "Federal Reserve routing symbol", value: r.slice(0, 4) },
        { name: "institution", value: r.slice(4, 8) },
        { name: "check digit", value: `${r[8]} (weights 3, 7, 1: valid)` }
      ]
    })
  })

const readDuration = (s: string): Reading =>
  Result.match(IsoDuration.parse(s.trim()), {
    onFailure: (e): Reading => ({
      _tag: "Refused",
      kind: "duration",
      error: e._tag,
      reason: e.reason,
      message: e.message
    }),
    onSuccess: (d): Reading => ({
      _tag: "Parsed",
      kind: "duration",
      facts: [
        { name: "duration", value: IsoDuration.format(d) },
        { name: "sign", value: d.sign < 0 ? "negative" : d.sign === 0 ? "zero" : "positive" },
        ...IsoDuration.fieldNames.filter((f) => d[f] !== 0).map((f) => ({ name: f, value: String(d[f]) })),
        {
          name: "calendar part",
          value: IsoDuration.hasCalendarPart(d) ? IsoDuration.format(IsoDuration.calendarPart(d)) : "none"
        },
        { name: "time part", value: IsoDuration.hasTimePart(d) ? IsoDuration.format(IsoDuration.timePart(d)) : "none" }
      ]
    })
  })

export const read = (input: string): Reading => {
  if (input.trim() === "") return { _tag: "Empty" }
  switch (kindOf(input)) {
    case "iban":
      return readIban(input)
    case "uk":
      return readUk(input)
    case "aba":
      return readAba(input)
    case "duration":
      return readDuration(input)
    case undefined:
      return {
        _tag: "Unrecognised",
        message:
          "not the shape of an IBAN (two letters first), a UK sort code and account number (6 and 8 digits), a US routing number (9 digits) or an ISO 8601 duration (P first)"
      }
  }
}

/** The Vocalink modulus check of a UK pair, with the weight table that `@payrules/accounts` ships (loaded once). */
export const modulusCheck = (table: ModulusChecker.ModulusTable, input: string): Fact | undefined => {
  const [sortCode, number] = ukParts(input) ?? ["", ""]
  const account = UkAccount.parse(sortCode, number)
  if (Result.isFailure(account)) return undefined
  const result = ModulusChecker.checkWithTable(table, account.success)
  switch (result._tag) {
    case "Valid":
      return { name: "modulus check (Vocalink)", value: `valid (${result.checks.map((c) => c.method).join(", ")})` }
    case "Invalid":
      return { name: "modulus check (Vocalink)", value: `invalid: ${result.message}` }
    case "Unchecked":
      return { name: "modulus check (Vocalink)", value: `not checked: ${result.message}` }
  }
}
