import * as Equal from "effect/Equal"
import * as Hash from "effect/Hash"
import { NodeInspectSymbol } from "effect/Inspectable"
import { pipeArguments } from "effect/Pipeable"
import type * as IsoDuration from "../IsoDuration.js"

/** @internal */
export const TypeId: IsoDuration.TypeId = Symbol.for("@payrules/iso8601/IsoDuration") as IsoDuration.TypeId

/** Field names in Temporal's order. @internal */
export const fieldNames = [
  "years",
  "months",
  "weeks",
  "days",
  "hours",
  "minutes",
  "seconds",
  "milliseconds",
  "microseconds",
  "nanoseconds"
] as const

/** 2^32: years, months and weeks must stay below it (Temporal's IsValidDuration). @internal */
export const MAX_CALENDAR_UNIT = 4_294_967_296
/** 2^53: the time part, with days counted as 24 hours, must stay below it in seconds. @internal */
export const MAX_TIME_SECONDS = 9_007_199_254_740_992

const NS_PER_SECOND = 1_000_000_000
const TWO_POW_53_NS = 9_007_199_254_740_992n * 1_000_000_000n

/** @internal */
export class IsoDurationImpl implements IsoDuration.IsoDuration {
  declare readonly [TypeId]: IsoDuration.TypeId
  constructor(
    readonly sign: -1 | 0 | 1,
    readonly years: number,
    readonly months: number,
    readonly weeks: number,
    readonly days: number,
    readonly hours: number,
    readonly minutes: number,
    readonly seconds: number,
    readonly milliseconds: number,
    readonly microseconds: number,
    readonly nanoseconds: number
  ) {}

  [Equal.symbol](that: unknown): boolean {
    return isIsoDuration(that) && equals(this, that)
  }

  [Hash.symbol](): number {
    let h = Hash.string("IsoDuration")
    for (const name of fieldNames) h = Hash.combine(Hash.number(this[name]))(h)
    return Hash.cached(this, Hash.optimize(h))
  }

  pipe() {
    // biome-ignore lint/complexity/noArguments: pipeArguments takes the arguments object, as in effect's own modules
    return pipeArguments(this, arguments)
  }

  toString(): string {
    return format(this)
  }

  toJSON(): unknown {
    return { _id: "IsoDuration", iso: format(this) }
  }

  [NodeInspectSymbol](): unknown {
    return `IsoDuration(${format(this)})`
  }
}
Object.defineProperty(IsoDurationImpl.prototype, TypeId, { value: TypeId, enumerable: false })

/** @internal */
export const isIsoDuration = (u: unknown): u is IsoDuration.IsoDuration =>
  typeof u === "object" && u !== null && TypeId in u

/** @internal */
export const equals = (a: IsoDuration.IsoDuration, b: IsoDuration.IsoDuration): boolean =>
  a.years === b.years &&
  a.months === b.months &&
  a.weeks === b.weeks &&
  a.days === b.days &&
  a.hours === b.hours &&
  a.minutes === b.minutes &&
  a.seconds === b.seconds &&
  a.milliseconds === b.milliseconds &&
  a.microseconds === b.microseconds &&
  a.nanoseconds === b.nanoseconds

const neg = (n: number): number => (n === 0 ? 0 : -n)

/** Builds a duration from magnitudes (all >= 0) and a sign. @internal */
export const fromMagnitudes = (
  negative: boolean,
  y: number,
  mo: number,
  w: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
  us: number,
  ns: number
): IsoDurationImpl => {
  const zero =
    y === 0 && mo === 0 && w === 0 && d === 0 && h === 0 && mi === 0 && s === 0 && ms === 0 && us === 0 && ns === 0
  if (zero) return ZERO
  return negative
    ? new IsoDurationImpl(-1, neg(y), neg(mo), neg(w), neg(d), neg(h), neg(mi), neg(s), neg(ms), neg(us), neg(ns))
    : new IsoDurationImpl(1, y, mo, w, d, h, mi, s, ms, us, ns)
}

/** @internal */
export const ZERO = new IsoDurationImpl(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

/**
 * Temporal's range rule on magnitudes: years, months and weeks below 2^32, and the time part (days as 24 hours)
 * below 2^53 seconds, compared exactly.
 *
 * @internal
 */
export const magnitudesInRange = (
  y: number,
  mo: number,
  w: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
  us: number,
  ns: number
): boolean => {
  if (!(y < MAX_CALENDAR_UNIT && mo < MAX_CALENDAR_UNIT && w < MAX_CALENDAR_UNIT)) return false
  const seconds = d * 86_400 + h * 3_600 + mi * 60 + s
  const subsecondNs = ms * 1_000_000 + us * 1_000 + ns
  // Every term is a non-negative integer; below 2^53 - 2^12 the float sum is exact with room for the sub-second part.
  if (seconds + subsecondNs / NS_PER_SECOND < MAX_TIME_SECONDS - 4096) return true
  if (!(Number.isSafeInteger(d) && Number.isSafeInteger(h) && Number.isSafeInteger(mi) && Number.isSafeInteger(s))) {
    return false
  }
  if (!Number.isSafeInteger(subsecondNs)) return false
  const exact =
    (BigInt(d) * 86_400n + BigInt(h) * 3_600n + BigInt(mi) * 60n + BigInt(s)) * 1_000_000_000n + BigInt(subsecondNs)
  return exact < TWO_POW_53_NS
}

// -----------------------------------------------------------------------------
// format
// -----------------------------------------------------------------------------

/** @internal */
export const format = (d: IsoDuration.IsoDuration): string => {
  if (d.sign === 0) return "PT0S"
  let out = d.sign < 0 ? "-P" : "P"
  const y = Math.abs(d.years)
  const mo = Math.abs(d.months)
  const w = Math.abs(d.weeks)
  const dd = Math.abs(d.days)
  if (y !== 0) out += `${y}Y`
  if (mo !== 0) out += `${mo}M`
  if (w !== 0) out += `${w}W`
  if (dd !== 0) out += `${dd}D`
  const h = Math.abs(d.hours)
  const mi = Math.abs(d.minutes)
  const s = Math.abs(d.seconds)
  const sub = Math.abs(d.milliseconds) * 1_000_000 + Math.abs(d.microseconds) * 1_000 + Math.abs(d.nanoseconds)
  if (h !== 0 || mi !== 0 || s !== 0 || sub !== 0) {
    out += "T"
    if (h !== 0) out += `${h}H`
    if (mi !== 0) out += `${mi}M`
    if (s !== 0 || sub !== 0) {
      out += `${s}`
      if (sub !== 0) {
        let frac = `00000000${sub}`.slice(-9)
        let end = frac.length
        while (frac.charCodeAt(end - 1) === 48) end--
        frac = frac.slice(0, end)
        out += `.${frac}`
      }
      out += "S"
    }
  }
  return out
}

// -----------------------------------------------------------------------------
// parse
// -----------------------------------------------------------------------------

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
