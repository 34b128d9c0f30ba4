/**
 * The one error type of @payrules/money.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"

/**
 * @since 0.1.0
 * @category errors
 */
export type Reason =
  /** not a well-formed code, or not on the ISO 4217 list */
  | "UnknownCurrency"
  /** the currency has no minor unit (ISO 4217 "N.A.": XAU, XDR, XTS, ...), so minor units mean nothing */
  | "NoMinorUnit"
  /** more decimals than the currency's exponent (99.001 GBP) */
  | "ScaleExceedsExponent"
  /** an amount in minor units that is not a safe integer */
  | "NotSafeInteger"
  /** NaN or an infinity */
  | "NotFinite"
  /** a JSON number with more than 15 significant digits, which a double cannot hold as written */
  | "NotExactlyRepresentable"
  /** a decimal string of the wrong shape */
  | "Syntax"

/**
 * @since 0.1.0
 * @category errors
 */
export class MoneyError extends Data.TaggedError("MoneyError")<{
  readonly reason: Reason
  readonly message: string
}> {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (reason: Reason, message: string): MoneyError => new MoneyError({ reason, message })
