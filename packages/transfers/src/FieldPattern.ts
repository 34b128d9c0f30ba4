/**
 * Server regular expressions, matched against the whole value (as Java's `Matcher.matches`) in time linear in the
 * value (D6). Patterns that a structural check proves linear on a backtracking engine run on a native `RegExp`; all
 * others run on re2js, a port of RE2. Constructs that no linear engine can run are refused, never reinterpreted.
 *
 * The dialect is `java.util.regex` with default flags, minus what is not regular, plus RE2's spellings:
 *
 * - accepted as in Java: literals, `.`, classes with ranges and negation (a `-` after a class inside a class is a
 *   literal: `[\w-.]`), `\d \D \w \W \s \S` (ASCII), `\h \H \v \V`,
 *   `\t \n \r \f \a \e`, `\xhh`, `\x{h...}`, `\uhhhh` (surrogate pairs joined), `\0ooo`, `\cX`, `\Q...\E`, groups
 *   `(...)`, `(?:...)`, `(?<name>...)`, alternation, `* + ? {n} {n,} {n,m}` (lazy `?` allowed, same verdict),
 *   `^ $ \A \z \b \B`, inline flags `(?i) (?s) (?m)` and `(?i:...)`, `\p{L}`, `\p{IsLatin}`, `\p{Alpha}` and Java's
 *   other POSIX classes (ASCII);
 * - accepted as in RE2: `(?P<name>...)`, `[[:alpha:]]`, `\pL`, `\p{Greek}`, a `{` that starts no repetition is a
 *   literal;
 * - semantics: `.` excludes Java's line terminators (`\n \r \u0085 \u2028 \u2029`), `\s` is `[ \t\n\x0B\f\r]`,
 *   `(?i)` folds ASCII letters only (Java's default), `$` is the end of the value, `(?m)` anchors at `\n`, lengths and
 *   `.` count code points (an astral symbol is one character);
 * - refused (`UnsupportedPattern`): backreferences, lookahead, lookbehind, atomic groups, possessive quantifiers,
 *   conditionals, recursion, `\G \Z \R \X \N{...} \b{g}`, flags `(?x) (?u) (?U) (?d)`, class union and
 *   intersection (`[a[b]]`, `[a&&b]`), Unicode blocks (`\p{InGreek}`) and `\p{javaLowerCase}`, repetition counts
 *   over 1000 (or whose nested product exceeds 1000), patterns over 4096 characters, patterns that are too large for
 *   re2js once their repetitions are written out (`pattern size`).
 *
 * @since 0.1.0
 */
import * as Result from "effect/Result"
import { failureToError } from "./internal/patternError.js"
import * as internal from "./internal/regexCompile.js"
import type * as RuleError from "./RuleError.js"

/**
 * Which engine runs a pattern: `native` (a `RegExp` with the `u` flag, for patterns proven linear) or `re2` (re2js).
 *
 * @since 0.1.0
 * @category models
 */
export type Engine = "native" | "re2"

/**
 * A compiled pattern.
 *
 * @since 0.1.0
 * @category models
 */
export interface FieldPattern {
  /** the pattern as the server wrote it */
  readonly source: string
  readonly engine: Engine
  /** why the pattern runs on re2js rather than natively (e.g. `"nested quantifiers"`), for `re2` */
  readonly re2Reason: string | undefined
  /** the whole-value match in RE2 syntax, with every flag and class written out */
  readonly re2Source: string
  /** the whole-value match as an ECMAScript `u`-mode pattern, `^(?:...)$`: only for patterns proven linear */
  readonly ecmaSource: string | undefined
  /** the fewest code points of a matching value */
  readonly minLength: number
  /** the most code points of a matching value, `Infinity` when unbounded */
  readonly maxLength: number
  /** `false` when no value at all can match */
  readonly satisfiable: boolean
  /** whether the whole value matches */
  readonly test: (value: string) => boolean
}

/**
 * Compiles a pattern for whole-value matching, or says why it cannot run in linear time.
 *
 * @example
 * ```ts
 * import { FieldPattern } from "@payrules/transfers"
 * import { Result } from "effect"
 *
 * const qr = Result.getOrThrow(FieldPattern.compile("\\d{27}"))
 * console.log(qr.engine, qr.test("210000000003139471430009017"), qr.test("x210000000003139471430009017"))
 * // native true false
 * const bad = FieldPattern.compile("(a)\\1")
 * if (Result.isFailure(bad)) console.log(bad.failure.reason, bad.failure.construct) // UnsupportedPattern backreference
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const compile = (source: string): Result.Result<FieldPattern, RuleError.RuleError> => {
  const r = internal.compile(source)
  if (!r.ok) return Result.fail(failureToError(source, undefined, r.failure))
  const p = r.pattern
  return Result.succeed({
    source,
    engine: p.engine,
    re2Reason: p.re2Reason,
    re2Source: p.re2,
    ecmaSource: p.ecma,
    minLength: p.minLength,
    maxLength: p.maxLength,
    satisfiable: p.satisfiable,
    test: p.test
  })
}

/**
 * Like {@link compile}, but throws the `RuleError`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const compileUnsafe = (source: string): FieldPattern => Result.getOrThrowWith(compile(source), (e) => e)

/**
 * @deprecated Use {@link compileUnsafe}.
 * @since 0.1.0
 * @category constructors
 */
export const unsafeCompile: (source: string) => FieldPattern = compileUnsafe
