/**
 * The single operations: validate a payment body against /pay/fields rules, exchange, read a payment, serve the
 * sandbox.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as FileSystem from "@effect/platform/FileSystem"
import { SchemeLimits } from "@payrules/accounts"
import { Money } from "@payrules/money"
import { InternationalPaymentCheck } from "@payrules/open-banking"
import { Sandbox } from "@payrules/sandbox"
import { FieldValidator, PayFields } from "@payrules/transfers"
import { BusinessClient, OpenBankingClient } from "@payrules/transport"
import * as BigDecimal from "effect/BigDecimal"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Apis, baseUrlOption, embeddedSeed } from "../Apis.js"
import { DemoError, describeParseError } from "../DemoError.js"

const readJson = (file: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(file).pipe(
      Effect.mapError(
        (e) =>
          new DemoError({
            where: file,
            reason: e._tag === "SystemError" && e.reason === "NotFound" ? "no such file" : e.message
          })
      )
    )
    return yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (e) => new DemoError({ where: file, reason: `not JSON (${(e as Error).message})` })
    })
  })

const schemes = {
  FasterPayments: SchemeLimits.FasterPayments,
  OpenBanking: SchemeLimits.OpenBanking,
  Swift: SchemeLimits.Swift
}

export const validatePayment = Command.make(
  "validate-payment",
  {
    fields: Options.text("fields").pipe(Options.withDescription("the POST /pay/fields response (JSON file)")),
    body: Options.text("body").pipe(Options.withDescription("the payment body to check (JSON file)")),
    scheme: Options.choice("scheme", ["FasterPayments", "OpenBanking", "Swift"]).pipe(
      Options.repeated,
      Options.withDescription("scheme limits to apply as well (repeatable)")
    )
  },
  (o) =>
    Effect.gen(function* () {
      const response = yield* Either.match(
        Schema.decodeUnknownEither(PayFields.FieldsResponse)(yield* readJson(o.fields)),
        {
          onLeft: (e) => Effect.fail(new DemoError({ where: o.fields, reason: describeParseError(e) })),
          onRight: Effect.succeed
        }
      )
      const validator = FieldValidator.compile(response.fields, { schemes: o.scheme.map((s) => schemes[s]) })
      if (Either.isLeft(validator)) {
        return yield* new DemoError({ where: o.fields, reason: validator.left.map((e) => e.message).join("; ") })
      }
      const result = validator.right.validate(yield* readJson(o.body))
      if (Either.isRight(result)) return yield* Console.log(`${o.body}: valid`)
      for (const issue of result.left)
        yield* Console.log(`${issue.path.join(".") || "(body)"}: ${issue.rule}: ${issue.message}`)
      return yield* new DemoError({ where: o.body, reason: `${result.left.length} issue(s)` })
    })
).pipe(Command.withDescription("Check a payment body against the field rules of POST /pay/fields and scheme limits"))

export const exchange = Command.make(
  "exchange",
  {
    fromAccount: Options.text("from-account").pipe(Options.optional, Options.withDescription("account to sell from")),
    toAccount: Options.text("to-account").pipe(Options.optional, Options.withDescription("account to receive")),
    fromCurrency: Options.text("from-currency").pipe(Options.withDefault("GBP")),
    toCurrency: Options.text("to-currency").pipe(Options.withDefault("EUR")),
    sell: Options.text("sell").pipe(Options.optional, Options.withDescription("amount of from-currency to sell")),
    buy: Options.text("buy").pipe(Options.optional, Options.withDescription("amount of to-currency to buy")),
    requestId: Options.text("request-id").pipe(Options.optional, Options.withDescription("reuse it to resume a call")),
    reference: Options.text("reference").pipe(Options.optional),
    reason: Options.text("reason").pipe(Options.optional, Options.withDescription("exchange_reason_code")),
    baseUrl: baseUrlOption
  },
  (o) =>
    Effect.gen(function* () {
      const amountText = Option.isSome(o.sell) ? o.sell.value : Option.getOrUndefined(o.buy)
      if (amountText === undefined || (Option.isSome(o.sell) && Option.isSome(o.buy))) {
        return yield* new DemoError({ where: "--sell/--buy", reason: "give exactly one of them" })
      }
      const amount = yield* Option.match(BigDecimal.fromString(amountText), {
        onNone: () =>
          Effect.fail(new DemoError({ where: "--sell/--buy", reason: `${amountText} is not a decimal amount` })),
        onSome: Effect.succeed
      })
      const seed = yield* embeddedSeed<{ accounts: ReadonlyArray<{ id: string; currency: string }> }>()
      const accounts = Option.match(seed, { onNone: () => [], onSome: (s) => s.accounts })
      const pick = (given: Option.Option<string>, currency: string, what: string) =>
        Option.match(given, {
          onSome: Effect.succeed,
          onNone: () => {
            const found = accounts.find((a) => a.currency === currency)
            return found === undefined
              ? Effect.fail(new DemoError({ where: what, reason: `give the account id (${what})` }))
              : Effect.succeed(found.id)
          }
        })
      const from = {
        account_id: yield* pick(o.fromAccount, o.fromCurrency, "--from-account"),
        currency: o.fromCurrency as never
      }
      const to = { account_id: yield* pick(o.toAccount, o.toCurrency, "--to-account"), currency: o.toCurrency as never }
      const business = yield* BusinessClient.BusinessClient
      const tx = yield* business.exchange({
        _tag: Option.isSome(o.sell) ? "Sell" : "Buy",
        from,
        to,
        amount,
        ...(Option.isSome(o.requestId) ? { request_id: o.requestId.value } : {}),
        ...(Option.isSome(o.reference) ? { reference: o.reference.value } : {}),
        ...(Option.isSome(o.reason) ? { exchange_reason_code: o.reason.value } : {})
      })
      yield* Console.log(
        `transaction ${tx.id ?? "(no id)"}: ${tx.state ?? "(no state)"}${tx.reason_code === undefined ? "" : ` (${tx.reason_code})`}`
      )
    }).pipe(Effect.provide(Apis.business(o.baseUrl)))
).pipe(Command.withDescription("Exchange money between two accounts, exactly once (a sandbox without --base-url)"))

export const payment = Command.make(
  "payment",
  {
    id: Args.text({ name: "id" }).pipe(
      Args.optional,
      Args.withDescription("the InternationalPaymentId (default: the sandbox's first)")
    ),
    financialId: Options.text("financial-id").pipe(Options.withDefault("001580000103UAvAAM")),
    debtorCurrency: Options.text("debtor-currency").pipe(
      Options.optional,
      Options.withDescription("the debtor account's currency, for the checks")
    ),
    baseUrl: baseUrlOption
  },
  (o) =>
    Effect.gen(function* () {
      const seed = yield* embeddedSeed<{ payments: ReadonlyArray<{ id: string }> }>()
      const id = yield* Option.match(o.id, {
        onSome: Effect.succeed,
        onNone: () =>
          Option.match(seed, {
            onNone: () => Effect.fail(new DemoError({ where: "id", reason: "give the id of the payment to read" })),
            onSome: (s) => Effect.succeed(s.payments[0]!.id)
          })
      })
      const client = yield* OpenBankingClient.OpenBankingClient
      const { interactionId, payment: p } = yield* client.getInternationalPayment(id)
      const i = p.Data.Initiation
      yield* Console.log(`${p.Data.InternationalPaymentId}: ${p.Data.Status} (x-fapi-interaction-id ${interactionId})`)
      yield* Console.log(
        `${Money.format(i.InstructedAmount.Amount, i.InstructedAmount.Currency)} to ${i.CreditorAccount.Name}`
      )
      const findings = InternationalPaymentCheck.check(p, {
        profile: "revolut",
        ...(Option.isSome(o.debtorCurrency) ? { debtorAccountCurrency: o.debtorCurrency.value } : {})
      })
      for (const f of findings) yield* Console.log(`${f.severity}: ${f.path.join(".")}: ${f.message}`)
      if (findings.length === 0) yield* Console.log("no findings")
    }).pipe(Effect.provide(Apis.openBanking(o.baseUrl, o.financialId)))
).pipe(Command.withDescription("Read an international payment and check it (a sandbox without --base-url)"))

export const serve = Command.make(
  "serve",
  {
    port: Options.integer("port").pipe(Options.withDefault(4010)),
    seed: Options.integer("seed").pipe(Options.withDefault(1))
  },
  (o) =>
    Layer.launch(
      Layer.effectDiscard(
        Effect.flatMap(Sandbox.SandboxServer, (s) =>
          Console.log(`payrules sandbox on ${s.url} (docs ${s.urls.docs}); Ctrl-C to stop`)
        )
      ).pipe(Layer.provide(Sandbox.layer({ port: o.port, seed: o.seed })))
    )
).pipe(Command.withDescription("Serve the sandbox on its own (127.0.0.1)"))
