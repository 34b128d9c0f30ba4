/**
 * The rules of a POST /exchange body (D5) as plain checks with their messages, shared by the wire decoder and the
 * type-side filters of `ExchangeRequest`, and the issue that carries a broken rule.
 *
 * @internal
 */
import { DecimalAmount } from "@payrules/money"
import * as BigDecimal from "effect/BigDecimal"
import * as SchemaIssue from "effect/SchemaIssue"
import type { Issue, Rule } from "../ExchangeRequest.js"

/** @internal */
export const MAX_REQUEST_ID_LENGTH = 40

/** @internal */
export const MAX_REFERENCE_LENGTH = 40

/** @internal */
export const RuleAnnotationId: unique symbol = Symbol.for("@payrules/exchange/ExchangeRequest/Rule")

/** what each rule asks, in the words of the specification (the `description` of its issues) @internal */
export const ruleDescriptions: Readonly<Record<Exclude<Rule, "Shape">, string>> = {
  EmptyAccountId: "an account_id is a non-empty string",
  UnknownCurrency: "a currency is an ISO 4217 code in upper case",
  SameCurrency: "from.currency and to.currency differ",
  MissingAmount: "the amount is given once, in from (sell) or in to (buy)",
  TwoAmounts: "the amount is given once, in from (sell) or in to (buy)",
  InexactAmount: "an amount is a JSON number of at most 15 significant digits",
  AmountNotPositive: "an amount is greater than 0",
  ScaleExceedsExponent: "an amount has no more decimals than its currency",
  RequestIdLength: "request_id has 1 to 40 characters",
  RequestIdCharacters: "request_id is Unicode text without control characters",
  ReferenceLength: "reference has at most 40 characters",
  ReferenceCharacters: "reference is Unicode text without control characters"
}

/**
 * The issue of a broken rule at `path`: an `InvalidValue` whose annotations carry the message and, under
 * {@link RuleAnnotationId}, the rule.
 *
 * @internal
 */
export const ruleIssue = (
  rule: Exclude<Rule, "Shape">,
  path: ReadonlyArray<PropertyKey>,
  actual: unknown,
  message: string
): SchemaIssue.Issue => new SchemaIssue.Pointer(path, ruleValue(rule, actual, message))

/** the issue of a broken rule where it is found (a filter of the field) @internal */
export const ruleValue = (rule: Exclude<Rule, "Shape">, actual: unknown, message: string): SchemaIssue.InvalidValue => {
  const annotations = { message, description: ruleDescriptions[rule], [RuleAnnotationId]: rule }
  return new SchemaIssue.InvalidValue(annotations, actual)
}

/** the rule an issue carries (itself, or as the issue of a failed filter), if it carries one of ours @internal */
export const ruleOf = (issue: SchemaIssue.Issue): Exclude<Rule, "Shape"> | undefined => {
  if (issue._tag === "Filter") return ruleOf(issue.issue)
  if (issue._tag !== "InvalidValue" || issue.annotations === undefined) return undefined
  const rule = (issue.annotations as { readonly [RuleAnnotationId]?: unknown })[RuleAnnotationId]
  return typeof rule === "string" && Object.hasOwn(ruleDescriptions, rule)
    ? (rule as Exclude<Rule, "Shape">)
    : undefined
}

/** the number of Unicode code points of a string @internal */
export const codePoints = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

const countOf = (n: number): string => `${n} character${n === 1 ? "" : "s"}`

/** at most 15 significant digits: what a JSON number carries exactly @internal */
export const exact = (amount: BigDecimal.BigDecimal): boolean =>
  DecimalAmount.significantDigits(BigDecimal.format(BigDecimal.normalize(amount))) <=
  DecimalAmount.MAX_SIGNIFICANT_DIGITS

/** C0 and C1 control characters, and lone surrogates (text that UTF-8 cannot carry) @internal */
export const controlCharacter =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** why a field's text is not Unicode text without control characters, or `undefined` when it is */
const charactersProblem = (field: string, s: string): string | undefined => {
  const bad = controlCharacter.exec(s)
  if (bad === null) return undefined
  const code = bad[0].charCodeAt(0)
  const what = code >= 0xd800 ? "a lone surrogate (UTF-8 cannot carry it)" : "a control character"
  return `${field} must be text without control characters; it has ${what}, U+${code.toString(16).toUpperCase().padStart(4, "0")}, at character ${codePoints(s.slice(0, bad.index)) + 1}`
}

/** why a string is not a request_id, or `undefined` when it is one @internal */
export const requestIdProblem = (
  s: string
): { readonly rule: "RequestIdLength" | "RequestIdCharacters"; readonly message: string } | undefined => {
  const n = codePoints(s)
  if (n < 1 || n > MAX_REQUEST_ID_LENGTH) {
    return {
      rule: "RequestIdLength",
      message: `request_id must have 1 to ${MAX_REQUEST_ID_LENGTH} characters; it has ${countOf(n)}`
    }
  }
  const message = charactersProblem("request_id", s)
  return message === undefined ? undefined : { rule: "RequestIdCharacters", message }
}

/**
 * why a string is not a reference, or `undefined` when it is one: at most 40 characters, without control characters
 * or lone surrogates (a reference is shown on statements, and UTF-8 cannot carry a lone surrogate)
 *
 * @internal
 */
export const referenceProblem = (
  s: string
): { readonly rule: "ReferenceLength" | "ReferenceCharacters"; readonly message: string } | undefined => {
  const n = codePoints(s)
  if (n > MAX_REFERENCE_LENGTH) {
    return {
      rule: "ReferenceLength",
      message: `reference must have at most ${MAX_REFERENCE_LENGTH} characters; it has ${countOf(n)}`
    }
  }
  const message = charactersProblem("reference", s)
  return message === undefined ? undefined : { rule: "ReferenceCharacters", message }
}

/** @internal */
export const sameCurrencyMessage = (currency: string): string =>
  `to.currency must differ from from.currency: both are ${currency}, and an exchange converts one currency into another`

/** @internal */
export const positiveProblem = (amount: BigDecimal.BigDecimal, side: "from" | "to"): string | undefined =>
  BigDecimal.isPositive(amount)
    ? undefined
    : `${side}.amount must be greater than 0; got ${DecimalAmount.toFixedString(BigDecimal.normalize(amount))}`

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * The issues of a decoding failure in the order of the standard formatter (the order `issuesOf` of
 * `@payrules/vitest` and effect's Standard Schema give), each with the {@link Rule} it breaks: one of ours where our
 * decoder found it, `Shape` for what effect's own parsing refused (a wrong JSON type, a missing or unexpected key).
 *
 * @internal
 */
export const collectIssues = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey> = []): Array<Issue> => {
  switch (issue._tag) {
    case "Pointer":
      return collectIssues(issue.issue, [...path, ...issue.path])
    case "Encoding":
      return collectIssues(issue.issue, path)
    case "Composite":
      return issue.issues.flatMap((i) => collectIssues(i, path))
    case "AnyOf":
      if (issue.issues.length > 0) return issue.issues.flatMap((i) => collectIssues(i, path))
  }
  const rule = ruleOf(issue) ?? "Shape"
  return formatter(issue).issues.map((i) => ({
    rule,
    path: [...path, ...(i.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment))],
    message: i.message
  }))
}
