/**
 * The Schemas of a POST /exchange body: the type side (`Sell | Buy`, with the arbitrary of a valid exchange), the wire
 * side (the JSON body, refusing keys it does not have), and the codec between them, which reports every broken rule.
 *
 * @internal
 */
import { Currency, DecimalAmount } from "@payrules/money"
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import type * as Api from "../ExchangeRequest.js"
import {
  exact,
  MAX_REFERENCE_LENGTH,
  positiveProblem,
  referenceProblem,
  requestIdProblem,
  ruleIssue,
  ruleValue,
  sameCurrencyMessage
} from "./requestRules.js"
import { exactKeys, withArbitrary } from "./schema.js"

// ---------------------------------------------------------------------------------------------------------------------
// what the arbitraries draw
// ---------------------------------------------------------------------------------------------------------------------

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
const pattern = (source: string) => ({ source, flags: "" })

/** UUIDs, or any text of 1 to 24 code points */
const accountIdPatterns = [pattern(`^${UUID}$`), pattern("^[\\s\\S]{1,24}$")] as const

/** UUIDs, or any text of 1 to 40 code points without control characters (and never a lone surrogate) */
const requestIdPatterns = [pattern(`^${UUID}$`), pattern("^[^\\u0000-\\u001f\\u007f-\\u009f]{1,40}$")] as const

/** the digits of an amount: mostly small, sometimes up to the 15 significant digits a JSON number carries */
const Digits = Schema.Union([
  Schema.BigInt.check(Schema.isBetweenBigInt({ minimum: 1n, maximum: 100_000n })),
  Schema.BigInt.check(
    Schema.isBetweenBigInt({ minimum: 1n, maximum: 10n ** BigInt(DecimalAmount.MAX_SIGNIFICANT_DIGITS) - 1n })
  )
])

const Scale = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 8 }))

// ---------------------------------------------------------------------------------------------------------------------
// type side
// ---------------------------------------------------------------------------------------------------------------------

const AccountId = Schema.String.check(
  Schema.makeFilter((s: string) => s.length > 0 || "account_id must not be empty", {
    identifier: "AccountId",
    arbitraryConstraint: { minLength: 1, patterns: accountIdPatterns }
  })
)

/** @internal */
export const SideSchema: Schema.Codec<Api.Side> = Schema.Struct({
  account_id: AccountId,
  currency: Schema.toType(Currency.CurrencyCode)
})

const Amount = Schema.BigDecimal.annotate({
  toCodecArbitrary: () =>
    Schema.link<BigDecimal.BigDecimal>()(Schema.Struct({ digits: Digits, scale: Scale }), {
      decode: SchemaGetter.transform(({ digits, scale }) => BigDecimal.make(digits, scale)),
      encode: SchemaGetter.forbiddenEncoding
    })
}).check(
  Schema.makeFilter(
    (d: BigDecimal.BigDecimal) =>
      !BigDecimal.isPositive(d)
        ? "an exchange amount is greater than 0"
        : exact(d) || "an exchange amount has at most 15 significant digits (it travels as a JSON number)",
    { identifier: "ExchangeAmount" }
  )
)

/** @internal */
export const RequestId: Schema.Codec<string> = Schema.String.check(
  Schema.makeFilter((s: string) => requestIdProblem(s)?.message, {
    identifier: "RequestId",
    description: "1 to 40 characters, no control characters",
    arbitraryConstraint: { patterns: requestIdPatterns }
  })
)

const Reference = Schema.String.check(
  Schema.makeFilter((s: string) => referenceProblem(s)?.message, {
    identifier: "Reference",
    description: "at most 40 characters, no control characters",
    arbitraryConstraint: {
      patterns: [pattern(`^[^\\u0000-\\u001f\\u007f-\\u009f]{0,${MAX_REFERENCE_LENGTH}}$`)]
    }
  })
)

const fields = {
  from: SideSchema,
  to: SideSchema,
  amount: Amount,
  reference: Schema.optionalKey(Reference),
  request_id: RequestId,
  exchange_reason_code: Schema.optionalKey(Schema.String)
}

/** @internal */
export const Sell: Schema.Codec<Api.Sell> = Schema.TaggedStruct("Sell", fields).annotate({ identifier: "Sell" })

/** @internal */
export const Buy: Schema.Codec<Api.Buy> = Schema.TaggedStruct("Buy", fields).annotate({ identifier: "Buy" })

/** @internal */
export const amountCurrency = (request: Api.ExchangeRequest): Currency.CurrencyCode =>
  request._tag === "Sell" ? request.from.currency : request.to.currency

const crossFieldProblem = (r: Api.ExchangeRequest): Schema.FilterOutput => {
  if (r.from.currency === r.to.currency) {
    return { path: ["to", "currency"], issue: sameCurrencyMessage(r.to.currency) }
  }
  const scaled = DecimalAmount.checkScale(r.amount, amountCurrency(r))
  return Result.isFailure(scaled) ? { path: ["amount"], issue: scaled.failure.message } : undefined
}

/** what the arbitrary of a valid request draws before the amount is made to fit its currency */
const Drawn = Schema.Struct({
  _tag: Schema.Literals(["Sell", "Buy"]),
  from: SideSchema,
  to: SideSchema,
  digits: Digits,
  scale: Scale,
  reference: Schema.optionalKey(Reference),
  request_id: RequestId,
  exchange_reason_code: Schema.optionalKey(
    Schema.Union([Schema.Literals(["intra_group_transfer", "investment"]), Schema.String.check(Schema.isMaxLength(12))])
  )
}).check(Schema.makeFilter((d) => d.from.currency !== d.to.currency))

// currencies without a minor unit (gold, SDR) take any scale: up to 8 decimals here
const exponentOf = (code: string): number => Option.getOrElse(Currency.exponent(code), () => 8)

const build = ({ digits, scale, ...drawn }: (typeof Drawn)["Type"]): Api.ExchangeRequest => {
  const currency = drawn._tag === "Sell" ? drawn.from.currency : drawn.to.currency
  return { ...drawn, amount: BigDecimal.make(digits, Math.min(scale, exponentOf(currency))) }
}

/** `Sell | Buy` with the rules across fields (currencies differ, the amount fits its currency) @internal */
export const Valid: Schema.Codec<Api.ExchangeRequest> = withArbitrary(
  Schema.Union([Sell, Buy]).check(Schema.makeFilter(crossFieldProblem, { identifier: "ExchangeRequestValue" })),
  Drawn,
  build
)

// ---------------------------------------------------------------------------------------------------------------------
// wire side
// ---------------------------------------------------------------------------------------------------------------------

// a JSON number: a number that is not finite (which JSON cannot carry) is refused with the InexactAmount rule
const wireAmount = (side: "from" | "to") =>
  Schema.Number.annotate({ message: "an amount is a JSON number (e.g. 10.5), not a string or another type" }).check(
    Schema.makeFilter((n: number) =>
      Number.isFinite(n) ? undefined : ruleValue("InexactAmount", n, `${side}.amount: ${n} is not a finite number`)
    ),
    // never fails after the check above; it tells effect's JSON codec and JSON Schema that the number is finite
    Schema.isFinite()
  )

const wireSide = (side: "from" | "to") =>
  Schema.Struct({
    account_id: Schema.String,
    currency: Schema.String,
    amount: Schema.optionalKey(wireAmount(side))
  })

const WireStruct = Schema.Struct({
  from: wireSide("from"),
  to: wireSide("to"),
  reference: Schema.optionalKey(Schema.String),
  request_id: Schema.String,
  exchange_reason_code: Schema.optionalKey(Schema.String)
})

const Wire: Schema.Codec<Api.Encoded> = exactKeys(WireStruct)

type NonEmpty<A> = readonly [A, ...Array<A>]

const decodeWire = (wire: Api.Encoded): Result.Result<Api.ExchangeRequest, NonEmpty<SchemaIssue.Issue>> => {
  const issues: Array<SchemaIssue.Issue> = []
  const side = (name: "from" | "to") => {
    const s = wire[name]
    if (s.account_id.length === 0) {
      issues.push(
        ruleIssue("EmptyAccountId", [name, "account_id"], s.account_id, `${name}.account_id must not be empty`)
      )
    }
    const problem = Currency.validate(s.currency)
    if (problem !== undefined) issues.push(ruleIssue("UnknownCurrency", [name, "currency"], s.currency, problem))
    let amount: BigDecimal.BigDecimal | undefined
    if (s.amount !== undefined) {
      const path = [name, "amount"]
      const read = DecimalAmount.fromNumber(s.amount)
      if (Result.isFailure(read)) {
        issues.push(ruleIssue("InexactAmount", path, s.amount, `${name}.amount: ${read.failure.message}`))
      } else {
        const notPositive = positiveProblem(read.success, name)
        if (notPositive !== undefined) {
          issues.push(ruleIssue("AmountNotPositive", path, s.amount, notPositive))
        } else if (problem === undefined) {
          const scaled = DecimalAmount.checkScale(read.success, s.currency)
          if (Result.isFailure(scaled)) {
            issues.push(ruleIssue("ScaleExceedsExponent", path, s.amount, `${name}.amount: ${scaled.failure.message}`))
          }
        }
        amount = read.success
      }
    }
    return { valid: problem === undefined, amount }
  }
  const from = side("from")
  const to = side("to")
  if (from.valid && to.valid && wire.from.currency === wire.to.currency) {
    issues.push(ruleIssue("SameCurrency", ["to", "currency"], wire.to.currency, sameCurrencyMessage(wire.to.currency)))
  }
  const hasFrom = wire.from.amount !== undefined
  const hasTo = wire.to.amount !== undefined
  if (!hasFrom && !hasTo) {
    issues.push(
      ruleIssue(
        "MissingAmount",
        ["from", "amount"],
        undefined,
        "the amount is missing: give from.amount to sell a known amount, or to.amount to buy one"
      )
    )
  } else if (hasFrom && hasTo) {
    issues.push(
      ruleIssue(
        "TwoAmounts",
        ["to", "amount"],
        wire.to.amount,
        "the amount is given twice: give either from.amount (sell) or to.amount (buy), not both"
      )
    )
  }
  if (wire.reference !== undefined) {
    const problem = referenceProblem(wire.reference)
    if (problem !== undefined) issues.push(ruleIssue(problem.rule, ["reference"], wire.reference, problem.message))
  }
  const idProblem = requestIdProblem(wire.request_id)
  if (idProblem !== undefined) {
    issues.push(ruleIssue(idProblem.rule, ["request_id"], wire.request_id, idProblem.message))
  }
  if (issues.length > 0) return Result.fail(issues as unknown as NonEmpty<SchemaIssue.Issue>)
  return Result.succeed({
    _tag: hasFrom ? "Sell" : "Buy",
    from: { account_id: wire.from.account_id, currency: wire.from.currency as Currency.CurrencyCode },
    to: { account_id: wire.to.account_id, currency: wire.to.currency as Currency.CurrencyCode },
    // an amount is there: the checks above refused a body with none
    amount: (from.amount ?? to.amount) as BigDecimal.BigDecimal,
    ...(wire.reference === undefined ? {} : { reference: wire.reference }),
    request_id: wire.request_id,
    ...(wire.exchange_reason_code === undefined ? {} : { exchange_reason_code: wire.exchange_reason_code })
  })
}

/** the number of an amount, when a JSON number carries it exactly @internal */
export const toNumber = (amount: BigDecimal.BigDecimal): number | undefined =>
  Result.getOrUndefined(DecimalAmount.toNumber(amount))

const encodeSide = (side: Api.Side, amount: BigDecimal.BigDecimal | undefined): Api.EncodedSide | undefined => {
  if (amount === undefined) return { account_id: side.account_id, currency: side.currency }
  const n = toNumber(amount)
  return n === undefined ? undefined : { account_id: side.account_id, currency: side.currency, amount: n }
}

const encodeRequest = (request: Api.ExchangeRequest): Effect.Effect<Api.Encoded, SchemaIssue.Issue> => {
  const from = encodeSide(request.from, request._tag === "Sell" ? request.amount : undefined)
  const to = encodeSide(request.to, request._tag === "Buy" ? request.amount : undefined)
  if (from === undefined || to === undefined) {
    return Effect.fail(
      new SchemaIssue.InvalidValue(
        { message: "the amount has more significant digits than a JSON number carries exactly" },
        request
      )
    )
  }
  return Effect.succeed({
    from,
    to,
    ...(request.reference === undefined ? {} : { reference: request.reference }),
    request_id: request.request_id,
    ...(request.exchange_reason_code === undefined ? {} : { exchange_reason_code: request.exchange_reason_code })
  })
}

/** @internal */
export const ExchangeRequest: Schema.Codec<Api.ExchangeRequest, Api.Encoded> = Wire.pipe(
  Schema.decodeTo(Valid, {
    decode: SchemaGetter.transformEffect((wire: Api.Encoded) =>
      Result.match(decodeWire(wire), {
        onFailure: (issues) =>
          Effect.fail(issues.length === 1 ? issues[0] : new SchemaIssue.Composite(WireStruct.ast, issues, wire)),
        onSuccess: Effect.succeed
      })
    ),
    encode: SchemaGetter.transformEffect(encodeRequest)
  })
).annotate({
  identifier: "ExchangeRequest",
  title: "POST /exchange body",
  description: "an exchange between two accounts: the amount in from (sell) or in to (buy), exactly once"
})
