/**
 * The sandbox's in-memory state and the operations on it: the seed, the exchanges (./exchanges.ts), the plan listing
 * and the field requirements.
 *
 * @internal
 */
import { OffsetDateTime } from "@payrules/iso8601"
import type { SubscriptionPlan } from "@payrules/subscriptions"
import type { PayFields } from "@payrules/transfers"
import { BusinessApi } from "@payrules/transport"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exchanges from "./exchanges.js"
import type * as Payments from "./payments.js"
import type * as Seed from "./seed.js"
import type { SeedData } from "./seed.js"

const business = (status: number, code: number, message: string) =>
  new BusinessApi.BusinessError({ status, code, message })

/** @internal */
export interface Store {
  readonly seed: SeedData
  readonly payments: ReadonlyMap<string, Payments.SeededPayment>
  readonly exchanges: Exchanges.Exchanges
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
  options: Exchanges.ExchangeOptions,
  payments: ReadonlyArray<Payments.SeededPayment>
): Effect.Effect<Store> =>
  Effect.gen(function* () {
    const accounts = new Map(seed.accounts.map((a) => [a.id, a]))
    const exchanges = yield* Exchanges.make(seed, options)

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
      exchanges,
      plans
    }
  })
