/**
 * @since 0.1.0
 */

/**
 * The field requirements POST /pay/fields answers for six corridors, as plain data (the sandbox's answers, the
 * playground's examples).
 *
 * @since 0.2.0
 */
export * as FieldCorridors from "./FieldCorridors.js"
/**
 * Server patterns matched against the whole value in linear time: the dialect, the native and re2js engines.
 *
 * @since 0.1.0
 */
export * as FieldPattern from "./FieldPattern.js"

/**
 * A validator of POST /pay bodies compiled from POST /pay/fields rules and scheme limits: `validate`, `schema`,
 * `form`.
 *
 * @since 0.1.0
 */
export * as FieldValidator from "./FieldValidator.js"

/**
 * The static base of the POST /pay body: the always-required fields.
 *
 * @since 0.1.0
 */
export * as PayBody from "./PayBody.js"

/**
 * The POST /pay/fields request and response Schemas.
 *
 * @since 0.1.0
 */
export * as PayFields from "./PayFields.js"

/**
 * The error type of compiling rules.
 *
 * @since 0.1.0
 */
export * as RuleError from "./RuleError.js"
