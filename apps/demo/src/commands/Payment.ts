/**
 * `payrules payment`: read an international payment and check it.
 *
 * @since 0.1.0
 */
import { Money } from "@payrules/money"
import { InternationalPaymentCheck } from "@payrules/open-banking"
import { OpenBankingClient } from "@payrules/transport"
import * as Console from "effect/Console"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Apis, apiFailure, baseUrlOption, embeddedSeed } from "../Apis.js"
import * as Checks from "../Checks.js"
import { CliError } from "../CliError.js"
import * as Flags from "../Flags.js"
import { visible } from "../Text.js"

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "payment",
  {
    id: Argument.String("id").pipe(
      Argument.withDescription("the InternationalPaymentId (default: the sandbox's first)"),
      Argument.optional
    ),
    financialId: Flags.withDefault(
      "financial-id",
      "id",
      "001580000103UAvAAM",
      "x-fapi-financial-id: the institution the request is issued to"
    ),
    debtorCurrency: Flags.optional(
      "debtor-currency",
      "code",
      "ISO 4217 code of the debtor account's currency, for the currency checks"
    ),
    baseUrl: baseUrlOption
  },
  (o) =>
    Effect.gen(function* () {
      const baseUrl = yield* Effect.fromResult(Checks.optionalBaseUrl(o.baseUrl))
      const debtorCurrency = yield* Option.match(o.debtorCurrency, {
        onNone: () => Effect.succeed(Option.none<string>()),
        onSome: (c) => Effect.map(Effect.fromResult(Checks.currency("--debtor-currency", c)), Option.some)
      })
      if (o.financialId.trim() === "") {
        return yield* new CliError({ where: "--financial-id", reason: "must not be empty" })
      }
      return yield* Effect.gen(function* () {
        const seed = yield* embeddedSeed<{ payments: ReadonlyArray<{ id: string }> }>(baseUrl)
        const id = yield* Option.match(o.id, {
          onSome: Effect.succeed,
          onNone: () =>
            Option.match(seed, {
              onNone: () => Effect.fail(new CliError({ where: "<id>", reason: "give the id of the payment to read" })),
              onSome: (s) => Effect.succeed(s.payments[0]!.id)
            })
        })
        const client = yield* OpenBankingClient.OpenBankingClient
        const { interactionId, payment: p } = yield* client
          .getInternationalPayment(id)
          .pipe(
            Effect.mapError((e) =>
              apiFailure(baseUrl, e.status === 400 || e.status === 404 ? `payment ${id}` : undefined)(e)
            )
          )
        const i = p.Data.Initiation
        // a status added to the API since is read as { _tag: "Unknown", value } (an UnknownValue finding below)
        const status = typeof p.Data.Status === "string" ? p.Data.Status : `${p.Data.Status.value} (unknown status)`
        yield* Console.log(
          visible(`${p.Data.InternationalPaymentId}: ${status} (x-fapi-interaction-id ${interactionId})`)
        )
        yield* Console.log(
          visible(
            `${Money.format(i.InstructedAmount.Amount, i.InstructedAmount.Currency)} to ${i.CreditorAccount.Name}`
          )
        )
        const findings = InternationalPaymentCheck.check(p, {
          profile: "revolut",
          ...(Option.isSome(debtorCurrency) ? { debtorAccountCurrency: debtorCurrency.value } : {})
        })
        for (const f of findings) yield* Console.log(visible(`${f.severity}: ${f.path.join(".")}: ${f.message}`))
        if (findings.length === 0) yield* Console.log("no findings")
        const errors = findings.filter((f) => f.severity === "error").length
        if (errors > 0) {
          return yield* new CliError({
            where: `payment ${p.Data.InternationalPaymentId}`,
            reason: `${errors} error(s) found by the checks${Option.match(debtorCurrency, {
              onNone: () => "",
              onSome: (c) => ` with --debtor-currency ${c}`
            })}`
          })
        }
      }).pipe(Effect.provide(Apis.openBanking(baseUrl, o.financialId)))
    })
).pipe(
  Command.withDescription(
    "Read an international payment and check it; exits 1 when a check finds an error (a sandbox without --base-url)"
  )
)
