/**
 * ISO 8601 durations with the grammar and the fields of ECMA-262 Temporal (`Temporal.Duration.from`), see D1.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Either from "effect/Either"
import type * as Equal from "effect/Equal"
import { dual } from "effect/Function"
import type { Inspectable } from "effect/Inspectable"
import * as ParseResult from "effect/ParseResult"
import type { Pipeable } from "effect/Pipeable"
import * as Schema from "effect/Schema"
import * as internal from "./internal/isoDuration.js"

/**
 * @since 0.1.0
 * @category symbols
 */
export const TypeId: unique symbol = internal.TypeId as never

/**
 * @since 0.1.0
 * @category symbols
 */
export type TypeId = typeof TypeId

/**
 * A duration as written: the units are kept (PT36H stays 36 hours, P1Y12M stays 1 year and 12 months) and every
 * field carries the one sign of the duration, as the fields of `Temporal.Duration` do. `milliseconds`,
 * `microseconds` and `nanoseconds` are each within -999..999, so every value has an ISO 8601 form.
 *
 * @since 0.1.0
 * @category models
 */
export interface IsoDuration extends Equal.Equal, Pipeable, Inspectable {
  readonly [TypeId]: TypeId
  /** -1, 0 or 1 */
  readonly sign: -1 | 0 | 1
  readonly years: number
  readonly months: number
  readonly weeks: number
  readonly days: number
  readonly hours: number
  readonly minutes: number
  readonly seconds: number
  readonly milliseconds: number
  readonly microseconds: number
  readonly nanoseconds: number
}

/**
 * The ten fields, as accepted by {@link make}.
 *
 * @since 0.1.0
 * @category models
 */
export interface Fields {
  readonly years?: number | undefined
  readonly months?: number | undefined
  readonly weeks?: number | undefined
  readonly days?: number | undefined
  readonly hours?: number | undefined
  readonly minutes?: number | undefined
  readonly seconds?: number | undefined
  readonly milliseconds?: number | undefined
  readonly microseconds?: number | undefined
  readonly nanoseconds?: number | undefined
}

/**
 * Field names in Temporal's order, largest unit first.
 *
 * @since 0.1.0
 * @category constants
 */
export const fieldNames: ReadonlyArray<keyof Fields> = internal.fieldNames

/**
 * Why a string is not a duration. Every reason has its own message; `AlternativeFormat` and `FractionOnDateUnit`
 * are the ISO 8601 forms that Temporal's grammar (and so payrules) leaves out.
 *
 * @since 0.1.0
 * @category errors
 */
export type ParseErrorReason =
  | "Empty"
  | "MissingDesignator"
  | "EmptyDuration"
  | "DanglingTimeDesignator"
  | "UnexpectedCharacter"
  | "MissingUnit"
  | "UnitOrder"
  | "TimeUnitInDatePart"
  | "DateUnitInTimePart"
  | "FractionOnDateUnit"
  | "FractionNotLast"
  | "FractionTooLong"
  | "FractionWithoutDigits"
  | "SignInside"
  | "AlternativeFormat"
  | "OutOfRange"

const preview = (input: string): string => (input.length > 48 ? `${input.slice(0, 45)}...` : input)

/**
 * @since 0.1.0
 * @category errors
 */
export class IsoDurationParseError extends Data.TaggedError("IsoDurationParseError")<{
  readonly input: string
  /** index in `input` (UTF-16 code units) where the problem was found */
  readonly position: number
  readonly reason: ParseErrorReason
  readonly message: string
}> {}

const parseError = (input: string, reason: ParseErrorReason, position: number): IsoDurationParseError =>
  new IsoDurationParseError({
    input,
    position,
    reason,
    message: `Invalid ISO 8601 duration ${JSON.stringify(preview(input))} at position ${position}: ${internal.reasonMessage(
      reason
    )}`
  })

/**
 * Why fields do not make a duration.
 *
 * @since 0.1.0
 * @category errors
 */
export type InvalidFieldsReason = "NotAnInteger" | "MixedSigns" | "SubsecondOverflow" | "OutOfRange"

/**
 * @since 0.1.0
 * @category errors
 */
export class InvalidIsoDurationFields extends Data.TaggedError("InvalidIsoDurationFields")<{
  readonly reason: InvalidFieldsReason
  readonly field: keyof Fields | undefined
  readonly message: string
}> {}

/**
 * @since 0.1.0
 * @category guards
 */
export const isIsoDuration: (u: unknown) => u is IsoDuration = internal.isIsoDuration

/**
 * Parses a duration string with Temporal's grammar (`Temporal.Duration.from`): an optional `+`/`-`, `P`, then
 * `nY nM nW nD` in that order, optionally `T` and `nH nM nS`; designators in either case; a fraction (`.` or `,`,
 * 1 to 9 digits) only on the last of hours, minutes or seconds, spread into lower units as Temporal does.
 *
 * @example
 * ```ts
 * import { IsoDuration } from "@payrules/iso8601"
 * import { Either } from "effect"
 *
 * const d = Either.getOrThrow(IsoDuration.parse("PT1.5H"))
 * console.log(d.hours, d.minutes) // 1 30
 * console.log(Either.isLeft(IsoDuration.parse("P0.5Y"))) // true: valid ISO 8601, outside Temporal's grammar
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (input: string): Either.Either<IsoDuration, IsoDurationParseError> => {
  const d = internal.scan(input)
  return d === undefined
    ? Either.left(parseError(input, internal.failure.reason, internal.failure.position))
    : Either.right(d)
}

/**
 * Like {@link parse}, but throws the `IsoDurationParseError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParse = (input: string): IsoDuration => {
  const d = internal.scan(input)
  if (d === undefined) throw parseError(input, internal.failure.reason, internal.failure.position)
  return d
}

/**
 * The canonical string: `P`, the non-zero units, `T` and the non-zero time units, with milliseconds, microseconds and
 * nanoseconds as a fraction of seconds; `PT0S` for zero. `parse(format(d))` equals `d` for every duration.
 *
 * @since 0.1.0
 * @category formatting
 */
export const format: (self: IsoDuration) => string = internal.format

/**
 * Builds a duration from fields. Fields default to 0; all must be integers with one sign; `milliseconds`,
 * `microseconds` and `nanoseconds` within -999..999; and the range of Temporal (see {@link parse}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (fields: Fields): Either.Either<IsoDuration, InvalidIsoDurationFields> => {
  let positive = false
  let negative = false
  const abs: Array<number> = []
  for (const name of internal.fieldNames) {
    const v = fields[name] ?? 0
    if (!Number.isInteger(v)) {
      return Either.left(
        new InvalidIsoDurationFields({ reason: "NotAnInteger", field: name, message: `${name} must be an integer` })
      )
    }
    if (v > 0) positive = true
    if (v < 0) negative = true
    const a = Math.abs(v)
    if (a > 999 && (name === "milliseconds" || name === "microseconds" || name === "nanoseconds")) {
      return Either.left(
        new InvalidIsoDurationFields({
          reason: "SubsecondOverflow",
          field: name,
          message: `${name} must be within -999..999; carry the excess into the next larger unit`
        })
      )
    }
    abs.push(a)
  }
  if (positive && negative) {
    return Either.left(
      new InvalidIsoDurationFields({
        reason: "MixedSigns",
        field: undefined,
        message: "all fields of a duration must have the same sign"
      })
    )
  }
  const [y, mo, w, d, h, mi, s, ms, us, ns] = abs as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number
  ]
  if (!internal.magnitudesInRange(y, mo, w, d, h, mi, s, ms, us, ns)) {
    return Either.left(
      new InvalidIsoDurationFields({
        reason: "OutOfRange",
        field: undefined,
        message: internal.reasonMessage("OutOfRange")
      })
    )
  }
  return Either.right(internal.fromMagnitudes(negative, y, mo, w, d, h, mi, s, ms, us, ns))
}

/**
 * Like {@link make}, but throws.
 *
 * @since 0.1.0
 * @category constructors
 */
export const unsafeMake = (fields: Fields): IsoDuration => Either.getOrThrowWith(make(fields), (e) => e)

/**
 * The zero duration (`PT0S`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const zero: IsoDuration = internal.ZERO

/**
 * @since 0.1.0
 * @category predicates
 */
export const isZero = (self: IsoDuration): boolean => self.sign === 0

/**
 * @since 0.1.0
 * @category predicates
 */
export const equals: {
  (that: IsoDuration): (self: IsoDuration) => boolean
  (self: IsoDuration, that: IsoDuration): boolean
} = dual(2, internal.equals)

/**
 * `true` when hours, minutes, seconds or a sub-second unit is non-zero.
 *
 * @since 0.1.0
 * @category predicates
 */
export const hasTimePart = (self: IsoDuration): boolean =>
  self.hours !== 0 ||
  self.minutes !== 0 ||
  self.seconds !== 0 ||
  self.milliseconds !== 0 ||
  self.microseconds !== 0 ||
  self.nanoseconds !== 0

/**
 * `true` when years, months, weeks or days is non-zero.
 *
 * @since 0.1.0
 * @category predicates
 */
export const hasCalendarPart = (self: IsoDuration): boolean =>
  self.years !== 0 || self.months !== 0 || self.weeks !== 0 || self.days !== 0

/**
 * The same duration with the opposite sign.
 *
 * @since 0.1.0
 * @category combinators
 */
export const negate = (self: IsoDuration): IsoDuration =>
  self.sign === 0
    ? self
    : internal.fromMagnitudes(
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

/**
 * The calendar part: years, months, weeks and days, which are added on the wall clock (their length in time depends
 * on the date and the zone).
 *
 * @since 0.1.0
 * @category combinators
 */
export const calendarPart = (self: IsoDuration): IsoDuration =>
  internal.fromMagnitudes(
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

/**
 * The exact-time part: hours down to nanoseconds, which are added as elapsed time.
 *
 * @since 0.1.0
 * @category combinators
 */
export const timePart = (self: IsoDuration): IsoDuration =>
  internal.fromMagnitudes(
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

/**
 * Both parts at once: `{ calendar, time }`.
 *
 * @since 0.1.0
 * @category combinators
 */
export const split = (self: IsoDuration): { readonly calendar: IsoDuration; readonly time: IsoDuration } => ({
  calendar: calendarPart(self),
  time: timePart(self)
})

/**
 * The exact-time part in nanoseconds, signed.
 *
 * @since 0.1.0
 * @category getters
 */
export const timeNanoseconds = (self: IsoDuration): bigint =>
  ((BigInt(self.hours) * 60n + BigInt(self.minutes)) * 60n + BigInt(self.seconds)) * 1_000_000_000n +
  BigInt(self.milliseconds * 1_000_000 + self.microseconds * 1_000 + self.nanoseconds)

/**
 * An `IsoDuration` value as a Schema (no transformation). Its arbitrary generates durations within Temporal's range,
 * mostly of realistic sizes, with every combination of units and both signs.
 *
 * @since 0.1.0
 * @category schemas
 */
export const IsoDurationFromSelf: Schema.Schema<IsoDuration> = Schema.declare(isIsoDuration, {
  identifier: "IsoDuration",
  description: "an ISO 8601 duration",
  pretty: () => (d) => `IsoDuration(${format(d)})`,
  equivalence: () => internal.equals,
  arbitrary: () => (fc) => {
    const small = (max: number) => fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max }))
    const sub = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 999 }))
    return fc
      .record({
        negative: fc.boolean(),
        years: small(200),
        months: small(36),
        weeks: small(60),
        days: small(400),
        hours: small(100),
        minutes: small(200),
        seconds: small(100_000),
        milliseconds: sub,
        microseconds: sub,
        nanoseconds: sub
      })
      .map(({ negative, ...f }) =>
        internal.fromMagnitudes(
          negative,
          f.years,
          f.months,
          f.weeks,
          f.days,
          f.hours,
          f.minutes,
          f.seconds,
          f.milliseconds,
          f.microseconds,
          f.nanoseconds
        )
      )
  }
})

/**
 * A duration string (Temporal's grammar) decoded to an {@link IsoDuration}; encodes to the canonical {@link format}.
 *
 * @since 0.1.0
 * @category schemas
 */
export const IsoDurationFromString: Schema.Schema<IsoDuration, string> = Schema.transformOrFail(
  Schema.String,
  IsoDurationFromSelf,
  {
    strict: true,
    decode: (s, _, ast) => {
      const d = internal.scan(s)
      return d === undefined
        ? ParseResult.fail(
            new ParseResult.Type(ast, s, parseError(s, internal.failure.reason, internal.failure.position).message)
          )
        : ParseResult.succeed(d)
    },
    encode: (d) => ParseResult.succeed(format(d))
  }
).annotations({
  identifier: "IsoDurationFromString",
  title: "ISO 8601 duration",
  description: "an ISO 8601 duration in Temporal's grammar, e.g. P1M, P1Y2M3DT4H5M6.5S, PT36H",
  examples: [internal.scan("P1M")!, internal.scan("PT2H")!],
  jsonSchema: {
    type: "string",
    pattern:
      "^[+-]?[Pp](?=[0-9Tt])(?:[0-9]+[Yy])?(?:[0-9]+[Mm])?(?:[0-9]+[Ww])?(?:[0-9]+[Dd])?(?:[Tt](?=[0-9])(?:[0-9]+(?:[.,][0-9]{1,9})?[Hh])?(?:[0-9]+(?:[.,][0-9]{1,9})?[Mm])?(?:[0-9]+(?:[.,][0-9]{1,9})?[Ss])?)?$"
  }
})

const DAYS_ONLY = /^P([0-9]+)D$/

/**
 * The days-only form of a subscription trial: `^P[0-9]+D$` with at least one day (`P14D`); no other unit, no time
 * part, no sign, no lower-case designators.
 *
 * @since 0.1.0
 * @category schemas
 */
export const DaysOnlyFromString: Schema.Schema<IsoDuration, string> = Schema.transformOrFail(
  Schema.String,
  IsoDurationFromSelf,
  {
    strict: true,
    decode: (s, _, ast) => {
      const m = DAYS_ONLY.exec(s)
      if (m === null) {
        const parsed = internal.scan(s)
        const why =
          parsed === undefined
            ? parseError(s, internal.failure.reason, internal.failure.position).message
            : `${JSON.stringify(preview(s))} is a duration, but a trial allows days only, as P<n>D (e.g. P14D)`
        return ParseResult.fail(new ParseResult.Type(ast, s, why))
      }
      const d = internal.scan(s)
      if (d === undefined) {
        return ParseResult.fail(
          new ParseResult.Type(ast, s, parseError(s, internal.failure.reason, internal.failure.position).message)
        )
      }
      if (d.sign === 0) return ParseResult.fail(new ParseResult.Type(ast, s, "a trial lasts at least one day (P1D)"))
      return ParseResult.succeed(d)
    },
    encode: (d, _, ast) =>
      d.sign > 0 && !hasTimePart(d) && d.years === 0 && d.months === 0 && d.weeks === 0
        ? ParseResult.succeed(`P${d.days}D`)
        : ParseResult.fail(new ParseResult.Type(ast, d, `${format(d)} is not a days-only duration`))
  }
).annotations({
  identifier: "DaysOnlyFromString",
  title: "days-only ISO 8601 duration",
  description: "a number of days, at least 1, as P<n>D (e.g. P14D)",
  arbitrary: () => (fc) => fc.integer({ min: 1, max: 3660 }).map((n) => internal.scan(`P${n}D`)!),
  jsonSchema: { type: "string", pattern: "^P[0-9]+D$" }
})
