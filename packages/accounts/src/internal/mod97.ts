/** The value of an IBAN character: 0-9 for digits, 10-35 for A-Z (upper case only). */
export const charValue = (code: number): number => (code <= 57 ? code - 48 : code - 55)

/** ISO 7064 MOD 97-10 remainder of `s` (upper-case letters and digits) with letters expanded to two digits (ISO 13616). */
export const mod97 = (s: string): number => {
  let r = 0
  for (let i = 0; i < s.length; i++) {
    const v = charValue(s.charCodeAt(i))
    r = v < 10 ? (r * 10 + v) % 97 : (r * 100 + v) % 97
  }
  return r
}
