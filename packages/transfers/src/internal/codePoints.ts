/**
 * Lengths in Unicode code points, checked without counting when the UTF-16 length already decides (a string of n
 * code units has between ceil(n / 2) and n code points), and the characters that text must not hold.
 */

export const count = (s: string): number => {
  let n = 0
  const len = s.length
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
      const next = s.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
    n++
  }
  return n
}

/** -1 when shorter than `min`, 1 when longer than `max`, 0 when within (both in code points) */
export const compare = (s: string, min: number, max: number): -1 | 0 | 1 => {
  const units = s.length
  if (units < min) return -1
  if (units <= max && units - (units >> 1) >= min) return 0
  const n = count(s)
  return n < min ? -1 : n > max ? 1 : 0
}

const control =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** a control character (U+0000 to U+001F, U+007F to U+009F) or a lone surrogate (text that UTF-8 cannot carry) */
export const hasControl = (s: string): boolean => control.test(s)

/** the first control character or lone surrogate: its code unit, and its position in code points from 1 */
export const firstControl = (s: string): { readonly code: number; readonly at: number } | undefined => {
  const bad = control.exec(s)
  return bad === null ? undefined : { code: bad[0].charCodeAt(0), at: count(s.slice(0, bad.index)) + 1 }
}
