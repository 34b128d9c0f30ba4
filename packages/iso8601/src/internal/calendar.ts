/**
 * Proleptic Gregorian calendar arithmetic on plain numbers (no `Date`, no allocation).
 *
 * Epoch days count from 1970-01-01; the conversions are Howard Hinnant's `days_from_civil` / `civil_from_days`,
 * exact for every date whose epoch-day number is a safe integer.
 *
 * @internal
 */

/** @internal */
export const DAY_MS = 86_400_000

/** Smallest and largest epoch milliseconds a JavaScript `Date` (and a Temporal instant) can hold. @internal */
export const MAX_EPOCH_MS = 8_640_000_000_000_000
/** @internal */
export const MIN_EPOCH_MS = -MAX_EPOCH_MS

/** @internal */
export const isLeapYear = (year: number): boolean => (year & 3) === 0 && (year % 100 !== 0 || year % 400 === 0)

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** @internal */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : MONTH_DAYS[month - 1]!

/**
 * Epoch day of a civil date (month 1-12). Integer arithmetic (`| 0`) for years within +-5,000,000, which covers
 * every instant; callers check ranges first.
 *
 * @internal
 */
export const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = ((y >= 0 ? y : y - 399) / 400) | 0
  const yoe = y - era * 400
  const mp = month > 2 ? month - 3 : month + 9
  const doy = (((153 * mp + 2) / 5) | 0) + day - 1
  const doe = yoe * 365 + ((yoe / 4) | 0) - ((yoe / 100) | 0) + doy
  return era * 146_097 + doe - 719_468
}

/** Civil date of an epoch day, written into `out` to avoid an allocation on hot paths. @internal */
export interface Civil {
  year: number
  month: number
  day: number
}

/**
 * Civil date of an epoch day (|epochDay| below 2^31 - 719,468, which covers every instant).
 *
 * @internal
 */
export const civilFromDays = (epochDay: number, out: Civil): Civil => {
  const z = epochDay + 719_468
  const era = ((z >= 0 ? z : z - 146_096) / 146_097) | 0
  const doe = z - era * 146_097
  const yoe = ((doe - ((doe / 1_460) | 0) + ((doe / 36_524) | 0) - ((doe / 146_096) | 0)) / 365) | 0
  const doy = doe - (365 * yoe + ((yoe / 4) | 0) - ((yoe / 100) | 0))
  const mp = ((5 * doy + 2) / 153) | 0
  const day = doy - (((153 * mp + 2) / 5) | 0) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  out.year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  out.month = month
  out.day = day
  return out
}

/** Day of the week of an epoch day: 0 = Sunday ... 6 = Saturday. @internal */
export const weekdayFromDays = (epochDay: number): number => {
  const w = (epochDay + 4) % 7
  return w < 0 ? w + 7 : w
}

/** @internal */
export const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`)

/** @internal */
export const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`)

/** ISO 8601 year: four digits, or a sign and six digits outside 0000-9999 (RFC 9557 / ECMA-262 expanded years). @internal */
export const formatYear = (year: number): string => {
  if (year >= 0 && year <= 9999) return `000${year}`.slice(-4)
  const abs = Math.abs(year)
  return `${year < 0 ? "-" : "+"}${`00000${abs}`.slice(-6)}`
}
