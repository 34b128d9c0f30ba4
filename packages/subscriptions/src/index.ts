/**
 * @since 0.1.0
 */

/**
 * Plan checks (D3): errors and warnings with paths.
 *
 * @since 0.1.0
 */
export * as PlanCheck from "./PlanCheck.js"
/**
 * Fifteen plans that show every phase shape of the specification, as plain data (the sandbox's seed, the
 * playground's examples).
 *
 * @since 0.2.0
 */
export * as PlanShapes from "./PlanShapes.js"
/**
 * The phase progression simulator: events, positions and totals.
 *
 * @since 0.1.0
 */
export * as Schedule from "./Schedule.js"
/**
 * The schedule drawn for a person: the SVG timeline (one band per phase, a tick per cycle, amounts at the finest
 * level that fits, a date axis) and the wording every rendering shares.
 *
 * @since 0.1.0
 */
export * as ScheduleSvg from "./ScheduleSvg.js"
/**
 * The wire format of GET /api/subscription-plans: plans, variations, phases, pages and the query.
 *
 * @since 0.1.0
 */
export * as SubscriptionPlan from "./SubscriptionPlan.js"
