import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import type * as IsoDuration from "../IsoDuration.js"
import { equals, format, fromMagnitudes, isIsoDuration } from "./isoDuration.js"
import { failure, parseErrorMessage, preview, scan } from "./isoDurationParse.js"

/**
 * The Schemas of `IsoDuration`: the value itself (with its arbitrary, equivalence, formatter and JSON codec), the
 * duration string, and the days-only string of subscription trials.
 *
 * @internal
 */

// -----------------------------------------------------------------------------
// arbitraries
// -----------------------------------------------------------------------------

/** 0 half of the time, else 1..maximum: durations with every combination of units */
const magnitude = (maximum: number) =>
  Schema.Union([Schema.Literal(0), Schema.Int.check(Schema.isBetween({ minimum: 1, maximum }))])

/**
 * What the arbitrary of an `IsoDuration` draws before it builds the value: a sign and magnitudes of realistic sizes,
 * all within Temporal's range.
 */
const Drawn = Schema.Struct({
  negative: Schema.Boolean,
  years: magnitude(200),
  months: magnitude(36),
  weeks: magnitude(60),
  days: magnitude(400),
  hours: magnitude(100),
  minutes: magnitude(200),
  seconds: magnitude(100_000),
  milliseconds: magnitude(999),
  microseconds: magnitude(999),
  nanoseconds: magnitude(999)
})

const fromDrawn = (f: typeof Drawn.Type): IsoDuration.IsoDuration =>
  fromMagnitudes(
    f.negative,
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

/** The days of a trial as the arbitrary draws them: one day to about ten years */
const DrawnDays = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3660 }))

const days = (n: number): IsoDuration.IsoDuration => fromMagnitudes(false, 0, 0, 0, n, 0, 0, 0, 0, 0, 0)

// -----------------------------------------------------------------------------
// duration strings
// -----------------------------------------------------------------------------

/** The shape of Temporal's grammar, for JSON Schema (the range is checked by the filter, not by the pattern) */
const DURATION_PATTERN =
  "^[+-]?[Pp](?=[0-9Tt])(?:[0-9]+[Yy])?(?:[0-9]+[Mm])?(?:[0-9]+[Ww])?(?:[0-9]+[Dd])?(?:[Tt](?=[0-9])(?:[0-9]+(?:[.,][0-9]{1,9})?[Hh])?(?:[0-9]+(?:[.,][0-9]{1,9})?[Mm])?(?:[0-9]+(?:[.,][0-9]{1,9})?[Ss])?)?$"

/** A string in Temporal's grammar; the message of a failure is the one of `IsoDurationParseError` */
const isDurationString = Schema.makeFilter<string>(
  (s) => (scan(s) === undefined ? parseErrorMessage(s, failure.reason, failure.position) : undefined),
  {
    expected: "an ISO 8601 duration in Temporal's grammar",
    toJsonSchema: () => ({ pattern: DURATION_PATTERN })
  }
)

/** Builds the duration of a string that passed `isDurationString` (or `isDaysOnlyString`) */
const fromDurationString = SchemaGetter.transformEffect<IsoDuration.IsoDuration, string>((s, options) => {
  const d = scan(s)
  return d === undefined
    ? Effect.fail(
        new SchemaIssue.InvalidValue({ message: parseErrorMessage(s, failure.reason, failure.position) }, s, options)
      )
    : Effect.succeed(d)
})

const DAYS_ONLY = /^P[0-9]+D$/

/** `^P[0-9]+D$`, at least one day; each way to miss it has its own message */
const isDaysOnlyString = Schema.makeFilter<string>(
  (s) => {
    const d = scan(s)
    if (!DAYS_ONLY.test(s)) {
      return d === undefined
        ? parseErrorMessage(s, failure.reason, failure.position)
        : `${JSON.stringify(preview(s))} is a duration, but a trial allows days only, as P<n>D (e.g. P14D)`
    }
    if (d === undefined) return parseErrorMessage(s, failure.reason, failure.position)
    return d.sign === 0 ? "a trial lasts at least one day (P1D)" : undefined
  },
  {
    expected: "a number of days, at least 1, as P<n>D",
    toJsonSchema: () => ({ pattern: "^P[0-9]+D$" })
  }
)

// -----------------------------------------------------------------------------
// Schemas
// -----------------------------------------------------------------------------

/** @internal */
export const IsoDurationFromSelf: Schema.declare<IsoDuration.IsoDuration> = Schema.declare(isIsoDuration, {
  identifier: "IsoDuration",
  description: "an ISO 8601 duration",
  toFormatter: () => (d) => `IsoDuration(${format(d)})`,
  toEquivalence: () => equals,
  toCodecArbitrary: () =>
    Schema.link<IsoDuration.IsoDuration>()(Drawn, {
      decode: SchemaGetter.transform(fromDrawn),
      encode: SchemaGetter.forbiddenEncoding
    }),
  toCodecJson: () =>
    Schema.link<IsoDuration.IsoDuration>()(Schema.String.check(isDurationString), {
      decode: fromDurationString,
      encode: SchemaGetter.transform(format)
    })
})

/** @internal */
export const IsoDurationFromString: Schema.Codec<IsoDuration.IsoDuration, string> = Schema.String.check(
  isDurationString
).pipe(
  Schema.annotate({
    identifier: "IsoDurationFromString",
    title: "ISO 8601 duration",
    description: "an ISO 8601 duration in Temporal's grammar, e.g. P1M, P1Y2M3DT4H5M6.5S, PT36H",
    examples: ["P1M", "PT2H"]
  }),
  Schema.decodeTo(IsoDurationFromSelf, {
    decode: fromDurationString,
    encode: SchemaGetter.transform(format)
  })
)

const isDaysOnly = (d: IsoDuration.IsoDuration): boolean =>
  d.sign > 0 &&
  d.years === 0 &&
  d.months === 0 &&
  d.weeks === 0 &&
  d.hours === 0 &&
  d.minutes === 0 &&
  d.seconds === 0 &&
  d.milliseconds === 0 &&
  d.microseconds === 0 &&
  d.nanoseconds === 0

/** A positive duration of days only (`P14D`): the decoded side of `DaysOnlyFromString`, with its own arbitrary */
const DaysOnlyFromSelf = Schema.declareConstructor<IsoDuration.IsoDuration>()(
  [],
  () => (u, ast, options) =>
    !isIsoDuration(u)
      ? Effect.fail(new SchemaIssue.InvalidType(ast, u, options))
      : isDaysOnly(u)
        ? Effect.succeed(u)
        : Effect.fail(
            new SchemaIssue.InvalidValue({ message: `${format(u)} is not a days-only duration` }, u, options)
          ),
  {
    identifier: "DaysOnlyDuration",
    description: "a positive ISO 8601 duration of days only",
    toFormatter: () => (d) => `IsoDuration(${format(d)})`,
    toEquivalence: () => equals,
    toCodecArbitrary: () =>
      Schema.link<IsoDuration.IsoDuration>()(DrawnDays, {
        decode: SchemaGetter.transform(days),
        encode: SchemaGetter.forbiddenEncoding
      }),
    toCodecJson: () =>
      Schema.link<IsoDuration.IsoDuration>()(Schema.String.check(isDaysOnlyString), {
        decode: fromDurationString,
        encode: SchemaGetter.transform((d) => `P${d.days}D`)
      })
  }
)

/** @internal */
export const DaysOnlyFromString: Schema.Codec<IsoDuration.IsoDuration, string> = Schema.String.check(
  isDaysOnlyString
).pipe(
  Schema.annotate({
    identifier: "DaysOnlyFromString",
    title: "days-only ISO 8601 duration",
    description: "a number of days, at least 1, as P<n>D (e.g. P14D)",
    examples: ["P14D"]
  }),
  Schema.decodeTo(DaysOnlyFromSelf, {
    decode: fromDurationString,
    encode: SchemaGetter.transform((d) => `P${d.days}D`)
  })
)
