/**
 * POST /exchange in the sandbox, idempotent as D10 says, over the exchange package's `RequestLedger`:
 *
 * - refused before execution (stored nothing, the request_id stays free): an unknown account, a currency that is not
 *   the account's, an exchange reason that is required and missing (3448) or not in GET /exchange-reasons (3449), an
 *   amount that is 0 in the other currency at the sandbox's rates (3000); and,
 *   before this module, a body that does not decode (3000), a missing token (401), a full rate window (429), an
 *   injected `fail-before` or `rate-limit` fault;
 * - executed (the first answer stored for the retention window and replayed to identical repeats with
 *   `Idempotent-Replayed: true`): the transaction, completed, settling or declined for insufficient balance, and an
 *   injected `fail-during` fault (500, no transaction);
 * - another body under a stored request_id: 400 code 3021, the stored answer unchanged.
 *
 * Every request costs the same whatever the ledger holds: state is kept in maps updated in place, and entries that
 * passed the retention window are dropped a few at a time as new requests arrive (all at once when the sandbox's clock
 * is moved forward). The time of a request is the sandbox's (`now`, read once by the middleware), given to each
 * operation.
 *
 * @internal
 */
import {
  ExchangeReason,
  type ExchangeRequest,
  ExchangeState,
  type ExchangeTransaction,
  RequestLedger
} from "@payrules/exchange"
import { Currency, DecimalAmount } from "@payrules/money"
import { BusinessApi } from "@payrules/transport"
import * as BigDecimal from "effect/BigDecimal"
import * as Clock from "effect/Clock"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Semaphore from "effect/Semaphore"
import type { SandboxClock } from "./clock.js"
import * as Random from "./random.js"
import type { Account, SeedData } from "./seed.js"

/** @internal */
export interface ExchangeOptions {
  /**
   * what an identical repeat of an executed request_id answers: its stored answer, marked as a replay (default), or
   * 400 code 3020 "Duplicate request" (as an API that does not replay)
   */
  readonly duplicates: "replay" | "error"
  /** exchange reasons are required from these amounts (per currency), for the holder's country */
  readonly reasonThresholds: Readonly<Record<string, string>>
  /** when an exchange with an account at another institution moves to pending, then completed (ms after creation) */
  readonly settlement: { readonly pendingAfterMs: number; readonly completedAfterMs: number }
  /** how long a request_id, its stored answer and its transaction are kept (default 24 hours) */
  readonly retentionMs: number
}

/** @internal */
export const defaultExchangeOptions: ExchangeOptions = {
  duplicates: "replay",
  reasonThresholds: { GBP: "10000", EUR: "12000", USD: "12500", CHF: "11000", INR: "1000000", JPY: "2000000" },
  settlement: { pendingAfterMs: 1_000, completedAfterMs: 3_000 },
  retentionMs: 86_400_000
}

interface TransactionRecord {
  readonly id: string
  readonly requestId: string
  readonly createdAtMs: number
  /** instant: completed at creation; settling: created, pending, completed over time; declined: final */
  readonly kind: "instant" | "settling" | "declined"
  readonly reasonCode?: string
}

/** an exchange that passed the checks: its accounts and what leaves and reaches each, both above 0 */
interface Checked {
  readonly from: Account
  readonly to: Account
  readonly fromAmount: BigDecimal.BigDecimal
  readonly toAmount: BigDecimal.BigDecimal
}

/** a transaction of the ledger in a state the sandbox knows (the ledger stores transactions as read, leniently) */
const isOwn = (tx: ExchangeTransaction.Lenient): tx is ExchangeTransaction.ExchangeTransaction =>
  tx.state === undefined || ExchangeState.isKnown(tx.state)

/** The answer to one POST /exchange. @internal */
export interface Answer {
  readonly result: Result.Result<ExchangeTransaction.ExchangeTransaction, BusinessApi.BusinessError>
  /** the stored answer of an earlier identical request */
  readonly replayed: boolean
}

/** A request_id as GET /__sandbox/ledger shows it. @internal */
export interface LedgerView {
  readonly requestId: string
  readonly received: number
  readonly transactions: number
  readonly conflicts: number
  readonly transactionId: string | undefined
}

/** @internal */
export interface Exchanges {
  readonly exchange: (
    request: ExchangeRequest.ExchangeRequest,
    options: { readonly failExecution: boolean; readonly now: number }
  ) => Effect.Effect<Answer>
  readonly find: (requestId: string, now: number) => ReadonlyArray<ExchangeTransaction.ExchangeTransaction>
  /** the live request_ids */
  readonly ledger: Effect.Effect<ReadonlyArray<LedgerView>>
  readonly balances: Effect.Effect<
    ReadonlyArray<{ readonly id: string; readonly currency: string; readonly balance: string }>
  >
  /** drops every request_id and transaction past the retention window at `now` */
  readonly prune: (now: number) => Effect.Effect<void>
  /** how many live request_ids, and how many transactions are held (those past the window until pruned) */
  readonly sizes: Effect.Effect<{ readonly requestIds: number; readonly transactions: number }>
}

const business = (status: number, code: number, message: string) =>
  new BusinessApi.BusinessError({ status, code, message })

/** amount x num / den, rounded half-even to `exponent` decimals, in exact integer arithmetic. @internal */
export const convert = (
  amount: BigDecimal.BigDecimal,
  num: BigDecimal.BigDecimal,
  den: BigDecimal.BigDecimal,
  exponent: number
): BigDecimal.BigDecimal => {
  let numerator = amount.value * num.value
  let denominator = den.value
  const shift = den.scale + exponent - amount.scale - num.scale
  if (shift >= 0) numerator *= 10n ** BigInt(shift)
  else denominator *= 10n ** BigInt(-shift)
  let q = numerator / denominator
  const r = numerator % denominator
  const twice = 2n * (r < 0n ? -r : r)
  const d = denominator < 0n ? -denominator : denominator
  if (twice > d || (twice === d && q % 2n !== 0n)) q += numerator < 0n !== denominator < 0n ? -1n : 1n
  return BigDecimal.make(q, exponent)
}

/** the zone of the instants the sandbox writes (made once) */
const utc = DateTime.zoneMakeOffset(0)

/** transactions dropped per request once past the retention window */
const SWEEP = 8

/** the caller's clock moved `offset` ms forward (its monotonic time and its sleeps unchanged). @internal */
export const shifted = (base: Clock.Clock, offset: number): Clock.Clock => {
  const nanos = BigInt(offset) * 1_000_000n
  return {
    currentTimeMillisUnsafe: () => base.currentTimeMillisUnsafe() + offset,
    currentTimeMillis: Effect.map(base.currentTimeMillis, (ms) => ms + offset),
    currentTimeNanosUnsafe: () => base.currentTimeNanosUnsafe() + nanos,
    currentTimeNanos: Effect.map(base.currentTimeNanos, (ns) => ns + nanos),
    monotonicTimeNanosUnsafe: () => base.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: base.monotonicTimeNanos,
    sleep: (duration) => base.sleep(duration)
  }
}

/** @internal */
export const make = (seed: SeedData, options: ExchangeOptions, clock: SandboxClock): Effect.Effect<Exchanges> =>
  Effect.gen(function* () {
    /**
     * Runs `self` on the sandbox's time: the exchange package's ledger reads its time from `Clock`, and the sandbox's
     * time is the caller's moved forward by the control plane (nothing to change until it moved).
     */
    const at = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.suspend(() => {
        const offset = clock.offset()
        return offset === 0
          ? self
          : Clock.clockWith((base) => Effect.provideService(self, Clock.Clock, shifted(base, offset)))
      })

    // the settlement path of an exchange with another institution, checked against the shared state table
    const settling: ReadonlyArray<ExchangeState.State> = ["created", "pending", "completed"]
    if (Result.isFailure(ExchangeState.checkHistory(settling))) {
      return yield* Effect.die(new Error("the sandbox's settlement path breaks the exchange state table"))
    }
    const accounts = new Map(seed.accounts.map((a) => [a.id, a]))
    const policy = ExchangeReason.make(
      Object.entries(options.reasonThresholds).map(([currency, threshold]) => ({
        country: seed.holderCountry as ExchangeReason.CountryCode,
        currency: currency as Currency.CurrencyCode,
        threshold: BigDecimal.fromStringUnsafe(threshold)
      }))
    )
    const rates = new Map(Object.entries(seed.ratesPerGbp).map(([c, r]) => [c, BigDecimal.fromStringUnsafe(r)]))
    const one = BigDecimal.fromStringUnsafe("1")
    const ledger = yield* RequestLedger.make({ window: options.retentionMs })
    const balances = new Map(seed.accounts.map((a) => [a.id, BigDecimal.fromStringUnsafe(a.balance)]))
    // by request_id, in the order of creation (the order they leave the retention window in)
    const transactions = new Map<string, Array<TransactionRecord>>()
    let created = 0
    const transactionId = Random.keyedUuidWith("transaction", seed.seed)
    const lock = yield* Semaphore.make(1)

    const view = (tx: TransactionRecord, now: number): ExchangeTransaction.ExchangeTransaction => {
      const at = DateTime.makeZonedUnsafe(tx.createdAtMs, { timeZone: utc })
      const base = { id: tx.id, type: "exchange", created_at: at }
      if (tx.kind === "declined") return { ...base, state: "declined", reason_code: tx.reasonCode ?? "declined" }
      if (tx.kind === "instant") return { ...base, state: "completed", completed_at: at }
      const { completedAfterMs, pendingAfterMs } = options.settlement
      const age = now - tx.createdAtMs
      const state = settling[age >= completedAfterMs ? 2 : age >= pendingAfterMs ? 1 : 0]!
      return state === "completed"
        ? {
            ...base,
            state,
            completed_at: DateTime.makeZonedUnsafe(tx.createdAtMs + completedAfterMs, { timeZone: utc })
          }
        : { ...base, state }
    }

    const sweep = (now: number, most: number) => {
      let dropped = 0
      for (const [requestId, records] of transactions) {
        if (dropped >= most || records[0]!.createdAtMs + options.retentionMs > now) break
        transactions.delete(requestId)
        dropped++
      }
    }

    /** the checks before execution: a refusal here stores nothing */
    const validate = (request: ExchangeRequest.ExchangeRequest): Result.Result<Checked, BusinessApi.BusinessError> => {
      const from = accounts.get(request.from.account_id)
      const to = accounts.get(request.to.account_id)
      if (from === undefined || to === undefined) {
        const side = from === undefined ? "from" : "to"
        return Result.fail(
          business(
            400,
            BusinessApi.ErrorCode.InvalidRequest,
            `${side}.account_id ${request[side].account_id} is not an account of this business`
          )
        )
      }
      for (const [side, account] of [
        ["from", from],
        ["to", to]
      ] as const) {
        if (account.currency !== request[side].currency) {
          return Result.fail(
            business(
              400,
              BusinessApi.ErrorCode.InvalidRequest,
              `${side}.currency is ${request[side].currency} but account ${account.id} holds ${account.currency}`
            )
          )
        }
      }
      const reason = ExchangeReason.check(policy, request, {
        country: seed.holderCountry,
        reasons: seed.exchangeReasons
      })
      if (Result.isFailure(reason)) {
        return Result.fail(
          business(
            400,
            reason.failure.reason === "Required"
              ? BusinessApi.ErrorCode.ExchangeReasonRequired
              : BusinessApi.ErrorCode.UnknownExchangeReason,
            reason.failure.message
          )
        )
      }
      // the other side's amount at the sandbox's rates, in its currency's minor units: it must not round to 0
      const exponentOf = (c: string) => Option.getOrElse(Currency.exponent(c), () => 2)
      const rateFrom = rates.get(from.currency) ?? one
      const rateTo = rates.get(to.currency) ?? one
      const fromAmount =
        request._tag === "Sell" ? request.amount : convert(request.amount, rateFrom, rateTo, exponentOf(from.currency))
      const toAmount =
        request._tag === "Buy" ? request.amount : convert(request.amount, rateTo, rateFrom, exponentOf(to.currency))
      const zero = BigDecimal.isZero(fromAmount) ? "from" : BigDecimal.isZero(toAmount) ? "to" : undefined
      if (zero !== undefined) {
        const given = zero === "from" ? "to" : "from"
        return Result.fail(
          business(
            400,
            BusinessApi.ErrorCode.InvalidRequest,
            `${given}.amount ${DecimalAmount.toFixedString(request.amount)} ${request[given].currency} is 0 ${request[zero].currency} at the sandbox's rate (rounded to the currency's minor unit): too small to exchange`
          )
        )
      }
      return Result.succeed({ from, to, fromAmount, toAmount })
    }

    /** the execution: moves the money (or declines), once */
    const execute = (
      request: ExchangeRequest.ExchangeRequest,
      { from, fromAmount, to, toAmount }: Checked,
      now: number
    ): ExchangeTransaction.ExchangeTransaction => {
      // a UUID, as the official document types the transaction id; from the seed and the sequence number
      const id = transactionId(++created)
      const balance = balances.get(from.id)!
      const declined = BigDecimal.isLessThan(balance, fromAmount)
      const tx: TransactionRecord = declined
        ? { id, requestId: request.request_id, createdAtMs: now, kind: "declined", reasonCode: "insufficient_balance" }
        : {
            id,
            requestId: request.request_id,
            createdAtMs: now,
            kind: from.institution === "same" && to.institution === "same" ? "instant" : "settling"
          }
      // the answer before anything moves: a transaction that cannot be written (an instant out of range throws) moves
      // no money, so the request_id, left without an answer, finds the balances as they were when it is tried again
      const written = view(tx, now)
      if (!declined) {
        balances.set(from.id, BigDecimal.subtract(balance, fromAmount))
        balances.set(to.id, BigDecimal.sum(balances.get(to.id)!, toAmount))
      }
      // a request_id executes again only once its ledger entry left the window, and its old transactions with it: they
      // wait only for the sweep, which reads the ids in the order of creation, so the id goes last with its new one
      transactions.delete(request.request_id)
      transactions.set(request.request_id, [tx])
      return written
    }

    const replay = (outcome: RequestLedger.Outcome): Answer => {
      switch (outcome._tag) {
        case "Succeeded":
          // the ledger holds only the transactions the sandbox made, always in a state it knows
          return isOwn(outcome.transaction)
            ? { result: Result.succeed(outcome.transaction), replayed: true }
            : {
                result: Result.fail(
                  business(500, BusinessApi.ErrorCode.InternalError, "the stored transaction is in an unknown state")
                ),
                replayed: true
              }
        case "Rejected":
          return {
            result: Result.fail(
              business(outcome.status, outcome.code ?? BusinessApi.ErrorCode.InternalError, outcome.message)
            ),
            replayed: true
          }
        case "Unknown":
          // a server stores no unknown outcomes; if one were there, it says nothing: treat it as a failure
          return {
            result: Result.fail(business(500, BusinessApi.ErrorCode.InternalError, outcome.message)),
            replayed: true
          }
      }
    }

    const fresh = (result: Answer["result"]): Answer => ({ result, replayed: false })

    /** what a registered request gets: its stored answer, a conflict, a refusal by the checks, or its execution */
    const answer = (
      request: ExchangeRequest.ExchangeRequest,
      registration: RequestLedger.Registration,
      failExecution: boolean,
      now: number
    ): Effect.Effect<Answer, RequestLedger.RequestLedgerError> => {
      if (registration._tag === "Conflict") {
        return Effect.succeed(
          fresh(
            Result.fail(
              business(
                400,
                BusinessApi.ErrorCode.RequestIdConflict,
                `request_id ${request.request_id} was already used for a different exchange`
              )
            )
          )
        )
      }
      if (registration._tag === "Replay" && Option.isSome(registration.outcome)) {
        return Effect.succeed(
          options.duplicates === "error"
            ? fresh(Result.fail(business(400, BusinessApi.ErrorCode.DuplicateRequest, "Duplicate request")))
            : replay(registration.outcome.value)
        )
      }
      sweep(now, SWEEP)
      const checked = validate(request)
      if (Result.isFailure(checked)) {
        return Effect.as(ledger.release(request.request_id), fresh(Result.fail(checked.failure)))
      }
      if (failExecution) {
        const failed = RequestLedger.Outcome.Rejected({
          status: 500,
          code: BusinessApi.ErrorCode.InternalError,
          message: "the exchange failed during execution (injected fault); this request_id keeps that answer"
        })
        return Effect.as(
          ledger.complete(request.request_id, failed),
          fresh(Result.fail(business(failed.status, failed.code!, failed.message)))
        )
      }
      const transaction = execute(request, checked.success, now)
      return Effect.as(
        ledger.complete(request.request_id, RequestLedger.Outcome.Succeeded({ transaction })),
        fresh(Result.succeed(transaction))
      )
    }

    const exchange: Exchanges["exchange"] = (request, { failExecution, now }) =>
      Effect.flatMap(ledger.register(request), (registration) =>
        answer(request, registration, failExecution, now)
      ).pipe(
        // register, check, execute and store as one step: a repeat waits for the first answer, and an interrupted
        // request (a client that went away) cannot leave its request_id registered without an answer
        lock.withPermits(1),
        Effect.uninterruptible,
        Effect.catchTag("RequestLedgerError", (e) => Effect.die(e)),
        at
      )

    const find: Exchanges["find"] = (requestId, now) =>
      (transactions.get(requestId) ?? [])
        .filter((tx) => tx.createdAtMs + options.retentionMs > now)
        .map((tx) => view(tx, now))

    return {
      exchange,
      find,
      ledger: at(
        Effect.map(ledger.entries, (entries) =>
          entries.map((e) => {
            const records = transactions.get(e.requestId) ?? []
            return {
              requestId: e.requestId,
              received: e.received,
              transactions: records.length,
              conflicts: e.conflicts,
              transactionId: records[0]?.id
            }
          })
        )
      ),
      balances: Effect.sync(() =>
        seed.accounts.map((a) => ({
          id: a.id,
          currency: a.currency,
          balance: DecimalAmount.toFixedString(balances.get(a.id)!)
        }))
      ),
      prune: (now) => at(Effect.map(ledger.prune, () => sweep(now, Number.POSITIVE_INFINITY))),
      sizes: at(
        Effect.map(ledger.entries, (entries) => ({ requestIds: entries.length, transactions: transactions.size }))
      )
    }
  })
