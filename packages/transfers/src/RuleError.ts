/**
 * The one error type of compiling field rules: why a rule set from POST /pay/fields (or a pattern) cannot become a
 * validator. Compiling reports every broken rule, not only the first.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"

/**
 * Why a rule cannot be compiled:
 *
 * - `UnsupportedPattern`: a construct the linear-time engine cannot run (a backreference, lookaround, a possessive
 *   quantifier, an atomic group, a repetition count over 1000, an unknown Unicode property...), named in `construct`;
 * - `InvalidPattern`: not a regular expression (an unclosed group, a dangling quantifier, a reversed range...);
 * - `InvalidName`: a field name that is not a dotted path of identifiers, names a property of `Object.prototype`
 *   (`__proto__`, `constructor`, `prototype`, `toString`...), or has more than 5 levels;
 * - `DuplicateField`: the same name twice;
 * - `PathConflict`: a name that is both a value and an object (`a` and `a.b`), or that puts a string rule on `amount`
 *   (a number), on `receiver` (an object) or under a string field;
 * - `EmptyIntersection`: no value satisfies the rule together with the scheme limits and the static base schema
 *   (min_length above max_length, a pattern that cannot fit the lengths, options that all fail the other rules);
 * - `InvalidLength`: a min_length or max_length that is not a non-negative integer;
 * - `UnreadableRule` (since 0.2.0): a rule that could not be read at all (not an object, `name` not a string,
 *   `required` not a boolean, a `regex` without its `pattern`...): reported by `PayFields.decodeLenient` as an
 *   `UnreadableItem` finding, or found by the compiler in the list it was given. A validator without that rule would
 *   not check what the server asks of its field, so compiling refuses it, as it refuses a pattern it cannot run,
 *   instead of leaving the rule out in silence; `field` is the rule's `name` when that could be read.
 *
 * @since 0.1.0
 * @category errors
 */
export type Reason =
  | "UnsupportedPattern"
  | "InvalidPattern"
  | "InvalidName"
  | "DuplicateField"
  | "PathConflict"
  | "EmptyIntersection"
  | "InvalidLength"
  | "UnreadableRule"

/**
 * @since 0.1.0
 * @category errors
 */
export class RuleError extends Data.TaggedError("RuleError")<{
  readonly reason: Reason
  /** the field name as the server (or the limit mapping) gave it; `undefined` for a pattern compiled on its own */
  readonly field: string | undefined
  /** for `UnsupportedPattern`: the construct, e.g. `"backreference"`, `"lookahead"` */
  readonly construct: string | undefined
  readonly message: string
}> {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  reason: Reason,
  field: string | undefined,
  message: string,
  construct: string | undefined = undefined
): RuleError => new RuleError({ reason, field, construct, message })
