/**
 * The body of POST /exchange (D5), decoded to `Sell | Buy`: the amount is given exactly once, in `from` to sell a
 * known amount or in `to` to buy one, as an exact decimal that fits its currency.
 *
 * @since 0.1.0
 */
import { Currency, DecimalAmount } from "@payrules/money"
import * as BigDecimal from "effect/BigDecimal"
import * as Either from "effect/Either"
import type * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"
import * as canonicalJson from "./internal/canonicalJson.js"

/**
 * At most 40 characters (Unicode code points), at least 1.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_REQUEST_ID_LENGTH = 40

/**
 * At most 40 characters (Unicode code points).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_REFERENCE_LENGTH = 40

/**
 * One side of the exchange, without the amount (which the request holds once, see {@link Sell} and {@link Buy}).
 *
 * @since 0.1.0
 * @category models
 */
export interface Side {
  readonly account_id: string
  readonly currency: Currency.CurrencyCode
}

interface Common {
  readonly from: Side
  readonly to: Side
  /** exact, greater than 0, with no more decimals than the currency it is in */
  readonly amount: BigDecimal.BigDecimal
  readonly reference?: string
  readonly request_id: string
  readonly exchange_reason_code?: string
}

/**
 * Sell a known amount of `from.currency` (the wire body carries `from.amount`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Sell extends Common {
  readonly _tag: "Sell"
}

/**
 * Buy a known amount of `to.currency` (the wire body carries `to.amount`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Buy extends Common {
  readonly _tag: "Buy"
}

/**
 * @since 0.1.0
 * @category models
 */
export type ExchangeRequest = Sell | Buy

/**
 * One side of the wire body.
 *
 * @since 0.1.0
 * @category models
 */
export interface EncodedSide {
  readonly account_id: string
  readonly currency: string
  readonly amount?: number
}

/**
 * The wire body, as the specification lists it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Encoded {
  readonly from: EncodedSide
  readonly to: EncodedSide
  readonly reference?: string
  readonly request_id: string
  readonly exchange_reason_code?: string
}

/**
 * The rule a decoding issue breaks:
 *
 * - `Shape`: not an object, a required field missing, a field of the wrong JSON type, or a field the body does not
 *   have;
 * - `EmptyAccountId`: an `account_id` that is the empty string;
 * - `UnknownCurrency`: a currency that is not an upper-case ISO 4217 code of the list;
 * - `SameCurrency`: `to.currency` equal to `from.currency`;
 * - `MissingAmount`: neither `from.amount` nor `to.amount` (reported at `from.amount`);
 * - `TwoAmounts`: both (reported at `to.amount`);
 * - `InexactAmount`: a number a double does not hold as written (`0.1 + 0.2`), or not finite;
 * - `AmountNotPositive`: 0 or less;
 * - `ScaleExceedsExponent`: more decimals than the currency has (10.505 GBP, 1.5 JPY);
 * - `RequestIdLength`: `request_id` empty or over 40 characters;
 * - `RequestIdCharacters`: `request_id` with a control character (U+0000 to U+001F, U+007F to U+009F: NUL, CR, LF,
 *   DEL, ...) or a lone surrogate (text that UTF-8 cannot carry): two different keys must never read as one;
 * - `ReferenceLength`: `reference` over 40 characters.
 *
 * @since 0.1.0
 * @category errors
 */
export type Rule =
  | "Shape"
  | "EmptyAccountId"
  | "UnknownCurrency"
  | "SameCurrency"
  | "MissingAmount"
  | "TwoAmounts"
  | "InexactAmount"
  | "AmountNotPositive"
  | "ScaleExceedsExponent"
  | "RequestIdLength"
  | "RequestIdCharacters"
  | "ReferenceLength"

/**
 * The annotation that marks the AST of each {@link Rule} in a decoding issue.
 *
 * @since 0.1.0
 * @category annotations
 */
export const RuleAnnotationId: unique symbol = Symbol.for("@payrules/exchange/ExchangeRequest/Rule")

const ruleDescriptions: Record<Exclude<Rule, "Shape">, string> = {
  EmptyAccountId: "an account_id is a non-empty string",
  UnknownCurrency: "a currency is an ISO 4217 code in upper case",
  SameCurrency: "from.currency and to.currency differ",
  MissingAmount: "the amount is given once, in from (sell) or in to (buy)",
  TwoAmounts: "the amount is given once, in from (sell) or in to (buy)",
  InexactAmount: "an amount is a JSON number of at most 15 significant digits",
  AmountNotPositive: "an amount is greater than 0",
  ScaleExceedsExponent: "an amount has no more decimals than its currency",
  RequestIdLength: "request_id has 1 to 40 characters",
  RequestIdCharacters: "request_id is Unicode text without control characters",
  ReferenceLength: "reference has at most 40 characters"
}

const ruleAsts = Object.fromEntries(
  Object.entries(ruleDescriptions).map(([rule, description]) => [
    rule,
    Schema.declare((_: unknown): _ is never => false, {
      identifier: `ExchangeRequest.${rule}`,
      description,
      [RuleAnnotationId]: rule
    }).ast
  ])
) as Record<Exclude<Rule, "Shape">, AST.AST>

const codePoints = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

const countOf = (n: number): string => `${n} character${n === 1 ? "" : "s"}`

const exact = (amount: BigDecimal.BigDecimal): boolean =>
  DecimalAmount.significantDigits(BigDecimal.format(BigDecimal.normalize(amount))) <=
  DecimalAmount.MAX_SIGNIFICANT_DIGITS

// ---------------------------------------------------------------------------------------------------------------------
// checks shared by the wire decoder and the type-side refinements
// ---------------------------------------------------------------------------------------------------------------------

const controlCharacter =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const requestIdProblem = (
  s: string
): { readonly rule: "RequestIdLength" | "RequestIdCharacters"; readonly message: string } | undefined => {
  const n = codePoints(s)
  if (n < 1 || n > MAX_REQUEST_ID_LENGTH) {
    return {
      rule: "RequestIdLength",
      message: `request_id must have 1 to ${MAX_REQUEST_ID_LENGTH} characters; it has ${countOf(n)}`
    }
  }
  const bad = controlCharacter.exec(s)
  if (bad === null) return undefined
  const code = bad[0].charCodeAt(0)
  const what = code >= 0xd800 ? "a lone surrogate (UTF-8 cannot carry it)" : "a control character"
  return {
    rule: "RequestIdCharacters",
    message: `request_id must be text without control characters; it has ${what}, U+${code.toString(16).toUpperCase().padStart(4, "0")}, at character ${codePoints(s.slice(0, bad.index)) + 1}`
  }
}

/** request_ids for property tests: any text of 1 to 40 code points without control characters */
const requestIdText = (string: typeof FastCheck.string) =>
  string({ minLength: 1, maxLength: MAX_REQUEST_ID_LENGTH, unit: "binary" }).map((s) =>
    s.replace(new RegExp(controlCharacter.source, "g"), "_")
  )

const referenceProblem = (s: string): string | undefined => {
  const n = codePoints(s)
  return n <= MAX_REFERENCE_LENGTH
    ? undefined
    : `reference must have at most ${MAX_REFERENCE_LENGTH} characters; it has ${countOf(n)}`
}

const sameCurrencyMessage = (currency: string): string =>
  `to.currency must differ from from.currency: both are ${currency}, and an exchange converts one currency into another`

const positiveProblem = (amount: BigDecimal.BigDecimal, side: "from" | "to"): string | undefined =>
  BigDecimal.isPositive(amount)
    ? undefined
    : `${side}.amount must be greater than 0; got ${DecimalAmount.toFixedString(BigDecimal.normalize(amount))}`

// ---------------------------------------------------------------------------------------------------------------------
// type side
// ---------------------------------------------------------------------------------------------------------------------

const AccountId = Schema.String.pipe(
  Schema.filter((s) => s.length > 0 || "account_id must not be empty", { identifier: "AccountId" })
)

const SideSchema = Schema.Struct({
  account_id: AccountId,
  currency: Schema.typeSchema(Currency.CurrencyCode)
})

const Amount = Schema.BigDecimalFromSelf.pipe(
  Schema.filter(
    (d) =>
      !BigDecimal.isPositive(d)
        ? "an exchange amount is greater than 0"
        : exact(d) || "an exchange amount has at most 15 significant digits (it travels as a JSON number)",
    { identifier: "ExchangeAmount" }
  )
)

/**
 * A request_id: 1 to 40 characters (Unicode code points), none of them a control character (U+0000 to U+001F,
 * U+007F to U+009F) or a lone surrogate. The rule of POST /exchange bodies and of GET /transactions?request_id=, on
 * both sides: a client refuses to send another, the sandbox refuses to read one.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequestId: Schema.Schema<string> = Schema.String.pipe(
  Schema.filter((s) => requestIdProblem(s)?.message ?? true, {
    identifier: "RequestId",
    description: "1 to 40 characters, no control characters",
    arbitrary: () => (fc) => fc.oneof(fc.uuid(), requestIdText(fc.string))
  })
)

const Reference = Schema.String.pipe(Schema.filter((s) => referenceProblem(s) ?? true, { identifier: "Reference" }))

const fields = {
  from: SideSchema,
  to: SideSchema,
  amount: Amount,
  reference: Schema.optionalWith(Reference, { exact: true }),
  request_id: RequestId,
  exchange_reason_code: Schema.optionalWith(Schema.String, { exact: true })
}

/**
 * The decoded sell request (no transformation).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Sell: Schema.Schema<Sell> = Schema.TaggedStruct("Sell", fields).annotations({ identifier: "Sell" })

/**
 * The decoded buy request (no transformation).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Buy: Schema.Schema<Buy> = Schema.TaggedStruct("Buy", fields).annotations({ identifier: "Buy" })

/**
 * The currency the amount is in: `from.currency` for a sell, `to.currency` for a buy.
 *
 * @since 0.1.0
 * @category getters
 */
export const amountCurrency = (request: ExchangeRequest): Currency.CurrencyCode =>
  request._tag === "Sell" ? request.from.currency : request.to.currency

/**
 * @since 0.1.0
 * @category guards
 */
export const isSell = (request: ExchangeRequest): request is Sell => request._tag === "Sell"

/**
 * @since 0.1.0
 * @category guards
 */
export const isBuy = (request: ExchangeRequest): request is Buy => request._tag === "Buy"

const crossFieldProblem = (r: ExchangeRequest): Schema.FilterOutput => {
  if (r.from.currency === r.to.currency) {
    return { path: ["to", "currency"], message: sameCurrencyMessage(r.to.currency) }
  }
  const scaled = DecimalAmount.checkScale(r.amount, amountCurrency(r))
  return Either.isLeft(scaled) ? { path: ["amount"], message: scaled.left.message } : true
}

const withExponent = Currency.all.map((c) => ({ code: c.code, exponent: Option.getOrElse(c.exponent, () => 8) }))

const Valid: Schema.Schema<ExchangeRequest> = Schema.Union(Sell, Buy).pipe(
  Schema.filter(crossFieldProblem, {
    identifier: "ExchangeRequestValue",
    arbitrary: () => (fc) => {
      const text = (min: number, max: number) => fc.string({ minLength: min, maxLength: max, unit: "binary" })
      const accountId = fc.oneof(fc.uuid(), text(1, 24))
      const optional = <A>(arb: FastCheck.Arbitrary<A>) => fc.option(arb, { nil: undefined })
      return fc
        .record({
          tag: fc.constantFrom("Sell" as const, "Buy" as const),
          from: fc.constantFrom(...withExponent),
          to: fc.constantFrom(...withExponent),
          fromAccount: accountId,
          toAccount: accountId,
          digits: fc.oneof(
            fc.bigInt({ min: 1n, max: 100_000n }),
            fc.bigInt({ min: 1n, max: 10n ** BigInt(DecimalAmount.MAX_SIGNIFICANT_DIGITS) - 1n })
          ),
          scale: fc.nat(8),
          reference: optional(text(0, MAX_REFERENCE_LENGTH)),
          requestId: fc.oneof(fc.uuid(), requestIdText(fc.string)),
          reasonCode: optional(fc.oneof(fc.constantFrom("intra_group_transfer", "investment"), text(0, 12)))
        })
        .filter((r) => r.from.code !== r.to.code)
        .map((r): ExchangeRequest => {
          const currency = r.tag === "Sell" ? r.from : r.to
          return {
            _tag: r.tag,
            from: { account_id: r.fromAccount, currency: r.from.code },
            to: { account_id: r.toAccount, currency: r.to.code },
            amount: BigDecimal.make(r.digits, Math.min(r.scale, currency.exponent)),
            ...(r.reference === undefined ? {} : { reference: r.reference }),
            request_id: r.requestId,
            ...(r.reasonCode === undefined ? {} : { exchange_reason_code: r.reasonCode })
          }
        })
    }
  })
)

// ---------------------------------------------------------------------------------------------------------------------
// wire side
// ---------------------------------------------------------------------------------------------------------------------

const strict = { parseOptions: { onExcessProperty: "error" } } as const

const WireSide = Schema.Struct({
  account_id: Schema.String,
  currency: Schema.String,
  amount: Schema.optionalWith(
    Schema.Number.annotations({
      message: () => "an amount is a JSON number (e.g. 10.5), not a string or another type"
    }),
    { exact: true }
  )
}).annotations(strict)

const Wire = Schema.Struct({
  from: WireSide,
  to: WireSide,
  reference: Schema.optionalWith(Schema.String, { exact: true }),
  request_id: Schema.String,
  exchange_reason_code: Schema.optionalWith(Schema.String, { exact: true })
}).annotations(strict)

type WireType = Schema.Schema.Type<typeof Wire>

const issue = (rule: Exclude<Rule, "Shape">, path: ReadonlyArray<PropertyKey>, actual: unknown, message: string) =>
  new ParseResult.Pointer(path as ParseResult.Path, actual, new ParseResult.Type(ruleAsts[rule], actual, message))

type NonEmpty<A> = readonly [A, ...Array<A>]

const decodeWire = (wire: WireType): Either.Either<ExchangeRequest, ReadonlyArray<ParseResult.ParseIssue>> => {
  const issues: Array<ParseResult.ParseIssue> = []
  const side = (name: "from" | "to") => {
    const s = wire[name]
    if (s.account_id.length === 0) {
      issues.push(issue("EmptyAccountId", [name, "account_id"], s.account_id, `${name}.account_id must not be empty`))
    }
    const problem = Currency.validate(s.currency)
    if (problem !== undefined) issues.push(issue("UnknownCurrency", [name, "currency"], s.currency, problem))
    let amount: BigDecimal.BigDecimal | undefined
    if (s.amount !== undefined) {
      const path = [name, "amount"]
      const read = DecimalAmount.fromNumber(s.amount)
      if (Either.isLeft(read)) {
        issues.push(issue("InexactAmount", path, s.amount, `${name}.amount: ${read.left.message}`))
      } else {
        const notPositive = positiveProblem(read.right, name)
        if (notPositive !== undefined) {
          issues.push(issue("AmountNotPositive", path, s.amount, notPositive))
        } else if (problem === undefined) {
          const scaled = DecimalAmount.checkScale(read.right, s.currency)
          if (Either.isLeft(scaled)) {
            issues.push(issue("ScaleExceedsExponent", path, s.amount, `${name}.amount: ${scaled.left.message}`))
          }
        }
        amount = read.right
      }
    }
    return { valid: problem === undefined, amount }
  }
  const from = side("from")
  const to = side("to")
  if (from.valid && to.valid && wire.from.currency === wire.to.currency) {
    issues.push(issue("SameCurrency", ["to", "currency"], wire.to.currency, sameCurrencyMessage(wire.to.currency)))
  }
  const hasFrom = wire.from.amount !== undefined
  const hasTo = wire.to.amount !== undefined
  if (!hasFrom && !hasTo) {
    issues.push(
      issue(
        "MissingAmount",
        ["from", "amount"],
        undefined,
        "the amount is missing: give from.amount to sell a known amount, or to.amount to buy one"
      )
    )
  } else if (hasFrom && hasTo) {
    issues.push(
      issue(
        "TwoAmounts",
        ["to", "amount"],
        wire.to.amount,
        "the amount is given twice: give either from.amount (sell) or to.amount (buy), not both"
      )
    )
  }
  if (wire.reference !== undefined) {
    const problem = referenceProblem(wire.reference)
    if (problem !== undefined) issues.push(issue("ReferenceLength", ["reference"], wire.reference, problem))
  }
  const idProblem = requestIdProblem(wire.request_id)
  if (idProblem !== undefined) issues.push(issue(idProblem.rule, ["request_id"], wire.request_id, idProblem.message))
  if (issues.length > 0) return Either.left(issues)
  const amount = (from.amount ?? to.amount)!
  return Either.right({
    _tag: hasFrom ? "Sell" : "Buy",
    from: { account_id: wire.from.account_id, currency: wire.from.currency as Currency.CurrencyCode },
    to: { account_id: wire.to.account_id, currency: wire.to.currency as Currency.CurrencyCode },
    amount,
    ...(wire.reference === undefined ? {} : { reference: wire.reference }),
    request_id: wire.request_id,
    ...(wire.exchange_reason_code === undefined ? {} : { exchange_reason_code: wire.exchange_reason_code })
  })
}

const toNumber = (amount: BigDecimal.BigDecimal): number | undefined =>
  Either.getOrUndefined(DecimalAmount.toNumber(amount))

const encodeSide = (side: Side, amount: BigDecimal.BigDecimal | undefined): EncodedSide | undefined => {
  if (amount === undefined) return { account_id: side.account_id, currency: side.currency }
  const n = toNumber(amount)
  return n === undefined ? undefined : { account_id: side.account_id, currency: side.currency, amount: n }
}

/**
 * POST /exchange bodies: decodes to `Sell | Buy` and encodes back to the same JSON, keys in the specification's
 * order (`from`, `to`, `reference`, `request_id`, `exchange_reason_code`; inside a side `account_id`, `currency`,
 * `amount`). Every rule of D5 is checked, and every broken rule is reported (not only the first) as an issue with
 * the path of the field and a message that names the rule; {@link issues} gives each one its {@link Rule}. Fields
 * the body does not have are refused (a misspelt `exchange_reason_code` would otherwise vanish).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ExchangeRequest: Schema.Schema<ExchangeRequest, Encoded> = Schema.transformOrFail(Wire, Valid, {
  strict: true,
  decode: (wire, _, ast) =>
    Either.match(decodeWire(wire), {
      onLeft: (issues) =>
        ParseResult.fail(
          issues.length === 1
            ? issues[0]!
            : new ParseResult.Composite(ast, wire, issues as NonEmpty<ParseResult.ParseIssue>)
        ),
      onRight: ParseResult.succeed
    }),
  encode: (request, _, ast) => {
    const from = encodeSide(request.from, request._tag === "Sell" ? request.amount : undefined)
    const to = encodeSide(request.to, request._tag === "Buy" ? request.amount : undefined)
    if (from === undefined || to === undefined) {
      return ParseResult.fail(
        new ParseResult.Type(ast, request, "the amount has more significant digits than a JSON number carries exactly")
      )
    }
    return ParseResult.succeed({
      from,
      to,
      ...(request.reference === undefined ? {} : { reference: request.reference }),
      request_id: request.request_id,
      ...(request.exchange_reason_code === undefined ? {} : { exchange_reason_code: request.exchange_reason_code })
    })
  }
}).annotations({
  identifier: "ExchangeRequest",
  title: "POST /exchange body",
  description: "an exchange between two accounts: the amount in from (sell) or in to (buy), exactly once"
})

/**
 * Decodes a POST /exchange body (for instance `JSON.parse` of it).
 *
 * @example
 * ```ts
 * import { ExchangeRequest } from "@payrules/exchange"
 * import { Either } from "effect"
 *
 * const r = ExchangeRequest.parse({
 *   from: { account_id: "a", currency: "GBP", amount: 10.5 },
 *   to: { account_id: "b", currency: "EUR" },
 *   request_id: "r-1"
 * })
 * if (Either.isRight(r)) console.log(r.right._tag) // Sell
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const parse: (u: unknown) => Either.Either<ExchangeRequest, ParseResult.ParseError> =
  Schema.decodeUnknownEither(ExchangeRequest)

/**
 * The wire body of a request, ready for `JSON.stringify`. Fails only for a request built by hand that breaks a rule.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode: (request: ExchangeRequest) => Either.Either<Encoded, ParseResult.ParseError> =
  Schema.encodeEither(ExchangeRequest)

/**
 * The body as canonical JSON: the encoded body with keys sorted, no whitespace. It is the exact text, not a hash, so
 * two different bodies never share a fingerprint, and the same body always has the same one, whatever the order of
 * its keys or the trailing zeros of its amount (10.50 and 10.5 are one JSON number).
 *
 * @since 0.1.0
 * @category getters
 */
export const fingerprint = (request: ExchangeRequest): string =>
  canonicalJson.stringify(
    {
      from: {
        account_id: request.from.account_id,
        currency: request.from.currency,
        amount: request._tag === "Sell" ? request.amount : undefined
      },
      to: {
        account_id: request.to.account_id,
        currency: request.to.currency,
        amount: request._tag === "Buy" ? request.amount : undefined
      },
      reference: request.reference,
      request_id: request.request_id,
      exchange_reason_code: request.exchange_reason_code
    },
    (value) => {
      if (!BigDecimal.isBigDecimal(value)) return undefined
      // a request built by hand may carry more digits than a JSON number: write them all rather than round
      const n = toNumber(value)
      return n === undefined ? DecimalAmount.toFixedString(BigDecimal.normalize(value)) : JSON.stringify(n)
    }
  )

/**
 * One decoding problem: the rule it breaks, where, and what to do.
 *
 * @since 0.1.0
 * @category errors
 */
export interface Issue {
  readonly rule: Rule
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const ruleOf = (ast: AST.AST): Rule => {
  const rule = ast.annotations[RuleAnnotationId]
  return typeof rule === "string" && Object.hasOwn(ruleDescriptions, rule) ? (rule as Rule) : "Shape"
}

const leafMessage = (leaf: ParseResult.ParseIssue): string =>
  ParseResult.ArrayFormatter.formatIssueSync(leaf)[0]?.message ?? "is invalid"

const collect = (i: ParseResult.ParseIssue, path: ReadonlyArray<PropertyKey>, out: Array<Issue>): void => {
  switch (i._tag) {
    case "Pointer":
      collect(i.issue, [...path, ...(Array.isArray(i.path) ? i.path : [i.path])], out)
      return
    case "Composite":
      for (const c of Array.isArray(i.issues) ? i.issues : [i.issues]) collect(c, path, out)
      return
    case "Refinement":
    case "Transformation":
      collect(i.issue, path, out)
      return
    case "Type":
      out.push({ rule: ruleOf(i.ast), path, message: leafMessage(i) })
      return
    default:
      out.push({ rule: "Shape", path, message: leafMessage(i) })
  }
}

/**
 * The issues of a decoding error, each with its {@link Rule}, path and message, so callers can match on the rule
 * instead of the text.
 *
 * @since 0.1.0
 * @category errors
 */
export const issues = (error: ParseResult.ParseError): ReadonlyArray<Issue> => {
  const out: Array<Issue> = []
  collect(error.issue, [], out)
  return out
}
