/**
 * The sandbox's in-memory state and the operations on it. Every mutation goes through one `SynchronizedRef`, so
 * concurrent requests with the same request_id cannot both create a transaction.
 *
 * @internal
 */
import { ExchangeReason, ExchangeRequest, ExchangeState, type ExchangeTransaction } from "@payrules/exchange"
import { OffsetDateTime } from "@payrules/iso8601"
import { Currency, DecimalAmount } from "@payrules/money"
import type { SubscriptionPlan } from "@payrules/subscriptions"
import type { PayFields } from "@payrules/transfers"
import { BusinessApi } from "@payrules/transport"
import * as BigDecimal from "effect/BigDecimal"
import * as Clock from "effect/Clock"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as SynchronizedRef from "effect/SynchronizedRef"
import type * as Payments from "./payments.js"
import type * as Seed from "./seed.js"
import type { SeedData } from "./seed.js"

/** @internal */
export interface ExchangeOptions {
  /** what a repeated request_id with the same body answers: the original transaction (default), or 400 code 3020 */
  readonly duplicates: "return-original" | "error"
  /** exchange reasons are required from these amounts (per currency), for the holder's country */
  readonly reasonThresholds: Readonly<Record<string, string>>
  /** when an exchange with an account at another institution moves to pending, then completed (ms after creation) */
  readonly settlement: { readonly pendingAfterMs: number; readonly completedAfterMs: number }
}

/** @internal */
export const defaultExchangeOptions: ExchangeOptions = {
  duplicates: "return-original",
  reasonThresholds: { GBP: "10000", EUR: "12000", USD: "12500", CHF: "11000", INR: "1000000", JPY: "2000000" },
  settlement: { pendingAfterMs: 1_000, completedAfterMs: 3_000 }
}

interface TransactionRecord {
  readonly id: string
  readonly requestId: string
  readonly createdAtMs: number
  /** instant: completed at creation; settling: created, pending, completed over time; declined: final */
  readonly kind: "instant" | "settling" | "declined"
  readonly reasonCode?: string
}

/** What the ledger knows of one request_id. @internal */
export interface LedgerEntry {
  readonly requestId: string
  readonly fingerprint: string
  readonly received: number
  readonly transactions: number
  readonly transactionId: string | undefined
  readonly conflicts: number
}

interface State {
  readonly balances: ReadonlyMap<string, BigDecimal.BigDecimal>
  readonly transactions: ReadonlyMap<string, TransactionRecord>
  readonly ledger: ReadonlyMap<string, LedgerEntry>
  readonly nextId: number
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

/** @internal */
export interface Store {
  readonly seed: SeedData
  readonly payments: ReadonlyMap<string, Payments.SeededPayment>
  readonly exchange: (
    request: ExchangeRequest.ExchangeRequest
  ) => Effect.Effect<ExchangeTransaction.ExchangeTransaction, BusinessApi.BusinessError>
  readonly findTransactions: (
    requestId: string
  ) => Effect.Effect<ReadonlyArray<ExchangeTransaction.ExchangeTransaction>>
  readonly ledger: Effect.Effect<ReadonlyArray<LedgerEntry>>
  readonly balances: Effect.Effect<
    ReadonlyArray<{ readonly id: string; readonly currency: string; readonly balance: string }>
  >
  readonly payFields: (
    request: PayFields.FieldsRequest
  ) => Effect.Effect<PayFields.FieldsResponse, BusinessApi.BusinessError>
  readonly plans: (
    query: SubscriptionPlan.PlanListQuery
  ) => Effect.Effect<
    { readonly plans: ReadonlyArray<SubscriptionPlan.SubscriptionPlanEncoded>; readonly next: string | undefined },
    string
  >
}

const tokenOf = (offset: number, query: SubscriptionPlan.PlanListQuery) =>
  Buffer.from(
    JSON.stringify({
      o: offset,
      f: query.from === undefined ? null : query.from.epochMillis,
      t: query.to === undefined ? null : query.to.epochMillis
    })
  ).toString("base64url")

const readToken = (token: string): { o: number; f: number | null; t: number | null } | undefined => {
  try {
    const u: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"))
    if (typeof u !== "object" || u === null) return undefined
    const { o, f, t } = u as Record<string, unknown>
    const ok =
      Number.isSafeInteger(o) &&
      (o as number) >= 0 &&
      (f === null || typeof f === "number") &&
      (t === null || typeof t === "number")
    return ok ? { o: o as number, f: f as number | null, t: t as number | null } : undefined
  } catch {
    return undefined
  }
}

/** @internal */
export const make = (
  seed: SeedData,
  options: ExchangeOptions,
  payments: ReadonlyArray<Payments.SeededPayment>
): Effect.Effect<Store> =>
  Effect.gen(function* () {
    // the settlement path of an exchange with another institution, checked against the shared state table
    const settling: ReadonlyArray<ExchangeState.State> = ["created", "pending", "completed"]
    if (Either.isLeft(ExchangeState.checkHistory(settling))) {
      return yield* Effect.dieMessage("the sandbox's settlement path breaks the exchange state table")
    }
    const accounts = new Map(seed.accounts.map((a) => [a.id, a]))
    const policy = ExchangeReason.make(
      Object.entries(options.reasonThresholds).map(([currency, threshold]) => ({
        country: seed.holderCountry as ExchangeReason.CountryCode,
        currency: currency as Currency.CurrencyCode,
        threshold: BigDecimal.unsafeFromString(threshold)
      }))
    )
    const state = yield* SynchronizedRef.make<State>({
      balances: new Map(seed.accounts.map((a) => [a.id, BigDecimal.unsafeFromString(a.balance)])),
      transactions: new Map(),
      ledger: new Map(),
      nextId: 1
    })

    const view = (tx: TransactionRecord, now: number): ExchangeTransaction.ExchangeTransaction => {
      const created = DateTime.unsafeMakeZoned(tx.createdAtMs, { timeZone: 0 })
      const base = { id: tx.id, type: "exchange", created_at: created }
      if (tx.kind === "declined") return { ...base, state: "declined", reason_code: tx.reasonCode ?? "declined" }
      if (tx.kind === "instant") return { ...base, state: "completed", completed_at: created }
      const { pendingAfterMs, completedAfterMs } = options.settlement
      const age = now - tx.createdAtMs
      const stateNow = settling[age >= completedAfterMs ? 2 : age >= pendingAfterMs ? 1 : 0]!
      return stateNow === "completed"
        ? {
            ...base,
            state: stateNow,
            completed_at: DateTime.unsafeMakeZoned(tx.createdAtMs + completedAfterMs, { timeZone: 0 })
          }
        : { ...base, state: stateNow }
    }

    type Outcome = readonly [Either.Either<ExchangeTransaction.ExchangeTransaction, BusinessApi.BusinessError>, State]

    /** One exchange against the state, purely: the answer and the next state (refusals are recorded too). */
    const process = (s: State, request: ExchangeRequest.ExchangeRequest, now: number): Outcome => {
      const fingerprint = ExchangeRequest.fingerprint(request)
      const previous = s.ledger.get(request.request_id)
      if (previous !== undefined) {
        const conflict = previous.fingerprint !== fingerprint
        const ledger = new Map(s.ledger).set(request.request_id, {
          ...previous,
          received: previous.received + 1,
          conflicts: previous.conflicts + (conflict ? 1 : 0)
        })
        const next = { ...s, ledger }
        if (conflict) {
          return [
            Either.left(
              business(
                400,
                BusinessApi.ErrorCode.RequestIdConflict,
                `request_id ${request.request_id} was already used for a different exchange`
              )
            ),
            next
          ]
        }
        const original = previous.transactionId === undefined ? undefined : s.transactions.get(previous.transactionId)
        return options.duplicates === "error" || original === undefined
          ? [Either.left(business(400, BusinessApi.ErrorCode.DuplicateRequest, "Duplicate request")), next]
          : [Either.right(view(original, now)), next]
      }
      const record = (transactionId: string | undefined): ReadonlyMap<string, LedgerEntry> =>
        new Map(s.ledger).set(request.request_id, {
          requestId: request.request_id,
          fingerprint,
          received: 1,
          transactions: transactionId === undefined ? 0 : 1,
          transactionId,
          conflicts: 0
        })
      const refuse = (code: number, message: string): Outcome => [
        Either.left(business(400, code, message)),
        { ...s, ledger: record(undefined) }
      ]
      const from = accounts.get(request.from.account_id)
      const to = accounts.get(request.to.account_id)
      if (from === undefined || to === undefined) {
        const side = from === undefined ? "from" : "to"
        return refuse(
          BusinessApi.ErrorCode.InvalidRequest,
          `${side}.account_id ${request[side].account_id} is not an account of this business`
        )
      }
      for (const [side, account] of [
        ["from", from],
        ["to", to]
      ] as const) {
        if (account.currency !== request[side].currency) {
          return refuse(
            BusinessApi.ErrorCode.InvalidRequest,
            `${side}.currency is ${request[side].currency} but account ${account.id} holds ${account.currency}`
          )
        }
      }
      const reason = ExchangeReason.check(policy, request, {
        country: seed.holderCountry,
        reasons: seed.exchangeReasons
      })
      if (Either.isLeft(reason)) {
        return refuse(
          reason.left.reason === "Required"
            ? BusinessApi.ErrorCode.ExchangeReasonRequired
            : BusinessApi.ErrorCode.UnknownExchangeReason,
          reason.left.message
        )
      }
      const rateFrom = BigDecimal.unsafeFromString(seed.ratesPerGbp[from.currency] ?? "1")
      const rateTo = BigDecimal.unsafeFromString(seed.ratesPerGbp[to.currency] ?? "1")
      const exponentOf = (c: string) => Option.getOrElse(Currency.exponent(c), () => 2)
      const fromAmount =
        request._tag === "Sell" ? request.amount : convert(request.amount, rateFrom, rateTo, exponentOf(from.currency))
      const toAmount =
        request._tag === "Buy" ? request.amount : convert(request.amount, rateTo, rateFrom, exponentOf(to.currency))
      const id = `tx_${String(s.nextId).padStart(8, "0")}`
      const balance = s.balances.get(from.id)!
      const declined = BigDecimal.lessThan(balance, fromAmount)
      const tx: TransactionRecord = declined
        ? { id, requestId: request.request_id, createdAtMs: now, kind: "declined", reasonCode: "insufficient_balance" }
        : {
            id,
            requestId: request.request_id,
            createdAtMs: now,
            kind: from.institution === "same" && to.institution === "same" ? "instant" : "settling"
          }
      const balances = declined
        ? s.balances
        : new Map(s.balances)
            .set(from.id, BigDecimal.subtract(balance, fromAmount))
            .set(to.id, BigDecimal.sum(s.balances.get(to.id)!, toAmount))
      return [
        Either.right(view(tx, now)),
        { balances, transactions: new Map(s.transactions).set(id, tx), ledger: record(id), nextId: s.nextId + 1 }
      ]
    }

    const exchange: Store["exchange"] = (request) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.flatten(SynchronizedRef.modify(state, (s) => process(s, request, now)))
      )

    const findTransactions: Store["findTransactions"] = (requestId) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.map(SynchronizedRef.get(state), (s) => {
          const entry = s.ledger.get(requestId)
          const tx = entry?.transactionId === undefined ? undefined : s.transactions.get(entry.transactionId)
          return tx === undefined ? [] : [view(tx, now)]
        })
      )

    const plans: Store["plans"] = (query) =>
      Effect.suspend(() => {
        const limit = query.limit ?? 100
        if (limit > 500) return Effect.fail(`limit is at most 500; got ${limit}`)
        let offset = 0
        if (query.page_token !== undefined) {
          const token = readToken(query.page_token)
          if (token === undefined) return Effect.fail("page_token is not a token this API issued")
          const same = token.f === (query.from?.epochMillis ?? null) && token.t === (query.to?.epochMillis ?? null)
          if (!same) {
            return Effect.fail(
              "page_token was issued for other filters: repeat the from and to of the first request with every page_token"
            )
          }
          offset = token.o
        }
        const fromMs = query.from?.epochMillis ?? Number.NEGATIVE_INFINITY
        const toMs = query.to?.epochMillis ?? Number.POSITIVE_INFINITY
        const matching = seed.plans.filter((p) => {
          const created = Either.getOrThrow(OffsetDateTime.parse(p.created_at)).epochMillis
          return created >= fromMs && created <= toMs
        })
        const page = matching.slice(offset, offset + limit)
        const nextOffset = offset + page.length
        return Effect.succeed({
          plans: page,
          next: nextOffset < matching.length ? tokenOf(nextOffset, query) : undefined
        })
      })

    const corridors = new Map(seed.corridors.map((c) => [c.id, c]))
    const counterparties = new Map(seed.counterparties.map((c) => [c.id, c]))
    const notFound = (message: string) => Effect.fail(business(404, BusinessApi.ErrorCode.NotFound, message))
    const payFields: Store["payFields"] = (request) =>
      Effect.suspend(() => {
        if (!accounts.has(request.account_id)) return notFound(`account ${request.account_id} does not exist`)
        const counterparty = counterparties.get(request.receiver.counterparty_id)
        if (counterparty === undefined) {
          return notFound(`counterparty ${request.receiver.counterparty_id} does not exist`)
        }
        const { account_id: accountId, card_id: cardId } = request.receiver
        let corridor: string
        if (accountId !== undefined) {
          const account = counterparty.accounts.find((a) => a.id === accountId)
          if (account === undefined) return notFound(`counterparty ${counterparty.id} has no account ${accountId}`)
          corridor = account.corridor
        } else if (cardId !== undefined) {
          if (!counterparty.cards.some((c) => c.id === cardId)) {
            return notFound(`counterparty ${counterparty.id} has no card ${cardId}`)
          }
          corridor = "CARD"
        } else {
          const methods = counterparty.accounts.length + counterparty.cards.length
          if (methods !== 1) {
            return Effect.fail(
              business(
                400,
                BusinessApi.ErrorCode.InvalidRequest,
                `counterparty ${counterparty.id} has ${methods} payment methods: choose one with receiver.account_id or receiver.card_id`
              )
            )
          }
          corridor = counterparty.accounts[0]?.corridor ?? "CARD"
        }
        return Effect.succeed({ fields: corridors.get(corridor as Seed.Corridor["id"])?.fields ?? [] })
      })

    return {
      seed,
      payFields,
      payments: new Map(payments.map((p) => [p.id, p])),
      exchange,
      findTransactions,
      plans,
      ledger: Effect.map(SynchronizedRef.get(state), (s) => [...s.ledger.values()]),
      balances: Effect.map(SynchronizedRef.get(state), (s) =>
        seed.accounts.map((a) => ({
          id: a.id,
          currency: a.currency,
          balance: DecimalAmount.toFixedString(s.balances.get(a.id)!)
        }))
      )
    }
  })
