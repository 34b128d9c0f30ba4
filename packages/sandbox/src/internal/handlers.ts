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
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { SandboxApi, UnknownTenant } from "../SandboxApi.js"
import type { SandboxClock } from "./clock.js"
import * as Errors from "./errors.js"
import type * as Exchanges from "./exchanges.js"
import * as Faults from "./faults.js"
import * as Json from "./json.js"
import * as Payments from "./payments.js"
import { SandboxState, type SandboxStateService, type TenantState } from "./state.js"
import * as Tenants from "./tenants.js"

/**
 * The security of each family: the middleware authenticated the request and set its tenant; a request without one
 * (none should get here) is refused all the same.
 */
const authenticated = <E>(token: Redacted.Redacted<string>, refuse: (now: number) => E) =>
  Effect.flatMap(FiberRef.get(Tenants.current), (tenant) =>
    tenant === undefined
      ? Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.fail(refuse(now)))
      : Effect.succeed(token)
  )

const unauthenticated = "Authorization: Bearer <token> of a tenant is required"

const merchantAuth = Layer.succeed(MerchantApi.MerchantAuthorization, {
  bearer: (token) =>
    authenticated(
      token,
      (now) =>
        new MerchantApi.MerchantError({ status: 401, code: "unauthorized", message: unauthenticated, timestamp: now })
    )
})

const businessAuth = Layer.succeed(BusinessApi.BusinessAuthorization, {
  bearer: (token) =>
    authenticated(
      token,
      () =>
        new BusinessApi.BusinessError({
          status: 401,
          code: BusinessApi.ErrorCode.Unauthorized,
          message: unauthenticated
        })
    )
})

const openBankingAuth = Layer.succeed(OpenBankingApi.OpenBankingAuthorization, {
  bearer: (token) =>
    authenticated(
      token,
      () =>
        new OpenBankingApi.OpenBankingError({
          status: 401,
          Code: "401 Unauthorized",
          Message: unauthenticated,
          Errors: [{ ErrorCode: "UK.OBIE.Header.Missing", Message: unauthenticated, Path: "Authorization" }]
        })
    )
})

/** the data of the tenant the request was authenticated as */
const tenantStore = Effect.gen(function* () {
  const state = yield* SandboxState
  const id = yield* FiberRef.get(Tenants.current)
  const tenant = id === undefined ? undefined : state.tenantById.get(id)
  // the security middleware ran first: a request without a tenant does not get here
  return tenant === undefined ? yield* Effect.dieMessage("a request reached a handler without a tenant") : tenant.store
})

const openBanking = HttpApiBuilder.group(SandboxApi, "payments", (handlers) =>
  handlers.handle("getInternationalPayment", ({ headers, path }) =>
    Effect.gen(function* () {
      const store = yield* tenantStore
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
      const store = yield* tenantStore
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
        const store = yield* tenantStore
        const failExecution = yield* FiberRef.get(Faults.failExecution)
        const answer = yield* store.exchanges.exchange(payload, { failExecution })
        return answer.replayed ? replayed(answer.result) : yield* answer.result
      })
    )
    .handle("exchangeReasons", () => Effect.map(tenantStore, (store) => json(store.exchangeReasonsBody)))
    .handle("findTransactions", ({ urlParams }) =>
      Effect.flatMap(tenantStore, (store) => store.exchanges.find(urlParams.request_id))
    )
)

const pay = HttpApiBuilder.group(SandboxApi, "pay", (handlers) =>
  handlers.handle("transferFieldRequirements", ({ payload }) =>
    Effect.flatMap(tenantStore, (store) => Effect.map(store.payFields(payload), json))
  )
)

const control = HttpApiBuilder.group(SandboxApi, "sandbox", (handlers) =>
  handlers
    .handle("seed", () =>
      Effect.map(SandboxState, ({ tenants }) => ({
        seed: tenants[0]!.store.seed.seed,
        ...tenantData(tenants[0]!),
        tenants: tenants.map((t) => ({
          id: t.tenant.id,
          name: t.tenant.name,
          token: t.tenant.tokens[0]!,
          tokens: t.tenant.tokens,
          ...tenantData(t)
        }))
      }))
    )
    .handle("accounts", ({ urlParams }) =>
      Effect.flatMap(SandboxState, (state) =>
        Effect.flatMap(tenantOf(state, urlParams.tenant), (t) => t.store.exchanges.balances)
      )
    )
    .handle("ledger", ({ urlParams }) =>
      Effect.flatMap(SandboxState, (state) =>
        Effect.flatMap(tenantOf(state, urlParams.tenant), ({ store }) =>
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
      Effect.flatMap(SandboxState, ({ log, payFieldsLimit, tenants }) =>
        Effect.gen(function* () {
          const sizes = yield* Effect.reduce(tenants, { requestIds: 0, transactions: 0 }, (sum, { store }) =>
            Effect.map(store.exchanges.sizes, (s) => ({
              requestIds: sum.requestIds + s.requestIds,
              transactions: sum.transactions + s.transactions
            }))
          )
          const limiter = yield* payFieldsLimit.size
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
            logged_requests: logged,
            limiter_keys: limiter.keys,
            limiter_times: limiter.times
          }
        })
      )
    )
    .handle("clock", () => Effect.flatMap(SandboxState, ({ clock }) => clockState(clock)))
    .handle("advanceClock", ({ payload }) =>
      Effect.flatMap(SandboxState, ({ clock, tenants }) =>
        // prune on the moved clock (this request started on the clock as it was)
        clock.advance(payload.advance_ms).pipe(
          Effect.zipRight(
            clock.within(
              Effect.zipRight(
                Effect.forEach(tenants, ({ store }) => store.exchanges.prune, { discard: true }),
                clockState(clock)
              )
            )
          )
        )
      )
    )
)

/** what GET /__sandbox/seed shows of a tenant's data */
const tenantData = ({ store }: TenantState) => ({
  accounts: store.seed.accounts.map(({ currency, id, institution, name }) => ({ id, name, currency, institution })),
  counterparties: store.seed.counterparties,
  plans: store.seed.plans.length,
  payments: [...store.payments.values()].map((p) => ({ id: p.id, status: p.status, profile: "revolut" }))
})

/** the tenant a control request asks for (the first one by default) */
const tenantOf = (state: SandboxStateService, id: string | undefined) => {
  const tenant = id === undefined ? state.tenants[0] : state.tenantById.get(id)
  return tenant === undefined
    ? Effect.fail(
        new UnknownTenant({ message: `no tenant ${JSON.stringify(id === undefined ? undefined : Json.clip(id))}` })
      )
    : Effect.succeed(tenant)
}

const clockState = (clock: SandboxClock) =>
  Effect.map(Clock.currentTimeMillis, (now) => ({ now: new Date(now).toISOString(), offset_ms: clock.offset() }))

/** All handlers and security middleware of the sandbox API. @internal */
export const layer = Layer.mergeAll(openBanking, merchant, business, pay, control).pipe(
  Layer.provide([openBankingAuth, merchantAuth, businessAuth])
)
