/**
 * RFC 7231 HTTP dates in the preferred IMF-fixdate form, `Sun, 10 Sep 2017 19:43:31 GMT`, as used by the
 * `x-fapi-customer-last-logged-time` header and by `Retry-After`: {@link parse} checks what a sender writes (the
 * IMF-fixdate only), {@link parseReceived} reads what a recipient must accept (the two obsolete forms too).
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import { civilFromDays, DAY_MS, daysFromCivil, daysInMonth, pad2, weekdayFromDays } from "./internal/calendar.js"

/**
 * @since 0.1.0
 * @category errors
 */
export type ParseErrorReason =
  /** not `Www, DD Mmm YYYY HH:MM:SS GMT` */
  | "Syntax"
  /** RFC 850 (`Sunday, 06-Nov-94 ...`) or asctime (`Sun Nov  6 ...`): obsolete forms that senders must not generate */
  | "ObsoleteFormat"
  /** the day does not exist in that month (`31 Feb`) */
  | "InvalidDate"
  /** the weekday is not the weekday of that date */
  | "WeekdayMismatch"
  /** hour, minute or second out of range */
  | "InvalidTime"
  /** `:60`: leap seconds cannot be represented by an instant */
  | "LeapSecond"

/**
 * @since 0.1.0
 * @category errors
 */
export class HttpDateParseError extends Data.TaggedError("HttpDateParseError")<{
  readonly input: string
  readonly reason: ParseErrorReason
  readonly message: string
}> {}

const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const
const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const

const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/
/** RFC 850 with its parts: `Sunday, 06-Nov-94 08:49:37 GMT` */
const RFC850_PARTS =
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/
/** asctime with its parts: `Sun Nov  6 08:49:37 1994` (a one-digit day after a space) */
const ASCTIME_PARTS =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ( \d|\d{2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/

const preview = (input: string): string => (input.length > 48 ? `${input.slice(0, 45)}...` : input)

const parseError = (input: string, reason: ParseErrorReason, detail: string) =>
  new HttpDateParseError({ input, reason, message: `Invalid HTTP date ${JSON.stringify(preview(input))}: ${detail}` })

const SYNTAX = "expected an IMF-fixdate such as Sun, 10 Sep 2017 19:43:31 GMT"

/** the instant of a date's parts, once its day, weekday and time are checked */
const instantOf = (
  input: string,
  dayName: string,
  day: number,
  monthName: string,
  year: number,
  time: readonly [string, string, string]
): Result.Result<DateTime.Utc, HttpDateParseError> => {
  const month = MONTH_NAMES.indexOf(monthName as (typeof MONTH_NAMES)[number]) + 1
  if (day < 1 || day > daysInMonth(year, month)) {
    return Result.fail(parseError(input, "InvalidDate", `${monthName} ${year} has no day ${day}`))
  }
  const epochDay = daysFromCivil(year, month, day)
  const actual = DAY_NAMES[weekdayFromDays(epochDay)]!
  if (actual !== dayName) {
    return Result.fail(
      parseError(input, "WeekdayMismatch", `${day} ${monthName} ${year} is a ${actual}, not a ${dayName}`)
    )
  }
  const [hour, minute, second] = time.map(Number) as unknown as readonly [number, number, number]
  if (second === 60) {
    return Result.fail(parseError(input, "LeapSecond", "leap seconds (:60) cannot be represented"))
  }
  if (hour > 23 || minute > 59 || second > 59) {
    return Result.fail(parseError(input, "InvalidTime", "the time of day is out of range"))
  }
  return Result.succeed(DateTime.makeUnsafe(epochDay * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000))
}

/** the parts of an IMF-fixdate, if the input is one */
const imfFixdate = (input: string): Result.Result<DateTime.Utc, HttpDateParseError> | undefined => {
  const m = input.length <= 40 ? IMF_FIXDATE.exec(input) : null
  if (m === null) return undefined
  const [, dayName, dd, monthName, yyyy, hh, mm, ss] = m as unknown as ReadonlyArray<string>
  return instantOf(input, dayName!, Number(dd), monthName!, Number(yyyy), [hh!, mm!, ss!])
}

/**
 * Parses an IMF-fixdate (RFC 7231 section 7.1.1.1). The date must exist and the weekday must match it; the two
 * obsolete forms are recognised and refused with reason `ObsoleteFormat` (a sender must not generate them: to read
 * what a server sent, use {@link parseReceived}).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (input: string): Result.Result<DateTime.Utc, HttpDateParseError> => {
  const fixdate = imfFixdate(input)
  if (fixdate !== undefined) return fixdate
  if (input.length <= 40 && (RFC850_PARTS.test(input) || ASCTIME_PARTS.test(input))) {
    return Result.fail(
      parseError(
        input,
        "ObsoleteFormat",
        "the RFC 850 and asctime forms are obsolete; send an IMF-fixdate such as Sun, 10 Sep 2017 19:43:31 GMT"
      )
    )
  }
  return Result.fail(parseError(input, "Syntax", SYNTAX))
}

/**
 * Parses an HTTP date as a recipient must read one (RFC 9110 section 5.6.7: "A recipient that parses a timestamp
 * value in an HTTP header field MUST accept all three HTTP-date formats"): the IMF-fixdate, and the obsolete RFC 850
 * (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms, each with its date, weekday and
 * time checked as {@link parse} checks them. RFC 850's two-digit year is read in the century that puts it at most 50
 * years after `now` (the instant it is read at, in epoch milliseconds or as a `DateTime`), as RFC 9110 says.
 *
 * @example
 * ```ts
 * import { HttpDate } from "@payrules/iso8601"
 * import { DateTime, Result } from "effect"
 *
 * const now = Date.UTC(2026, 10, 27)
 * for (const text of ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"]) {
 *   console.log(Result.map(HttpDate.parseReceived(text, now), DateTime.formatIso))
 * }
 * ```
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseReceived = (
  input: string,
  now: number | DateTime.DateTime
): Result.Result<DateTime.Utc, HttpDateParseError> => {
  const fixdate = imfFixdate(input)
  if (fixdate !== undefined) return fixdate
  const rfc850 = input.length <= 40 ? RFC850_PARTS.exec(input) : null
  if (rfc850 !== null) {
    const [, dayName, dd, monthName, yy, hh, mm, ss] = rfc850 as unknown as ReadonlyArray<string>
    const nowYear = new Date(typeof now === "number" ? now : now.epochMilliseconds).getUTCFullYear()
    let year = nowYear - (nowYear % 100) + Number(yy)
    if (year > nowYear + 50) year -= 100
    return instantOf(input, dayName!.slice(0, 3), Number(dd), monthName!, year, [hh!, mm!, ss!])
  }
  const asctime = input.length <= 40 ? ASCTIME_PARTS.exec(input) : null
  if (asctime !== null) {
    const [, dayName, monthName, d, hh, mm, ss, yyyy] = asctime as unknown as ReadonlyArray<string>
    // a one-digit day follows a space, which Number reads past
    return instantOf(input, dayName!, Number(d), monthName!, Number(yyyy), [hh!, mm!, ss!])
  }
  return Result.fail(
    parseError(
      input,
      "Syntax",
      "expected an HTTP date: an IMF-fixdate such as Sun, 10 Sep 2017 19:43:31 GMT, or the RFC 850 or asctime form"
    )
  )
}

/**
 * Like {@link parseReceived}, but throws the `HttpDateParseError`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseReceivedUnsafe = (input: string, now: number | DateTime.DateTime): DateTime.Utc =>
  Result.getOrThrowWith(parseReceived(input, now), (e) => e)

/**
 * Like {@link parse}, but throws the `HttpDateParseError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseUnsafe = (input: string): DateTime.Utc => Result.getOrThrowWith(parse(input), (e) => e)

/**
 * @deprecated Use {@link parseUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParse: (input: string) => DateTime.Utc = parseUnsafe

/**
 * The IMF-fixdate of an instant, in GMT, truncated to the second (HTTP dates have no fractions). The format has
 * four-digit years: {@link HttpDateFromString} refuses to encode instants outside 0000-9999.
 *
 * @since 0.1.0
 * @category formatting
 */
export const format = (self: DateTime.DateTime): string => {
  const ms = self.epochMilliseconds
  const epochDay = Math.floor(ms / DAY_MS)
  const secondsOfDay = Math.floor((ms - epochDay * DAY_MS) / 1000)
  const c = civilFromDays(epochDay, { year: 0, month: 0, day: 0 })
  const hh = Math.floor(secondsOfDay / 3600)
  const mm = Math.floor(secondsOfDay / 60) % 60
  const ss = secondsOfDay % 60
  return `${DAY_NAMES[weekdayFromDays(epochDay)]}, ${pad2(c.day)} ${MONTH_NAMES[c.month - 1]} ${`000${c.year}`.slice(
    -4
  )} ${pad2(hh)}:${pad2(mm)}:${pad2(ss)} GMT`
}

const MIN_MS = daysFromCivil(0, 1, 1) * DAY_MS
const MAX_MS = daysFromCivil(10_000, 1, 1) * DAY_MS - 1

/** What the arbitrary draws: whole seconds between 1900 and 2200, which an HTTP date keeps */
const DrawnSeconds = Schema.Int.check(Schema.isBetween({ minimum: -2_208_988_800, maximum: 7_258_118_400 }))

const wholeSecondsAnnotations: Schema.Annotations.Declaration<DateTime.Utc> = {
  toCodecArbitrary: (): SchemaAST.Link =>
    Schema.link<DateTime.Utc>()(DrawnSeconds, {
      decode: SchemaGetter.transform((s: number) => DateTime.makeUnsafe(s * 1000)),
      encode: SchemaGetter.forbiddenEncoding
    })
}

/** An IMF-fixdate, with the message of `HttpDateParseError` when it is not one */
const isHttpDateString = Schema.makeFilter<string>(
  (s) => Result.match(parse(s), { onFailure: (e) => e.message, onSuccess: () => undefined }),
  {
    expected: "an IMF-fixdate",
    toJsonSchema: () => ({
      pattern:
        "^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$"
    })
  }
)

/**
 * An IMF-fixdate decoded to a `DateTime.Utc`. Encoding writes whole seconds and fails for years outside 0000-9999,
 * which the format cannot express. Its arbitrary draws whole seconds between 1900 and 2200.
 *
 * @since 0.1.0
 * @category schemas
 */
export const HttpDateFromString: Schema.Codec<DateTime.Utc, string> = Schema.String.check(isHttpDateString).pipe(
  Schema.annotate({
    identifier: "HttpDateFromString",
    title: "RFC 7231 HTTP date",
    description: "an IMF-fixdate, e.g. Sun, 10 Sep 2017 19:43:31 GMT"
  }),
  Schema.decodeTo(Schema.DateTimeUtc.annotate(wholeSecondsAnnotations), {
    decode: SchemaGetter.transformEffect((s: string, options) =>
      Result.match(parse(s), {
        onFailure: (e) => Effect.fail(new SchemaIssue.InvalidValue({ message: e.message }, s, options)),
        onSuccess: Effect.succeed
      })
    ),
    encode: SchemaGetter.transformEffect((d: DateTime.Utc, options) =>
      d.epochMilliseconds < MIN_MS || d.epochMilliseconds > MAX_MS
        ? Effect.fail(new SchemaIssue.InvalidValue({ message: "an HTTP date needs a four-digit year" }, d, options))
        : Effect.succeed(format(d))
    )
  })
)
