/**
 * What a command prints when it fails: one line, with where (an option, an argument, a file, a field path) and why.
 *
 * @since 0.1.0
 */
import { getSystemErrorMap } from "node:util"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import * as Layer from "effect/Layer"
import type * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"

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

const issues = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * The first issue of a Schema error as "path: message" (a single line), with the number of the others.
 *
 * @since 0.1.0
 * @category errors
 */
export const describeSchemaError = (error: Schema.SchemaError): string => {
  const all = issues(error.issue).issues
  const first = all[0]
  if (first === undefined) return oneLine(error.message) || "invalid"
  const path = (first.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment))
  const more = all.length > 1 ? ` (and ${all.length - 1} more)` : ""
  return `${path.length === 0 ? "" : `${path.join(".")}: `}${oneLine(first.message)}${more}`
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

/**
 * A layer whose construction failures are turned into others (effect 4's `Layer` has `catch` and `catchTag`, and no
 * `mapError`).
 *
 * @since 0.1.0
 * @category errors
 */
export const mapLayerError: {
  <E, E2>(f: (e: E) => E2): <A, R>(self: Layer.Layer<A, E, R>) => Layer.Layer<A, E2, R>
  <A, E, R, E2>(self: Layer.Layer<A, E, R>, f: (e: E) => E2): Layer.Layer<A, E2, R>
} = dual(
  2,
  <A, E, R, E2>(self: Layer.Layer<A, E, R>, f: (e: E) => E2): Layer.Layer<A, E2, R> =>
    Layer.fromBuild((memoMap, scope) => Effect.mapError(Layer.buildWithMemoMap(self, memoMap, scope), f))
)

/**
 * A system error (a Node.js error with an `errno` and a `code`) in the system's words, with its code:
 * `no space left on device (ENOSPC)`; `undefined` for anything else.
 *
 * @since 0.2.0
 * @category errors
 */
export const describeSystemError = (error: unknown): string | undefined => {
  if (typeof error !== "object" || error === null) return undefined
  const { code, errno, message } = error as { code?: unknown; errno?: unknown; message?: unknown }
  const known = typeof errno === "number" ? getSystemErrorMap().get(errno) : undefined
  const name = typeof code === "string" ? code : known?.[0]
  if (name === undefined) return undefined
  // Node.js writes "ENOSPC: no space left on device, write": the description is between the code and the syscall
  const fromMessage = typeof message === "string" ? oneLine(message.replace(`${name}: `, "").replace(/, \w+$/, "")) : ""
  const description = known?.[1] ?? fromMessage
  return description === "" ? name : `${description} (${name})`
}
