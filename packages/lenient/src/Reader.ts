/**
 * A lenient read at the cost of a strict one, when the answer holds nothing new (D11, issue 34). An open Schema (open
 * enums, fields made optional) accepts more than its closed twin and costs more per value: each open enum is a
 * string checked and then mapped, where a literal is one comparison. Almost every answer a server sends holds only
 * values this release knows, and for those both Schemas give the same value. {@link closedFirst} reads with the
 * closed Schema first and with the open one only when that fails, so the common answer costs what a strict read
 * costs, and an answer with a value added since still reads, as the open Schema reads it.
 *
 * @since 0.2.0
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"

/**
 * A decoder of `open` that tries `closed` first. Its result is always what `open` gives: `closed`'s value when it
 * decodes (for which `open` must give the same value: `closed` accepts a subset of what `open` accepts, as a strict
 * Schema and its lenient twin do), else `open`'s own result, with its errors (`options` apply to `open`). When `closed`
 * fails, the answer is decoded twice: the reader pays for leniency only then. Keep `closed` a restriction of `open`
 * (the same fields, each as strict or stricter): a value `closed` accepts and `open` refuses (a field `open` checks
 * and `closed` does not) would be read, where `open` alone refuses it.
 *
 * @example
 * ```ts
 * import { OpenEnum, Reader } from "@payrules/lenient"
 * import { Result, Schema } from "effect"
 *
 * const Strict = Schema.Struct({ state: Schema.Literals(["active", "deactivated"]) })
 * const Lenient = Schema.Struct({ state: OpenEnum.make(["active", "deactivated"], { identifier: "PlanState" }) })
 * const read = Reader.closedFirst(Strict, Lenient)
 * console.log(Result.getOrThrow(read({ state: "active" }))) // { state: "active" }, read by Strict alone
 * console.log(Result.getOrThrow(read({ state: "archived" }))) // { state: { _tag: "Unknown", value: "archived" } }
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const closedFirst = <A>(
  closed: Schema.Decoder<A>,
  open: Schema.Decoder<A>,
  options?: SchemaAST.ParseOptions
): ((input: unknown) => Result.Result<A, Schema.SchemaError>) => {
  // the closed read stops at its first issue: its errors are never shown
  const decodeClosed = Schema.decodeUnknownResult(closed)
  const decodeOpen = Schema.decodeUnknownResult(open, options)
  return (input) => {
    const known = decodeClosed(input)
    return Result.isSuccess(known) ? known : decodeOpen(input)
  }
}
