/**
 * `payrules resume`: settles the exchanges that a durable ledger holds in flight or unknown (those of a command that
 * was stopped before the answer, or that ended with an unknown outcome): each is looked up by request_id, and sent
 * again with the same request_id when the server has none.
 *
 * @since 0.1.0
 */
import { ExchangeState, type ExchangeTransaction } from "@payrules/exchange"
import * as LedgerUrl from "@payrules/stores/LedgerUrl"
import { BusinessClient } from "@payrules/transport"
import * as Console from "effect/Console"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import { Apis, apiFailure, baseUrlOption } from "../Apis.js"
import * as Checks from "../Checks.js"
import { CliError } from "../CliError.js"
import * as Ledgers from "../Ledgers.js"
import { visible } from "../Text.js"
import { findingLines } from "./Exchange.js"

const stateOf = (transaction: ExchangeTransaction.Lenient): string =>
  transaction.state === undefined
    ? "no state"
    : ExchangeState.isUnknown(transaction.state)
      ? `unknown state ${JSON.stringify(transaction.state.value)}: settled all the same`
      : transaction.state

const withFindings = (line: string, findings: ReadonlyArray<BusinessClient.Finding>): string =>
  [visible(line), ...findingLines(findings).map((f) => `  ${f}`)].join("\n")

const describeResult = (r: BusinessClient.Resumed): string =>
  BusinessClient.Resumed.$match(r, {
    Found: ({ findings, requestId, transaction }) =>
      withFindings(
        `${requestId}: found transaction ${transaction.id ?? "(no id)"} (${stateOf(transaction)})`,
        findings
      ),
    Sent: ({ findings, requestId, transaction }) =>
      withFindings(
        `${requestId}: sent again, transaction ${transaction.id ?? "(no id)"} (${stateOf(transaction)})`,
        findings
      ),
    Refused: ({ requestId, error }) => visible(`${requestId}: refused: ${error.message}`),
    Unknown: ({ requestId, message }) => visible(`${requestId}: still unknown: ${message}`)
  })

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("resume", { ledger: Ledgers.ledgerOption, baseUrl: baseUrlOption }, (o) =>
  Effect.gen(function* () {
    const baseUrl = yield* Effect.fromResult(Checks.optionalBaseUrl(o.baseUrl))
    const ledger = yield* Ledgers.check(o.ledger)
    return yield* Effect.gen(function* () {
      const business = yield* BusinessClient.BusinessClient
      const summary = yield* business.resumePending().pipe(Effect.mapError(apiFailure(baseUrl, "--ledger")))
      const where = LedgerUrl.format(ledger)
      if (summary.pending === 0) {
        yield* Console.log(`nothing pending in ${where}`)
        return
      }
      yield* Console.log(
        `${summary.pending} pending in ${where}: ${summary.found} found, ${summary.sent} sent again, ${summary.refused} refused, ${summary.unknown} still unknown`
      )
      for (const result of summary.results) yield* Console.log(describeResult(result))
      if (summary.unknown > 0) {
        return yield* Effect.fail(
          new CliError({ where: "resume", reason: `${summary.unknown} still unknown: run payrules resume again later` })
        )
      }
    }).pipe(Effect.provide(Apis.business(baseUrl, Ledgers.layer(ledger))))
  })
).pipe(
  Command.withDescription(
    "Settle the exchanges a durable --ledger holds in flight or unknown (a sandbox without --base-url)"
  )
)
