import type * as DateTime from "effect/DateTime"
import type * as IsoDuration from "../IsoDuration.js"
import {
  type Civil,
  civilFromDays,
  DAY_MS,
  daysFromCivil,
  daysInMonth,
  MAX_EPOCH_MS,
  MIN_EPOCH_MS
} from "./calendar.js"
import { offsetAt, wallToEpoch } from "./zone.js"

/** @internal */
export type Failure = "OutOfRange" | "Overflow"

/** Set when `addMillis` returns NaN. @internal */
export const lastFailure: { reason: Failure } = { reason: "OutOfRange" }

const failNaN = (reason: Failure): number => {
  lastFailure.reason = reason
  return Number.NaN
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const MS_PER_NS_BIG = 1_000_000n

const bigFloorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q
}

/**
 * The exact-time part of `k × d`, in whole milliseconds rounded toward -infinity (as Temporal's `epochMilliseconds`),
 * or NaN when it cannot fit the range of instants.
 *
 * @internal
 */
export const timeMillis = (d: IsoDuration.IsoDuration, k: number): number => {
  const base = d.hours * 3_600_000 + d.minutes * 60_000 + d.seconds * 1_000 + d.milliseconds
  const msPart = base * k
  const subNs = (d.microseconds * 1_000 + d.nanoseconds) * k
  if (Math.abs(msPart) <= MAX_SAFE && Math.abs(base) <= MAX_SAFE && Number.isSafeInteger(subNs)) {
    return subNs === 0 ? msPart : msPart + Math.floor(subNs / 1_000_000)
  }
  const totalNs =
    (((BigInt(d.hours) * 60n + BigInt(d.minutes)) * 60n + BigInt(d.seconds)) * 1_000n + BigInt(d.milliseconds)) *
      MS_PER_NS_BIG +
    BigInt(d.microseconds * 1_000 + d.nanoseconds)
  const scaled = totalNs * BigInt(k)
  const ms = bigFloorDiv(scaled, MS_PER_NS_BIG)
  // no instant pair is further apart than 2 × 8.64e15 ms
  if (ms > 17_280_000_000_000_000n || ms < -17_280_000_000_000_000n) return Number.NaN
  return Number(ms)
}

/** Rough length of a positive duration in milliseconds (mean Gregorian year and month). @internal */
export const approximateMillis = (d: IsoDuration.IsoDuration): number =>
  (d.years * 365.2425 + d.months * 30.436875 + d.weeks * 7 + d.days) * DAY_MS +
  d.hours * 3_600_000 +
  d.minutes * 60_000 +
  d.seconds * 1_000 +
  d.milliseconds +
  d.microseconds / 1_000 +
  d.nanoseconds / 1_000_000

const scratch: Civil = { year: 0, month: 0, day: 0 }

const MIN_YEAR = -271_821
const MAX_YEAR = 275_760
const MAX_EPOCH_DAYS = 100_000_001
const BOUND = 1e15

/**
 * Moves a wall-clock time (epoch milliseconds of the local date-time read as UTC) by the calendar part of `k × d`:
 * years and months on the month with the day constrained (or rejected), then weeks and days. NaN when out of range.
 *
 * @internal
 */
export const addCalendarToWall = (wall: number, d: IsoDuration.IsoDuration, k: number, reject: boolean): number => {
  const years = d.years * k
  const months = d.months * k
  const days = (d.weeks * 7 + d.days) * k
  // anything beyond these bounds is out of range anyway; within them every product and sum is exact
  if (years > BOUND || years < -BOUND || months > BOUND || months < -BOUND || days > BOUND || days < -BOUND) {
    return failNaN("OutOfRange")
  }
  let epochDay = Math.floor(wall / DAY_MS)
  const msOfDay = wall - epochDay * DAY_MS
  if (years !== 0 || months !== 0) {
    civilFromDays(epochDay, scratch)
    const total = scratch.year * 12 + (scratch.month - 1) + years * 12 + months
    const year = Math.floor(total / 12)
    if (year < MIN_YEAR - 1 || year > MAX_YEAR + 1) return failNaN("OutOfRange")
    const month = total - year * 12 + 1
    let day = scratch.day
    if (day > 28) {
      const dim = daysInMonth(year, month)
      if (day > dim) {
        if (reject) return failNaN("Overflow")
        day = dim
      }
    }
    epochDay = daysFromCivil(year, month, day)
  }
  epochDay += days
  if (epochDay > MAX_EPOCH_DAYS || epochDay < -MAX_EPOCH_DAYS) return failNaN("OutOfRange")
  return epochDay * DAY_MS + msOfDay
}

const inRange = (ms: number): boolean => ms >= MIN_EPOCH_MS && ms <= MAX_EPOCH_MS

/**
 * `epochMillis + k × d` in `zone` (undefined for UTC) with Temporal's `ZonedDateTime.prototype.add` semantics.
 * NaN when the result or the intermediate wall-clock instant is out of range, or (reject) when the day overflows.
 *
 * @internal
 */
export const addMillis = (self: DateTime.DateTime, d: IsoDuration.IsoDuration, k: number, reject: boolean): number => {
  const epochMillis = self.epochMilliseconds
  const time = timeMillis(d, k)
  if (Number.isNaN(time)) return failNaN("OutOfRange")
  let intermediate = epochMillis
  // times 0 adds nothing, even to a wall-clock time that occurs twice (the round trip would pick the earlier)
  if (k !== 0 && (d.years !== 0 || d.months !== 0 || d.weeks !== 0 || d.days !== 0)) {
    if (self._tag === "Utc") {
      intermediate = addCalendarToWall(epochMillis, d, k, reject)
    } else {
      const zone = self.zone
      if (zone._tag === "Offset") {
        const wall = addCalendarToWall(epochMillis + zone.offset, d, k, reject)
        intermediate = wall - zone.offset
      } else {
        const wall = addCalendarToWall(epochMillis + offsetAt(zone.id, epochMillis), d, k, reject)
        if (Number.isNaN(wall)) return wall
        intermediate = wallToEpoch(zone.id, wall)
      }
    }
    if (Number.isNaN(intermediate)) return intermediate
    if (!inRange(intermediate)) return failNaN("OutOfRange")
  }
  const result = intermediate + time
  if (!inRange(result)) return failNaN("OutOfRange")
  // a zoned result whose wall clock falls beyond the range of dates (an instant within a day of either end, in a zone
  // ahead of UTC at the end or behind it at the start) is one effect's DateTime cannot hold or format
  if (self._tag === "Zoned" && (result > MAX_EPOCH_MS - DAY_MS || result < MIN_EPOCH_MS + DAY_MS)) {
    const zone = self.zone
    const wall = result + (zone._tag === "Offset" ? zone.offset : offsetAt(zone.id, result))
    if (!inRange(wall)) return failNaN("OutOfRange")
  }
  return result
}
