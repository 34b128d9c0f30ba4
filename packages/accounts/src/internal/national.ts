import { countrySpecs } from "ibantools"
import { mod97 } from "./mod97.js"

/**
 * A national check inside the BBAN: the check digits a country puts in its domestic account number (Spain's DC,
 * France's RIB key, ...). `validate` runs on a BBAN of the right length and format; `complete` writes the check
 * digits into such a BBAN (changing one other digit in the rare case where no check digit fits), for the arbitrary.
 */
export interface NationalCheck {
  /** the rule, named for messages: "Spain's DC (dígitos de control)" */
  readonly rule: string
  readonly validate: (bban: string) => boolean
  readonly complete: (bban: string) => string
  /** the account part is digits only in practice and for the rule; the arbitrary draws digits where the format allows letters */
  readonly digitsOnly: boolean
}

const digitAt = (s: string, i: number): number => s.charCodeAt(i) - 48

const weighted = (s: string, from: number, weights: ReadonlyArray<number>): number => {
  let t = 0
  for (let k = 0; k < weights.length; k++) t += digitAt(s, from + k) * weights[k]!
  return t
}

const put = (s: string, at: number, text: string): string => s.slice(0, at) + text + s.slice(at + text.length)

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`)

/** Puts the digit that makes `check(s)` hold at `at`, bumping the digit at `bump` when no digit does. */
const solveDigit = (s: string, at: number, bump: number, check: (s: string) => boolean): string => {
  let current = s
  for (let attempt = 0; attempt < 10; attempt++) {
    for (let d = 0; d <= 9; d++) {
      const candidate = put(current, at, String(d))
      if (check(candidate)) return candidate
    }
    current = put(current, bump, String((digitAt(current, bump) + 1) % 10))
  }
  // unreachable: the digit at `at` has weight 1 and `bump` a weight prime to the modulus, so some bump fits
  throw new Error(`national check: no check digit at ${at} for ${s}`)
}

/** The check functions ibantools ships, captured when this module loads. */
const ibantools = (code: string): ((bban: string) => boolean) => {
  const f = countrySpecs[code]?.bban_validation_func
  if (f === undefined) throw new Error(`ibantools has no national check for ${code}`)
  return f
}

// ---- MOD 97-10 over the BBAN, the last two digits being the check digits (BA, ME, MK, PT, RS, SI)

const mod97Complete = (bban: string): string => {
  const n = bban.length - 2
  return put(bban, n, twoDigits(98 - mod97(`${bban.slice(0, n)}00`)))
}

const mod97Bban = (rule: string, validate: (bban: string) => boolean, digitsOnly = false): NationalCheck => ({
  rule,
  validate,
  complete: mod97Complete,
  digitsOnly
})

// ---- Belgium: the first ten digits mod 97 (97 for 0) are the last two

const belgium: NationalCheck = {
  rule: "Belgium's check digits (the first ten digits mod 97, or 97 when that is 0)",
  validate: ibantools("BE"),
  complete: (bban) => {
    const r = Number(bban.slice(0, 10)) % 97
    return put(bban, 10, twoDigits(r === 0 ? 97 : r))
  },
  digitsOnly: false
}

// ---- Czech Republic and Slovakia: prefix (6 digits) and number (10 digits) each with a weighted sum divisible by 11

const CZ_PREFIX = [10, 5, 8, 4, 2, 1]
const CZ_NUMBER = [6, 3, 7, 9, 10, 5, 8, 4, 2, 1]

const czechSlovakValid = (bban: string): boolean =>
  weighted(bban, 4, CZ_PREFIX) % 11 === 0 && weighted(bban, 10, CZ_NUMBER) % 11 === 0

const czechSlovak = (country: string): NationalCheck => ({
  rule: `${country}'s account number check (the weighted sums of the prefix, weights 10 5 8 4 2 1, and of the number, weights 6 3 7 9 10 5 8 4 2 1, are multiples of 11)`,
  validate: czechSlovakValid,
  complete: (bban) => {
    const prefixed = solveDigit(bban, 9, 8, (s) => weighted(s, 4, CZ_PREFIX) % 11 === 0)
    return solveDigit(prefixed, 19, 18, (s) => weighted(s, 10, CZ_NUMBER) % 11 === 0)
  },
  digitsOnly: false
})

// ---- Estonia: 7-3-1 over the branch and account digits, check digit last

const EE_WEIGHTS = [7, 1, 3, 7, 1, 3, 7, 1, 3, 7, 1, 3, 7]

const estonia: NationalCheck = {
  rule: "Estonia's 7-3-1 check digit",
  validate: ibantools("EE"),
  complete: (bban) => put(bban, 15, String((10 - (weighted(bban, 2, EE_WEIGHTS) % 10)) % 10)),
  digitsOnly: false
}

// ---- Spain: DC, two MOD 11 digits (10 -> 1, 11 -> 0) over bank + branch and over the account

const ES_BANK_BRANCH = [4, 8, 5, 10, 9, 7, 3, 6]
const ES_ACCOUNT = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]
const spanishDigit = (sum: number): number => {
  const r = sum % 11
  return r <= 1 ? r : 11 - r
}

const spain: NationalCheck = {
  rule: "Spain's DC (dígitos de control: MOD 11 over bank and branch, and over the account number)",
  validate: ibantools("ES"),
  complete: (bban) =>
    put(bban, 8, `${spanishDigit(weighted(bban, 0, ES_BANK_BRANCH))}${spanishDigit(weighted(bban, 10, ES_ACCOUNT))}`),
  digitsOnly: false
}

// ---- France and Monaco: the RIB key, letters read as digits (A J -> 1, B K S -> 2, ..., I R Z -> 9)

const RIB_LETTERS = "12345678912345678923456789"

const ribDigits = (s: string): string => {
  let out = ""
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    out += c <= 57 ? s[i] : RIB_LETTERS[c - 65]
  }
  return out
}

const rib = (code: string, country: string): NationalCheck => ({
  rule: `${country}'s RIB key (clé RIB: bank, branch and account number, letters read as digits, then the key, make a multiple of 97)`,
  validate: ibantools(code),
  complete: (bban) => put(bban, 21, twoDigits(97 - mod97(`${ribDigits(bban.slice(0, 21))}00`))),
  digitsOnly: false
})

// ---- Croatia: ISO 7064 MOD 11,10 over the bank code (VBDI) and over the account number

const mod1110 = (s: string, from: number, length: number): number => {
  let p = 10
  for (let i = from; i < from + length; i++) {
    const t = (p + digitAt(s, i)) % 10
    p = (2 * (t === 0 ? 10 : t)) % 11
  }
  return (11 - p) % 10
}

const croatia: NationalCheck = {
  rule: "Croatia's ISO 7064 MOD 11,10 check digits of the bank code and of the account number",
  validate: ibantools("HR"),
  complete: (bban) => put(put(bban, 6, String(mod1110(bban, 0, 6))), 16, String(mod1110(bban, 7, 9))),
  digitsOnly: false
}

// ---- Hungary: 9-7-3-1 check digits of the bank-branch code and of the account number (8 + 8 or 8 + 16 digits)

const HU_WEIGHTS = [9, 7, 3, 1, 9, 7, 3, 1, 9, 7, 3, 1, 9, 7, 3]
const hungarianDigit = (s: string, from: number, length: number): string =>
  String((10 - (weighted(s, from, HU_WEIGHTS.slice(0, length)) % 10)) % 10)

const SHORT_FORM = "00000000"

const hungary: NationalCheck = {
  rule: "Hungary's 9-7-3-1 check digits of the bank-branch code and of the account number",
  validate: ibantools("HU"),
  complete: (bban) => {
    // half of the drawn BBANs (by the parity of a digit) take the 16-digit form, whose last eight digits are zero
    let s = digitAt(bban, 16) % 2 === 0 ? put(bban, 16, SHORT_FORM) : bban
    s = put(s, 7, hungarianDigit(s, 0, 7))
    if (!s.endsWith(SHORT_FORM)) s = put(s, 23, hungarianDigit(s, 8, 15))
    return s.endsWith(SHORT_FORM) ? put(s, 15, hungarianDigit(s, 8, 7)) : s
  },
  digitsOnly: false
}

// ---- Norway: MOD 11 with weights 5 4 3 2 7 6 5 4 3 2 (numbers needing 10 are not issued)

const NO_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]

const norway: NationalCheck = {
  rule: "Norway's MOD 11 check digit (weights 5 4 3 2 7 6 5 4 3 2)",
  validate: ibantools("NO"),
  complete: (bban) => solveDigit(bban, 10, 9, (s) => (weighted(s, 0, NO_WEIGHTS) + digitAt(s, 10)) % 11 === 0),
  digitsOnly: false
}

// ---- Poland: the check digit of the eight-digit bank-branch code, weights 3 9 7 1 3 9 7

const PL_WEIGHTS = [3, 9, 7, 1, 3, 9, 7]

const poland: NationalCheck = {
  rule: "Poland's bank-branch check digit (weights 3 9 7 1 3 9 7)",
  validate: ibantools("PL"),
  complete: (bban) => put(bban, 7, String((10 - (weighted(bban, 0, PL_WEIGHTS) % 10)) % 10)),
  digitsOnly: false
}

// ---- North Macedonia: MOD 97-10 as the others, letters read as in the IBAN (A = 10 ... Z = 35)

const macedonia = mod97Bban(
  "North Macedonia's check digits (ISO 7064 MOD 97-10 over the BBAN)",
  (bban) => mod97(bban) === 1,
  true
)

/** The national checks by country code: every country for which ibantools 4.5 has a BBAN check. */
export const nationalChecks: ReadonlyMap<string, NationalCheck> = new Map<string, NationalCheck>([
  ["BA", mod97Bban("Bosnia and Herzegovina's check digits (ISO 7064 MOD 97-10 over the BBAN)", ibantools("BA"))],
  ["BE", belgium],
  ["CZ", czechSlovak("the Czech Republic")],
  ["EE", estonia],
  ["ES", spain],
  ["FR", rib("FR", "France")],
  ["HR", croatia],
  ["HU", hungary],
  ["MC", rib("MC", "Monaco")],
  ["ME", mod97Bban("Montenegro's check digits (ISO 7064 MOD 97-10 over the BBAN)", ibantools("ME"))],
  ["MK", macedonia],
  ["NO", norway],
  ["PL", poland],
  ["PT", mod97Bban("Portugal's NIB check digits (ISO 7064 MOD 97-10 over the BBAN)", ibantools("PT"))],
  ["RS", mod97Bban("Serbia's check digits (ISO 7064 MOD 97-10 over the BBAN)", ibantools("RS"))],
  ["SI", mod97Bban("Slovenia's check digits (ISO 7064 MOD 97-10 over the BBAN)", ibantools("SI"))],
  ["SK", czechSlovak("Slovakia")]
])
