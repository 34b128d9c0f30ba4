/**
 * ISO 8601 durations with the grammar and the fields of ECMA-262 Temporal (`Temporal.Duration.from`), see D1.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import type * as Equal from "effect/Equal"
import { dual } from "effect/Function"
import type { Inspectable } from "effect/Inspectable"
import type { Pipeable } from "effect/Pipeable"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as internal from "./internal/isoDuration.js"
import * as parser from "./internal/isoDurationParse.js"
import * as schemas from "./internal/isoDurationSchema.js"

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
  new IsoDurationParseError({ input, position, reason, message: parser.parseErrorMessage(input, reason, position) })

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
 * import { Result } from "effect"
 *
 * const d = Result.getOrThrow(IsoDuration.parse("PT1.5H"))
 * console.log(d.hours, d.minutes) // 1 30
 * console.log(Result.isFailure(IsoDuration.parse("P0.5Y"))) // true: valid ISO 8601, outside Temporal's grammar
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (input: string): Result.Result<IsoDuration, IsoDurationParseError> => {
  const d = parser.scan(input)
  return d === undefined
    ? Result.fail(parseError(input, parser.failure.reason, parser.failure.position))
    : Result.succeed(d)
}

/**
 * Like {@link parse}, but throws the `IsoDurationParseError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseUnsafe = (input: string): IsoDuration => {
  const d = parser.scan(input)
  if (d === undefined) throw parseError(input, parser.failure.reason, parser.failure.position)
  return d
}

/**
 * @deprecated Use {@link parseUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParse: (input: string) => IsoDuration = parseUnsafe

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
export const make = (fields: Fields): Result.Result<IsoDuration, InvalidIsoDurationFields> => {
  let positive = false
  let negative = false
  const abs: Array<number> = []
  for (const name of internal.fieldNames) {
    const v = fields[name] ?? 0
    if (!Number.isInteger(v)) {
      return Result.fail(
        new InvalidIsoDurationFields({ reason: "NotAnInteger", field: name, message: `${name} must be an integer` })
      )
    }
    if (v > 0) positive = true
    if (v < 0) negative = true
    const a = Math.abs(v)
    if (a > 999 && (name === "milliseconds" || name === "microseconds" || name === "nanoseconds")) {
      return Result.fail(
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
    return Result.fail(
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
    return Result.fail(
      new InvalidIsoDurationFields({
        reason: "OutOfRange",
        field: undefined,
        message: parser.reasonMessage("OutOfRange")
      })
    )
  }
  return Result.succeed(internal.fromMagnitudes(negative, y, mo, w, d, h, mi, s, ms, us, ns))
}

/**
 * Like {@link make}, but throws the `InvalidIsoDurationFields`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeUnsafe = (fields: Fields): IsoDuration => Result.getOrThrowWith(make(fields), (e) => e)

/**
 * @deprecated Use {@link makeUnsafe}.
 * @since 0.1.0
 * @category constructors
 */
export const unsafeMake: (fields: Fields) => IsoDuration = makeUnsafe

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
export const negate: (self: IsoDuration) => IsoDuration = internal.negate

/**
 * The calendar part: years, months, weeks and days, which are added on the wall clock (their length in time depends
 * on the date and the zone).
 *
 * @since 0.1.0
 * @category combinators
 */
export const calendarPart: (self: IsoDuration) => IsoDuration = internal.calendarPart

/**
 * The exact-time part: hours down to nanoseconds, which are added as elapsed time.
 *
 * @since 0.1.0
 * @category combinators
 */
export const timePart: (self: IsoDuration) => IsoDuration = internal.timePart

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
 * An `IsoDuration` value as a Schema (no transformation). Its arbitrary (`Arbitrary.schema(IsoDurationFromSelf)`)
 * generates durations within Temporal's range, of realistic sizes, with every combination of units and both signs;
 * its JSON codec (`Schema.toCodecJson`) is the duration string.
 *
 * @example
 * ```ts
 * import { IsoDuration } from "@payrules/iso8601"
 * import { Arbitrary, Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const durations = yield* Arbitrary.sampleEffect(Arbitrary.schema(IsoDuration.IsoDurationFromSelf), { count: 3 })
 *   console.log(durations.map(IsoDuration.format))
 * })
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const IsoDurationFromSelf: Schema.declare<IsoDuration> = schemas.IsoDurationFromSelf

/**
 * A duration string (Temporal's grammar) decoded to an {@link IsoDuration}; encodes to the canonical {@link format}.
 * A string outside the grammar fails with the message of the {@link IsoDurationParseError}. Its arbitrary is the one
 * of {@link IsoDurationFromSelf}; its JSON Schema is a string with the grammar's pattern.
 *
 * @since 0.1.0
 * @category schemas
 */
export const IsoDurationFromString: Schema.Codec<IsoDuration, string> = schemas.IsoDurationFromString

/**
 * The days-only form of a subscription trial: `^P[0-9]+D$` with at least one day (`P14D`); no other unit, no time
 * part, no sign, no lower-case designators. Its arbitrary generates 1 to 3660 days.
 *
 * @since 0.1.0
 * @category schemas
 */
export const DaysOnlyFromString: Schema.Codec<IsoDuration, string> = schemas.DaysOnlyFromString
