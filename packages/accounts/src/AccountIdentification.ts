/**
 * The Open Banking account `Identification` under each `SchemeName`: IBAN, UK sort code and account number, and the
 * two US schemes, whose layouts are not published (see {@link forScheme} for the assumptions).
 *
 * @since 0.1.0
 */
import { OpenEnum } from "@payrules/lenient"
import * as Data from "effect/Data"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as AbaRouting from "./AbaRouting.js"
import * as Iban from "./Iban.js"
import { preview } from "./internal/preview.js"
import { digits, matching, withArbitrary } from "./internal/schema.js"
import { codePointLength } from "./SchemeLimits.js"
import * as UkAccount from "./UkAccount.js"

/**
 * The four `SchemeName` values of `CreditorAccount` and `DebtorAccount`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SchemeName = Schema.Literals([
  "UK.OBIE.IBAN",
  "UK.OBIE.SortCodeAccountNumber",
  "US.RoutingNumberAccountNumber",
  "US.BranchCodeAccountNumber"
]).annotate({ identifier: "SchemeName", description: "the scheme of an account identification" })

/**
 * @since 0.1.0
 * @category models
 */
export type SchemeName = typeof SchemeName.Type

/**
 * @since 0.1.0
 * @category constants
 */
export const schemeNames: ReadonlyArray<SchemeName> = SchemeName.literals

/**
 * A `SchemeName` as read from a server (D11): one of the four values, or a name this version does not know (a scheme
 * that Open Banking or a bank adds later), kept as `{ _tag: "Unknown", value }`.
 *
 * @since 0.2.0
 * @category models
 */
export type SchemeNameLenient = SchemeName | OpenEnum.Unknown

/**
 * `SchemeName` for what is read from a server: the four values decode exactly as with {@link SchemeName}, any other
 * well-formed name (1 to 128 visible ASCII characters) to `{ _tag: "Unknown", value }`, which encodes back to the
 * same text. An Identification under an unknown scheme cannot be checked: {@link checkIdentificationLenient} keeps
 * it as read, and the reader reports the unknown name as a finding. {@link SchemeName} stays strict (what you send).
 *
 * @example
 * ```ts
 * import { AccountIdentification } from "@payrules/accounts"
 * import { Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownSync(AccountIdentification.SchemeNameLenient)
 * console.log(decode("UK.OBIE.IBAN")) // UK.OBIE.IBAN
 * console.log(decode("UK.OBIE.BBAN")) // { _tag: 'Unknown', value: 'UK.OBIE.BBAN' }
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const SchemeNameLenient: Schema.Codec<SchemeNameLenient, string> = OpenEnum.make(SchemeName.literals, {
  identifier: "SchemeNameLenient",
  description:
    'the scheme of an account identification: one of the four known values, or a scheme added since (kept as { _tag: "Unknown", value })'
})

/**
 * Open Banking's limit on `Identification` (Max256Text), in characters.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxIdentificationLength = 256

/**
 * What an `Identification` decodes to under each scheme.
 *
 * @since 0.1.0
 * @category models
 */
export interface Identification {
  readonly "UK.OBIE.IBAN": Iban.Iban
  readonly "UK.OBIE.SortCodeAccountNumber": string
  readonly "US.RoutingNumberAccountNumber": string
  readonly "US.BranchCodeAccountNumber": string
}

// counted in code points, as every length of the specification is (D6): a string of at most 256 UTF-16 units is
// decided without counting
const Max256 = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      s.length <= maxIdentificationLength ||
      codePointLength(s) <= maxIdentificationLength ||
      `Identification is longer than the ${maxIdentificationLength} characters Open Banking allows`,
    {
      expected: `at most ${maxIdentificationLength} characters (Max256Text)`,
      toJsonSchema: () => ({ maxLength: maxIdentificationLength }),
      arbitraryConstraint: { maxLength: maxIdentificationLength }
    }
  )
)

const ROUTING_ACCOUNT = /^[0-9]{15,26}$/
const BRANCH_ACCOUNT = /^[A-Za-z0-9]{1,34}$/

const sortCodeAccountNumber: Schema.Codec<string> = Schema.String.check(
  Schema.makeFilter(
    (s: string) => {
      const parsed = UkAccount.parseIdentifier(s)
      return Result.isSuccess(parsed) || parsed.failure.message
    },
    {
      expected: "a UK sort code and account number as 14 digits",
      toJsonSchema: () => ({ pattern: "^[0-9]{14}$" }),
      arbitraryConstraint: { patterns: [{ source: "^[0-9]{14}$", flags: "" }] }
    }
  )
).annotate({
  identifier: "SortCodeAccountNumberIdentification",
  description: "a UK sort code and account number as 14 digits, e.g. 12345612345678"
})

const routingNumberAccountNumber: Schema.Codec<string> = withArbitrary(
  Schema.String.check(
    matching(
      ROUTING_ACCOUNT,
      (s) =>
        `Invalid US.RoutingNumberAccountNumber ${JSON.stringify(preview(s))}: expected a 9-digit routing number followed by a 6 to 17 digit account number (15 to 26 digits)`,
      "a US routing number followed by an account number"
    )
  ),
  Schema.Tuple([AbaRouting.RoutingNumberFromString, digits(6, 17)]),
  ([routing, account]): string => `${routing}${account}`
).annotate({
  identifier: "RoutingNumberAccountNumberIdentification",
  description:
    "a US routing number (9 digits) followed by the account number (6 to 17 digits); an assumption, as the layout is not published"
})

const branchCodeAccountNumber: Schema.Codec<string> = Schema.String.check(
  matching(
    BRANCH_ACCOUNT,
    (s) => `Invalid US.BranchCodeAccountNumber ${JSON.stringify(preview(s))}: expected 1 to 34 letters and digits`,
    "1 to 34 letters and digits"
  )
).annotate({
  identifier: "BranchCodeAccountNumberIdentification",
  description:
    "a US branch code and account number: 1 to 34 letters and digits; a lenient assumption, as the layout is not published"
})

const schemas: { readonly [S in SchemeName]: Schema.Codec<Identification[S], string> } = {
  "UK.OBIE.IBAN": Max256.pipe(Schema.decodeTo(Iban.IbanFromString)),
  "UK.OBIE.SortCodeAccountNumber": Max256.pipe(Schema.decodeTo(sortCodeAccountNumber)),
  "US.RoutingNumberAccountNumber": Max256.pipe(Schema.decodeTo(routingNumberAccountNumber)),
  "US.BranchCodeAccountNumber": Max256.pipe(Schema.decodeTo(branchCodeAccountNumber))
}

/**
 * The Schema of `Identification` under a scheme; every one rejects strings over 256 characters (Max256Text).
 *
 * - `UK.OBIE.IBAN`: an IBAN, print or electronic form, either case; decodes to the electronic form
 *   ({@link Iban.IbanFromString}).
 * - `UK.OBIE.SortCodeAccountNumber`: 14 digits, the sort code then the account number.
 * - `US.RoutingNumberAccountNumber`: **assumed** to be the 9-digit ABA routing number followed by the account number
 *   (6 to 17 digits), so 15 to 26 digits. The layout is not published, so the routing number's checksum is not
 *   enforced: check it with `AbaRouting.parse(identification.slice(0, 9))` when you know the layout holds.
 * - `US.BranchCodeAccountNumber`: **assumed** to be 1 to 34 ASCII letters and digits (ISO 20022's Max34Text for
 *   account identifiers); the layout is not published.
 *
 * @example
 * ```ts
 * import { AccountIdentification } from "@payrules/accounts"
 * import { Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownSync(AccountIdentification.forScheme("UK.OBIE.IBAN"))
 * console.log(decode("gb82 west 1234 5698 7654 32")) // GB82WEST12345698765432
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const forScheme = <S extends SchemeName>(schemeName: S): Schema.Codec<Identification[S], string> =>
  schemas[schemeName]

/**
 * A `{ SchemeName, Identification }` pair as found in `CreditorAccount` and `DebtorAccount`.
 *
 * @since 0.1.0
 * @category models
 */
export interface SchemeIdentification {
  readonly SchemeName: SchemeName
  readonly Identification: string
}

/**
 * A `{ SchemeName, Identification }` pair as read from a server, whose `SchemeName` may be one this version does not
 * know.
 *
 * @since 0.2.0
 * @category models
 */
export interface SchemeIdentificationLenient {
  readonly SchemeName: SchemeNameLenient
  readonly Identification: string
}

/**
 * - `UnknownSchemeName`: a `SchemeName` outside the four values
 * - `Identification`: an `Identification` that is not valid under its scheme
 *
 * @since 0.1.0
 * @category errors
 */
export type AccountIdentificationErrorReason = "UnknownSchemeName" | "Identification"

/**
 * @since 0.1.0
 * @category errors
 */
export class AccountIdentificationError extends Data.TaggedError("AccountIdentificationError")<{
  readonly reason: AccountIdentificationErrorReason
  /** the field at fault: `["SchemeName"]` or `["Identification"]` */
  readonly path: ReadonlyArray<string>
  readonly message: string
}> {}

const decoders: {
  readonly [S in SchemeName]: (u: unknown) => Result.Result<unknown, Schema.SchemaError>
} = {
  "UK.OBIE.IBAN": Schema.decodeUnknownResult(schemas["UK.OBIE.IBAN"]),
  "UK.OBIE.SortCodeAccountNumber": Schema.decodeUnknownResult(schemas["UK.OBIE.SortCodeAccountNumber"]),
  "US.RoutingNumberAccountNumber": Schema.decodeUnknownResult(schemas["US.RoutingNumberAccountNumber"]),
  "US.BranchCodeAccountNumber": Schema.decodeUnknownResult(schemas["US.BranchCodeAccountNumber"])
}

const isSchemeName = Schema.is(SchemeName)

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * Whether an identification is valid under its scheme, checked directly rather than through its Schema (`schemas`):
 * a nested decode for each account of each answer read was a fifth of the time of reading a payment. Only a failure
 * decodes, for its message. A test holds these to the Schemas' verdicts.
 */
const validUnder: { readonly [S in SchemeName]: (identification: string) => boolean } = {
  "UK.OBIE.IBAN": (s) => Iban.isValid(s),
  "UK.OBIE.SortCodeAccountNumber": (s) => Result.isSuccess(UkAccount.parseIdentifier(s)),
  "US.RoutingNumberAccountNumber": (s) => ROUTING_ACCOUNT.test(s),
  "US.BranchCodeAccountNumber": (s) => BRANCH_ACCOUNT.test(s)
}

/** The message of why `identification` is not valid under `schemeName`, or undefined when it is. */
const identificationProblem = (schemeName: SchemeName, identification: string): string | undefined => {
  if (identification.length <= maxIdentificationLength && validUnder[schemeName](identification)) return undefined
  const decoded = decoders[schemeName](identification)
  if (Result.isSuccess(decoded)) return undefined
  const first = formatIssues(decoded.failure.issue).issues[0]
  return `${first?.message ?? decoded.failure.message} (under SchemeName ${schemeName})`
}

/**
 * Checks a `{ SchemeName, Identification }` pair: the scheme must be one of the four, and the identification valid
 * under it ({@link forScheme}). The error's `path` names the field at fault. A pair read leniently may be given as
 * it is: an unknown `SchemeName` (`{ _tag: "Unknown", value }`) fails with `UnknownSchemeName`, as its text would.
 *
 * @since 0.1.0
 * @category checking
 */
export const check = (pair: {
  readonly SchemeName: string | OpenEnum.Unknown
  readonly Identification: string
}): Result.Result<SchemeIdentification, AccountIdentificationError> => {
  if (!isSchemeName(pair.SchemeName)) {
    const name = OpenEnum.isUnknown(pair.SchemeName) ? pair.SchemeName.value : pair.SchemeName
    return Result.fail(
      new AccountIdentificationError({
        reason: "UnknownSchemeName",
        path: ["SchemeName"],
        message: `Unknown SchemeName ${JSON.stringify(name)}: expected one of ${schemeNames.join(", ")}`
      })
    )
  }
  const problem = identificationProblem(pair.SchemeName, pair.Identification)
  return problem === undefined
    ? Result.succeed({ SchemeName: pair.SchemeName, Identification: pair.Identification })
    : Result.fail(
        new AccountIdentificationError({ reason: "Identification", path: ["Identification"], message: problem })
      )
}

/**
 * Adds the pair check to any Schema whose type has `SchemeName` and `Identification` (a whole `CreditorAccount`,
 * say): an invalid identification fails with its message at the path `["Identification"]`.
 *
 * The check is a filter: `Arbitrary.schema` of the result draws values of `self` and keeps those whose pair is valid,
 * which random identifications seldom are. To generate such a struct, take valid pairs from
 * `Arbitrary.schema(SchemeAndIdentification)` and put them into the drawn values.
 *
 * @example
 * ```ts
 * import { AccountIdentification } from "@payrules/accounts"
 * import { Result, Schema, SchemaIssue } from "effect"
 *
 * const CreditorAccount = Schema.Struct({
 *   SchemeName: AccountIdentification.SchemeName,
 *   Identification: Schema.String,
 *   Name: Schema.String
 * }).pipe(AccountIdentification.checkIdentification)
 *
 * const r = Schema.decodeUnknownResult(CreditorAccount)({
 *   SchemeName: "UK.OBIE.SortCodeAccountNumber",
 *   Identification: "1234561234567",
 *   Name: "A. Person"
 * })
 * if (Result.isFailure(r)) {
 *   console.log(SchemaIssue.makeFormatterStandardSchemaV1()(r.failure.issue).issues[0]?.path) // [ 'Identification' ]
 * }
 * ```
 *
 * @since 0.1.0
 * @category combinators
 */
export const checkIdentification = <S extends Schema.Top & { readonly Type: SchemeIdentification }>(
  self: S
): S["Rebuild"] =>
  self.check(
    Schema.makeFilter((a: SchemeIdentification) => {
      const problem = identificationProblem(a.SchemeName, a.Identification)
      return problem === undefined ? true : { path: ["Identification"], issue: problem }
    })
  )

/**
 * {@link checkIdentification} for a Schema read from a server, whose `SchemeName` is {@link SchemeNameLenient}: an
 * Identification under one of the four schemes is checked as there (an invalid one fails at `["Identification"]`);
 * under a scheme this version does not know it cannot be checked, so it is kept as read. The reader reports the
 * unknown scheme (and so the unchecked identification) as a finding: never silent, never a failed read (D11).
 *
 * @example
 * ```ts
 * import { AccountIdentification } from "@payrules/accounts"
 * import { Schema } from "effect"
 *
 * const Account = Schema.Struct({
 *   SchemeName: AccountIdentification.SchemeNameLenient,
 *   Identification: Schema.String
 * }).pipe(AccountIdentification.checkIdentificationLenient)
 *
 * const read = Schema.decodeUnknownSync(Account)({ SchemeName: "SE.BANKGIRO", Identification: "5050-1055" })
 * console.log(read.SchemeName) // { _tag: 'Unknown', value: 'SE.BANKGIRO' }
 * ```
 *
 * @since 0.2.0
 * @category combinators
 */
export const checkIdentificationLenient = <S extends Schema.Top & { readonly Type: SchemeIdentificationLenient }>(
  self: S
): S["Rebuild"] =>
  self.check(
    Schema.makeFilter((a: SchemeIdentificationLenient) => {
      if (OpenEnum.isUnknown(a.SchemeName)) return true
      const problem = identificationProblem(a.SchemeName, a.Identification)
      return problem === undefined ? true : { path: ["Identification"], issue: problem }
    })
  )

/** Valid pairs of every scheme, the identification drawn from the arbitrary of its scheme's Schema. */
const pairSource = Schema.Union(
  schemeNames.map((name) =>
    Schema.Struct({ SchemeName: Schema.Literal(name), Identification: Schema.toType(schemas[name]) })
  )
)

/**
 * The pair `{ SchemeName, Identification }` as a Schema, checked with {@link checkIdentification}; the identification
 * is kept as written. It carries its arbitrary: `Arbitrary.schema(SchemeAndIdentification)` draws valid pairs of
 * every scheme.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SchemeAndIdentification: Schema.Codec<SchemeIdentification> = withArbitrary(
  checkIdentification(Schema.Struct({ SchemeName, Identification: Schema.String })),
  pairSource,
  (pair): SchemeIdentification => pair
).annotate({
  identifier: "SchemeAndIdentification",
  description: "an account's SchemeName and an Identification valid under it"
})
