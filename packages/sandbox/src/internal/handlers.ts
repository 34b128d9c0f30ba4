/**
 * The handlers of the sandbox's endpoints, over its store.
 *
 * The middleware has authenticated the request, read the sandbox's time, parsed the body and chosen the interaction
 * id: a handler reads them from the call (`call.ts`). The four operations answer with responses they make themselves:
 * what never changes was encoded once at start, a transaction is encoded by the endpoint's Schema (made once, in
 * `codecs.ts`), and an error has the family's body (`errors.ts`). The POST bodies are decoded from the value the gate
 * parsed (`handleRaw`: the text is not parsed twice).
 *
 * @internal
 */
import { Auth, BusinessApi, MerchantApi, OpenBankingApi } from "@payrules/transport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import { type ClockState as ClockStateSchema, latestTime, SandboxApi } from "../SandboxApi.js"
import * as Call from "./call.js"
import * as Codecs from "./codecs.js"
import * as Errors from "./errors.js"
import type { Exchanges } from "./exchanges.js"
import * as Json from "./json.js"
import * as Payments from "./payments.js"
import { SandboxState, type SandboxStateService, type TenantState } from "./state.js"

const unauthenticated = "Authorization: Bearer <token> of a tenant is required"

/**
 * The security of a family: the middleware authenticated the request and set its tenant, so this hands the token on;
 * a request without a tenant (none gets here) is refused all the same.
 */
const authenticated = <A, E, R, F>(
  httpEffect: Effect.Effect<A, E, R>,
  credential: Redacted.Redacted<string>,
  refuse: (now: number) => F
): Effect.Effect<A, E | F, Exclude<R, Auth.BearerToken> | HttpServerRequest.HttpServerRequest> =>
  HttpServerRequest.HttpServerRequest.use((request): Effect.Effect<A, E | F, Exclude<R, Auth.BearerToken>> => {
    const call = Call.get(request)
    return call?.tenant === undefined
      ? Effect.fail(refuse(call?.now ?? 0))
      : Effect.provideService(httpEffect, Auth.BearerToken, credential)
  })

const merchantAuth = Layer.succeed(MerchantApi.MerchantAuthorization, {
  bearer: (httpEffect, { credential }) =>
    authenticated(
      httpEffect,
      credential,
      (now) =>
        new MerchantApi.MerchantError({ status: 401, code: "unauthorized", message: unauthenticated, timestamp: now })
    )
})

const businessAuth = Layer.succeed(BusinessApi.BusinessAuthorization, {
  bearer: (httpEffect, { credential }) =>
    authenticated(
      httpEffect,
      credential,
      () =>
        new BusinessApi.BusinessError({
          status: 401,
          code: BusinessApi.ErrorCode.Unauthorized,
          message: unauthenticated
        })
    )
})

const openBankingAuth = Layer.succeed(OpenBankingApi.OpenBankingAuthorization, {
  bearer: (httpEffect, { credential }) =>
    authenticated(
      httpEffect,
      credential,
      () =>
        new OpenBankingApi.OpenBankingError({
          status: 401,
          Code: "401 Unauthorized",
          Message: unauthenticated,
          Errors: [{ ErrorCode: "UK.OBIE.Header.Missing", Message: unauthenticated, Path: "Authorization" }]
        })
    )
})

interface TenantCall extends Call.Call {
  readonly tenant: TenantState
}

/**
 * `f` of the call of an authenticated request (the security middleware ran first: one without a tenant does not get
 * here)
 */
const withTenant = <A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  f: (call: TenantCall) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => {
  const call = Call.get(request)
  return call?.tenant === undefined
    ? Effect.die(new Error("a request reached a handler without a tenant"))
    : f(call as TenantCall)
}

/** the answer `f` gives of the call of an authenticated request */
const mapTenant = <A>(request: HttpServerRequest.HttpServerRequest, f: (call: TenantCall) => A): Effect.Effect<A> =>
  withTenant(request, (call) => Effect.succeed(f(call)))

/** `f` of the call of a control request */
const withControl = <A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  f: (call: Call.Call) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => {
  const call = Call.get(request)
  return call === undefined
    ? Effect.die(new Error("a control request reached a handler outside the middleware"))
    : f(call)
}

/** JSON text encoded by the endpoint's Schema */
const jsonText = (text: string, options?: { readonly status?: number | undefined }) =>
  HttpServerResponse.text(text, { contentType: "application/json", status: options?.status })

const businessError = (e: BusinessApi.BusinessError, now: number) =>
  Errors.response("business", e.status, e.message, { code: e.code, now })

/** a body that does not decode: 400 with the path of each issue, in the business shape */
const undecodable = (error: Schema.SchemaError, now: number) => {
  const issues = Errors.issuesOf(error)
  return Errors.response("business", 400, Errors.issuesMessage(issues), { issues, now })
}

/** GET /exchange-reasons: its answer, encoded at start */
const exchangeReasons = ({ tenant }: TenantCall) => tenant.store.exchangeReasonsAnswer

const openBanking = HttpApiBuilder.group(SandboxApi, "payments", (handlers) =>
  handlers.handle("getInternationalPayment", ({ headers, params, request }) =>
    mapTenant(request, ({ interactionId, tenant }) => {
      if (headers["x-fapi-financial-id"] !== Payments.financialId) {
        return Errors.openBankingResponse(
          new OpenBankingApi.OpenBankingError({
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
          }),
          interactionId
        )
      }
      const payment = tenant.store.paymentAnswers.get(params.InternationalPaymentId)
      if (payment === undefined) {
        // Open Banking answers an unknown resource id with 400, not 404
        return Errors.openBankingResponse(
          new OpenBankingApi.OpenBankingError({
            status: 400,
            Code: "400 Bad Request",
            Message:
              params.InternationalPaymentId === ""
                ? "the path names no international payment: its InternationalPaymentId is empty"
                : `no international payment ${params.InternationalPaymentId}`,
            Errors: [
              {
                ErrorCode: "UK.OBIE.Resource.NotFound",
                Message: "the InternationalPaymentId does not exist",
                Path: "InternationalPaymentId"
              }
            ]
          }),
          interactionId
        )
      }
      return payment
    })
  )
)

const merchant = HttpApiBuilder.group(SandboxApi, "subscriptionPlans", (handlers) =>
  handlers.handle("listSubscriptionPlans", ({ query, request }) =>
    mapTenant(request, ({ now, tenant }) => {
      const page = tenant.store.plans.page(query)
      // the plans were validated against the Schema when the store was built, and written as JSON once
      return Result.isSuccess(page)
        ? jsonText(page.success)
        : Errors.response("merchant", 400, page.failure, { code: "bad_request", now })
    })
  )
)

const business = HttpApiBuilder.group(SandboxApi, "exchange", (handlers) =>
  handlers
    .handleRaw("exchange", ({ request }) =>
      withTenant(request, ({ body, failExecution, now, tenant }) =>
        Effect.matchEffect(Codecs.decodeExchange(body), {
          onFailure: (error) => Effect.succeed(undecodable(error, now)),
          onSuccess: (payload) =>
            Effect.map(tenant.store.exchanges.exchange(payload, { failExecution, now }), (answer) => {
              const response = Result.isSuccess(answer.result)
                ? jsonText(Codecs.encodeTransaction(answer.result.success))
                : businessError(answer.result.failure, now)
              // a stored answer, as it was first given, marked as a replay
              return answer.replayed ? HttpServerResponse.setHeader(response, "idempotent-replayed", "true") : response
            })
        })
      )
    )
    .handle("exchangeReasons", ({ request }) => mapTenant(request, exchangeReasons))
    .handle("findTransactions", ({ query, request }) =>
      mapTenant(request, ({ now, tenant }) =>
        jsonText(Codecs.encodeTransactions(tenant.store.exchanges.find(query.request_id, now)))
      )
    )
)

const pay = HttpApiBuilder.group(SandboxApi, "pay", (handlers) =>
  handlers.handleRaw("transferFieldRequirements", ({ request }) =>
    withTenant(request, ({ body, now, tenant }) =>
      Effect.match(Codecs.decodeFieldsRequest(body), {
        onFailure: (error) => undecodable(error, now),
        onSuccess: (request) => {
          const answer = tenant.store.payFields(request)
          return Result.isSuccess(answer) ? answer.success : businessError(answer.failure, now)
        }
      })
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

/** the tenant a control request asks for (the first one by default), or the 404 that says there is none */
const tenantOf = (
  state: SandboxStateService,
  id: string | undefined,
  now: number
): Result.Result<TenantState, HttpServerResponse.HttpServerResponse> => {
  const tenant = id === undefined ? state.tenants[0] : state.tenantById.get(id)
  return tenant === undefined
    ? Result.fail(Errors.response(undefined, 404, `no tenant ${JSON.stringify(Json.clip(id ?? ""))}`, { now }))
    : Result.succeed(tenant)
}

type Balances = Effect.Success<Exchanges["balances"]>
type Ledger = ReadonlyArray<{
  readonly request_id: string
  readonly received: number
  readonly transactions: number
  readonly conflicts: number
  readonly transaction_id: string | null
}>

type ClockState = (typeof ClockStateSchema)["Type"]

const clockState = (now: number, offset: number): ClockState => ({
  now: new Date(now).toISOString(),
  offset_ms: offset
})

const control = HttpApiBuilder.group(
  SandboxApi,
  "sandbox",
  Effect.fnUntraced(function* (handlers) {
    const state = yield* SandboxState
    const { clock, faults, log, payFieldsLimit, tenants } = state
    return handlers
      .handle("seed", () =>
        Effect.succeed({
          seed: tenants[0]!.store.seed.seed,
          ...tenantData(tenants[0]!),
          tenants: tenants.map((t) => ({
            id: t.tenant.id,
            name: t.tenant.name,
            token: t.tenant.tokens[0]!,
            tokens: t.tenant.tokens,
            ...tenantData(t)
          }))
        })
      )
      .handle("accounts", ({ query, request }) =>
        withControl(request, ({ now }) => {
          const tenant = tenantOf(state, query.tenant, now)
          return Result.isFailure(tenant)
            ? Effect.succeed<Balances | HttpServerResponse.HttpServerResponse>(tenant.failure)
            : tenant.success.store.exchanges.balances
        })
      )
      .handle("ledger", ({ query, request }) =>
        withControl(request, ({ now }) => {
          const tenant = tenantOf(state, query.tenant, now)
          if (Result.isFailure(tenant))
            return Effect.succeed<Ledger | HttpServerResponse.HttpServerResponse>(tenant.failure)
          return Effect.map(
            tenant.success.store.exchanges.ledger,
            (entries): Ledger =>
              entries.map((e) => ({
                request_id: e.requestId,
                received: e.received,
                transactions: e.transactions,
                conflicts: e.conflicts,
                transaction_id: e.transactionId ?? null
              }))
          )
        })
      )
      .handle("requests", () =>
        Effect.map(log.all, (entries) =>
          entries.map((e) => ({ ...e, query: Object.fromEntries(new URLSearchParams(e.query)) }))
        )
      )
      .handle("clearRequests", () => log.clear)
      .handle("faults", () => faults.list)
      .handle("setFaults", ({ payload }) => faults.set(payload))
      .handle("clearFaults", () => faults.set([]))
      .handle("stats", () =>
        Effect.gen(function* () {
          const sizes = { requestIds: 0, transactions: 0 }
          for (const { store } of tenants) {
            const s = yield* store.exchanges.sizes
            sizes.requestIds += s.requestIds
            sizes.transactions += s.transactions
          }
          const limiter = yield* payFieldsLimit.size
          const logged = yield* log.size
          const memory = yield* Effect.sync(() => {
            // with --expose-gc, a memory-reducing full collection first (V8's "last-resort" flavor, which also gives
            // back the heap pages V8 keeps pooled for reuse after a load): what the figures show is what the sandbox
            // holds, not what V8 keeps mapped (a regular collection leaves those pages resident)
            const gc = (
              globalThis as { gc?: (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void }
            ).gc
            if (typeof gc === "function") gc({ type: "major", execution: "sync", flavor: "last-resort" })
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
      .handle("clock", ({ request }) =>
        withControl(request, ({ now }) => Effect.succeed(clockState(now, clock.offset())))
      )
      .handle("advanceClock", ({ payload, request }) =>
        withControl(request, ({ now }) => {
          if (payload.advance_ms > latestTime - now) {
            // past it, the instants the sandbox writes leave four-digit years, and then JavaScript's Date range
            const latest = new Date(latestTime).toISOString()
            return Effect.succeed<ClockState | HttpServerResponse.HttpServerResponse>(
              Errors.response(
                undefined,
                400,
                `advance_ms: ${payload.advance_ms} would move the sandbox's time past ${latest} (it is ${new Date(now).toISOString()}): at most ${Math.max(0, latestTime - now)}`,
                { now }
              )
            )
          }
          const before = clock.offset()
          return Effect.flatMap(clock.advance(payload.advance_ms), (): Effect.Effect<ClockState> => {
            // this request started on the clock as it was: prune on the moved one
            const moved = now + (clock.offset() - before)
            return Effect.as(
              Effect.forEach(tenants, ({ store }) => store.exchanges.prune(moved), { discard: true }),
              clockState(moved, clock.offset())
            )
          })
        })
      )
  })
)

/**
 * `self` built in a context that holds only the services of `keys` (and what `self` provides itself): effect's
 * HttpApiBuilder keeps the context a group was built in and adds it to the context of every request it handles (a
 * copy of both), so the groups are built with what they need (their security middleware, the state for the control
 * plane) rather than with everything the server was.
 */
const isolated = <ROut, E, RIn = never>(
  self: Layer.Layer<ROut, E, RIn>,
  ...keys: ReadonlyArray<Context.Key<RIn, unknown>>
): Layer.Layer<ROut, E, RIn> =>
  Layer.fromBuild((memoMap, scope) =>
    Effect.updateContext(Layer.buildWithMemoMap(self, memoMap, scope), Context.pick(...keys))
  )

/** All handlers and security middleware of the sandbox API. @internal */
export const layer = Layer.mergeAll(
  isolated(openBanking.pipe(Layer.provide(openBankingAuth))),
  isolated(merchant.pipe(Layer.provide(merchantAuth))),
  isolated(business.pipe(Layer.provide(businessAuth))),
  isolated(pay.pipe(Layer.provide(businessAuth))),
  isolated(control, SandboxState)
)
