/**
 * Duration helpers for the Temporal references of the tests and benchmarks; free of vitest, so a benchmark can
 * import them too.
 */

/**
 * The units of a duration, in Temporal's order; `@payrules/iso8601`'s `IsoDuration` has a number field for each.
 */
export const units = [
  "years",
  "months",
  "weeks",
  "days",
  "hours",
  "minutes",
  "seconds",
  "milliseconds",
  "microseconds",
  "nanoseconds"
] as const

/**
 * A duration as its ten unit fields.
 */
export type DurationFields = { readonly [U in (typeof units)[number]]: number }

/**
 * `k` times a duration, unit by unit, as a `Temporal.DurationLike` for the Temporal references of the tests
 * (`zdt.add(scaledDuration(d, k))` is what "k cycles of d" means in Temporal).
 */
export const scaledDuration = (d: DurationFields, k: number): DurationFields => {
  const out = {} as { -readonly [U in keyof DurationFields]: number }
  for (const unit of units) out[unit] = d[unit] * k
  return out
}
