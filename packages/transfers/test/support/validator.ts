/**
 * Helpers shared by the FieldValidator test files.
 */
import { FieldValidator, type PayFields, type RuleError } from "@payrules/transfers"
import { Either, ParseResult, Schema } from "effect"

export type Rule = PayFields.FieldRequirement
export type Strictness = FieldValidator.Strictness

export const compile = (fields: ReadonlyArray<Rule>, options?: FieldValidator.Options) =>
  Either.getOrThrowWith(
    FieldValidator.compile(fields, options),
    (errors) => new Error(errors.map((e) => e.message).join("; "))
  )

export const ruleErrors = (
  fields: ReadonlyArray<Rule>,
  options?: FieldValidator.Options
): ReadonlyArray<RuleError.RuleError> =>
  Either.match(FieldValidator.compile(fields, options), { onLeft: (errors) => errors, onRight: () => [] })

export const found = (r: Either.Either<unknown, ReadonlyArray<FieldValidator.Issue>>): ReadonlyArray<string> =>
  Either.match(r, { onLeft: (issues) => issues.map((i) => `${i.path.join(".")}|${i.rule}`).sort(), onRight: () => [] })

export const schemaPaths = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<string> | undefined => {
  const r = Schema.decodeUnknownEither(v.schema, { errors: "all" })(body)
  return Either.isRight(r)
    ? undefined
    : [...new Set(ParseResult.ArrayFormatter.formatErrorSync(r.left).map((i) => i.path.join(".")))].sort()
}

export const validatePaths = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<string> | undefined =>
  Either.match(v.validate(body), {
    onLeft: (issues) => [...new Set(issues.map((i) => i.path.join(".")))].sort(),
    onRight: () => undefined
  })

export const base = {
  amount: 10,
  currency: "GBP",
  account_id: "acc",
  receiver: { counterparty_id: "cp" },
  request_id: "req-1"
}
