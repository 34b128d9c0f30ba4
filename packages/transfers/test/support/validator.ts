/**
 * Helpers shared by the FieldValidator test files.
 */
import { FieldValidator, type PayFields, type RuleError } from "@payrules/transfers"
import { issuesOf } from "@payrules/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Result, Schema } from "effect"

export type Rule = PayFields.FieldRequirement
export type Strictness = FieldValidator.Strictness

export const compile = (fields: ReadonlyArray<Rule>, options?: FieldValidator.Options) =>
  Result.getOrThrowWith(
    FieldValidator.compile(fields, options),
    (errors) => new Error(errors.map((e) => e.message).join("; "))
  )

/** fixtures made on first use, not when a test file loads (see @payrules/vitest/Lazy) */
export { lazily } from "@payrules/vitest/Lazy"

export const ruleErrors = (
  fields: ReadonlyArray<Rule>,
  options?: FieldValidator.Options
): ReadonlyArray<RuleError.RuleError> =>
  Result.match(FieldValidator.compile(fields, options), { onFailure: (errors) => errors, onSuccess: () => [] })

export const found = (r: Result.Result<unknown, ReadonlyArray<FieldValidator.Issue>>): ReadonlyArray<string> =>
  Result.match(r, {
    onFailure: (issues) => issues.map((i) => `${i.path.join(".")}|${i.rule}`).sort(),
    onSuccess: () => []
  })

/** the paths of the issues of a failed decoding, joined with dots */
export const issuePaths = (error: Schema.SchemaError): ReadonlyArray<string> =>
  issuesOf(error).map((i) => i.path.map(String).join("."))

export const schemaPaths = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<string> | undefined => {
  const r = Schema.decodeUnknownResult(v.schema, { errors: "all" })(body)
  return Result.isSuccess(r) ? undefined : [...new Set(issuePaths(r.failure))].sort()
}

export const validatePaths = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<string> | undefined =>
  Result.match(v.validate(body), {
    onFailure: (issues) => [...new Set(issues.map((i) => i.path.join(".")))].sort(),
    onSuccess: () => undefined
  })

/** the JSON Schema of the body (the `PayBody` definition of the document of a validator's Schema) */
export const payBodyJsonSchema = (
  schema: Schema.Top,
  options?: Schema.ToJsonSchemaOptions
): Readonly<Record<string, unknown>> => {
  const definition = Schema.toJsonSchemaDocument(schema, options).definitions.PayBody
  if (definition === undefined || typeof definition !== "object") throw new Error("no PayBody definition")
  return definition as Readonly<Record<string, unknown>>
}

/** the JSON Schema of a Schema, compiled by ajv (draft 2020-12), as a consumer of the exported JSON Schema runs it */
export const jsonSchemaValidator = (schema: Schema.Top): ((body: unknown) => boolean) => {
  const document = Schema.toJsonSchemaDocument(schema)
  const check = new Ajv2020({ strict: false }).compile({ ...document.schema, $defs: document.definitions })
  return (body) => check(body)
}

export const base = {
  amount: 10,
  currency: "GBP",
  account_id: "acc",
  receiver: { counterparty_id: "cp" },
  request_id: "req-1"
}
