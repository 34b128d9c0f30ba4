/**
 * UK domestic account identifiers: a six-digit sort code and an eight-digit account number, and the 14-digit
 * `UK.OBIE.SortCodeAccountNumber` identifier of Open Banking that joins them. Whether the pair passes the Vocalink
 * modulus checks is the business of the `ModulusChecker` service.
 *
 * @since 0.1.0
 */
import type * as Brand from "effect/Brand"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import { preview } from "./internal/preview.js"
import { matching } from "./internal/schema.js"

/**
 * A sort code as six digits, without separators (`123456`).
 *
 * @since 0.1.0
 * @category models
 */
export type SortCode = string & Brand.Brand<"SortCode">

/**
 * A UK account number: eight digits.
 *
 * @since 0.1.0
 * @category models
 */
export type AccountNumber = string & Brand.Brand<"UkAccountNumber">

/**
 * @since 0.1.0
 * @category models
 */
export interface UkAccount {
  readonly sortCode: SortCode
  readonly accountNumber: AccountNumber
}

/**
 * - `SortCodeSyntax`: not six digits, written `123456` or `12-34-56`
 * - `AccountNumberSyntax`: not eight digits (for {@link standardise}: not 6 to 10 digits)
 * - `IdentifierSyntax`: not the 14 digits of a `UK.OBIE.SortCodeAccountNumber` identification
 * - `NonStandardAccountNumber`: a nine- or ten-digit account number that {@link standardise} cannot convert without
 *   the issuing bank's rule (or with the rule of a bank that issues no such numbers)
 *
 * @since 0.1.0
 * @category errors
 */
export type UkAccountErrorReason =
  | "SortCodeSyntax"
  | "AccountNumberSyntax"
  | "IdentifierSyntax"
  | "NonStandardAccountNumber"

/**
 * @since 0.1.0
 * @category errors
 */
export class UkAccountError extends Data.TaggedError("UkAccountError")<{
  readonly input: string
  readonly reason: UkAccountErrorReason
  readonly message: string
}> {}

const details: Record<UkAccountErrorReason, string> = {
  SortCodeSyntax: "a sort code is six digits, written 123456 or 12-34-56",
  AccountNumberSyntax: "a UK account number is eight digits",
  IdentifierSyntax:
    "a UK.OBIE.SortCodeAccountNumber identification is 14 digits: the sort code, then the account number",
  NonStandardAccountNumber:
    "nine-digit account numbers are converted by Santander's rule and ten-digit ones by their bank's (NatWest: the last eight digits; Co-operative Bank and Leeds Building Society: the first eight): pass the issuing bank as { bank }"
}

const subjects: Record<UkAccountErrorReason, string> = {
  SortCodeSyntax: "sort code",
  AccountNumberSyntax: "account number",
  IdentifierSyntax: "sort code and account number",
  NonStandardAccountNumber: "account number"
}

const error = (input: string, reason: UkAccountErrorReason, detail = details[reason]): UkAccountError =>
  new UkAccountError({
    input,
    reason,
    message: `Invalid ${subjects[reason]} ${JSON.stringify(preview(input))}: ${detail}`
  })

const SORT_CODE = /^(?:([0-9]{6})|([0-9]{2})-([0-9]{2})-([0-9]{2}))$/
const SIX = /^[0-9]{6}$/
const EIGHT = /^[0-9]{8}$/
const FOURTEEN = /^[0-9]{14}$/

const normaliseSortCode = (input: string): SortCode | undefined => {
  const m = SORT_CODE.exec(input)
  if (m === null) return undefined
  return (m[1] ?? `${m[2]}${m[3]}${m[4]}`) as SortCode
}

/**
 * Parses a sort code written `123456` or `12-34-56`, to the six digits.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseSortCode = (input: string): Result.Result<SortCode, UkAccountError> => {
  const s = normaliseSortCode(input)
  return s === undefined ? Result.fail(error(input, "SortCodeSyntax")) : Result.succeed(s)
}

/**
 * Like {@link parseSortCode}, but throws the `UkAccountError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseSortCodeUnsafe = (input: string): SortCode => Result.getOrThrowWith(parseSortCode(input), (e) => e)

/**
 * @deprecated Use {@link parseSortCodeUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParseSortCode: (input: string) => SortCode = parseSortCodeUnsafe

/**
 * Parses an eight-digit account number.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseAccountNumber = (input: string): Result.Result<AccountNumber, UkAccountError> =>
  EIGHT.test(input) ? Result.succeed(input as AccountNumber) : Result.fail(error(input, "AccountNumberSyntax"))

/**
 * Parses a sort code (`123456` or `12-34-56`) and an account number (eight digits) into a {@link UkAccount}; the
 * sort code is checked first.
 *
 * @example
 * ```ts
 * import { UkAccount } from "@payrules/accounts"
 * import { Result } from "effect"
 *
 * console.log(Result.getOrThrow(UkAccount.parse("12-34-56", "12345678")))
 * // { sortCode: '123456', accountNumber: '12345678' }
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (sortCode: string, accountNumber: string): Result.Result<UkAccount, UkAccountError> =>
  Result.flatMap(parseSortCode(sortCode), (s) =>
    Result.map(parseAccountNumber(accountNumber), (a): UkAccount => ({ sortCode: s, accountNumber: a }))
  )

/**
 * Like {@link parse}, but throws the `UkAccountError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseUnsafe = (sortCode: string, accountNumber: string): UkAccount =>
  Result.getOrThrowWith(parse(sortCode, accountNumber), (e) => e)

/**
 * @deprecated Use {@link parseUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParse: (sortCode: string, accountNumber: string) => UkAccount = parseUnsafe

/**
 * The banks whose nine- or ten-digit account numbers Vocalink's "Validating account numbers" (section "Nonstandard
 * account numbers") converts to eight digits by a rule of their own:
 * - `NatWest` (National Westminster Bank), ten digits: the last eight (a hyphen after the second digit is ignored)
 * - `CoOperativeBank` and `LeedsBuildingSociety`, ten digits: the first eight
 * - `Santander` (formerly Alliance & Leicester Commercial Bank), nine digits: the first digit replaces the last digit
 *   of the sort code, and the last eight are the account number
 *
 * @since 0.1.0
 * @category models
 */
export type NonStandardBank = "NatWest" | "CoOperativeBank" | "LeedsBuildingSociety" | "Santander"

/**
 * @since 0.1.0
 * @category models
 */
export interface StandardiseOptions {
  /**
   * The bank that issued a nine- or ten-digit account number. The sort code alone does not tell (that takes the
   * EISCD, Vocalink's directory of sort codes), and the banks' rules differ, so without it such numbers are refused.
   */
  readonly bank?: NonStandardBank | undefined
}

const NATWEST_HYPHEN = /^([0-9]{2})-([0-9]{8})$/
const SIX_TO_TEN = /^[0-9]{6,10}$/

/**
 * Converts an account number of 6 to 10 digits to the eight digits that modulus checking (and Bacs) use, as
 * Vocalink's "Validating account numbers" prescribes: six digits get two leading zeros and seven digits one (for any
 * bank); nine and ten digits follow the rule of the issuing bank, given as `options.bank` (see
 * {@link NonStandardBank}); Santander's rule also changes the sort code. Eight digits are returned as they are.
 *
 * @example
 * ```ts
 * import { UkAccount } from "@payrules/accounts"
 * import { Result } from "effect"
 *
 * console.log(Result.getOrThrow(UkAccount.standardise("12-34-56", "1234567")))
 * // { sortCode: '123456', accountNumber: '01234567' }
 * console.log(Result.getOrThrow(UkAccount.standardise("12-34-56", "123456789", { bank: "Santander" })))
 * // { sortCode: '123451', accountNumber: '23456789' }
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const standardise = (
  sortCode: string,
  accountNumber: string,
  options?: StandardiseOptions
): Result.Result<UkAccount, UkAccountError> =>
  Result.flatMap(parseSortCode(sortCode), (s) => {
    const bank = options?.bank
    const hyphenated = bank === "NatWest" ? NATWEST_HYPHEN.exec(accountNumber) : null
    const digits = hyphenated === null ? accountNumber : `${hyphenated[1]}${hyphenated[2]}`
    if (!SIX_TO_TEN.test(digits)) {
      return Result.fail(
        error(accountNumber, "AccountNumberSyntax", "a UK account number has 6 to 10 digits (8 once standardised)")
      )
    }
    const account = (code: string, number: string): Result.Result<UkAccount, UkAccountError> =>
      Result.succeed({ sortCode: code as SortCode, accountNumber: number as AccountNumber })
    switch (digits.length) {
      case 6:
        return account(s, `00${digits}`)
      case 7:
        return account(s, `0${digits}`)
      case 8:
        return account(s, digits)
      case 9:
        return bank === "Santander"
          ? account(`${s.slice(0, 5)}${digits[0]}`, digits.slice(1))
          : Result.fail(error(accountNumber, "NonStandardAccountNumber"))
      default:
        return bank === "NatWest"
          ? account(s, digits.slice(2))
          : bank === "CoOperativeBank" || bank === "LeedsBuildingSociety"
            ? account(s, digits.slice(0, 8))
            : Result.fail(error(accountNumber, "NonStandardAccountNumber"))
    }
  })

/**
 * Like {@link standardise}, but throws the `UkAccountError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const standardiseUnsafe = (sortCode: string, accountNumber: string, options?: StandardiseOptions): UkAccount =>
  Result.getOrThrowWith(standardise(sortCode, accountNumber, options), (e) => e)

/**
 * @deprecated Use {@link standardiseUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeStandardise: (sortCode: string, accountNumber: string, options?: StandardiseOptions) => UkAccount =
  standardiseUnsafe

/**
 * Parses the 14-digit `UK.OBIE.SortCodeAccountNumber` identification: six digits of sort code, then eight of account
 * number, with nothing between them.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseIdentifier = (input: string): Result.Result<UkAccount, UkAccountError> =>
  FOURTEEN.test(input)
    ? Result.succeed({ sortCode: input.slice(0, 6) as SortCode, accountNumber: input.slice(6) as AccountNumber })
    : Result.fail(error(input, "IdentifierSyntax"))

/**
 * Like {@link parseIdentifier}, but throws the `UkAccountError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseIdentifierUnsafe = (input: string): UkAccount =>
  Result.getOrThrowWith(parseIdentifier(input), (e) => e)

/**
 * @deprecated Use {@link parseIdentifierUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParseIdentifier: (input: string) => UkAccount = parseIdentifierUnsafe

/**
 * The 14-digit `UK.OBIE.SortCodeAccountNumber` identification.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatIdentifier = (self: UkAccount): string => `${self.sortCode}${self.accountNumber}`

/**
 * The sort code as printed on cheques and statements: `12-34-56`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatSortCode = (self: SortCode): string => `${self.slice(0, 2)}-${self.slice(2, 4)}-${self.slice(4)}`

/**
 * A {@link SortCode} as a Schema: exactly six digits, no separators. Its arbitrary draws six digits.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SortCodeFromSelf: Schema.Codec<SortCode, string> = Schema.String.check(
  matching(SIX, (s) => `${error(s, "SortCodeSyntax").message} (here without separators)`, "a sort code of six digits")
)
  .pipe(Schema.brand("SortCode"))
  .annotate({
    identifier: "SortCode",
    title: "sort code",
    description: "a UK sort code as six digits, e.g. 123456"
  })

/**
 * A sort code written `123456` or `12-34-56`, decoded to the six digits; encodes to the six digits.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SortCodeFromString: Schema.Codec<SortCode, string> = Schema.String.annotate({
  identifier: "SortCodeFromString",
  title: "sort code",
  description: "a UK sort code, written 123456 or 12-34-56"
}).pipe(
  Schema.decodeTo(SortCodeFromSelf, {
    decode: SchemaGetter.transformEffect((s: string, options) => {
      const sortCode = normaliseSortCode(s)
      return sortCode === undefined
        ? Effect.fail(new SchemaIssue.InvalidValue({ message: error(s, "SortCodeSyntax").message }, s, options))
        : Effect.succeed(sortCode)
    }),
    encode: SchemaGetter.passthrough()
  })
)

/**
 * An eight-digit UK account number as a Schema. Its arbitrary draws eight digits.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountNumberFromString: Schema.Codec<AccountNumber, string> = Schema.String.check(
  matching(EIGHT, (s) => error(s, "AccountNumberSyntax").message, "a UK account number of eight digits")
)
  .pipe(Schema.brand("UkAccountNumber"))
  .annotate({
    identifier: "UkAccountNumber",
    title: "UK account number",
    description: "a UK account number of eight digits"
  })

/**
 * The two parts as an object, as a form sends them: `{ sortCode: "12-34-56", accountNumber: "12345678" }`; the sort
 * code is decoded as {@link SortCodeFromString}.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UkAccountFromFields: Schema.Codec<
  UkAccount,
  { readonly sortCode: string; readonly accountNumber: string }
> = Schema.Struct({
  sortCode: SortCodeFromString,
  accountNumber: AccountNumberFromString
}).annotate({ identifier: "UkAccount", description: "a UK sort code and account number" })

/**
 * The 14-digit `UK.OBIE.SortCodeAccountNumber` identification, decoded to a {@link UkAccount}; encodes back to the
 * 14 digits.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SortCodeAccountNumberFromString: Schema.Codec<UkAccount, string> = Schema.String.check(
  matching(FOURTEEN, (s) => error(s, "IdentifierSyntax").message, "a sort code and account number as 14 digits")
)
  .annotate({
    identifier: "SortCodeAccountNumberFromString",
    title: "UK.OBIE.SortCodeAccountNumber",
    description: "a UK sort code and account number as 14 digits, e.g. 12345612345678"
  })
  .pipe(
    Schema.decodeTo(UkAccountFromFields, {
      decode: SchemaGetter.transform((s: string) => ({ sortCode: s.slice(0, 6), accountNumber: s.slice(6) })),
      encode: SchemaGetter.transform((a) => `${a.sortCode}${a.accountNumber}`)
    })
  )
