/**
 * The fields panel's work: read the /pay/fields response, compile its rules with the chosen scheme limits (or list
 * every rule the compiler refuses, as its typed `RuleError`), check the payment body, and say which
 * `payrules validate-payment` does the same.
 */
import { SchemeLimits } from "@payrules/accounts"
import { FieldValidator, PayFields, type RuleError } from "@payrules/transfers"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type Issue, issuesOf } from "../json/issues.js"
import { type Located, locate } from "../json/locate.js"
import type { Scheme } from "./presets.js"

export interface FieldsInputs {
  /** the POST /pay/fields response, as JSON text */
  readonly fields: string
  readonly schemes: ReadonlyArray<Scheme>
  /** the payment body, as JSON text */
  readonly body: string
}

export type Compiled =
  /** the response is not a /pay/fields response */
  | { readonly _tag: "Malformed"; readonly issues: ReadonlyArray<Issue> }
  /** the compiler refused rules: every one of them */
  | { readonly _tag: "Refused"; readonly errors: ReadonlyArray<RuleError.RuleError> }
  | { readonly _tag: "Compiled"; readonly form: ReadonlyArray<FieldValidator.FormField> }

export type Checked =
  | { readonly _tag: "Valid" }
  | { readonly _tag: "Invalid"; readonly issues: ReadonlyArray<FieldValidator.Issue> }

export interface FieldsResult {
  readonly fieldsText: Located
  readonly bodyText: Located
  readonly compiled: Compiled | undefined
  /** the body checked, when the rules compiled and the body is JSON */
  readonly checked: Checked | undefined
  readonly command: string
}

const limitSets: Record<Scheme, SchemeLimits.LimitSet> = {
  FasterPayments: SchemeLimits.FasterPayments,
  OpenBanking: SchemeLimits.OpenBanking,
  Swift: SchemeLimits.Swift
}

const decodeResponse = Schema.decodeUnknownResult(PayFields.FieldsResponse, { errors: "all" })

export const commandLine = (i: FieldsInputs): string =>
  [
    "pnpm payrules validate-payment --fields fields.json --body body.json",
    ...i.schemes.map((s) => `--scheme ${s}`)
  ].join(" ")

export const compute = (i: FieldsInputs): FieldsResult => {
  const fieldsText = locate(i.fields)
  const bodyText = locate(i.body)
  const base = { fieldsText, bodyText, command: commandLine(i) }
  if (!fieldsText.ok) return { ...base, compiled: undefined, checked: undefined }
  const response = decodeResponse(fieldsText.value)
  if (Result.isFailure(response)) {
    return { ...base, compiled: { _tag: "Malformed", issues: issuesOf(response.failure) }, checked: undefined }
  }
  const validator = FieldValidator.compile(response.success.fields, { schemes: i.schemes.map((s) => limitSets[s]) })
  if (Result.isFailure(validator)) {
    return { ...base, compiled: { _tag: "Refused", errors: validator.failure }, checked: undefined }
  }
  const compiled: Compiled = { _tag: "Compiled", form: validator.success.form }
  if (!bodyText.ok) return { ...base, compiled, checked: undefined }
  const result = validator.success.validate(bodyText.value)
  return {
    ...base,
    compiled,
    checked: Result.isSuccess(result) ? { _tag: "Valid" } : { _tag: "Invalid", issues: result.failure }
  }
}
