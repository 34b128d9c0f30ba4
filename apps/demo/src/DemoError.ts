/**
 * What a command prints when it fails: one line, with where (a file, a field path, an option) and why.
 */
import * as Data from "effect/Data"
import * as ParseResult from "effect/ParseResult"

export class DemoError extends Data.TaggedError("DemoError")<{
  /** the file, option or field the problem is in */
  readonly where: string
  readonly reason: string
}> {
  override get message(): string {
    return `${this.where}: ${this.reason}`
  }
}

/** The first issue of a ParseError as "path: message" (a single line). */
export const describeParseError = (error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  if (first === undefined) return error.message.split("\n")[0] ?? "invalid"
  const path = first.path.length === 0 ? "" : `${first.path.map(String).join(".")}: `
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""
  return `${path}${first.message.split("\n").join(" ")}${more}`
}
