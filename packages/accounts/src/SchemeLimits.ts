/**
 * Length limits of payment schemes as data, shared by the transfers validator and the Open Banking checks: named limit
 * sets (Faster Payments, Open Banking, SWIFT), their intersection, and a check that counts Unicode code points.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import { dual } from "effect/Function"
import * as Option from "effect/Option"
import * as Result from "effect/Result"

/**
 * Logical field names, independent of any one API's paths: `Reference` is the creditor reference
 * (`RemittanceInformation.Reference` in Open Banking, `reference` in a transfer), `Unstructured` the free-text
 * remittance information (`RemittanceInformation.Unstructured`).
 *
 * @since 0.1.0
 * @category models
 */
export type Field = "InstructionIdentification" | "EndToEndIdentification" | "Reference" | "Unstructured"

/**
 * @since 0.1.0
 * @category models
 */
export interface Limit {
  readonly field: Field
  /** the largest number of Unicode code points allowed */
  readonly maxLength: number
  /** where the limit comes from, in words */
  readonly source: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface LimitSet {
  readonly name: string
  readonly limits: ReadonlyArray<Limit>
}

/**
 * UK Faster Payments: the scheme carries only 31 characters of EndToEndIdentification and 18 of the reference.
 *
 * @since 0.1.0
 * @category limit sets
 */
export const FasterPayments: LimitSet = {
  name: "FasterPayments",
  limits: [
    {
      field: "EndToEndIdentification",
      maxLength: 31,
      source: "Faster Payments carries only 31 characters of the end-to-end identification"
    },
    { field: "Reference", maxLength: 18, source: "Faster Payments accepts only 18 characters of reference" }
  ]
}

/**
 * Open Banking (UK) text limits: InstructionIdentification, EndToEndIdentification and RemittanceInformation.Reference
 * Max35Text; RemittanceInformation.Unstructured Max140Text.
 *
 * @since 0.1.0
 * @category limit sets
 */
export const OpenBanking: LimitSet = {
  name: "OpenBanking",
  limits: [
    {
      field: "InstructionIdentification",
      maxLength: 35,
      source: "Open Banking Initiation.InstructionIdentification is Max35Text"
    },
    {
      field: "EndToEndIdentification",
      maxLength: 35,
      source: "Open Banking Initiation.EndToEndIdentification is Max35Text"
    },
    { field: "Reference", maxLength: 35, source: "Open Banking RemittanceInformation.Reference is Max35Text" },
    { field: "Unstructured", maxLength: 140, source: "Open Banking RemittanceInformation.Unstructured is Max140Text" }
  ]
}

/**
 * SWIFT: remittance information (MT103 field 70) is four lines of 35 characters, 140 in all.
 *
 * @since 0.1.0
 * @category limit sets
 */
export const Swift: LimitSet = {
  name: "Swift",
  limits: [
    {
      field: "Reference",
      maxLength: 140,
      source: "SWIFT remittance information (MT103 field 70) is 4 lines of 35 characters"
    }
  ]
}

/**
 * The number of Unicode code points of a string: a character outside the Basic Multilingual Plane (an emoji, 𝄞) is
 * one, although JavaScript's `length` counts its two UTF-16 units. A lone surrogate counts as one.
 *
 * @example
 * ```ts
 * import { SchemeLimits } from "@payrules/accounts"
 *
 * console.log("€1 🎉".length, SchemeLimits.codePointLength("€1 🎉")) // 5 4
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const codePointLength = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
    n++
  }
  return n
}

/**
 * The limit of a set on a field, if it has one.
 *
 * @since 0.1.0
 * @category getters
 */
export const limit: {
  (field: Field): (self: LimitSet) => Option.Option<Limit>
  (self: LimitSet, field: Field): Option.Option<Limit>
} = dual(2, (self: LimitSet, field: Field): Option.Option<Limit> => {
  let found: Limit | undefined
  for (const l of self.limits) {
    if (l.field === field && (found === undefined || l.maxLength < found.maxLength)) found = l
  }
  return Option.fromNullishOr(found)
})

/**
 * The largest length a set allows on a field, if it limits that field.
 *
 * @since 0.1.0
 * @category getters
 */
export const maxLength: {
  (field: Field): (self: LimitSet) => Option.Option<number>
  (self: LimitSet, field: Field): Option.Option<number>
} = dual(2, (self: LimitSet, field: Field): Option.Option<number> => Option.map(limit(self, field), (l) => l.maxLength))

/**
 * The limits that hold under every set at once: for each field limited by any set, the smallest maximum (and the
 * source of that limit). With no sets, no limits.
 *
 * @example
 * ```ts
 * import { SchemeLimits } from "@payrules/accounts"
 * import { Option } from "effect"
 *
 * const both = SchemeLimits.intersect(SchemeLimits.OpenBanking, SchemeLimits.FasterPayments)
 * console.log(Option.getOrNull(SchemeLimits.maxLength(both, "Reference"))) // 18
 * ```
 *
 * @since 0.1.0
 * @category combinators
 */
export const intersect = (...sets: ReadonlyArray<LimitSet>): LimitSet => {
  const byField = new Map<Field, Limit>()
  for (const set of sets) {
    for (const l of set.limits) {
      const current = byField.get(l.field)
      if (current === undefined || l.maxLength < current.maxLength) byField.set(l.field, l)
    }
  }
  return { name: sets.map((s) => s.name).join(" & "), limits: [...byField.values()] }
}

/**
 * @since 0.1.0
 * @category errors
 */
export type LimitViolationReason = "TooLong"

/**
 * A value over a set's limit, with its length in code points, the limit and its source.
 *
 * @since 0.1.0
 * @category errors
 */
export class LimitViolation extends Data.TaggedError("LimitViolation")<{
  readonly reason: LimitViolationReason
  readonly set: string
  readonly field: Field
  readonly maxLength: number
  readonly length: number
  readonly source: string
  readonly message: string
}> {}

/**
 * Checks a value against a set's limit on a field, counting Unicode code points; the value is returned when it fits
 * (or the set does not limit the field).
 *
 * @example
 * ```ts
 * import { SchemeLimits } from "@payrules/accounts"
 * import { pipe, Result } from "effect"
 *
 * const r = SchemeLimits.check(SchemeLimits.FasterPayments, "Reference", "INVOICE 2024-00017 MARCH")
 * if (Result.isFailure(r)) console.log(r.failure.length, r.failure.maxLength) // 24 18
 *
 * // data-last, in a pipe
 * console.log(Result.isSuccess(pipe(SchemeLimits.OpenBanking, SchemeLimits.check("Reference", "INV-17")))) // true
 * ```
 *
 * @since 0.1.0
 * @category checking
 */
export const check: {
  (field: Field, value: string): (self: LimitSet) => Result.Result<string, LimitViolation>
  (self: LimitSet, field: Field, value: string): Result.Result<string, LimitViolation>
} = dual(3, (self: LimitSet, field: Field, value: string): Result.Result<string, LimitViolation> => {
  const l = limit(self, field)
  if (Option.isNone(l)) return Result.succeed(value)
  const length = codePointLength(value)
  const { maxLength, source } = l.value
  if (length <= maxLength) return Result.succeed(value)
  return Result.fail(
    new LimitViolation({
      reason: "TooLong",
      set: self.name,
      field,
      maxLength,
      length,
      source,
      message: `${field} is ${length} characters long; ${self.name} allows at most ${maxLength} (${source})`
    })
  )
})
