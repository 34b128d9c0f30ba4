/**
 * When an exchange needs `exchange_reason_code`, and whether a code is one the API offers. The specification says
 * only that a reason "may be required depending on country and amount" and publishes no rule, so this module ships
 * the mechanism and no rules: the policy is data that the user supplies.
 *
 * @since 0.1.0
 */
import { ItemList } from "@payrules/lenient"
import { Currency, DecimalAmount } from "@payrules/money"
import * as BigDecimal from "effect/BigDecimal"
import type * as Brand from "effect/Brand"
import * as Data from "effect/Data"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaTransformation from "effect/SchemaTransformation"
import * as ExchangeRequest from "./ExchangeRequest.js"
import type * as ExchangeTransaction from "./ExchangeTransaction.js"
import * as iso3166 from "./internal/iso3166.js"

/**
 * An officially assigned ISO 3166-1 alpha-2 code (249 of them): `GB`, `DE`, `US`.
 *
 * @since 0.1.0
 * @category models
 */
export type CountryCode = string & Brand.Brand<"CountryCode">

const countries = new Set(iso3166.alpha2)

/**
 * Why a string is not a country code, or `undefined` when it is one.
 *
 * @since 0.1.0
 * @category validation
 */
export const validateCountry = (s: string): string | undefined => {
  if (countries.has(s)) return undefined
  if (Object.hasOwn(iso3166.reserved, s)) return `${s} is not an ISO 3166-1 country code: ${iso3166.reserved[s]}`
  if (countries.has(s.toUpperCase())) return `country codes are upper case: ${s.toUpperCase()}, not ${s}`
  return `${JSON.stringify(s.slice(0, 20))} is not an ISO 3166-1 alpha-2 country code (two upper-case letters, e.g. GB)`
}

/**
 * An ISO 3166-1 alpha-2 country code. Its arbitrary (`Arbitrary.schema(ExchangeReason.CountryCode)`) draws the
 * assigned codes.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CountryCode: Schema.Codec<CountryCode, string> = Schema.String.check(
  Schema.makeFilter(validateCountry, {
    identifier: "CountryCode",
    title: "ISO 3166-1 alpha-2 country code",
    toJsonSchema: () => ({ pattern: "^[A-Z]{2}$" }),
    arbitraryConstraint: { patterns: [{ source: `^(?:${iso3166.alpha2.join("|")})$`, flags: "" }] }
  })
).pipe(Schema.brand("CountryCode"))

/**
 * One rule of a policy: an exchange for an account or business in `country` whose amount, in `currency`, is at least
 * `threshold` needs a reason. A rule only speaks of amounts in its own currency; write one rule per currency that
 * matters.
 *
 * @since 0.1.0
 * @category models
 */
export interface Rule {
  readonly country: CountryCode
  readonly currency: Currency.CurrencyCode
  readonly threshold: BigDecimal.BigDecimal
}

// a threshold: a decimal of 0 or more; its arbitrary draws 0 and positive amounts of up to 15 significant digits
const Threshold = Schema.BigDecimal.annotate({
  toCodecArbitrary: () =>
    Schema.link<BigDecimal.BigDecimal>()(
      Schema.Struct({
        value: Schema.BigInt.check(Schema.isBetweenBigInt({ minimum: 0n, maximum: 10n ** 15n - 1n })),
        scale: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 4 }))
      }),
      {
        decode: SchemaGetter.transform(({ scale, value }) => BigDecimal.make(value, scale)),
        encode: SchemaGetter.forbiddenEncoding
      }
    )
}).check(
  Schema.makeFilter((d: BigDecimal.BigDecimal) => !BigDecimal.isNegative(d) || "a threshold is 0 or more", {
    identifier: "Threshold"
  })
)

/**
 * A rule as JSON: `{ "country": "GB", "currency": "GBP", "threshold": 10000 }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Rule: Schema.Codec<
  Rule,
  { readonly country: string; readonly currency: string; readonly threshold: number }
> = Schema.Struct({
  country: CountryCode,
  currency: Currency.CurrencyCode,
  threshold: DecimalAmount.FromNumber.pipe(Schema.decodeTo(Threshold, SchemaTransformation.passthrough()))
}).annotate({ identifier: "ExchangeReasonRule" })

/**
 * The rules under which an exchange needs `exchange_reason_code`: required when any rule matches.
 *
 * @since 0.1.0
 * @category models
 */
export interface Policy {
  readonly rules: ReadonlyArray<Rule>
}

/**
 * A policy as JSON: `{ "rules": [...] }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Policy: Schema.Codec<Policy, { readonly rules: ReadonlyArray<(typeof Rule)["Encoded"]> }> = Schema.Struct({
  rules: Schema.Array(Rule)
}).annotate({ identifier: "ExchangeReasonPolicy" })

/**
 * The policy without rules: a reason is never required. The specification publishes no rule, so this is the default.
 *
 * @since 0.1.0
 * @category constructors
 */
export const empty: Policy = { rules: [] }

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (rules: ReadonlyArray<Rule>): Policy => ({ rules })

/**
 * What a policy looks at: the country of the account or business, and the amount of the exchange in its currency.
 *
 * @since 0.1.0
 * @category models
 */
export interface Subject {
  readonly country: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
}

/**
 * The rules of the policy that match (country and currency equal, amount at least the threshold).
 *
 * @since 0.1.0
 * @category getters
 */
export const matchingRules = (policy: Policy, subject: Subject): ReadonlyArray<Rule> =>
  policy.rules.filter(
    (r) =>
      r.country === subject.country &&
      r.currency === subject.currency &&
      BigDecimal.isGreaterThanOrEqualTo(subject.amount, r.threshold)
  )

/**
 * `true` when a rule of the policy matches.
 *
 * @example
 * ```ts
 * import { ExchangeReason } from "@payrules/exchange"
 * import { BigDecimal, Schema } from "effect"
 *
 * const policy = Schema.decodeUnknownSync(ExchangeReason.Policy)({
 *   rules: [{ country: "GB", currency: "GBP", threshold: 10000 }]
 * })
 * const amount = BigDecimal.fromStringUnsafe("25000")
 * console.log(ExchangeReason.isRequired(policy, { country: "GB", amount, currency: "GBP" })) // true
 * console.log(ExchangeReason.isRequired(ExchangeReason.empty, { country: "GB", amount, currency: "GBP" })) // false
 * ```
 *
 * @since 0.1.0
 * @category predicates
 */
export const isRequired = (policy: Policy, subject: Subject): boolean => matchingRules(policy, subject).length > 0

/**
 * An entry of GET /exchange-reasons.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExchangeReason {
  readonly code: string
  readonly name: string
}

/**
 * @since 0.1.0
 * @category schemas
 */
export const ExchangeReason: Schema.Codec<ExchangeReason> = Schema.Struct({
  code: Schema.String.check(Schema.isMinLength(1, { message: "a reason code is a non-empty string" })),
  name: Schema.String
}).annotate({ identifier: "ExchangeReason" })

/**
 * The body of GET /exchange-reasons: `[{ code, name }]`. Fields beyond these are tolerated and dropped.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ExchangeReasonList: Schema.Codec<ReadonlyArray<ExchangeReason>> = Schema.Array(ExchangeReason).annotate({
  identifier: "ExchangeReasonList"
})

/**
 * The reasons of a GET /exchange-reasons answer that decoded, and a warning for each entry that did not.
 *
 * @since 0.2.0
 * @category models
 */
export interface ListResult {
  /** the entries that decoded, in their order */
  readonly reasons: ReadonlyArray<ExchangeReason>
  /**
   * an `UnreadableItem` warning for each entry that does not decode (its index, the path of what broke, its raw
   * value); the package's finding type
   */
  readonly warnings: ReadonlyArray<ExchangeTransaction.Warning>
}

const readItems = ItemList.decode(ExchangeReason)

/**
 * Reads the entries of a GET /exchange-reasons answer one by one (D11, issue 34): every entry that decodes is kept,
 * and each that does not (a missing or empty `code`, a `name` that is not a string) is reported with its index, path
 * and raw value. Reason codes are open strings, not an enum: any non-empty code the server lists is read, codes added
 * since this version included.
 *
 * @example
 * ```ts
 * import { ExchangeReason } from "@payrules/exchange"
 *
 * const read = ExchangeReason.readList([{ code: "fees", name: "Fees" }, { code: "" }, { code: "gift", name: "Gift" }])
 * console.log(read.reasons.map((r) => r.code), read.warnings.map((w) => w.path)) // [ 'fees', 'gift' ] [ [ 1, 'code' ] ]
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const readList = (list: ReadonlyArray<unknown>): ListResult => {
  const { items, unreadable } = readItems(list)
  return {
    reasons: items,
    warnings: unreadable.map((u) =>
      ItemList.finding(u, `exchange reason ${u.index} is not readable (${u.message}); the other reasons are read`)
    )
  }
}

const decodeEnvelope = Schema.decodeUnknownResult(
  Schema.Array(Schema.Unknown).annotate({ identifier: "ExchangeReasonList" })
)

/**
 * Decodes a GET /exchange-reasons answer leniently: an answer that is not an array is an error; in an array, every
 * entry that decodes is kept ({@link readList}). {@link ExchangeReasonList} stays strict.
 *
 * @since 0.2.0
 * @category decoding
 */
export const decodeListLenient = (u: unknown): Result.Result<ListResult, Schema.SchemaError> =>
  Result.map(decodeEnvelope(u), readList)

/**
 * Why a reason check fails: `Required` (the policy requires a reason and the request has none), `UnknownCode` (the
 * code is not one of GET /exchange-reasons).
 *
 * @since 0.1.0
 * @category errors
 */
export type Reason = "Required" | "UnknownCode"

/**
 * @since 0.1.0
 * @category errors
 */
export class ExchangeReasonError extends Data.TaggedError("ExchangeReasonError")<{
  readonly reason: Reason
  /** the code that was given, if any */
  readonly code: string | undefined
  readonly message: string
}> {}

/**
 * The entry of `reasons` whose code is `code`.
 *
 * @since 0.1.0
 * @category validation
 */
export const checkCode = (
  code: string,
  reasons: ReadonlyArray<ExchangeReason>
): Result.Result<ExchangeReason, ExchangeReasonError> => {
  const found = reasons.find((r) => r.code === code)
  if (found !== undefined) return Result.succeed(found)
  const known = reasons.map((r) => r.code)
  return Result.fail(
    new ExchangeReasonError({
      reason: "UnknownCode",
      code,
      message: `${JSON.stringify(code)} is not an exchange reason code of GET /exchange-reasons${
        known.length === 0
          ? " (the list is empty)"
          : `; expected one of ${known.slice(0, 10).join(", ")}${known.length > 10 ? ", ..." : ""}`
      }`
    })
  )
}

/**
 * Checks a request against a policy: when a rule matches, `exchange_reason_code` must be present and, when the caller
 * has the list of GET /exchange-reasons, one of its codes. When no rule matches, the API ignores the code, and so does
 * this check.
 *
 * @since 0.1.0
 * @category validation
 */
export const check = (
  policy: Policy,
  request: ExchangeRequest.ExchangeRequest,
  options: { readonly country: string; readonly reasons?: ReadonlyArray<ExchangeReason> | undefined }
): Result.Result<ExchangeRequest.ExchangeRequest, ExchangeReasonError> => {
  const currency = ExchangeRequest.amountCurrency(request)
  const rules = matchingRules(policy, { country: options.country, amount: request.amount, currency })
  if (rules.length === 0) return Result.succeed(request)
  const code = request.exchange_reason_code
  if (code === undefined) {
    const rule = rules[0]!
    return Result.fail(
      new ExchangeReasonError({
        reason: "Required",
        code: undefined,
        message: `exchange_reason_code is required for ${rule.country} from ${DecimalAmount.toFixedString(rule.threshold)} ${rule.currency}; the amount is ${DecimalAmount.toFixedString(request.amount)} ${currency}`
      })
    )
  }
  return options.reasons === undefined
    ? Result.succeed(request)
    : Result.map(checkCode(code, options.reasons), () => request)
}
