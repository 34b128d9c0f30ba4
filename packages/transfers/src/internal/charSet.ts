/**
 * Sets of code points as sorted, disjoint, non-adjacent inclusive ranges in one flat array: `[lo0, hi0, lo1, hi1]`.
 * `END` (one past the last code point) stands for the end of the input in the follow sets of the safety analysis.
 */

export type CharSet = ReadonlyArray<number>

export const MAX_CODE_POINT = 0x10ffff

/** the end of the input, as a member of follow sets */
export const END = 0x110000

export const empty: CharSet = []

export const single = (c: number): CharSet => [c, c]

export const range = (lo: number, hi: number): CharSet => (lo <= hi ? [lo, hi] : [])

/** normalises any list of ranges (unsorted, overlapping) */
export const fromRanges = (pairs: ReadonlyArray<number>): CharSet => {
  const order: Array<number> = []
  for (let i = 0; i + 1 < pairs.length; i += 2) if (pairs[i]! <= pairs[i + 1]!) order.push(i)
  order.sort((a, b) => pairs[a]! - pairs[b]!)
  const out: Array<number> = []
  for (const i of order) {
    const lo = pairs[i]!
    const hi = pairs[i + 1]!
    const n = out.length
    if (n > 0 && lo <= out[n - 1]! + 1) {
      if (hi > out[n - 1]!) out[n - 1] = hi
    } else {
      out.push(lo, hi)
    }
  }
  return out
}

/** the union of two normalised sets, merged in one pass */
export const union = (a: CharSet, b: CharSet): CharSet => {
  if (a.length === 0) return b
  if (b.length === 0) return a
  const out: Array<number> = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    let lo: number
    let hi: number
    if (j >= b.length || (i < a.length && a[i]! <= b[j]!)) {
      lo = a[i]!
      hi = a[i + 1]!
      i += 2
    } else {
      lo = b[j]!
      hi = b[j + 1]!
      j += 2
    }
    const n = out.length
    if (n > 0 && lo <= out[n - 1]! + 1) {
      if (hi > out[n - 1]!) out[n - 1] = hi
    } else {
      out.push(lo, hi)
    }
  }
  return out
}

/** the complement within the code points (never contains END) */
export const negate = (a: CharSet): CharSet => {
  const out: Array<number> = []
  let next = 0
  for (let i = 0; i < a.length; i += 2) {
    const lo = a[i]!
    const hi = a[i + 1]!
    if (lo > next) out.push(next, Math.min(lo - 1, MAX_CODE_POINT))
    next = hi + 1
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT)
  return out
}

export const intersects = (a: CharSet, b: CharSet): boolean => {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2
    else if (b[j + 1]! < a[i]!) j += 2
    else return true
  }
  return false
}

export const has = (a: CharSet, c: number): boolean => {
  for (let i = 0; i < a.length; i += 2) {
    if (c < a[i]!) return false
    if (c <= a[i + 1]!) return true
  }
  return false
}

const overlap = (lo: number, hi: number, from: number, to: number): [number, number] | undefined => {
  const l = Math.max(lo, from)
  const h = Math.min(hi, to)
  return l <= h ? [l, h] : undefined
}

/** adds the other case of every ASCII letter in the set (Java's default CASE_INSENSITIVE) */
export const foldAscii = (a: CharSet): CharSet => {
  const extra: Array<number> = []
  for (let i = 0; i < a.length; i += 2) {
    const upper = overlap(a[i]!, a[i + 1]!, 0x41, 0x5a)
    if (upper !== undefined) extra.push(upper[0] + 32, upper[1] + 32)
    const lower = overlap(a[i]!, a[i + 1]!, 0x61, 0x7a)
    if (lower !== undefined) extra.push(lower[0] - 32, lower[1] - 32)
  }
  return extra.length === 0 ? a : fromRanges([...a, ...extra])
}

// Java's predefined classes (java.util.regex.Pattern, without UNICODE_CHARACTER_CLASS)
export const digit: CharSet = [0x30, 0x39]
export const word: CharSet = fromRanges([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a])
/** `[ \t\n\x0B\f\r]` */
export const space: CharSet = fromRanges([0x09, 0x0d, 0x20, 0x20])
/** `[ \t\xA0\u1680\u180e\u2000-\u200a\u202f\u205f\u3000]` */
export const horizontalSpace: CharSet = fromRanges([
  0x09, 0x09, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x180e, 0x180e, 0x2000, 0x200a, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000
])
/** `[\n\x0B\f\r\x85\u2028\u2029]` */
export const verticalSpace: CharSet = fromRanges([0x0a, 0x0d, 0x85, 0x85, 0x2028, 0x2029])
/** what `.` matches without DOTALL: everything but Java's line terminators */
export const dot: CharSet = negate(fromRanges([0x0a, 0x0a, 0x0d, 0x0d, 0x85, 0x85, 0x2028, 0x2029]))
export const anyChar: CharSet = [0, MAX_CODE_POINT]

/** Java's POSIX classes `\p{Alpha}` ... (US-ASCII only) */
export const posix: ReadonlyMap<string, CharSet> = new Map<string, CharSet>([
  ["Lower", [0x61, 0x7a]],
  ["Upper", [0x41, 0x5a]],
  ["ASCII", [0x00, 0x7f]],
  ["Alpha", fromRanges([0x41, 0x5a, 0x61, 0x7a])],
  ["Digit", digit],
  ["Alnum", fromRanges([0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a])],
  ["Punct", fromRanges([0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e])],
  ["Graph", [0x21, 0x7e]],
  ["Print", [0x20, 0x7e]],
  ["Blank", fromRanges([0x09, 0x09, 0x20, 0x20])],
  ["Cntrl", fromRanges([0x00, 0x1f, 0x7f, 0x7f])],
  ["XDigit", fromRanges([0x30, 0x39, 0x41, 0x46, 0x61, 0x66])],
  ["Space", space]
])

/** RE2's `[[:name:]]` classes (ASCII) */
export const bracketPosix: ReadonlyMap<string, CharSet> = new Map<string, CharSet>([
  ["alnum", fromRanges([0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a])],
  ["alpha", fromRanges([0x41, 0x5a, 0x61, 0x7a])],
  ["ascii", [0x00, 0x7f]],
  ["blank", fromRanges([0x09, 0x09, 0x20, 0x20])],
  ["cntrl", fromRanges([0x00, 0x1f, 0x7f, 0x7f])],
  ["digit", digit],
  ["graph", [0x21, 0x7e]],
  ["lower", [0x61, 0x7a]],
  ["print", [0x20, 0x7e]],
  ["punct", fromRanges([0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e])],
  ["space", fromRanges([0x09, 0x0d, 0x20, 0x20])],
  ["upper", [0x41, 0x5a]],
  ["word", word],
  ["xdigit", fromRanges([0x30, 0x39, 0x41, 0x46, 0x61, 0x66])]
])

const hex = (c: number): string => c.toString(16).toUpperCase()

const isAlnum = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)

/** one code point as ECMAScript `u`-mode source, safe inside and outside a class */
export const ecmaChar = (c: number): string => (isAlnum(c) ? String.fromCodePoint(c) : `\\u{${hex(c)}}`)

/** one code point as RE2 source, safe inside and outside a class */
export const re2Char = (c: number): string => (isAlnum(c) ? String.fromCodePoint(c) : `\\x{${hex(c)}}`)

const body = (a: CharSet, char: (c: number) => string): string => {
  let s = ""
  for (let i = 0; i < a.length; i += 2) {
    const lo = a[i]!
    const hi = Math.min(a[i + 1]!, MAX_CODE_POINT)
    if (lo > MAX_CODE_POINT) continue
    s += lo === hi ? char(lo) : `${char(lo)}-${char(hi)}`
  }
  return s
}

/** the set as a class (or a single character) in ECMAScript `u` syntax */
export const toEcma = (a: CharSet): string => {
  if (a.length === 0) return "[]"
  if (a.length === 2 && a[0] === a[1]) return ecmaChar(a[0]!)
  return `[${body(a, ecmaChar)}]`
}

/** the set as a class (or a single character) in RE2 syntax */
export const toRe2 = (a: CharSet): string => {
  if (a.length === 0) return "[^\\x{0}-\\x{10FFFF}]"
  if (a.length === 2 && a[0] === a[1]) return re2Char(a[0]!)
  return `[${body(a, re2Char)}]`
}

/** the ranges of a set, for use inside a larger RE2 class */
export const re2ClassBody = (a: CharSet): string => body(a, re2Char)
