/**
 * The handlers of the sandbox's endpoints, over its store.
 *
 * @internal
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { BusinessApi, MerchantApi, OpenBankingApi } from "@payrules/transport"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { SandboxApi } from "../SandboxApi.js"
import type { SandboxClock } from "./clock.js"
import * as Errors from "./errors.js"
import type * as Exchanges from "./exchanges.js"
import * as Faults from "./faults.js"
import * as Payments from "./payments.js"
import { SandboxState } from "./state.js"

const merchantAuth = Layer.succeed(MerchantApi.MerchantAuthorization, {
  bearer: (token) =>
    Redacted.value(token).trim() === ""
      ? Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.fail(
            new MerchantApi.MerchantError({
              status: 401,
              code: "unauthorized",
              message: "Authorization: Bearer <token> is required",
              timestamp: now
            })
          )
        )
      : Effect.succeed(token)
})

const businessAuth = Layer.succeed(BusinessApi.BusinessAuthorization, {
  bearer: (token) =>
    Redacted.value(token).trim() === ""
      ? Effect.fail(
          new BusinessApi.BusinessError({
            status: 401,
            code: BusinessApi.ErrorCode.Unauthorized,
            message: "Authorization: Bearer <token> is required"
          })
        )
      : Effect.succeed(token)
})

const openBankingAuth = Layer.succeed(OpenBankingApi.OpenBankingAuthorization, {
  bearer: (token) =>
    Redacted.value(token).trim() === ""
      ? Effect.fail(
          new OpenBankingApi.OpenBankingError({
            status: 401,
            Code: "401 Unauthorized",
            Message: "Authorization: Bearer <token> is required",
            Errors: [
              { ErrorCode: "UK.OBIE.Header.Missing", Message: "Authorization is missing", Path: "Authorization" }
            ]
          })
        )
      : Effect.succeed(token)
})

const openBanking = HttpApiBuilder.group(SandboxApi, "payments", (handlers) =>
  handlers.handle("getInternationalPayment", ({ headers, path }) =>
    Effect.gen(function* () {
      const { store } = yield* SandboxState
      if (headers["x-fapi-financial-id"] !== Payments.financialId) {
        return yield* new OpenBankingApi.OpenBankingError({
          status: 403,
          Code: "403 Forbidden",
          Message: `this token may not access institution ${headers["x-fapi-financial-id"]}`,
          Errors: [
            {
              ErrorCode: "UK.OBIE.Header.Invalid",
              Message: `x-fapi-financial-id must be ${Payments.financialId} in the sandbox`,
              Path: "x-fapi-financial-id"
            }
          ]
        })
      }
      const payment = store.paymentBodies.get(path.InternationalPaymentId)
      if (payment === undefined) {
        // Open Banking answers an unknown resource id with 400, not 404
        return yield* new OpenBankingApi.OpenBankingError({
          status: 400,
          Code: "400 Bad Request",
          Message: `no international payment ${path.InternationalPaymentId}`,
          Errors: [
            {
              ErrorCode: "UK.OBIE.Resource.NotFound",
              Message: "the InternationalPaymentId does not exist",
              Path: "InternationalPaymentId"
            }
          ]
        })
      }
      return json(payment)
    })
  )
)

const merchant = HttpApiBuilder.group(SandboxApi, "subscriptionPlans", (handlers) =>
  handlers.handle("listSubscriptionPlans", ({ urlParams }) =>
    Effect.gen(function* () {
      const { store } = yield* SandboxState
      const page = store.plans.page(urlParams)
      if (page._tag === "Left") {
        const now = yield* Clock.currentTimeMillis
        return yield* new MerchantApi.MerchantError({
          status: 400,
          code: "bad_request",
          message: page.left,
          timestamp: now
        })
      }
      // the plans were validated against the Schema when the store was built, and written as JSON once
      return HttpServerResponse.text(page.right, { contentType: "application/json" })
    })
  )
)

/** a body encoded once, at start, with the endpoint's Schema */
const json = (body: Uint8Array) => HttpServerResponse.uint8Array(body, { contentType: "application/json" })

const encodeTransaction = Schema.encodeSync(BusinessApi.exchange.successSchema)

/** a stored answer, as it was first given, marked as a replay */
const replayed = (result: Exchanges.Answer["result"]): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.setHeader(
    Either.match(result, {
      onRight: (transaction) => HttpServerResponse.unsafeJson(encodeTransaction(transaction)),
      onLeft: (e) => Errors.response("business", e.status, e.message, { code: e.code, now: 0 })
    }),
    "idempotent-replayed",
    "true"
  )

const business = HttpApiBuilder.group(SandboxApi, "exchange", (handlers) =>
  handlers
    .handle("exchange", ({ payload }) =>
      Effect.gen(function* () {
        const { store } = yield* SandboxState
        const failExecution = yield* FiberRef.get(Faults.failExecution)
        const answer = yield* store.exchanges.exchange(payload, { failExecution })
        return answer.replayed ? replayed(answer.result) : yield* answer.result
      })
    )
    .handle("exchangeReasons", () => Effect.map(SandboxState, ({ store }) => json(store.exchangeReasonsBody)))
    .handle("findTransactions", ({ urlParams }) =>
      Effect.flatMap(SandboxState, ({ store }) => store.exchanges.find(urlParams.request_id))
    )
)

const pay = HttpApiBuilder.group(SandboxApi, "pay", (handlers) =>
  handlers.handle("transferFieldRequirements", ({ payload }) =>
    Effect.flatMap(SandboxState, ({ store }) => Effect.map(store.payFields(payload), json))
  )
)

const control = HttpApiBuilder.group(SandboxApi, "sandbox", (handlers) =>
  handlers
    .handle("seed", () =>
      Effect.map(SandboxState, ({ store }) => ({
        seed: store.seed.seed,
        accounts: store.seed.accounts.map(({ currency, id, institution, name }) => ({
          id,
          name,
          currency,
          institution
        })),
        counterparties: store.seed.counterparties,
        plans: store.seed.plans.length,
        payments: [...store.payments.values()].map((p) => ({ id: p.id, status: p.status, profile: "revolut" }))
      }))
    )
    .handle("accounts", () => Effect.flatMap(SandboxState, ({ store }) => store.exchanges.balances))
    .handle("ledger", () =>
      Effect.flatMap(SandboxState, ({ store }) =>
        Effect.map(store.exchanges.ledger, (entries) =>
          entries.map((e) => ({
            request_id: e.requestId,
            received: e.received,
            transactions: e.transactions,
            conflicts: e.conflicts,
            transaction_id: e.transactionId ?? null
          }))
        )
      )
    )
    .handle("requests", () =>
      Effect.flatMap(SandboxState, ({ log }) =>
        Effect.map(log.all, (entries) =>
          entries.map((e) => ({ ...e, query: Object.fromEntries(new URLSearchParams(e.query)) }))
        )
      )
    )
    .handle("clearRequests", () => Effect.flatMap(SandboxState, ({ log }) => log.clear))
    .handle("faults", () => Effect.flatMap(SandboxState, ({ faults }) => faults.list))
    .handle("setFaults", ({ payload }) => Effect.flatMap(SandboxState, ({ faults }) => faults.set(payload)))
    .handle("clearFaults", () => Effect.flatMap(SandboxState, ({ faults }) => faults.set([])))
    .handle("stats", () =>
      Effect.flatMap(SandboxState, ({ log, store }) =>
        Effect.gen(function* () {
          const sizes = yield* store.exchanges.sizes
          const logged = yield* log.size
          const memory = yield* Effect.sync(() => {
            const gc = (globalThis as { gc?: () => void }).gc
            if (typeof gc === "function") gc()
            return { ...process.memoryUsage(), cpu: process.cpuUsage() }
          })
          return {
            rss: memory.rss,
            heap_used: memory.heapUsed,
            cpu_us: memory.cpu.user + memory.cpu.system,
            request_ids: sizes.requestIds,
            transactions: sizes.transactions,
            logged_requests: logged
          }
        })
      )
    )
    .handle("clock", () => Effect.flatMap(SandboxState, ({ clock }) => clockState(clock)))
    .handle("advanceClock", ({ payload }) =>
      Effect.flatMap(SandboxState, ({ clock, store }) =>
        // prune on the moved clock (this request started on the clock as it was)
        clock
          .advance(payload.advance_ms)
          .pipe(Effect.zipRight(clock.within(Effect.zipRight(store.exchanges.prune, clockState(clock)))))
      )
    )
)

const clockState = (clock: SandboxClock) =>
  Effect.map(Clock.currentTimeMillis, (now) => ({ now: new Date(now).toISOString(), offset_ms: clock.offset() }))

/** All handlers and security middleware of the sandbox API. @internal */
export const layer = Layer.mergeAll(openBanking, merchant, business, pay, control).pipe(
  Layer.provide([openBankingAuth, merchantAuth, businessAuth])
)
