/**
 * The arithmetic of single-character substitutions and adjacent transpositions in an IBAN, for the property tests
 * (Iban.test.ts, Iban.properties.test.ts): which changes MOD 97-10 cannot see, derived from the expansion of the
 * characters (a digit is itself, a letter two digits) rather than from the implementation under test.
 */
import * as Iban from "@payrules/accounts/Iban"
import { Option } from "effect"
import { isDigit, mod97, value } from "./ibanOracle.js"

export type CharClass = "n" | "a" | "c"
export const classesOf = (code: string): ReadonlyArray<CharClass> => {
  const country = Option.getOrThrow(Iban.country(code))
  const out: Array<CharClass> = []
  for (const m of country.bbanFormat.matchAll(/(\d+)!([nac])/g)) {
    for (let i = 0; i < Number(m[1]); i++) out.push(m[2] as CharClass)
  }
  return out
}

export const substitute = (s: string, i: number, c: string): string => s.slice(0, i) + c + s.slice(i + 1)
export const swap = (s: string, i: number): string => s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2)

/**
 * A substitution at BBAN index k of a character of value v (width w: 1 for a digit, 2 for a letter) by one of value
 * v' (width w') changes the expanded number N, whose remainder is taken, by 10^L · (P · (10^w' − 10^w) + v' − v),
 * with P the expanded BBAN prefix before k and L the expanded length after k. 10 is invertible mod 97, so the change
 * is invisible exactly when P · (10^w' − 10^w) + v' − v ≡ 0 (mod 97). With w = w' that needs v ≡ v' (impossible for
 * a different character, |v' − v| ≤ 35); with w ≠ w' it is 90·P·(w' − w) + v' − v ≡ 0, which does happen (about one
 * digit↔letter substitution in 97) and can only occur where the format admits both letters and digits ("c").
 */
export const substitutionInvisible = (bban: string, k: number, replacement: string): boolean => {
  const v = value(bban[k]!)
  const v2 = value(replacement)
  const dw = (isDigit(replacement) ? 1 : 2) - (isDigit(bban[k]!) ? 1 : 2)
  if (dw === 0) return false
  const p = mod97(bban.slice(0, k))
  return (((90n * p * BigInt(dw) + BigInt(v2 - v)) % 97n) + 97n) % 97n === 0n
}

/**
 * Swapping adjacent BBAN characters a digit d and a letter of value l changes N by ±10^L · 9 · (11d − l): invisible
 * exactly when l = 11d, that is B (11) with 1, M (22) with 2, X (33) with 3 ("B1" and "1B" both expand to "111").
 */
export const isUndetectableSwap = (x: string, y: string): boolean => {
  const [d, l] = isDigit(x) ? [x, y] : [y, x]
  return isDigit(d) && !isDigit(l) && value(l) === 11 * value(d)
}
