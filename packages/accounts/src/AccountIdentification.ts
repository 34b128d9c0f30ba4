/**
 * The Open Banking account `Identification` under each `SchemeName`: IBAN, UK sort code and account number, and the
 * two US schemes, whose layouts are not published (see {@link forScheme} for the assumptions).
 *
 * @since 0.1.0
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Data from "effect/Data"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AbaRouting from "./AbaRouting.js"
import * as Iban from "./Iban.js"
import { type Arb, digits, type FastCheckModule } from "./internal/arbitrary.js"
import { preview } from "./internal/preview.js"
import * as UkAccount from "./UkAccount.js"

/**
 * The four `SchemeName` values of `CreditorAccount` and `DebtorAccount`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SchemeName = Schema.Literal(
  "UK.OBIE.IBAN",
  "UK.OBIE.SortCodeAccountNumber",
  "US.RoutingNumberAccountNumber",
  "US.BranchCodeAccountNumber"
).annotations({ identifier: "SchemeName", description: "the scheme of an account identification" })

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

const Max256 = Schema.String.pipe(
  Schema.maxLength(maxIdentificationLength, {
    message: () => `Identification is longer than the ${maxIdentificationLength} characters Open Banking allows`
  })
)

const ROUTING_ACCOUNT = /^[0-9]{15,26}$/
const BRANCH_ACCOUNT = /^[A-Za-z0-9]{1,34}$/

const sortCodeAccountNumber: Schema.Schema<string, string> = Schema.String.pipe(
  Schema.filter((s) => Either.match(UkAccount.parseIdentifier(s), { onLeft: (e) => e.message, onRight: () => true }), {
    identifier: "SortCodeAccountNumberIdentification",
    description: "a UK sort code and account number as 14 digits, e.g. 12345612345678",
    arbitrary: () => (fc) => digits(fc, 14, 14),
    jsonSchema: { type: "string", pattern: "^[0-9]{14}$" }
  })
)

const routingNumberAccountNumber: Schema.Schema<string, string> = Schema.String.pipe(
  Schema.filter(
    (s) =>
      ROUTING_ACCOUNT.test(s) ||
      `Invalid US.RoutingNumberAccountNumber ${JSON.stringify(preview(s))}: expected a 9-digit routing number followed by a 6 to 17 digit account number (15 to 26 digits)`,
    {
      identifier: "RoutingNumberAccountNumberIdentification",
      description:
        "a US routing number (9 digits) followed by the account number (6 to 17 digits); an assumption, as the layout is not published",
      arbitrary: () => (fc) =>
        fc
          .tuple(Arbitrary.makeLazy(AbaRouting.RoutingNumberFromString)(fc), digits(fc, 6, 17))
          .map(([routing, account]) => `${routing}${account}`),
      jsonSchema: { type: "string", pattern: "^[0-9]{15,26}$" }
    }
  )
)

const branchCodeAccountNumber: Schema.Schema<string, string> = Schema.String.pipe(
  Schema.filter(
    (s) =>
      BRANCH_ACCOUNT.test(s) ||
      `Invalid US.BranchCodeAccountNumber ${JSON.stringify(preview(s))}: expected 1 to 34 letters and digits`,
    {
      identifier: "BranchCodeAccountNumberIdentification",
      description:
        "a US branch code and account number: 1 to 34 letters and digits; a lenient assumption, as the layout is not published",
      arbitrary: () => (fc) =>
        fc.string({
          unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".split("")),
          minLength: 1,
          maxLength: 34
        }),
      jsonSchema: { type: "string", pattern: "^[A-Za-z0-9]{1,34}$" }
    }
  )
)

const schemas: { readonly [S in SchemeName]: Schema.Schema<Identification[S], string> } = {
  "UK.OBIE.IBAN": Schema.compose(Max256, Iban.IbanFromString),
  "UK.OBIE.SortCodeAccountNumber": Schema.compose(Max256, sortCodeAccountNumber),
  "US.RoutingNumberAccountNumber": Schema.compose(Max256, routingNumberAccountNumber),
  "US.BranchCodeAccountNumber": Schema.compose(Max256, branchCodeAccountNumber)
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
export const forScheme = <S extends SchemeName>(schemeName: S): Schema.Schema<Identification[S], string> =>
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

const decoders: { readonly [S in SchemeName]: (u: unknown) => Either.Either<unknown, ParseResult.ParseError> } = {
  "UK.OBIE.IBAN": Schema.decodeUnknownEither(schemas["UK.OBIE.IBAN"]),
  "UK.OBIE.SortCodeAccountNumber": Schema.decodeUnknownEither(schemas["UK.OBIE.SortCodeAccountNumber"]),
  "US.RoutingNumberAccountNumber": Schema.decodeUnknownEither(schemas["US.RoutingNumberAccountNumber"]),
  "US.BranchCodeAccountNumber": Schema.decodeUnknownEither(schemas["US.BranchCodeAccountNumber"])
}

const isSchemeName = Schema.is(SchemeName)

/** The message of why `identification` is not valid under `schemeName`, or undefined when it is. */
const identificationProblem = (schemeName: SchemeName, identification: string): string | undefined =>
  Either.match(decoders[schemeName](identification), {
    onLeft: (e) => {
      const first = ParseResult.ArrayFormatter.formatErrorSync(e)[0]
      return `${first?.message ?? e.message} (under SchemeName ${schemeName})`
    },
    onRight: () => undefined
  })

/**
 * Checks a `{ SchemeName, Identification }` pair: the scheme must be one of the four, and the identification valid
 * under it ({@link forScheme}). The error's `path` names the field at fault.
 *
 * @since 0.1.0
 * @category checking
 */
export const check = (pair: {
  readonly SchemeName: string
  readonly Identification: string
}): Either.Either<SchemeIdentification, AccountIdentificationError> => {
  if (!isSchemeName(pair.SchemeName)) {
    return Either.left(
      new AccountIdentificationError({
        reason: "UnknownSchemeName",
        path: ["SchemeName"],
        message: `Unknown SchemeName ${JSON.stringify(pair.SchemeName)}: expected one of ${schemeNames.join(", ")}`
      })
    )
  }
  const problem = identificationProblem(pair.SchemeName, pair.Identification)
  return problem === undefined
    ? Either.right({ SchemeName: pair.SchemeName, Identification: pair.Identification })
    : Either.left(
        new AccountIdentificationError({ reason: "Identification", path: ["Identification"], message: problem })
      )
}

/**
 * Adds the pair check to any Schema whose type has `SchemeName` and `Identification` (a whole `CreditorAccount`,
 * say): an invalid identification fails with its message at the path `["Identification"]`.
 *
 * @example
 * ```ts
 * import { AccountIdentification } from "@payrules/accounts"
 * import { Either, ParseResult, Schema } from "effect"
 *
 * const CreditorAccount = Schema.Struct({
 *   SchemeName: AccountIdentification.SchemeName,
 *   Identification: Schema.String,
 *   Name: Schema.String
 * }).pipe(AccountIdentification.checkIdentification)
 *
 * const r = Schema.decodeUnknownEither(CreditorAccount)({
 *   SchemeName: "UK.OBIE.SortCodeAccountNumber",
 *   Identification: "1234561234567",
 *   Name: "A. Person"
 * })
 * if (Either.isLeft(r)) console.log(ParseResult.ArrayFormatter.formatErrorSync(r.left)[0]?.path) // [ 'Identification' ]
 * ```
 *
 * @since 0.1.0
 * @category combinators
 */
export const checkIdentification = <A extends SchemeIdentification, I, R>(
  self: Schema.Schema<A, I, R>
): Schema.filter<Schema.Schema<A, I, R>> =>
  self.pipe(
    Schema.filter((a) => {
      const problem = identificationProblem(a.SchemeName, a.Identification)
      return problem === undefined ? true : { path: ["Identification"], message: problem }
    })
  )

const pairArbitrary = (fc: FastCheckModule): Arb<SchemeIdentification> =>
  fc
    .constantFrom(...schemeNames)
    .chain((name) =>
      Arbitrary.makeLazy(schemas[name] as Schema.Schema<string, string>)(fc).map(
        (Identification): SchemeIdentification => ({ SchemeName: name, Identification })
      )
    )

/**
 * The pair `{ SchemeName, Identification }` as a Schema, checked with {@link checkIdentification}; the identification
 * is kept as written. Its arbitrary draws valid pairs of every scheme.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SchemeAndIdentification: Schema.Schema<SchemeIdentification> = checkIdentification(
  Schema.Struct({ SchemeName, Identification: Schema.String })
).annotations({
  identifier: "SchemeAndIdentification",
  description: "an account's SchemeName and an Identification valid under it",
  arbitrary: () => pairArbitrary
})
