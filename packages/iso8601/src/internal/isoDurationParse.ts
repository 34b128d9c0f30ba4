import type * as IsoDuration from "../IsoDuration.js"
import { fromMagnitudes, type IsoDurationImpl, magnitudesInRange } from "./isoDuration.js"

/**
 * The parser of duration strings: Temporal's `TemporalDurationString` grammar, by char code.
 *
 * @internal
 */

const NS_PER_SECOND = 1_000_000_000

/** @internal */
export type Reason = IsoDuration.IsoDurationParseError["reason"]

/** The last failure of `scan`; read right after `scan` returns `undefined`. @internal */
export const failure: { reason: Reason; position: number } = { reason: "Empty", position: 0 }

const fail = (reason: Reason, position: number): undefined => {
  failure.reason = reason
  failure.position = position
  return undefined
}

const PLUS = 43
const MINUS = 45
const COMMA = 44
const DOT = 46
const COLON = 58
const LOWER_P = 0x70
const LOWER_T = 0x74
const LOWER_Y = 0x79
const LOWER_M = 0x6d
const LOWER_W = 0x77
const LOWER_D = 0x64
const LOWER_H = 0x68
const LOWER_S = 0x73

const POW10 = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

/**
 * A single left-to-right pass over the string, by char code, with no regular expression and no intermediate strings.
 * Implements Temporal's `TemporalDurationString` grammar and its `ParseTemporalDurationString` fraction spreading,
 * exactly (integer nanoseconds), then Temporal's range check.
 *
 * @internal
 */
export const scan = (s: string): IsoDurationImpl | undefined => {
  const len = s.length
  if (len === 0) return fail("Empty", 0)
  let i = 0
  let c = s.charCodeAt(0)
  let negative = false
  if (c === PLUS || c === MINUS) {
    negative = c === MINUS
    i = 1
    c = s.charCodeAt(1)
  }
  if ((c | 0x20) !== LOWER_P) return fail(i === len ? "EmptyDuration" : "MissingDesignator", i)
  i++
  let y = 0
  let mo = 0
  let w = 0
  let d = 0
  let h = 0
  let mi = 0
  let sec = 0
  let ms = 0
  let us = 0
  let ns = 0
  // last unit written: 1 Y, 2 M, 3 W, 4 D (date part); 5 H, 6 M, 7 S (time part)
  let unit = 0
  let timeAt = -1
  let fractional = false
  while (i < len) {
    c = s.charCodeAt(i)
    if ((c | 0x20) === LOWER_T) {
      if (timeAt >= 0) return fail("UnexpectedCharacter", i)
      timeAt = i
      i++
      continue
    }
    if (fractional) return fail("FractionNotLast", i)
    const start = i
    let v = 0
    while (i < len) {
      const digit = s.charCodeAt(i) - 48
      if (digit < 0 || digit > 9) break
      v = v * 10 + digit
      i++
    }
    if (i === start) {
      if (c === PLUS || c === MINUS) return fail("SignInside", i)
      if (c === DOT || c === COMMA) return fail("FractionWithoutDigits", i)
      if ((c | 0x20) === LOWER_P) return fail("UnexpectedCharacter", i)
      return fail("UnexpectedCharacter", i)
    }
    const digits = i - start
    if (i === len) return fail(timeAt < 0 && digits >= 8 ? "AlternativeFormat" : "MissingUnit", i)
    c = s.charCodeAt(i)
    let f = -1
    if (c === DOT || c === COMMA) {
      const fs = ++i
      f = 0
      while (i < len) {
        const digit = s.charCodeAt(i) - 48
        if (digit < 0 || digit > 9) break
        if (i - fs < 9) f = f * 10 + digit
        i++
      }
      const n = i - fs
      if (n === 0) return fail("FractionWithoutDigits", fs)
      if (n > 9) return fail("FractionTooLong", fs + 9)
      f *= POW10[9 - n]!
      if (i === len) return fail("MissingUnit", i)
      c = s.charCodeAt(i)
    }
    const u = c | 0x20
    if (timeAt < 0) {
      let k: number
      if (u === LOWER_Y) k = 1
      else if (u === LOWER_M) k = 2
      else if (u === LOWER_W) k = 3
      else if (u === LOWER_D) k = 4
      else if (u === LOWER_H || u === LOWER_S) return fail("TimeUnitInDatePart", i)
      else if (c === MINUS || (u === LOWER_T && digits >= 8) || c === COLON) return fail("AlternativeFormat", i)
      else return fail("MissingUnit", i)
      if (f >= 0) return fail("FractionOnDateUnit", start)
      if (k <= unit) return fail("UnitOrder", i)
      unit = k
      if (k === 1) y = v
      else if (k === 2) mo = v
      else if (k === 3) w = v
      else d = v
    } else {
      let k: number
      if (u === LOWER_H) k = 5
      else if (u === LOWER_M) k = 6
      else if (u === LOWER_S) k = 7
      else if (u === LOWER_Y || u === LOWER_W || u === LOWER_D) return fail("DateUnitInTimePart", i)
      else if (c === COLON || c === MINUS) return fail("AlternativeFormat", i)
      else return fail("MissingUnit", i)
      if (k <= unit) return fail("UnitOrder", i)
      unit = k
      if (k === 5) h = v
      else if (k === 6) mi = v
      else sec = v
      if (f > 0) {
        // Temporal spreads a fraction of hours or minutes into the lower units, exactly.
        let rest = k === 5 ? f * 3_600 : k === 6 ? f * 60 : f
        if (k === 5) {
          mi = Math.floor(rest / 60_000_000_000)
          rest -= mi * 60_000_000_000
        }
        if (k <= 6) {
          sec = Math.floor(rest / NS_PER_SECOND)
          rest -= sec * NS_PER_SECOND
        }
        ms = Math.floor(rest / 1_000_000)
        rest -= ms * 1_000_000
        us = Math.floor(rest / 1_000)
        ns = rest - us * 1_000
      }
      if (f >= 0) fractional = true
    }
    i++
  }
  if (unit === 0) return fail("EmptyDuration", i)
  if (timeAt >= 0 && unit < 5) return fail("DanglingTimeDesignator", timeAt)
  if (!magnitudesInRange(y, mo, w, d, h, mi, sec, ms, us, ns)) return fail("OutOfRange", 0)
  return fromMagnitudes(negative, y, mo, w, d, h, mi, sec, ms, us, ns)
}

/** @internal */
export const reasonMessage = (reason: Reason): string => {
  switch (reason) {
    case "Empty":
      return "a duration cannot be an empty string"
    case "MissingDesignator":
      return "a duration starts with 'P' (after an optional '+' or '-')"
    case "EmptyDuration":
      return "a duration needs at least one unit after 'P' or 'T' (e.g. P1D, PT1H)"
    case "DanglingTimeDesignator":
      return "'T' must be followed by at least one time unit (H, M or S)"
    case "UnexpectedCharacter":
      return "unexpected character"
    case "MissingUnit":
      return "a number must be followed by a unit designator (Y, M, W, D; after T: H, M, S)"
    case "UnitOrder":
      return "units must appear at most once and in the order Y, M, W, D, T, H, M, S"
    case "TimeUnitInDatePart":
      return "hours and seconds belong after 'T' (PT2H, not P2H)"
    case "DateUnitInTimePart":
      return "years, weeks and days belong before 'T'"
    case "FractionOnDateUnit":
      return "ISO 8601 allows a fraction on the smallest date unit (P0.5Y), but Temporal's grammar, which payrules follows, allows fractions only on hours, minutes or seconds"
    case "FractionNotLast":
      return "only the last unit of the duration may have a fraction"
    case "FractionTooLong":
      return "a fraction has at most 9 digits (nanosecond precision)"
    case "FractionWithoutDigits":
      return "a decimal separator needs digits on both sides (PT0.5H, not PT.5H or PT2.H)"
    case "SignInside":
      return "the sign applies to the whole duration and goes before 'P' (-P1Y, not P-1Y)"
    case "AlternativeFormat":
      return "the ISO 8601 alternative format (P0001-02-03, PT01:02:03) is valid ISO 8601 but outside Temporal's grammar, which payrules follows: write designators (P1Y2M3D, PT1H2M3S)"
    case "OutOfRange":
      return "out of Temporal's range: years, months and weeks below 2^32, and days-hours-minutes-seconds below 2^53 seconds"
  }
}

/** The input as shown in a message: at most 48 characters. @internal */
export const preview = (input: string): string => (input.length > 48 ? `${input.slice(0, 45)}...` : input)

/** The message of an `IsoDurationParseError` (and of the Schemas' decoding failures). @internal */
export const parseErrorMessage = (input: string, reason: Reason, position: number): string =>
  `Invalid ISO 8601 duration ${JSON.stringify(preview(input))} at position ${position}: ${reasonMessage(reason)}`
