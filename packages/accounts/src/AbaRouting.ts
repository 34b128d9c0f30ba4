/**
 * US ABA routing transit numbers (nine digits with a 3-7-1 check digit) and US account numbers.
 *
 * @since 0.1.0
 */
import type * as Brand from "effect/Brand"
import * as Data from "effect/Data"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { preview } from "./internal/preview.js"
import { digits, matching, withArbitrary } from "./internal/schema.js"

/**
 * A nine-digit ABA routing number with a valid prefix and check digit.
 *
 * @since 0.1.0
 * @category models
 */
export type RoutingNumber = string & Brand.Brand<"AbaRoutingNumber">

/**
 * A US account number: 6 to 17 digits.
 *
 * @since 0.1.0
 * @category models
 */
export type AccountNumber = string & Brand.Brand<"UsAccountNumber">

/**
 * Why a routing number (or an account number) is rejected:
 * - `Syntax`: not exactly nine ASCII digits
 * - `AllZeros`: `000000000`, which passes the checksum but is no routing number
 * - `Prefix`: the first two digits are not 00-12, 21-32, 61-72 or 80
 * - `Checksum`: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is not a multiple of 10
 * - `AccountNumberSyntax`: an account number that is not 6 to 17 digits
 *
 * @since 0.1.0
 * @category errors
 */
export type AbaRoutingErrorReason = "Syntax" | "AllZeros" | "Prefix" | "Checksum" | "AccountNumberSyntax"

/**
 * @since 0.1.0
 * @category errors
 */
export class AbaRoutingError extends Data.TaggedError("AbaRoutingError")<{
  readonly input: string
  readonly reason: AbaRoutingErrorReason
  readonly message: string
}> {}

const details: Record<AbaRoutingErrorReason, string> = {
  Syntax: "a routing number is exactly 9 digits",
  AllZeros: "000000000 is not a routing number",
  Prefix: "the first two digits must be a Federal Reserve routing symbol: 00-12, 21-32, 61-72 or 80",
  Checksum: "the check digit does not match (weights 3, 7, 1 repeated, modulo 10)",
  AccountNumberSyntax: "a US account number has 6 to 17 digits"
}

const error = (input: string, reason: AbaRoutingErrorReason): AbaRoutingError =>
  new AbaRoutingError({
    input,
    reason,
    message: `Invalid ${reason === "AccountNumberSyntax" ? "US account number" : "ABA routing number"} ${JSON.stringify(
      preview(input)
    )}: ${details[reason]}`
  })

const ROUTING = /^[0-9]{9}$/
const ACCOUNT = /^[0-9]{6,17}$/
const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const

/** 00-12 (Federal Reserve districts, 00 for the US Government), 21-32 (thrifts), 61-72 (electronic), 80 (traveller's cheques). */
const validPrefix = (p: number): boolean => p <= 12 || (p >= 21 && p <= 32) || (p >= 61 && p <= 72) || p === 80

const weightedSum = (digits: string, n: number): number => {
  let sum = 0
  for (let i = 0; i < n; i++) sum += (digits.charCodeAt(i) - 48) * WEIGHTS[i]!
  return sum
}

const reasonOf = (input: string): AbaRoutingErrorReason | undefined => {
  if (!ROUTING.test(input)) return "Syntax"
  if (input === "000000000") return "AllZeros"
  if (!validPrefix(Number(input.slice(0, 2)))) return "Prefix"
  if (weightedSum(input, 9) % 10 !== 0) return "Checksum"
  return undefined
}

/**
 * Parses a routing number: exactly nine digits (no spaces or dashes), a valid prefix, not all zeros, and the 3-7-1
 * check digit.
 *
 * @example
 * ```ts
 * import { AbaRouting } from "@payrules/accounts"
 * import { Result } from "effect"
 *
 * console.log(Result.isSuccess(AbaRouting.parse("021000021"))) // true
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (input: string): Result.Result<RoutingNumber, AbaRoutingError> => {
  const reason = reasonOf(input)
  return reason === undefined ? Result.succeed(input as RoutingNumber) : Result.fail(error(input, reason))
}

/**
 * Like {@link parse}, but throws the `AbaRoutingError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseUnsafe = (input: string): RoutingNumber => Result.getOrThrowWith(parse(input), (e) => e)

/**
 * @deprecated Use {@link parseUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParse: (input: string) => RoutingNumber = parseUnsafe

/**
 * `true` when {@link parse} would succeed.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isValid = (input: string): boolean => reasonOf(input) === undefined

/**
 * The ninth digit that completes eight digits into a routing number with a valid checksum.
 *
 * @since 0.1.0
 * @category constructors
 */
export const checkDigit = (firstEight: string): Result.Result<string, AbaRoutingError> =>
  /^[0-9]{8}$/.test(firstEight)
    ? Result.succeed(String((10 - (weightedSum(firstEight, 8) % 10)) % 10))
    : Result.fail(error(firstEight, "Syntax"))

/**
 * Parses a US account number: 6 to 17 ASCII digits.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseAccountNumber = (input: string): Result.Result<AccountNumber, AbaRoutingError> =>
  ACCOUNT.test(input) ? Result.succeed(input as AccountNumber) : Result.fail(error(input, "AccountNumberSyntax"))

const PREFIXES: ReadonlyArray<string> = Array.from({ length: 81 }, (_, p) => p)
  .filter(validPrefix)
  .map((p) => String(p).padStart(2, "0"))

/** What a generated routing number is built from: a valid prefix and six more digits; the check digit is computed. */
const routingSource = Schema.Struct({ prefix: Schema.Literals(PREFIXES), body: digits(6, 6) })

const buildRouting = ({ prefix, body }: (typeof routingSource)["Type"]): RoutingNumber => {
  const eight = prefix + body
  return `${eight}${(10 - (weightedSum(eight, 8) % 10)) % 10}` as RoutingNumber
}

/**
 * A routing number as a Schema (a string that must already be nine digits; nothing is normalised). It carries its
 * arbitrary: `Arbitrary.schema(RoutingNumberFromString)` draws valid routing numbers over every valid prefix.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RoutingNumberFromString: Schema.Codec<RoutingNumber, string> = withArbitrary(
  Schema.String.check(
    Schema.makeFilter(
      (s: string) => {
        const reason = reasonOf(s)
        return reason === undefined || error(s, reason).message
      },
      { expected: "an ABA routing number" }
    )
  ).pipe(Schema.brand("AbaRoutingNumber")),
  routingSource,
  buildRouting
).annotate({
  identifier: "AbaRoutingNumber",
  title: "ABA routing number",
  description: "a nine-digit ABA routing transit number with a valid prefix and 3-7-1 check digit, e.g. 021000021",
  examples: ["021000021" as RoutingNumber]
})

/**
 * A US account number (6 to 17 digits) as a Schema. Its arbitrary draws 6 to 17 digits.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountNumberFromString: Schema.Codec<AccountNumber, string> = Schema.String.check(
  matching(ACCOUNT, (s) => error(s, "AccountNumberSyntax").message, "a US account number of 6 to 17 digits")
)
  .pipe(Schema.brand("UsAccountNumber"))
  .annotate({
    identifier: "UsAccountNumber",
    title: "US account number",
    description: "a US bank account number of 6 to 17 digits"
  })
