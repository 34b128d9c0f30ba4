/**
 * @since 0.1.0
 */

/**
 * Calendar arithmetic on Effect DateTime with Temporal's ZonedDateTime semantics (D2).
 *
 * @since 0.1.0
 */
export * as Calendar from "./Calendar.js"
/**
 * RFC 7231 IMF-fixdate HTTP dates.
 *
 * @since 0.1.0
 */
export * as HttpDate from "./HttpDate.js"
/**
 * ISO 8601 durations with Temporal's grammar and fields (D1).
 *
 * @since 0.1.0
 */
export * as IsoDuration from "./IsoDuration.js"
/**
 * ISO 8601 date-times that must carry a timezone.
 *
 * @since 0.1.0
 */
export * as OffsetDateTime from "./OffsetDateTime.js"
