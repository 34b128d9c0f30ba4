import { DAY_MS, daysFromCivil } from "./calendar.js"

/**
 * UTC offsets of IANA zones, from the platform's time zone database (Intl), cached by week.
 *
 * `Intl.DateTimeFormat#formatToParts` costs microseconds per call, so each zone's timeline is cut into 7-day
 * buckets: a bucket whose two ends have the same offset is taken as constant, and a bucket whose ends differ holds
 * one transition, found once by bisection to the second. (Two transitions that cancel out within one week do not
 * occur in the tz database outside a handful of 19th-century local-mean-time entries.) Offsets are exact to the
 * second, so historical local mean time offsets such as Amsterdam's +00:19:32 are kept.
 *
 * @internal
 */

const BUCKET_MS = 7 * DAY_MS
const MAX_BUCKETS_PER_ZONE = 50_000

interface Bucket {
  /** first instant (ms) with `after`; NaN when the offset is constant over the bucket */
  readonly transition: number
  readonly before: number
  readonly after: number
}

interface ZoneCache {
  readonly format: Intl.DateTimeFormat
  readonly buckets: Map<number, Bucket>
}

const zones = new Map<string, ZoneCache>()

const cacheFor = (zoneId: string): ZoneCache => {
  let cache = zones.get(zoneId)
  if (cache === undefined) {
    cache = {
      format: new Intl.DateTimeFormat("en-US", {
        timeZone: zoneId,
        hourCycle: "h23",
        era: "short",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric"
      }),
      buckets: new Map()
    }
    zones.set(zoneId, cache)
  }
  return cache
}

/** the first and the last instant a JavaScript date holds: Intl refuses to format beyond them */
const LIMIT_MS = 8_640_000_000_000_000

/**
 * The offset at an instant, straight from Intl (whole seconds). An instant beyond the range of dates (a bucket, or a
 * wall-clock time read as UTC, near either end) takes the offset at the end: no zone changes its offset out there.
 */
const intlOffset = (format: Intl.DateTimeFormat, epochMillis: number): number => {
  const at = Math.min(LIMIT_MS, Math.max(-LIMIT_MS, Math.floor(epochMillis / 1000) * 1000))
  let year = 0
  let month = 1
  let day = 1
  let hour = 0
  let minute = 0
  let second = 0
  let bc = false
  for (const part of format.formatToParts(at)) {
    switch (part.type) {
      case "year":
        year = Number(part.value)
        break
      case "month":
        month = Number(part.value)
        break
      case "day":
        day = Number(part.value)
        break
      case "hour":
        hour = Number(part.value)
        break
      case "minute":
        minute = Number(part.value)
        break
      case "second":
        second = Number(part.value)
        break
      case "era":
        bc = part.value === "BC" || part.value === "B"
        break
    }
  }
  if (bc) year = 1 - year
  const wall = daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000
  return wall - at
}

const bucketOf = (cache: ZoneCache, index: number): Bucket => {
  let bucket = cache.buckets.get(index)
  if (bucket !== undefined) return bucket
  const start = index * BUCKET_MS
  const end = start + BUCKET_MS
  const before = intlOffset(cache.format, start)
  const after = intlOffset(cache.format, end)
  if (before === after) {
    bucket = { transition: Number.NaN, before, after }
  } else {
    // the first second with the new offset
    let lo = start
    let hi = end
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000
      if (intlOffset(cache.format, mid) === before) lo = mid
      else hi = mid
    }
    bucket = { transition: hi, before, after }
  }
  if (cache.buckets.size >= MAX_BUCKETS_PER_ZONE) cache.buckets.clear()
  cache.buckets.set(index, bucket)
  return bucket
}

/**
 * The UTC offset (ms) of an IANA zone at an instant.
 *
 * @internal
 */
export const offsetAt = (zoneId: string, epochMillis: number): number => {
  const b = bucketOf(cacheFor(zoneId), Math.floor(epochMillis / BUCKET_MS))
  return Number.isNaN(b.transition) || epochMillis < b.transition ? b.before : b.after
}

/**
 * The instant of a wall-clock time (epoch ms of the local date-time read as UTC) in an IANA zone, with Temporal's
 * "compatible" disambiguation: in an overlap the earlier instant, in a gap the time moved forward by the gap.
 *
 * @internal
 */
export const wallToEpoch = (zoneId: string, wall: number): number => {
  const before = offsetAt(zoneId, wall - DAY_MS)
  const after = offsetAt(zoneId, wall + DAY_MS)
  const first = wall - before
  if (before === after && offsetAt(zoneId, first) === before) return first
  const second = wall - after
  const firstValid = offsetAt(zoneId, first) === before
  const secondValid = offsetAt(zoneId, second) === after
  if (firstValid && secondValid) return Math.min(first, second)
  if (firstValid) return first
  if (secondValid) return second
  // in the gap: the offset from before the transition carries the time forward
  return first
}
