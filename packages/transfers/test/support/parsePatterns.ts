/**
 * Helpers of the FieldPattern.parse and FieldPattern.linear test files: a compiled pattern, the refusal of a pattern
 * with the position its message gives, and the verdicts of FieldPattern and of re2js on the RE2 form it emits.
 */
import { FieldPattern } from "@payrules/transfers"
import { Result } from "effect"
import { RE2JS } from "re2js"

export const compiled = (source: string): FieldPattern.FieldPattern =>
  Result.getOrThrowWith(FieldPattern.compile(source), (e) => new Error(`${JSON.stringify(source)}: ${e.message}`))

export interface Refusal {
  readonly reason: string
  readonly construct: string | undefined
  /** the position an `InvalidPattern` message gives (UTF-16 code units), `undefined` for `UnsupportedPattern` */
  readonly position: number | undefined
  readonly message: string
}

/** why the pattern is refused, or `undefined` when it compiles */
export const refusal = (source: string): Refusal | undefined =>
  Result.match(FieldPattern.compile(source), {
    onSuccess: () => undefined,
    onFailure: (e) => {
      const at = / at position (\d+): /.exec(e.message)
      return {
        reason: e.reason,
        construct: e.construct,
        position: at === null ? undefined : Number(at[1]),
        message: e.message
      }
    }
  })

/**
 * For each value, `[value, FieldPattern's verdict, re2js's verdict on re2Source]`; the two must be equal and equal to
 * the expected verdict.
 */
export const verdicts = (
  source: string,
  values: ReadonlyArray<string>
): ReadonlyArray<readonly [string, boolean, boolean]> => {
  const p = compiled(source)
  const re2 = RE2JS.compile(p.re2Source)
  return values.map((v) => [v, p.test(v), re2.testExact(v)] as const)
}

/** `[value, expected, expected]` for each value: what {@link verdicts} gives when every engine agrees */
export const expected = (
  values: ReadonlyArray<string>,
  verdict: boolean
): ReadonlyArray<readonly [string, boolean, boolean]> => values.map((v) => [v, verdict, verdict] as const)
