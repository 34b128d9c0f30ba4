/**
 * `payrules exchange`: money from one account to another in another currency, exactly once.
 *
 * @since 0.1.0
 */
import { ExchangeRequest, ExchangeState, type ExchangeTransaction } from "@payrules/exchange"
import { BusinessClient } from "@payrules/transport"
import * as Console from "effect/Console"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { Apis, apiFailure, baseUrlOption, embeddedSeed } from "../Apis.js"
import * as Checks from "../Checks.js"
import { CliError, oneLine } from "../CliError.js"
import * as Flags from "../Flags.js"
import * as Ledgers from "../Ledgers.js"
import { visible } from "../Text.js"

const options = {
  fromAccount: Flags.optional(
    "from-account",
    "id",
    "account to sell from (default: the sandbox's account in --from-currency)"
  ),
  toAccount: Flags.optional("to-account", "id", "account to receive (default: the sandbox's account in --to-currency)"),
  fromCurrency: Flags.withDefault("from-currency", "code", "GBP", "ISO 4217 code of the currency sold"),
  toCurrency: Flags.withDefault("to-currency", "code", "EUR", "ISO 4217 code of the currency bought"),
  sell: Flags.optional("sell", "amount", "amount of from-currency to sell"),
  buy: Flags.optional("buy", "amount", "amount of to-currency to buy"),
  requestId: Flags.optional(
    "request-id",
    "id",
    "reuse it to resume a call whose outcome is unknown (1 to 40 characters)"
  ),
  reference: Flags.optional("reference", "text", "at most 40 characters"),
  reason: Flags.optional("reason", "code", "exchange_reason_code"),
  ledger: Ledgers.ledgerOption,
  baseUrl: baseUrlOption
}

const fail = (where: string, reason: string) => Effect.fail(new CliError({ where, reason }))

/**
 * The flag that gave a field of the exchange request, by the path of an issue of `ExchangeRequest.issues`
 * (`amount`, `from.account_id`, `request_id`, ...); `amountFlag` is `--sell` or `--buy`.
 *
 * @since 0.2.0
 * @category checks
 */
export const flagOfField = (path: ReadonlyArray<PropertyKey>, amountFlag: string): string | undefined => {
  switch (path.map(String).join(".")) {
    case "amount":
    case "from.amount":
    case "to.amount":
      return amountFlag
    case "from.account_id":
      return "--from-account"
    case "to.account_id":
      return "--to-account"
    case "from.currency":
      return "--from-currency"
    case "to.currency":
      return "--to-currency"
    case "request_id":
      return "--request-id"
    case "reference":
      return "--reference"
    case "exchange_reason_code":
      return "--reason"
    default:
      return undefined
  }
}

/** stands for what the command does not know before the sandbox starts: the accounts, the request_id */
const placeholder = { account: "account", requestId: "00000000-0000-4000-8000-000000000000" } as const

/**
 * The exchange request checked as the client checks it before sending (`ExchangeRequest.encode`), before anything
 * starts: the first value it refuses, named by the flag that gave it (`--sell`, `--request-id`, `--from-account`...).
 * The accounts and the request_id that the command fills in itself are stood for by valid placeholders.
 *
 * @since 0.2.0
 * @category checks
 */
export const checkRequest = (
  request: ExchangeRequest.ExchangeRequest,
  amountFlag: string
): Effect.Effect<void, CliError> => {
  const wire = ExchangeRequest.encode(request)
  if (Result.isSuccess(wire)) return Effect.void
  const all = ExchangeRequest.issues(wire.failure)
  const first = all[0]
  if (first === undefined) return fail("the exchange request", oneLine(wire.failure.message))
  const more = all.length > 1 ? ` (and ${all.length - 1} more)` : ""
  const field = first.path.map(String).join(".")
  return fail(
    flagOfField(first.path, amountFlag) ?? `the exchange request: ${field || "(body)"}`,
    `${oneLine(first.message)}${more}`
  )
}

const length = (s: string) => [...s].length

/**
 * A transaction in one line: its id, its state and, when declined or failed, why. A state added to the API since
 * this version is shown as such, with what it means: the exchange exists, so its request_id is settled.
 *
 * @since 0.2.0
 * @category renderings
 */
export const describeTransaction = (tx: ExchangeTransaction.Lenient): string => {
  const state =
    tx.state === undefined
      ? "(no state)"
      : ExchangeState.isUnknown(tx.state)
        ? `unknown state ${JSON.stringify(tx.state.value)} (a state this version does not know: the exchange exists, its request_id is settled)`
        : tx.state
  return visible(
    `transaction ${tx.id ?? "(no id)"}: ${state}${tx.reason_code === undefined ? "" : ` (${tx.reason_code})`}`
  )
}

/**
 * The findings of an exchange read, one line each as `payment` prints its findings.
 *
 * @since 0.2.0
 * @category renderings
 */
export const findingLines = (findings: ReadonlyArray<BusinessClient.Finding>): ReadonlyArray<string> =>
  findings.map((f) => visible(`${f.severity}: ${f.path.map(String).join(".")}: ${f.message}`))

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("exchange", options, (o) =>
  Effect.gen(function* () {
    // every option is checked before the sandbox starts or a request is sent
    const baseUrl = yield* Effect.fromResult(Checks.optionalBaseUrl(o.baseUrl))
    const ledger = yield* Ledgers.check(o.ledger)
    const fromCurrency = yield* Effect.fromResult(Checks.exchangeableCurrency("--from-currency", o.fromCurrency))
    const toCurrency = yield* Effect.fromResult(Checks.exchangeableCurrency("--to-currency", o.toCurrency))
    if (fromCurrency === toCurrency) {
      return yield* fail(
        "--to-currency",
        `${toCurrency} is also the --from-currency; an exchange converts one currency into another`
      )
    }
    const side = yield* Option.match(o.sell, {
      onSome: (amount) =>
        Option.isSome(o.buy)
          ? fail("--sell and --buy", "give one of them: the amount is either sold or bought")
          : Effect.succeed({ tag: "Sell" as const, option: "--sell", amount, currency: fromCurrency }),
      onNone: () =>
        Option.match(o.buy, {
          onNone: () => fail("--sell or --buy", "give the amount to sell or to buy"),
          onSome: (amount) => Effect.succeed({ tag: "Buy" as const, option: "--buy", amount, currency: toCurrency })
        })
    })
    const amount = yield* Effect.fromResult(Checks.amount(side.option, side.amount, side.currency))
    if (Option.isSome(o.requestId)) {
      const n = length(o.requestId.value)
      if (n < 1 || n > ExchangeRequest.MAX_REQUEST_ID_LENGTH) {
        return yield* fail("--request-id", `has ${n} characters; 1 to ${ExchangeRequest.MAX_REQUEST_ID_LENGTH} allowed`)
      }
    }
    if (Option.isSome(o.reference) && length(o.reference.value) > ExchangeRequest.MAX_REFERENCE_LENGTH) {
      return yield* fail(
        "--reference",
        `has ${length(o.reference.value)} characters; at most ${ExchangeRequest.MAX_REFERENCE_LENGTH} allowed`
      )
    }
    const given = {
      ...(Option.isSome(o.reference) ? { reference: o.reference.value } : {}),
      ...(Option.isSome(o.reason) ? { exchange_reason_code: o.reason.value } : {})
    }
    yield* checkRequest(
      {
        _tag: side.tag,
        from: { account_id: Option.getOrElse(o.fromAccount, () => placeholder.account), currency: fromCurrency },
        to: { account_id: Option.getOrElse(o.toAccount, () => placeholder.account), currency: toCurrency },
        amount,
        request_id: Option.getOrElse(o.requestId, () => placeholder.requestId),
        ...given
      },
      side.option
    )
    return yield* Effect.gen(function* () {
      const seed = yield* embeddedSeed<{ accounts: ReadonlyArray<{ id: string; currency: string }> }>(baseUrl)
      const pick = (given: Option.Option<string>, currency: string, accountOption: string, currencyOption: string) =>
        Option.match(given, {
          onSome: Effect.succeed,
          onNone: () =>
            Option.match(seed, {
              onNone: () => fail(accountOption, "give the account id: with --base-url the accounts are not known"),
              onSome: ({ accounts }) => {
                const found = accounts.find((a) => a.currency === currency)
                return found === undefined
                  ? fail(
                      currencyOption,
                      `the sandbox has no ${currency} account (it has ${[...new Set(accounts.map((a) => a.currency))].join(", ")}); give ${accountOption}`
                    )
                  : Effect.succeed(found.id)
              }
            })
        })
      const from = {
        account_id: yield* pick(o.fromAccount, fromCurrency, "--from-account", "--from-currency"),
        currency: fromCurrency
      }
      const to = {
        account_id: yield* pick(o.toAccount, toCurrency, "--to-account", "--to-currency"),
        currency: toCurrency
      }
      const business = yield* BusinessClient.BusinessClient
      const { findings, transaction } = yield* business
        .exchange({
          _tag: side.tag,
          from,
          to,
          amount,
          ...(Option.isSome(o.requestId) ? { request_id: o.requestId.value } : {}),
          ...given
        })
        .pipe(Effect.mapError(apiFailure(baseUrl)))
      yield* Console.log([describeTransaction(transaction), ...findingLines(findings)].join("\n"))
    }).pipe(Effect.provide(Apis.business(baseUrl, Ledgers.layer(ledger))))
  })
).pipe(Command.withDescription("Exchange money between two accounts, exactly once (a sandbox without --base-url)"))
