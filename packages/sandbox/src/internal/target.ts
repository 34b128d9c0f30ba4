/**
 * One rule for request targets, applied before routing, so that the router and the middleware read the same path:
 * a path is taken as it is written, never normalised. A target that would need normalising, or whose meaning
 * depends on who decodes it, is refused (400):
 *
 * - it does not start with `/`, or carries a fragment (`#`, also after the query);
 * - a `;` in the path: the router ends the path there (as at `?`), the middleware would not (write it `%3B`);
 * - a segment is `.` or `..` (also written `%2e`), or the path has an empty segment (`//`);
 * - it encodes `/`, `\` or an unreserved character (`%2f`, `%5c`, `%41`): the router would decode what the
 *   middleware does not;
 * - a `\`, a control character or a space, raw or encoded (`%00`, `%0a`);
 * - a percent sign that does not start `%XX`, or percent-encoded bytes that are not UTF-8 (in the path or in a query
 *   parameter, whose name and value are decoded strictly: `%ff` is refused, never replaced by U+FFFD).
 *
 * @internal
 */
import * as Data from "effect/Data"
import * as Result from "effect/Result"
import * as Json from "./json.js"

/** A target that passed: its path as written and its query (without `?`). @internal */
export interface Target {
  readonly path: string
  readonly query: string
}

const unreserved = /^[A-Za-z0-9\-._~]$/

const decodeStrict = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
const controls = /[\u0000-\u0020\u007f-\u009f]/

const dotSegment = /\/\.\.?(?:\/|$)/

const pathProblem = (path: string): string | undefined => {
  if (!path.startsWith("/")) return "the request target must be a path that starts with /"
  if (path.includes("#")) return "the request target must not carry a fragment (#)"
  if (path.includes("\\")) return "the path must not contain a backslash"
  // the router reads a ; as the end of the path (`/payments/ip_1;x` would serve ip_1)
  if (path.includes(";")) return "the path must not contain a ; (the router would end the path there): write it %3B"
  if (controls.test(path)) return "the path must not contain spaces or control characters"
  // most paths encode nothing: nothing to decode
  if (path.includes("%")) {
    const encoded = encodedProblem(path)
    if (encoded !== undefined) return encoded
  }
  // an empty segment that is not the last one (a trailing / is a segment of its own, kept as written) is a //
  if (path.includes("//")) return "the path must not have an empty segment (//)"
  if (dotSegment.test(path)) return "the path must not have . or .. segments"
  return undefined
}

/** the problem of a path's percent-encoded bytes, if any */
const encodedProblem = (path: string): string | undefined => {
  for (const match of path.matchAll(/%(..)?/g)) {
    const hex = match[1]
    if (hex === undefined || !/^[0-9A-Fa-f]{2}$/.test(hex)) return "the path has a % that does not start %XX"
    const byte = Number.parseInt(hex, 16)
    const char = String.fromCharCode(byte)
    if (byte === 0x2f || byte === 0x5c) return "the path must not encode / or \\ (%2F, %5C)"
    if (byte < 0x80 && unreserved.test(char)) {
      return `the path must not percent-encode an unreserved character (%${hex} is ${char}): write it as it is`
    }
  }
  const decoded = decodeStrict(path)
  if (decoded === undefined) return "the path's percent-encoded bytes are not UTF-8"
  if (controls.test(decoded)) return "the path must not encode spaces or control characters"
  return undefined
}

const queryProblem = (query: string): string | undefined => {
  if (query.includes("#")) return "the request target must not carry a fragment (#)"
  // without a % every name and value decodes (a + is a space)
  if (query === "" || !query.includes("%")) return undefined
  for (const pair of query.split("&")) {
    // the name ends at the first =, the value is all that follows, as the router reads it (`a=b=%ff` has the value
    // `b=%ff`)
    const eq = pair.indexOf("=")
    const name = eq === -1 ? pair : pair.slice(0, eq)
    const value = eq === -1 ? "" : pair.slice(eq + 1)
    const decodedName = decodeStrict(name.replace(/\+/g, " "))
    if (decodedName === undefined) {
      return `the query parameter ${Json.clip(name)} is not percent-encoded UTF-8`
    }
    if (decodeStrict(value.replace(/\+/g, " ")) === undefined) {
      return `the query parameter ${Json.clip(decodedName)}: its value is not percent-encoded UTF-8`
    }
  }
  return undefined
}

/**
 * A refused request target: in its `Path` or its `Query`, with the path as written (for the error's family).
 *
 * @internal
 */
export class TargetRefused extends Data.TaggedError("TargetRefused")<{
  readonly reason: "Path" | "Query"
  readonly path: string
  readonly message: string
}> {}

/**
 * The path and query of a request target, or why it is refused.
 *
 * @internal
 */
export const check = (url: string): Result.Result<Target, TargetRefused> => {
  const q = url.indexOf("?")
  const path = q === -1 ? url : url.slice(0, q)
  const query = q === -1 ? "" : url.slice(q + 1)
  const inPath = pathProblem(path)
  if (inPath !== undefined) return Result.fail(new TargetRefused({ reason: "Path", path, message: inPath }))
  const inQuery = queryProblem(query)
  if (inQuery !== undefined) return Result.fail(new TargetRefused({ reason: "Query", path, message: inQuery }))
  return Result.succeed({ path, query })
}
