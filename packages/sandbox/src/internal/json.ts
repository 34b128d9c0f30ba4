/**
 * Reading a JSON text without trusting it: one pass without recursion that measures how deep arrays and objects nest
 * (so that a text nested 100,000 deep is refused before `JSON.parse` or a decoder recurses into it), that checks
 * every number against its own text (D11: a number whose decimal text a double cannot carry is refused, with its
 * path), that refuses the keys `__proto__`, `constructor` and `prototype` at any depth (as D6 refuses them in
 * field names: nothing a client sends may name the prototype machinery of JavaScript objects) and a key given twice
 * in one object (two parsers can read two different values from `{"amount":1,"amount":2}`: RFC 8259 leaves the
 * answer open, so the body is refused), then `JSON.parse`.
 *
 * @internal
 */

import * as Result from "effect/Result"

/** A refusal of a JSON text: what rule it broke, where (a path into the value when known) and why. @internal */
export interface JsonProblem {
  readonly reason: "TooDeep" | "Syntax" | "InexactNumber" | "ForbiddenKey" | "DuplicateKey"
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}

/** At most this many characters of any input are quoted in a message, then "…". @internal */
export const QUOTE_LIMIT = 64

/** The start of a piece of input, for a message: at most {@link QUOTE_LIMIT} characters. @internal */
export const clip = (text: string, limit = QUOTE_LIMIT): string => {
  if (text.length <= limit) return text
  // never cut a surrogate pair in two
  const end = /[\uD800-\uDBFF]/.test(text[limit - 1]!) ? limit - 1 : limit
  return `${text.slice(0, end)}…`
}

/**
 * The exact decimal value of a JSON number's text, in one spelling: `-` when negative and not zero, the significant
 * digits, `e` and the exponent. `"1.50"`, `"15e-1"` and `"1.5"` give `"15e-1"`; every zero gives `"0"`.
 */
const canonical = (text: string): string => {
  const negative = text.startsWith("-")
  const unsigned = negative ? text.slice(1) : text
  const e = unsigned.search(/[eE]/)
  const mantissa = e === -1 ? unsigned : unsigned.slice(0, e)
  const exponent = e === -1 ? 0 : Number(unsigned.slice(e + 1))
  const dot = mantissa.indexOf(".")
  const fraction = dot === -1 ? "" : mantissa.slice(dot + 1)
  let digits = (dot === -1 ? mantissa : mantissa.slice(0, dot)) + fraction
  let scale = exponent - fraction.length
  digits = digits.replace(/^0+/, "")
  if (digits === "") return "0"
  const trimmed = digits.replace(/0+$/, "")
  scale += digits.length - trimmed.length
  return `${negative ? "-" : ""}${trimmed}e${scale}`
}

/**
 * Whether the decimal text of a JSON number is the value a double holds after parsing: `0.1`, `1.50`, `1e2` and `-0`
 * are; `1.0000000000000001` (read as 1), `12345678901234567890` (read as 12345678901234567000), `1e400` (infinite)
 * and `1e-400` (read as 0) are not.
 *
 * @internal
 */
export const survivesParsing = (text: string): boolean => {
  const n = Number(text)
  return Number.isFinite(n) && canonical(text) === canonical(String(n))
}

interface Frame {
  readonly array: boolean
  /** the index in an array; in an object, where the current key's text starts and ends */
  index: number
  keyStart: number
  keyEnd: number
  expectKey: boolean
  /** the keys of an object seen so far: a list while it is short (most objects of a body are), then a set */
  keys: Array<string> | Set<string> | undefined
}

const pathOf = (text: string, stack: ReadonlyArray<Frame>): Array<string | number> =>
  stack.map((f) => {
    if (f.array) return f.index
    try {
      return clip(JSON.parse(text.slice(f.keyStart, f.keyEnd)) as string)
    } catch {
      return clip(text.slice(f.keyStart, f.keyEnd))
    }
  })

const forbiddenKeys = new Set(["__proto__", "constructor", "prototype"])

/** the key of an object member, decoded when it has escapes (`"\u005f_proto__"` is `__proto__`) */
const keyAt = (text: string, start: number, end: number): string | undefined => {
  const raw = text.slice(start + 1, end - 1)
  if (!raw.includes("\\")) return raw
  try {
    return JSON.parse(text.slice(start, end)) as string
  } catch {
    return undefined
  }
}

const isNumberChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69

/** keys of an object kept in a list before they move to a set */
const LIST_KEYS = 16

/** whether an object already has this key (and records it): a second value for a key is a duplicate */
const seen = (frame: Frame, key: string): boolean => {
  const keys = frame.keys
  if (keys === undefined) {
    frame.keys = [key]
    return false
  }
  if (Array.isArray(keys)) {
    if (keys.includes(key)) return true
    if (keys.length < LIST_KEYS) keys.push(key)
    else frame.keys = new Set([...keys, key])
    return false
  }
  if (keys.has(key)) return true
  keys.add(key)
  return false
}

/**
 * Parses a JSON text whose arrays and objects nest at most `maxDepth` deep, whose numbers survive parsing exactly,
 * whose keys are none of `__proto__`, `constructor`, `prototype` and whose objects name each key once; a text that
 * breaks a rule, or that is not JSON, is a {@link JsonProblem}. The nesting is measured before anything recurses;
 * the keys and the numbers (the first 10) are reported only for a text that is JSON. Keys are compared as JSON reads
 * them: `"a"` and `"\u0061"` are the same key.
 *
 * @internal
 */
export const parse = (text: string, maxDepth: number): Result.Result<unknown, ReadonlyArray<JsonProblem>> => {
  const stack: Array<Frame> = []
  const inexact: Array<JsonProblem> = []
  let forbidden: JsonProblem | undefined
  let duplicate: JsonProblem | undefined
  const length = text.length
  let i = 0
  while (i < length) {
    const c = text.charCodeAt(i)
    if (c === 123 || c === 91) {
      // { or [
      if (stack.length >= maxDepth) {
        return Result.fail([
          {
            reason: "TooDeep",
            path: pathOf(text, stack),
            message: `the body nests arrays and objects more than ${maxDepth} deep (the limit is ${maxDepth})`
          }
        ])
      }
      stack.push({
        array: c === 91,
        index: 0,
        keyStart: 0,
        keyEnd: 0,
        expectKey: c === 123,
        keys: undefined
      })
      i++
    } else if (c === 125 || c === 93) {
      stack.pop()
      i++
    } else if (c === 44) {
      // ,
      const top = stack[stack.length - 1]
      if (top !== undefined) {
        if (top.array) top.index++
        else top.expectKey = true
      }
      i++
    } else if (c === 58) {
      // :
      const top = stack[stack.length - 1]
      if (top !== undefined) top.expectKey = false
      i++
    } else if (c === 34) {
      // a string: to the closing quote, escapes skipped
      const start = i
      i++
      while (i < length) {
        const d = text.charCodeAt(i)
        if (d === 92) i += 2
        else if (d === 34) break
        else i++
      }
      i++
      const top = stack[stack.length - 1]
      if (top !== undefined && !top.array && top.expectKey) {
        top.keyStart = start
        top.keyEnd = Math.min(i, length)
        const key = keyAt(text, start, top.keyEnd)
        if (key !== undefined) {
          if (forbidden === undefined && forbiddenKeys.has(key)) {
            const path = pathOf(text, stack)
            forbidden = {
              reason: "ForbiddenKey",
              path,
              message: `${clip(path.join("."), 4 * QUOTE_LIMIT)}: the key ${key} is refused at any depth (it names the prototype machinery of JavaScript objects)`
            }
          }
          if (seen(top, key) && duplicate === undefined) {
            const path = pathOf(text, stack)
            duplicate = {
              reason: "DuplicateKey",
              path,
              message: `${clip(path.join("."), 4 * QUOTE_LIMIT)}: the key ${JSON.stringify(clip(key))} is given twice in one object (each key of a JSON object must be unique)`
            }
          }
        }
      }
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      // a number starts with - or a digit
      const start = i
      while (i < length && isNumberChar(text.charCodeAt(i))) i++
      const numeral = text.slice(start, i)
      if (inexact.length < 10 && !survivesParsing(numeral)) {
        const path = pathOf(text, stack)
        const where = path.length === 0 ? "the body" : clip(path.join("."), 4 * QUOTE_LIMIT)
        inexact.push({
          reason: "InexactNumber",
          path,
          message: `${where}: the number ${clip(numeral)} cannot be read exactly as written (a double holds ${String(Number(numeral))}); send at most the digits a double carries`
        })
      }
    } else {
      i++
    }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // V8's message quotes the text: not passed on
    return Result.fail([{ reason: "Syntax", path: [], message: "the request body is not valid JSON" }])
  }
  if (forbidden === undefined && duplicate === undefined) {
    return inexact.length > 0 ? Result.fail(inexact) : Result.succeed(value)
  }
  const problems: Array<JsonProblem> = []
  if (forbidden !== undefined) problems.push(forbidden)
  if (duplicate !== undefined) problems.push(duplicate)
  return Result.fail([...problems, ...inexact])
}
