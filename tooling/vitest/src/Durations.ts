/**
 * Duration helpers for the Temporal references of the tests and benchmarks; free of vitest, so a benchmark can
 * import them too.
 */

/**
 * The fields of a duration, as `@payrules/iso8601`'s `IsoDuration` holds them.
 */
export interface DurationFields {
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
 * `k` times a duration, field by field, as a `Temporal.DurationLike` for the Temporal references of the tests
 * (`zdt.add(scaledDuration(d, k))` is what "k cycles of d" means in Temporal).
 */
export const scaledDuration = (d: DurationFields, k: number): DurationFields => ({
  years: d.years * k,
  months: d.months * k,
  weeks: d.weeks * k,
  days: d.days * k,
  hours: d.hours * k,
  minutes: d.minutes * k,
  seconds: d.seconds * k,
  milliseconds: d.milliseconds * k,
  microseconds: d.microseconds * k,
  nanoseconds: d.nanoseconds * k
})
