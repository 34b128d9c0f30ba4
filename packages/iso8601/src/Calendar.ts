/**
 * Calendar arithmetic on Effect `DateTime` with the semantics of `Temporal.ZonedDateTime.prototype.add` (D2):
 * years and months on the wall-clock date with the day clamped to the month's end, then weeks and days on the
 * wall-clock date, then hours and smaller units as exact elapsed time.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as DateTime from "effect/DateTime"
import * as Result from "effect/Result"
import type * as IsoDuration from "./IsoDuration.js"
import * as arithmetic from "./internal/arithmetic.js"
import * as calendar from "./internal/calendar.js"
import { withEpochMillis } from "./internal/dateTime.js"

/**
 * @since 0.1.0
 * @category errors
 */
export type CalendarErrorReason =
  /** the result, or the wall-clock date-time on the way to it, is outside the range of instants */
  | "OutOfRange"
  /** with `overflow: "reject"`, the day does not exist in the target month (Jan 31 + P1M) */
  | "Overflow"
  /** `times` is not a safe integer */
  | "InvalidMultiplier"
  /** `stepsUntil` needs a positive duration */
  | "NonPositiveStep"
  /**
   * `stepsUntil`: the instant is more than 2^53 - 2 steps from the anchor (a tiny step over a long span), so that the
   * count, or the one after it, would not be a safe integer
   *
   * @since 0.2.0
   */
  | "TooManySteps"

/**
 * @since 0.1.0
 * @category errors
 */
export class CalendarError extends Data.TaggedError("CalendarError")<{
  readonly reason: CalendarErrorReason
  readonly message: string
}> {}

const messages: Record<CalendarErrorReason, string> = {
  OutOfRange: "the result is outside the range of instants (about 271,821 BCE to 275,760 CE)",
  Overflow: 'the day does not exist in the resulting month (overflow: "reject")',
  InvalidMultiplier: "times must be a safe integer",
  NonPositiveStep: "the step must be a positive duration",
  TooManySteps: "the instant is more than 2^53 - 2 steps from the anchor (the count and the next must be safe integers)"
}

const error = (reason: CalendarErrorReason): CalendarError => new CalendarError({ reason, message: messages[reason] })

/**
 * @since 0.1.0
 * @category models
 */
export interface AddOptions {
  /**
   * What to do when the day does not exist in the month reached by years and months: `"constrain"` (default) clamps
   * to the month's last day, `"reject"` fails with `Overflow`.
   */
  readonly overflow?: "constrain" | "reject" | undefined
}

/**
 * `self + times × duration`, computed in one step from `self` (so Jan 31 plus 1, 2, 3 × P1M gives Feb 29, Mar 31 and
 * Apr 30, never the drifting Mar 29 of chained additions). `times` defaults to 1 and may be 0 or negative. A `Zoned`
 * date-time keeps its zone: fixed offsets and IANA zones alike, with Temporal's "compatible" disambiguation when the
 * wall-clock time falls in a DST gap or overlap. A result beyond the range of JavaScript dates fails with
 * `OutOfRange`, and so does a zoned one whose wall-clock time is beyond it (within a day of either end: effect's
 * `DateTime` cannot hold or format such a value, where Temporal can).
 *
 * @example
 * ```ts
 * import { Calendar, IsoDuration } from "@payrules/iso8601"
 * import { DateTime, Result } from "effect"
 *
 * const jan31 = DateTime.makeUnsafe("2024-01-31T10:00:00Z")
 * const month = IsoDuration.parseUnsafe("P1M")
 * const third = Result.getOrThrow(Calendar.addTo(jan31, month, 3))
 * console.log(DateTime.formatIso(third)) // 2024-04-30T10:00:00.000Z
 * ```
 *
 * @since 0.1.0
 * @category arithmetic
 */
export const addTo: {
  (
    duration: IsoDuration.IsoDuration,
    times?: number,
    options?: AddOptions
  ): <A extends DateTime.DateTime>(self: A) => Result.Result<A, CalendarError>
  <A extends DateTime.DateTime>(
    self: A,
    duration: IsoDuration.IsoDuration,
    times?: number,
    options?: AddOptions
  ): Result.Result<A, CalendarError>
} = (a: unknown, b?: unknown, c?: unknown, d?: unknown): never => {
  // dual by hand: effect's predicate-based `dual` goes through `arguments` and `apply`, a third of this function's cost
  if (DateTime.isDateTime(a)) {
    return addToImpl(a, b as IsoDuration.IsoDuration, c as number | undefined, d as AddOptions | undefined) as never
  }
  return ((self: DateTime.DateTime) =>
    addToImpl(self, a as IsoDuration.IsoDuration, b as number | undefined, c as AddOptions | undefined)) as never
}

const addToImpl = <A extends DateTime.DateTime>(
  self: A,
  duration: IsoDuration.IsoDuration,
  times: number | undefined,
  options: AddOptions | undefined
): Result.Result<A, CalendarError> => {
  const k = times ?? 1
  if (!Number.isSafeInteger(k)) return Result.fail(error("InvalidMultiplier"))
  const ms = arithmetic.addMillis(self, duration, k, options?.overflow === "reject")
  if (Number.isNaN(ms)) return Result.fail(error(arithmetic.lastFailure.reason))
  return Result.succeed(withEpochMillis(self, ms))
}

/**
 * Like {@link addTo}, but throws the `CalendarError`.
 *
 * @since 0.1.0
 * @category arithmetic
 */
export const addToUnsafe = <A extends DateTime.DateTime>(
  self: A,
  duration: IsoDuration.IsoDuration,
  times?: number,
  options?: AddOptions
): A => Result.getOrThrowWith(addToImpl(self, duration, times, options), (e) => e)

/**
 * @deprecated Use {@link addToUnsafe}.
 * @since 0.1.0
 * @category arithmetic
 */
export const unsafeAddTo: <A extends DateTime.DateTime>(
  self: A,
  duration: IsoDuration.IsoDuration,
  times?: number,
  options?: AddOptions
) => A = addToUnsafe

/**
 * The epoch milliseconds of `self + times × duration`, without building a `DateTime`: the fast path for loops
 * that only compare instants. Fails as {@link addTo} does.
 *
 * @since 0.1.0
 * @category arithmetic
 */
export const addToEpochMillis = (
  self: DateTime.DateTime,
  duration: IsoDuration.IsoDuration,
  times = 1,
  options?: AddOptions
): Result.Result<number, CalendarError> => {
  if (!Number.isSafeInteger(times)) return Result.fail(error("InvalidMultiplier"))
  const ms = arithmetic.addMillis(self, duration, times, options?.overflow === "reject")
  return Number.isNaN(ms) ? Result.fail(error(arithmetic.lastFailure.reason)) : Result.succeed(ms)
}

/** the largest count of steps `stepsUntil` answers, either way: the count and the next are safe integers */
const MAX_STEPS = Number.MAX_SAFE_INTEGER - 1

/**
 * The largest integer `k` with `anchor + k × step <= instant` (it may be negative when `instant` is before
 * `anchor`). Computed without walking: an estimate from the mean lengths of years and months, corrected by stepping
 * (one step in practice), so it costs the same for the 3rd and the 30,000th multiple. `step` must be positive
 * (`NonPositiveStep`). `k` and `k + 1` are safe integers (|k| <= 2^53 - 2), so both can be given to {@link addTo}: an
 * instant further away in steps (a nanosecond step over 105 days, a millisecond step over 285,000 years) fails with
 * `TooManySteps`.
 *
 * @since 0.1.0
 * @category arithmetic
 */
export const stepsUntil = (
  anchor: DateTime.DateTime,
  step: IsoDuration.IsoDuration,
  instant: DateTime.DateTime
): Result.Result<number, CalendarError> => {
  if (step.sign <= 0) return Result.fail(error("NonPositiveStep"))
  const target = instant.epochMilliseconds
  const at = (k: number): number => {
    const ms = arithmetic.addMillis(anchor, step, k, false)
    // out of range: beyond every instant on that side
    return Number.isNaN(ms) ? (k > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY) : ms
  }
  // every k tried is a safe integer, so that each is exact and the search ends
  const estimate = Math.floor((target - anchor.epochMilliseconds) / arithmetic.approximateMillis(step))
  const k = Math.min(Math.max(estimate, -MAX_STEPS), MAX_STEPS)
  // gallop away from the estimate, then bisect, for steps whose lengths vary a lot (e.g. P1M1D in a DST zone)
  let lo: number
  let hi: number
  if (at(k) <= target) {
    lo = k
    for (let stride = 1; ; stride *= 2) {
      const next = lo + stride
      if (next > MAX_STEPS) {
        if (at(MAX_STEPS + 1) <= target) return Result.fail(error("TooManySteps"))
        hi = MAX_STEPS + 1
        break
      }
      if (at(next) > target) {
        hi = next
        break
      }
      lo = next
    }
  } else {
    hi = k
    for (let stride = 1; ; stride *= 2) {
      const next = hi - stride
      if (next < -MAX_STEPS) {
        if (at(-MAX_STEPS) > target) return Result.fail(error("TooManySteps"))
        lo = -MAX_STEPS
        break
      }
      if (at(next) <= target) {
        lo = next
        break
      }
      hi = next
    }
  }
  // now at(lo) <= target < at(hi)
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2)
    if (at(mid) <= target) lo = mid
    else hi = mid
  }
  return Result.succeed(lo)
}

/**
 * The number of days in a month of the proleptic Gregorian calendar (month 1-12).
 *
 * @since 0.1.0
 * @category calendar
 */
export const daysInMonth: (year: number, month: number) => number = calendar.daysInMonth

/**
 * @since 0.1.0
 * @category calendar
 */
export const isLeapYear: (year: number) => boolean = calendar.isLeapYear
