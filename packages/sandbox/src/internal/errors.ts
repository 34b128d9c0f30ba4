/**
 * Error bodies in the shape of each API family (D9), for the errors the sandbox raises outside the handlers: bad
 * JSON, schema mismatches, unknown routes, wrong methods, refused media types, faults and rate limits.
 *
 * @internal
 */
import { BusinessApi, type OpenBankingApi } from "@payrules/transport"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Json from "./json.js"

/** @internal */
export type Family = "open-banking" | "merchant" | "business"

/** @internal */
export const prefixes: Readonly<Record<Family, `/${string}`>> = {
  "open-banking": "/open-banking",
  merchant: "/merchant",
  business: "/business"
}

const families = (Object.entries(prefixes) as ReadonlyArray<[Family, string]>).map(
  ([family, prefix]) => [family, prefix, `${prefix}/`] as const
)

/** @internal */
export const familyOf = (path: string): Family | undefined => {
  for (const [family, prefix, under] of families) {
    if (path.startsWith(under) || path === prefix) return family
  }
  return undefined
}

const phrases: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable"
}

/** @internal */
export interface Issue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const obErrorCode = (status: number, issue: Issue | undefined): string => {
  if (status === 401)
    return issue === undefined || /required/i.test(issue.message) ? "UK.OBIE.Header.Missing" : "UK.OBIE.Header.Invalid"
  if (status === 404) return "UK.OBIE.Resource.NotFound"
  if (status === 406) return "UK.OBIE.Header.Invalid"
  if (status === 405) return "UK.OBIE.Unsupported.Method"
  if (status === 415) return "UK.OBIE.Header.Invalid"
  if (status >= 500) return "UK.OBIE.UnexpectedError"
  if (status === 429) return "UK.OBIE.Rules.ResourceLimitExceeded"
  const missing = issue !== undefined && /missing|required/i.test(issue.message)
  const header =
    issue !== undefined && /^(x-|authorization$|host$|content-type$|content-length$)/i.test(String(issue.path[0] ?? ""))
  return `UK.OBIE.${header ? "Header" : "Field"}.${missing ? "Missing" : "Invalid"}`
}

const businessCodes: Record<number, number> = {
  400: BusinessApi.ErrorCode.InvalidRequest,
  401: BusinessApi.ErrorCode.Unauthorized,
  404: BusinessApi.ErrorCode.NotFound,
  405: BusinessApi.ErrorCode.MethodNotAllowed,
  406: BusinessApi.ErrorCode.NotAcceptable,
  413: BusinessApi.ErrorCode.PayloadTooLarge,
  415: BusinessApi.ErrorCode.UnsupportedMediaType,
  429: BusinessApi.ErrorCode.TooManyRequests,
  500: BusinessApi.ErrorCode.InternalError,
  503: BusinessApi.ErrorCode.ServiceUnavailable
}

const merchantCodes: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  404: "not_found",
  405: "method_not_allowed",
  406: "not_acceptable",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "too_many_requests",
  503: "service_unavailable"
}

/** The longest message an error body carries. @internal */
export const MAX_MESSAGE_LENGTH = 400

/**
 * A message as an error body carries it: every quoted string in it (a value of the input, as Schema quotes it) and
 * every run of characters without a space cut to its first {@link Json.QUOTE_LIMIT} characters, and the whole cut to
 * {@link MAX_MESSAGE_LENGTH}: an error never echoes a large input.
 *
 * @internal
 */
export const clipMessage = (message: string): string => {
  if (message.length <= Json.QUOTE_LIMIT) return message
  const cut = message
    .slice(0, 16 * MAX_MESSAGE_LENGTH)
    .replace(/"((?:[^"\\]|\\.)*)"/g, (quoted, inner: string) =>
      inner.length <= Json.QUOTE_LIMIT ? quoted : `"${Json.clip(inner)}"`
    )
    .replace(new RegExp(`[^\\s"]{${Json.QUOTE_LIMIT + 1},}`, "g"), (run) => Json.clip(run))
  return Json.clip(cut, MAX_MESSAGE_LENGTH)
}

/** The most issues an error body lists: a body with 100,000 wrong fields gets the first ones. @internal */
export const MAX_ISSUES = 10

const clipIssues = (issues: ReadonlyArray<Issue>): ReadonlyArray<Issue> =>
  issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: issue.path.slice(0, 4 * Json.QUOTE_LIMIT).map((p) => (typeof p === "string" ? Json.clip(p) : p)),
    message: clipMessage(issue.message)
  }))

/** What goes into an error body besides the status and the message. @internal */
export interface BodyOptions {
  readonly issues?: ReadonlyArray<Issue>
  readonly code?: number | string
  readonly interactionId?: string | undefined
  readonly now: number
}

/** The error body of a family. @internal */
export const body = (family: Family, status: number, rawMessage: string, options: BodyOptions): unknown => {
  const message = clipMessage(rawMessage)
  switch (family) {
    case "business":
      return { code: options.code ?? businessCodes[status] ?? BusinessApi.ErrorCode.InternalError, message }
    case "merchant":
      return { code: options.code ?? merchantCodes[status] ?? String(status), message, timestamp: options.now }
    case "open-banking": {
      const issues =
        options.issues !== undefined && options.issues.length > 0 ? clipIssues(options.issues) : [{ path: [], message }]
      return {
        Code: `${status} ${phrases[status] ?? "Error"}`,
        ...(options.interactionId === undefined ? {} : { Id: options.interactionId }),
        Message: message,
        Errors: issues.map((i) => ({
          ErrorCode: obErrorCode(status, i),
          Message: i.message,
          ...(i.path.length > 0 ? { Path: i.path.map(String).join(".") } : {})
        }))
      }
    }
  }
}

/** @internal */
export const response = (
  family: Family | undefined,
  status: number,
  message: string,
  options: BodyOptions
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(
    family === undefined
      ? { status, message: clipMessage(message), ...(options.issues ? { issues: clipIssues(options.issues) } : {}) }
      : body(family, status, message, options),
    { status }
  )

/**
 * An Open Banking error a handler raised, with the codes it chose, and the interaction id of this exchange.
 *
 * @internal
 */
export const openBankingResponse = (
  e: OpenBankingApi.OpenBankingError,
  interactionId: string | undefined
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(
    {
      Code: e.Code,
      ...(interactionId === undefined ? {} : { Id: interactionId }),
      Message: clipMessage(e.Message),
      Errors: e.Errors.map((x) => ({ ...x, Message: clipMessage(x.Message) }))
    },
    { status: e.status }
  )

const standard = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * The issues of a decoding failure, each with its path (`from.amount`) and message.
 *
 * @internal
 */
export const issuesOf = (error: Schema.SchemaError): ReadonlyArray<Issue> =>
  standard(error.issue).issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment))
  }))

/**
 * The message of a decoding failure: its first issues, each as `path: message` (`(body)` for the whole value).
 *
 * @internal
 */
export const issuesMessage = (issues: ReadonlyArray<Issue>): string =>
  issues
    .slice(0, MAX_ISSUES)
    .map((i) => `${i.path.map(String).join(".") || "(body)"}: ${i.message}`)
    .join("; ")
