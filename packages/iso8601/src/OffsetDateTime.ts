/**
 * ISO 8601 / RFC 3339 date-times that must carry their timezone (`Z` or an offset), as the payment specifications
 * require. They decode to an Effect `DateTime.Zoned` whose zone is the written offset, so nothing about the instant or
 * the offset is lost.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import type * as Equivalence from "effect/Equivalence"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import {
  civilFromDays,
  DAY_MS,
  daysFromCivil,
  daysInMonth,
  formatYear,
  MAX_EPOCH_MS,
  MIN_EPOCH_MS,
  pad2,
  pad3
} from "./internal/calendar.js"
import { makeZoned } from "./internal/dateTime.js"

/**
 * @since 0.1.0
 * @category errors
 */
export type ParseErrorReason =
  /** the text is not `YYYY-MM-DDTHH:MM[:SS[.fff]]` followed by a zone */
  | "Syntax"
  /** a date-time without `Z` or an offset: the specification requires the timezone */
  | "MissingOffset"
  /** the date does not exist (2023-02-29, month 13) */
  | "InvalidDate"
  /** hour, minute or second out of range */
  | "InvalidTime"
  /** offset hours over 23 or minutes over 59 */
  | "InvalidOffset"
  /** 23:59:60: leap seconds cannot be represented by an instant */
  | "LeapSecond"
  /** outside the range of instants */
  | "OutOfRange"

/**
 * @since 0.1.0
 * @category errors
 */
export class OffsetDateTimeParseError extends Data.TaggedError("OffsetDateTimeParseError")<{
  readonly input: string
  readonly position: number
  readonly reason: ParseErrorReason
  readonly message: string
}> {}

const reasons: Record<ParseErrorReason, string> = {
  Syntax: "expected an ISO 8601 date-time such as 2024-03-31T12:00:00Z or 2024-03-31T13:00:00+01:00",
  MissingOffset: "the date-time has no timezone: it must end with Z or an offset such as +01:00",
  InvalidDate: "the date does not exist",
  InvalidTime: "the time of day is out of range",
  InvalidOffset: "the offset is out of range (at most 23:59)",
  LeapSecond: "leap seconds (:60) cannot be represented",
  OutOfRange: "the instant is outside the supported range"
}

const preview = (input: string): string => (input.length > 48 ? `${input.slice(0, 45)}...` : input)

const parseError = (input: string, reason: ParseErrorReason, position: number) =>
  new OffsetDateTimeParseError({
    input,
    position,
    reason,
    message: `Invalid date-time ${JSON.stringify(preview(input))}: ${reasons[reason]}`
  })

interface Parsed {
  readonly epochMillis: number
  readonly offsetMillis: number
}

const failure = { reason: "Syntax" as ParseErrorReason, position: 0 }
const fail = (reason: ParseErrorReason, position: number): undefined => {
  failure.reason = reason
  failure.position = position
  return undefined
}

const digitsAt = (s: string, at: number, n: number): number => {
  let v = 0
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48
    if (!(d >= 0 && d <= 9)) return -1
    v = v * 10 + d
  }
  return v
}

const scan = (s: string): Parsed | undefined => {
  const len = s.length
  let i = 0
  let yearSign = 1
  let year: number
  const c0 = s.charCodeAt(0)
  if (c0 === 43 || c0 === 45) {
    // expanded year: sign and six digits; -000000 is not a year
    yearSign = c0 === 45 ? -1 : 1
    year = digitsAt(s, 1, 6)
    if (year < 0) return fail("Syntax", 1)
    if (year === 0 && yearSign === -1) return fail("InvalidDate", 0)
    year *= yearSign
    i = 7
  } else {
    year = digitsAt(s, 0, 4)
    if (year < 0) return fail("Syntax", 0)
    i = 4
  }
  if (s.charCodeAt(i) !== 45) return fail("Syntax", i)
  const month = digitsAt(s, i + 1, 2)
  if (month < 0 || s.charCodeAt(i + 3) !== 45) return fail("Syntax", i + 1)
  const day = digitsAt(s, i + 4, 2)
  if (day < 0) return fail("Syntax", i + 4)
  i += 6
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return fail("InvalidDate", 0)
  const sep = s.charCodeAt(i)
  if (i === len) return fail("MissingOffset", i)
  if (!(sep === 84 || sep === 116 || sep === 32)) return fail("Syntax", i)
  i++
  const hour = digitsAt(s, i, 2)
  if (hour < 0 || s.charCodeAt(i + 2) !== 58) return fail("Syntax", i)
  const minute = digitsAt(s, i + 3, 2)
  if (minute < 0) return fail("Syntax", i + 3)
  i += 5
  let second = 0
  let millis = 0
  if (s.charCodeAt(i) === 58) {
    second = digitsAt(s, i + 1, 2)
    if (second < 0) return fail("Syntax", i + 1)
    i += 3
    const c = s.charCodeAt(i)
    if (c === 46 || c === 44) {
      const start = ++i
      while (i < len) {
        const d = s.charCodeAt(i) - 48
        if (!(d >= 0 && d <= 9)) break
        // digits beyond milliseconds are truncated: an Effect DateTime holds milliseconds
        if (i - start < 3) millis = millis * 10 + d
        i++
      }
      const n = i - start
      if (n === 0 || n > 9) return fail("Syntax", start)
      if (n === 1) millis *= 100
      else if (n === 2) millis *= 10
    }
  }
  if (hour > 23 || minute > 59) return fail("InvalidTime", i)
  if (second === 60) return fail("LeapSecond", i)
  if (second > 59) return fail("InvalidTime", i)
  if (i === len) return fail("MissingOffset", i)
  let offsetMillis = 0
  const z = s.charCodeAt(i)
  if (z === 90 || z === 122) {
    i++
  } else if (z === 43 || z === 45) {
    const oh = digitsAt(s, i + 1, 2)
    if (oh < 0) return fail("Syntax", i + 1)
    let om = 0
    let next = i + 3
    if (s.charCodeAt(next) === 58) {
      om = digitsAt(s, next + 1, 2)
      if (om < 0) return fail("Syntax", next + 1)
      next += 3
    } else if (next < len) {
      om = digitsAt(s, next, 2)
      if (om < 0) return fail("Syntax", next)
      next += 2
    }
    if (oh > 23 || om > 59) return fail("InvalidOffset", i)
    offsetMillis = (z === 45 ? -1 : 1) * (oh * 60 + om) * 60_000
    i = next
  } else if (z === 91) {
    return fail("MissingOffset", i)
  } else {
    return fail("Syntax", i)
  }
  if (i !== len) return fail("Syntax", i)
  const wall = daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millis
  const epochMillis = wall - offsetMillis
  if (epochMillis < MIN_EPOCH_MS || epochMillis > MAX_EPOCH_MS) return fail("OutOfRange", 0)
  return { epochMillis, offsetMillis }
}

// the instants effect's zoned DateTime values can hold (`DateTime.makeZoned` answers none outside)
const minZonedEpochMillis = MIN_EPOCH_MS + 12 * 3_600_000
const maxZonedEpochMillis = MAX_EPOCH_MS - 14 * 3_600_000

// A page of plans holds a few dozen date-times at one or two offsets: their zones are made once (a zone is an
// immutable value) and the DateTime values with the constructors of calendar arithmetic (`internal/dateTime.ts`),
// which skip effect's per-value property definitions; decoding date-times was most of the time of reading a page
const zones = new Map<number, DateTime.TimeZone.Offset>()
const zoneOf = (offsetMillis: number): DateTime.TimeZone.Offset => {
  let zone = zones.get(offsetMillis)
  if (zone === undefined) {
    zone = DateTime.zoneMakeOffset(offsetMillis)
    // offsets are whole minutes within a day: a bounded set, but keep the cache small whatever comes in
    if (zones.size < 512) zones.set(offsetMillis, zone)
  }
  return zone
}

const toZoned = (p: Parsed): DateTime.Zoned | undefined =>
  p.epochMillis < minZonedEpochMillis || p.epochMillis > maxZonedEpochMillis
    ? undefined
    : makeZoned(p.epochMillis, zoneOf(p.offsetMillis))

/**
 * Parses an ISO 8601 date-time that carries `Z` or an offset (`+01:00`, `+0100`, `+01`): `YYYY-MM-DD`, `T` (or a
 * space, as RFC 3339 permits), `HH:MM`, optionally `:SS` and a fraction. Digits of the fraction beyond milliseconds
 * are truncated. A date-time without a timezone is rejected with reason `MissingOffset`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (input: string): Result.Result<DateTime.Zoned, OffsetDateTimeParseError> => {
  const p = scan(input)
  if (p === undefined) return Result.fail(parseError(input, failure.reason, failure.position))
  const z = toZoned(p)
  return z === undefined ? Result.fail(parseError(input, "OutOfRange", 0)) : Result.succeed(z)
}

/**
 * Like {@link parse}, but throws the `OffsetDateTimeParseError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseUnsafe = (input: string): DateTime.Zoned => Result.getOrThrowWith(parse(input), (e) => e)

/**
 * @deprecated Use {@link parseUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParse: (input: string) => DateTime.Zoned = parseUnsafe

const formatOffset = (offsetMillis: number): string => {
  if (offsetMillis === 0) return "Z"
  const abs = Math.abs(Math.round(offsetMillis / 60_000))
  return `${offsetMillis < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`
}

/**
 * RFC 3339 text of a date-time at its own offset: `2024-03-31T13:00:00+01:00`, milliseconds when non-zero, `Z` for
 * offset zero. A `Utc` value is written with `Z`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const format = (self: DateTime.DateTime): string => {
  const offset = self._tag === "Utc" ? 0 : DateTime.zonedOffset(self)
  const wall = self.epochMilliseconds + offset
  const epochDay = Math.floor(wall / DAY_MS)
  let msOfDay = wall - epochDay * DAY_MS
  const date = civilFromDays(epochDay, { year: 0, month: 0, day: 0 })
  const ms = msOfDay % 1000
  msOfDay = (msOfDay - ms) / 1000
  const sec = msOfDay % 60
  const min = Math.floor(msOfDay / 60) % 60
  const hour = Math.floor(msOfDay / 3600)
  return `${formatYear(date.year)}-${pad2(date.month)}-${pad2(date.day)}T${pad2(
    hour
  )}:${pad2(min)}:${pad2(sec)}${ms === 0 ? "" : `.${pad3(ms)}`}${formatOffset(offset)}`
}

const arbitraryOffsetsMinutes = [
  -720, -600, -570, -480, -300, -240, -210, -180, 0, 60, 120, 180, 270, 330, 345, 480, 525, 570, 600, 630, 765, 780, 840
] as const

/** What the arbitrary draws: an instant between 1900 and 2200 and a real-world offset in minutes */
const Drawn = Schema.Struct({
  epochMilliseconds: Schema.Int.check(Schema.isBetween({ minimum: -2_208_988_800_000, maximum: 7_258_118_400_000 })),
  offsetMinutes: Schema.Literals(arbitraryOffsetsMinutes)
})

const offsetDateTimeAnnotations: Schema.Annotations.Declaration<DateTime.Zoned> = {
  identifier: "OffsetDateTime",
  toCodecArbitrary: (): SchemaAST.Link =>
    Schema.link<DateTime.Zoned>()(Drawn, {
      decode: SchemaGetter.transform(({ epochMilliseconds, offsetMinutes }) =>
        DateTime.makeZonedUnsafe(epochMilliseconds, { timeZone: offsetMinutes * 60_000 })
      ),
      encode: SchemaGetter.forbiddenEncoding
    }),
  // the same instant at the same offset: what a round trip through the text keeps
  toEquivalence: (): Equivalence.Equivalence<DateTime.Zoned> => (a, b) =>
    a.epochMilliseconds === b.epochMilliseconds && DateTime.zonedOffset(a) === DateTime.zonedOffset(b)
}

/**
 * A `DateTime.Zoned` with a fixed offset, as a Schema value (effect's `Schema.DateTimeZoned`, with its JSON codec).
 * Its arbitrary (`Arbitrary.schema(OffsetDateTimeFromSelf)`) draws instants between 1900 and 2200 at real-world
 * offsets (including the half and quarter hours of India, Nepal and Chatham); two values are equivalent when they
 * are the same instant at the same offset.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OffsetDateTimeFromSelf: Schema.DateTimeZoned = Schema.DateTimeZoned.annotate(offsetDateTimeAnnotations)

/**
 * An ISO 8601 date-time string with a timezone, decoded to a `DateTime.Zoned` at the written offset; encodes back to
 * RFC 3339 with the same offset. A string that is not one fails with the message of the
 * {@link OffsetDateTimeParseError}.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OffsetDateTimeFromString: Schema.Codec<DateTime.Zoned, string> = Schema.String.annotate({
  identifier: "OffsetDateTimeFromString",
  title: "ISO 8601 date-time with timezone",
  description: "an ISO 8601 date-time that carries Z or an offset, e.g. 2017-06-05T15:15:13+00:00",
  format: "date-time"
}).pipe(
  Schema.decodeTo(OffsetDateTimeFromSelf, {
    decode: SchemaGetter.transformEffect((s: string, options) =>
      Result.match(parse(s), {
        onFailure: (e) => Effect.fail(new SchemaIssue.InvalidValue({ message: e.message }, s, options)),
        onSuccess: Effect.succeed
      })
    ),
    encode: SchemaGetter.transform(format)
  })
)
