/**
 * The in-memory state of one tenant and the operations on it: the seed, the exchanges (./exchanges.ts), the plan listing
 * (./plans.ts) and the field requirements. What never changes is encoded once, at start, with the Schemas of the
 * HttpApi endpoints that serve it (the payments, the exchange reasons, the fields of each corridor, each plan): a
 * request for it writes bytes that are ready.
 *
 * @internal
 */
import type { InternationalPayment } from "@payrules/open-banking"
import { PayFields } from "@payrules/transfers"
import { BusinessApi } from "@payrules/transport"
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { SandboxClock } from "./clock.js"
import * as Codecs from "./codecs.js"
import * as Exchanges from "./exchanges.js"
import type * as Payments from "./payments.js"
import * as Plans from "./plans.js"
import type * as Seed from "./seed.js"
import type { SeedData } from "./seed.js"

const business = (status: number, code: number, message: string) =>
  new BusinessApi.BusinessError({ status, code, message })

/**
 * A JSON answer made once: its text, `Content-Type` and `Content-Length` are ready, and the same answer is served to
 * every request (an answer is an immutable value; the Node server writes its text with the head in one write).
 *
 * @internal
 */
export const answerOf = (json: unknown): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(JSON.stringify(json), { contentType: "application/json" })

/** @internal */
export interface Store {
  readonly seed: SeedData
  readonly payments: ReadonlyMap<string, Payments.SeededPayment>
  /** the answer of GET /international-payments/{id} of each payment, encoded once */
  readonly paymentAnswers: ReadonlyMap<string, HttpServerResponse.HttpServerResponse>
  /** the answer of GET /exchange-reasons, encoded once */
  readonly exchangeReasonsAnswer: HttpServerResponse.HttpServerResponse
  readonly exchanges: Exchanges.Exchanges
  readonly plans: Plans.Plans
  /** the answer of POST /pay/fields for a receiver, encoded once per corridor */
  readonly payFields: (
    request: PayFields.FieldsRequest
  ) => Result.Result<HttpServerResponse.HttpServerResponse, BusinessApi.BusinessError>
}

/** @internal */
export const make = (
  seed: SeedData,
  options: Exchanges.ExchangeOptions,
  payments: ReadonlyArray<Payments.SeededPayment>,
  /** how the plan list signs its page tokens: the sandbox's key and the tenant the store belongs to */
  signing: { readonly key: Uint8Array; readonly tenant: string },
  clock: SandboxClock
): Effect.Effect<Store> =>
  Effect.gen(function* () {
    const accounts = new Map(seed.accounts.map((a) => [a.id, a]))
    const exchanges = yield* Exchanges.make(seed, options, clock)

    const encodePayment = Schema.encodeUnknownSync(Codecs.payment)
    const decodePayment = Schema.decodeUnknownSync(Codecs.payment)
    const paymentAnswers = new Map(
      payments.map((p) => [
        p.id,
        answerOf(encodePayment(decodePayment(p.body satisfies InternationalPayment.RevolutEncoded)))
      ])
    )
    const exchangeReasonsAnswer = answerOf(Schema.encodeUnknownSync(Codecs.exchangeReasons)(seed.exchangeReasons))
    const encodeFields = Schema.encodeUnknownSync(Codecs.fields)
    const decodeFields = Schema.decodeUnknownSync(PayFields.FieldsResponse)
    const fieldsBodies = new Map(
      seed.corridors.map((c) => [c.id, answerOf(encodeFields(decodeFields({ fields: c.fields })))])
    )
    const noFields = answerOf({ fields: [] })

    const counterparties = new Map(seed.counterparties.map((c) => [c.id, c]))
    const notFound = (message: string) => Result.fail(business(404, BusinessApi.ErrorCode.NotFound, message))
    const payFields: Store["payFields"] = (request) => {
      if (!accounts.has(request.account_id)) return notFound(`account ${request.account_id} does not exist`)
      const counterparty = counterparties.get(request.receiver.counterparty_id)
      if (counterparty === undefined) {
        return notFound(`counterparty ${request.receiver.counterparty_id} does not exist`)
      }
      const { account_id: accountId, card_id: cardId } = request.receiver
      let corridor: Seed.Corridor["id"]
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
          return Result.fail(
            business(
              400,
              BusinessApi.ErrorCode.InvalidRequest,
              `counterparty ${counterparty.id} has ${methods} payment methods: choose one with receiver.account_id or receiver.card_id`
            )
          )
        }
        corridor = counterparty.accounts[0]?.corridor ?? "CARD"
      }
      return Result.succeed(fieldsBodies.get(corridor) ?? noFields)
    }

    return {
      seed,
      payments: new Map(payments.map((p) => [p.id, p])),
      paymentAnswers,
      exchangeReasonsAnswer,
      exchanges,
      plans: Plans.make(seed.plans, signing),
      payFields
    }
  })
