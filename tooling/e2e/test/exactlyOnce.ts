/**
 * The exactly-once scenario of the business client against a sandbox with faults: many exchanges, each driven until it
 * is settled, and the oracle that checks the server agrees.
 */
import { Fault } from "@payrules/sandbox"
import { BusinessClient } from "@payrules/transport"
import { BigDecimal, Effect, Either } from "effect"
import { control, type Seed } from "./layers.js"

/** What became of the exchanges of one run, and what the sandbox saw. */
export interface Summary {
  readonly exchanges: number
  /** exchanges that ended with their transaction */
  readonly transactions: number
  /** exchanges that ended with a definite refusal (a typed error that is not `ExchangeOutcomeUnknown`) */
  readonly refused: number
  /** `ExchangeOutcomeUnknown` answers, each resumed with the same request */
  readonly resumed: number
  /** requests the sandbox answered with each kind of fault */
  readonly faults: Readonly<Record<Fault.Kind, number>>
  /** exchange requests the sandbox received */
  readonly received: number
}

interface LedgerEntry {
  readonly request_id: string
  readonly received: number
  readonly transactions: number
  readonly transaction_id: string | null
}

type Ended =
  | { readonly _tag: "Transaction"; readonly id: string }
  | { readonly _tag: "Refused"; readonly code: unknown }

export const sell = (
  seed: Seed,
  amount: string,
  requestId: string,
  extra: Partial<BusinessClient.ExchangeInput> = {}
) =>
  ({
    _tag: "Sell",
    from: { account_id: seed.accounts[0]!.id, currency: seed.accounts[0]!.currency },
    to: { account_id: seed.accounts[1]!.id, currency: seed.accounts[1]!.currency },
    amount: BigDecimal.unsafeFromString(amount),
    request_id: requestId,
    ...extra
  }) as BusinessClient.ExchangeInput

/**
 * Sends `exchanges` exchanges of 1 GBP (ids `${prefix}-${i}`) with `concurrency` at a time; a call that ends with
 * `ExchangeOutcomeUnknown` is resumed with the same request until it ends with a transaction or a definite refusal.
 * Then checks the oracle against the sandbox: one transaction for each exchange that ended with one (the same id),
 * none for each refused one, none twice, and balances that moved exactly once per transaction.
 */
export const run = (options: {
  readonly exchanges: number
  readonly prefix: string
  readonly concurrency?: number
  /** the request of exchange i (default: sell 1 GBP) */
  readonly request?: (seed: Seed, requestId: string, i: number) => BusinessClient.ExchangeInput
}) =>
  Effect.gen(function* () {
    const client = yield* BusinessClient.BusinessClient
    const seed = yield* control<Seed>("/seed")
    const before = yield* control<ReadonlyArray<{ balance: string }>>("/accounts")
    const make = options.request ?? ((s: Seed, id: string) => sell(s, "1", id))
    let resumed = 0
    const settle = (i: number): Effect.Effect<readonly [string, Ended]> => {
      const requestId = `${options.prefix}-${i}`
      const request = make(seed, requestId, i)
      const once: Effect.Effect<Ended> = Effect.flatMap(Effect.either(client.exchange(request)), (result) => {
        if (Either.isRight(result)) return Effect.succeed({ _tag: "Transaction", id: result.right.id ?? "" } as const)
        const e = result.left
        if (e._tag === "ExchangeOutcomeUnknown") {
          resumed++
          if (resumed > options.exchanges * 20) return Effect.dieMessage(`${requestId} never settles`)
          return once
        }
        if (e._tag === "RequestIdConflict") return Effect.dieMessage(`${requestId}: ${e.message}`)
        return Effect.succeed({ _tag: "Refused", code: e.body?.code ?? e.status } as const)
      })
      return Effect.map(once, (ended) => [requestId, ended] as const)
    }
    const ended = new Map(
      yield* Effect.forEach(
        Array.from({ length: options.exchanges }, (_, i) => i),
        settle,
        { concurrency: options.concurrency ?? 32 }
      )
    )
    const transactions = [...ended.values()].filter((e) => e._tag === "Transaction").length

    // the oracle, on the server's side
    const ledger = (yield* control<ReadonlyArray<LedgerEntry>>("/ledger")).filter((e) =>
      e.request_id.startsWith(`${options.prefix}-`)
    )
    const byId = new Map(ledger.map((e) => [e.request_id, e]))
    const problems: Array<string> = []
    for (const [requestId, end] of ended) {
      const entry = byId.get(requestId)
      const created = entry?.transactions ?? 0
      if (end._tag === "Transaction" && (created !== 1 || entry?.transaction_id !== end.id)) {
        problems.push(`${requestId} ended with transaction ${end.id}, the server holds ${created}`)
      }
      if (end._tag === "Refused" && created !== 0) {
        problems.push(`${requestId} was refused (${String(end.code)}), the server holds ${created} transaction(s)`)
      }
    }
    const onServer = ledger.reduce((n, e) => n + e.transactions, 0)
    const after = yield* control<ReadonlyArray<{ balance: string }>>("/accounts")
    const moved = BigDecimal.subtract(
      BigDecimal.unsafeFromString(before[0]!.balance),
      BigDecimal.unsafeFromString(after[0]!.balance)
    )
    const requests = yield* control<ReadonlyArray<{ operation: string | null; fault: Fault.Kind | null }>>("/requests")
    const faults = Object.fromEntries(
      Fault.Kind.literals.map((kind) => [kind, requests.filter((r) => r.fault === kind).length])
    ) as Record<Fault.Kind, number>
    const summary: Summary = {
      exchanges: options.exchanges,
      transactions,
      refused: options.exchanges - transactions,
      resumed,
      faults,
      received: requests.filter((r) => r.operation === "exchange").length
    }
    return { summary, problems, onServer, moved: BigDecimal.format(moved), ended }
  })
