/**
 * Lengths in Unicode code points, checked without counting when the UTF-16 length already decides: a string of n
 * code units has between ceil(n / 2) and n code points.
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
