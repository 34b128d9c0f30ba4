/**
 * What a command prints when it fails: one line, with where (an option, an argument, a file, a field path) and why.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as ParseResult from "effect/ParseResult"

/**
 * A failure of the command line, printed as `error: <where>: <reason>` on one line.
 *
 * @since 0.1.0
 * @category errors
 */
export class CliError extends Data.TaggedError("CliError")<{
  /** the option, argument, file or field the problem is in, e.g. `--until` or `--plan plans/pro.json` */
  readonly where: string
  readonly reason: string
}> {
  override get message(): string {
    return `${this.where}: ${this.reason}`
  }
}

/**
 * The first issue of a ParseError as "path: message" (a single line).
 *
 * @since 0.1.0
 * @category errors
 */
export const describeParseError = (error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  if (first === undefined) return error.message.split("\n")[0] ?? "invalid"
  const path = first.path.length === 0 ? "" : `${first.path.map(String).join(".")}: `
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""
  return `${path}${first.message.split("\n").join(" ")}${more}`
}

/**
 * Any text as one line: lines trimmed, empty ones dropped, the rest joined with a space.
 *
 * @since 0.1.0
 * @category errors
 */
export const oneLine = (text: string): string =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join(" ")
