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
    for (const name of fieldNames) h = Hash.combine(h, Hash.number(this[name]))
    // Hash.hash caches the result per object
    return Hash.optimize(h)
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
// combinators
// -----------------------------------------------------------------------------

/** @internal */
export const negate = (self: IsoDuration.IsoDuration): IsoDuration.IsoDuration =>
  self.sign === 0
    ? self
    : fromMagnitudes(
        self.sign > 0,
        Math.abs(self.years),
        Math.abs(self.months),
        Math.abs(self.weeks),
        Math.abs(self.days),
        Math.abs(self.hours),
        Math.abs(self.minutes),
        Math.abs(self.seconds),
        Math.abs(self.milliseconds),
        Math.abs(self.microseconds),
        Math.abs(self.nanoseconds)
      )

/** @internal */
export const calendarPart = (self: IsoDuration.IsoDuration): IsoDuration.IsoDuration =>
  fromMagnitudes(
    self.sign < 0,
    Math.abs(self.years),
    Math.abs(self.months),
    Math.abs(self.weeks),
    Math.abs(self.days),
    0,
    0,
    0,
    0,
    0,
    0
  )

/** @internal */
export const timePart = (self: IsoDuration.IsoDuration): IsoDuration.IsoDuration =>
  fromMagnitudes(
    self.sign < 0,
    0,
    0,
    0,
    0,
    Math.abs(self.hours),
    Math.abs(self.minutes),
    Math.abs(self.seconds),
    Math.abs(self.milliseconds),
    Math.abs(self.microseconds),
    Math.abs(self.nanoseconds)
  )
