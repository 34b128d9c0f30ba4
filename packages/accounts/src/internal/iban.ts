import * as Schema from "effect/Schema"
import { getCountrySpecifications } from "ibantools"
import { charValue, mod97 } from "./mod97.js"
import { type NationalCheck, nationalChecks } from "./national.js"

/** `n` digits, `a` upper-case letters, `c` either (the SWIFT IBAN registry's notation). */
export type SegmentKind = "n" | "a" | "c"

export interface Segment {
  readonly kind: SegmentKind
  readonly length: number
}

export interface Country {
  readonly code: string
  readonly length: number
  readonly bbanFormat: string
  readonly inRegistry: boolean
  readonly sepa: boolean
  readonly segments: ReadonlyArray<Segment>
  /** the check digits inside the BBAN, for the countries where ibantools has them */
  readonly national: NationalCheck | undefined
}

const SEGMENT = /^\[(A-Z|0-9|A-Z0-9|0-9A-Z)\]\{(\d+)\}/

const parseSegments = (source: string): ReadonlyArray<Segment> | undefined => {
  let rest = source
  const out: Array<Segment> = []
  while (rest.length > 0) {
    const m = SEGMENT.exec(rest)
    if (m === null) return undefined
    const kind: SegmentKind = m[1] === "0-9" ? "n" : m[1] === "A-Z" ? "a" : "c"
    const length = Number(m[2])
    const last = out[out.length - 1]
    if (last !== undefined && last.kind === kind) out[out.length - 1] = { kind, length: last.length + length }
    else out.push({ kind, length })
    rest = rest.slice(m[0].length)
  }
  return out
}

const stripAnchors = (source: string): string => source.replace(/^\^/, "").replace(/\$$/, "")

/**
 * The countries of ibantools whose BBAN pattern is a sequence of character classes that adds up to the IBAN length
 * (all of them in the pinned version; a test compares the counts, so a pattern we cannot read fails loudly there).
 */
const buildCountries = (): ReadonlyMap<string, Country> => {
  const map = new Map<string, Country>()
  const specs = getCountrySpecifications()
  for (const code of Object.keys(specs).sort()) {
    const spec = specs[code]
    if (spec === undefined || spec.chars === null || spec.bban_regexp === null) continue
    const segments = parseSegments(stripAnchors(spec.bban_regexp))
    if (segments === undefined || segments.reduce((n, s) => n + s.length, 0) !== spec.chars - 4) continue
    map.set(code, {
      code,
      length: spec.chars,
      bbanFormat: segments.map((s) => `${s.length}!${s.kind}`).join(""),
      inRegistry: spec.IBANRegistry,
      sepa: spec.SEPA,
      segments,
      national: nationalChecks.get(code)
    })
  }
  return map
}

export const countries: ReadonlyMap<string, Country> = buildCountries()

export const registryCountries: ReadonlyArray<Country> = [...countries.values()].filter((c) => c.inRegistry)

export type Reason =
  | "Syntax"
  | "UnknownCountry"
  | "NotInRegistry"
  | "Length"
  | "BbanFormat"
  | "Checksum"
  | "NationalCheckDigits"

export interface Failure {
  readonly reason: Reason
  readonly detail: string
}

export type Scan = { readonly ok: true; readonly iban: string } | { readonly ok: false; readonly failure: Failure }

const fail = (reason: Reason, detail: string): Scan => ({ ok: false, failure: { reason, detail } })

const isDigit = (c: number) => c >= 48 && c <= 57
const isUpper = (c: number) => c >= 65 && c <= 90

const kindNames: Record<SegmentKind, string> = { n: "digit", a: "letter", c: "letter or digit" }
const kindPlurals: Record<SegmentKind, string> = { n: "digits", a: "letters", c: "letters or digits" }

const describeFormat = (segments: ReadonlyArray<Segment>): string =>
  segments.map((s) => `${s.length} ${s.length === 1 ? kindNames[s.kind] : kindPlurals[s.kind]}`).join(", then ")

/** The first BBAN character that breaks the format, if any. */
const bbanMismatch = (
  bban: string,
  segments: ReadonlyArray<Segment>
): { index: number; kind: SegmentKind } | undefined => {
  let i = 0
  for (const s of segments) {
    for (let k = 0; k < s.length; k++, i++) {
      const c = bban.charCodeAt(i)
      if (s.kind === "n" ? !isDigit(c) : s.kind === "a" ? !isUpper(c) : false) return { index: i, kind: s.kind }
    }
  }
  return undefined
}

/** Removes spaces and upper-cases ASCII letters; `bad` is the index of the first other character. */
const normalise = (input: string): { readonly value: string } | { readonly bad: number } => {
  // the electronic form, the common case, needs no copy
  let electronic = true
  for (let i = 0; i < input.length && electronic; i++) {
    const c = input.charCodeAt(i)
    electronic = isDigit(c) || isUpper(c)
  }
  if (electronic) return { value: input }
  let out = ""
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i)
    if (c === 32) continue
    if (c >= 97 && c <= 122) out += String.fromCharCode(c - 32)
    else if (isDigit(c) || isUpper(c)) out += input[i]
    else return { bad: i }
  }
  return { value: out }
}

/** "a GB IBAN", "an IT IBAN": the article of a country code read letter by letter (an F, an I, an N...) */
const countryIban = (code: string): string => `${"AEFHILMNORSX".includes(code[0] ?? "") ? "an" : "a"} ${code} IBAN`

const quoteChar = (input: string, i: number): string => JSON.stringify(String.fromCodePoint(input.codePointAt(i) ?? 0))

export const scan = (input: string, allowNonRegistry: boolean): Scan => {
  const n = normalise(input)
  if ("bad" in n) {
    return fail(
      "Syntax",
      `character ${quoteChar(input, n.bad)} at position ${n.bad} is not allowed: an IBAN has letters, digits and (in print) spaces only`
    )
  }
  const s = n.value
  if (s.length < 4) {
    return fail("Syntax", "an IBAN starts with a two-letter country code and two check digits")
  }
  if (!isUpper(s.charCodeAt(0)) || !isUpper(s.charCodeAt(1))) {
    return fail("Syntax", "an IBAN starts with a two-letter country code")
  }
  if (!isDigit(s.charCodeAt(2)) || !isDigit(s.charCodeAt(3))) {
    return fail("Syntax", "the country code must be followed by two check digits")
  }
  const code = s.slice(0, 2)
  const country = countries.get(code)
  if (country === undefined) return fail("UnknownCountry", `${code} is not a country that issues IBANs`)
  if (!country.inRegistry && !allowNonRegistry) {
    return fail(
      "NotInRegistry",
      `${code} IBANs are not in the SWIFT IBAN registry; pass { allowNonRegistryCountries: true } to admit them`
    )
  }
  if (s.length !== country.length) {
    return fail("Length", `${countryIban(code)} has ${country.length} characters, this one has ${s.length}`)
  }
  const bban = s.slice(4)
  const bad = bbanMismatch(bban, country.segments)
  if (bad !== undefined) {
    return fail(
      "BbanFormat",
      `character ${bad.index + 5} (${JSON.stringify(bban[bad.index])}) must be a ${kindNames[bad.kind]}: the account part of ${countryIban(code)} is ${country.bbanFormat} (${describeFormat(country.segments)})`
    )
  }
  const check = s.slice(2, 4)
  if (check === "00" || check === "01" || check === "99") {
    return fail("Checksum", `check digits ${check} are never issued (ISO 13616 uses 02 to 98)`)
  }
  if (mod97Rotated(s) !== 1) {
    return fail("Checksum", "the check digits do not match the rest of the IBAN (ISO 7064 MOD 97-10)")
  }
  if (country.national !== undefined && !country.national.validate(bban)) {
    return fail("NationalCheckDigits", `the national check digits inside the BBAN are wrong: ${country.national.rule}`)
  }
  return { ok: true, iban: s }
}

/** MOD 97-10 of an IBAN with its first four characters moved to the end (ISO 13616), without building that string. */
const mod97Rotated = (s: string): number => {
  let r = 0
  for (let i = 4; i < s.length + 4; i++) {
    const v = charValue(s.charCodeAt(i < s.length ? i : i - s.length))
    r = v < 10 ? (r * 10 + v) % 97 : (r * 100 + v) % 97
  }
  return r
}

/** The two check digits that make `country + check + bban` valid. */
export const checkDigits = (code: string, bban: string): string => {
  const r = mod97(`${bban}${code}00`)
  const check = 98 - r
  return check < 10 ? `0${check}` : `${check}`
}

export const format = (iban: string): string => iban.replace(/(.{4})(?=.)/g, "$1 ")

/** The longest BBAN of any country: the generated character pools are this long. */
const LONGEST = Math.max(...[...countries.values()].map((c) => c.length - 4))

const pool = (alphabet: string) => Schema.String.check(Schema.isPattern(new RegExp(`^[${alphabet}]{${LONGEST}}$`)))

/**
 * What a generated IBAN is built from: a country among the given ones (at least one), and three strings of digits,
 * letters, and letters or digits, from which each position of the BBAN takes the character its format asks for.
 */
export const source = (among: ReadonlyArray<Country>): Schema.Codec<Source> =>
  Schema.Struct({
    country: Schema.Literals(among.map((c) => c.code)),
    digits: pool("0-9"),
    letters: pool("A-Z"),
    alphanumerics: pool("A-Z0-9")
  })

/** What {@link source} generates. */
export interface Source {
  readonly country: string
  readonly digits: string
  readonly letters: string
  readonly alphanumerics: string
}

/**
 * A valid IBAN (electronic form) built from a generated {@link Source}: the BBAN follows the country's format, its
 * national check digits are computed where the country has them, then the IBAN check digits.
 */
export const build = (drawn: Source): string => {
  const country = countries.get(drawn.country)!
  const national = country.national
  let bban = ""
  for (const s of country.segments) {
    const kind = national?.digitsOnly === true ? "n" : s.kind
    const from = kind === "n" ? drawn.digits : kind === "a" ? drawn.letters : drawn.alphanumerics
    bban += from.slice(bban.length, bban.length + s.length)
  }
  if (national !== undefined) bban = national.complete(bban)
  return `${country.code}${checkDigits(country.code, bban)}${bban}`
}
