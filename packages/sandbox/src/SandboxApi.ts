/**
 * What the sandbox serves: the three API families, each under its own base path, and its control endpoints under
 * `/__sandbox`, as one HttpApi (so `/docs` renders them all).
 *
 * @since 0.1.0
 */
import { BusinessApi, MerchantApi, OpenBankingApi } from "@payrules/transport"
import * as Context from "effect/Context"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import * as Schema from "effect/Schema"
import * as Fault from "./Fault.js"
import * as OpenApiSecurity from "./internal/openApiSecurity.js"

/**
 * Base paths of the families on a sandbox server.
 *
 * @since 0.1.0
 * @category constants
 */
export const basePaths = {
  openBanking: "/open-banking",
  merchant: "/merchant",
  business: "/business"
} as const

/**
 * One request_id as the sandbox saw it: how many times it was received and how many transactions it produced
 * (exactly-once means `transactions` is at most 1 for every id).
 *
 * @since 0.1.0
 * @category schemas
 */
export const LedgerEntry = Schema.Struct({
  request_id: Schema.String,
  received: Schema.Int,
  transactions: Schema.Int,
  conflicts: Schema.Int,
  transaction_id: Schema.NullOr(Schema.String)
})

/**
 * A request the sandbox received.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LoggedRequest = Schema.Struct({
  method: Schema.String,
  path: Schema.String,
  query: Schema.Record(Schema.String, Schema.String),
  operation: Schema.NullOr(Fault.Operation),
  status: Schema.Int,
  fault: Schema.NullOr(Fault.Kind),
  at: Schema.Number
})

/**
 * @since 0.1.0
 * @category schemas
 */
export const AccountBalance = Schema.Struct({ id: Schema.String, currency: Schema.String, balance: Schema.String })

const TenantData = {
  accounts: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      name: Schema.String,
      currency: Schema.String,
      institution: Schema.Literals(["same", "other"])
    })
  ),
  counterparties: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      name: Schema.String,
      accounts: Schema.Array(
        Schema.Struct({ id: Schema.String, corridor: Schema.String, country: Schema.String, currency: Schema.String })
      ),
      cards: Schema.Array(Schema.Struct({ id: Schema.String, last4: Schema.String }))
    })
  ),
  plans: Schema.Int,
  payments: Schema.Array(Schema.Struct({ id: Schema.String, status: Schema.String, profile: Schema.String }))
}

/**
 * A seeded tenant: its Bearer tokens (`token` is the first of `tokens`) and its data, which no other tenant sees.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TenantSummary = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  token: Schema.String,
  tokens: Schema.Array(Schema.String),
  ...TenantData
})

/**
 * The seeded data a test or a demo needs to address: the tenants with their tokens and data, and at the top level
 * the first tenant's accounts, counterparties with their payment methods, plans and payments.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SeedSummary = Schema.Struct({
  seed: Schema.Int,
  ...TenantData,
  tenants: Schema.Array(TenantSummary)
})

/**
 * The body of every error of the control endpoints: its HTTP status, a message, and for a query or a body that does
 * not decode, the issues with their paths (`["advance_ms"]`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ControlError = Schema.Struct({
  status: Schema.Int,
  message: Schema.String,
  issues: Schema.optionalKey(
    Schema.Array(
      Schema.Struct({ path: Schema.Array(Schema.Union([Schema.String, Schema.Number])), message: Schema.String })
    )
  )
})

/**
 * A control endpoint asked for a tenant the sandbox does not have: a 404 {@link ControlError}.
 *
 * @since 0.1.0
 * @category errors
 */
export const UnknownTenant = ControlError.pipe(HttpApiSchema.status(404)).annotate({
  identifier: "UnknownTenant",
  description: "No tenant has the id of `?tenant=`"
})

/**
 * The latest time the control plane moves a sandbox to, 9999-01-01T00:00:00Z: every instant the sandbox writes (a
 * transaction's `created_at`, its settlement, the end of a retention window) stays in a four-digit year, as RFC 3339
 * and the APIs' documents write them.
 *
 * @since 0.1.0
 * @category constants
 */
export const latestTime: number = Date.UTC(9999, 0, 1)

/**
 * A clock advance the sandbox refuses, its time unchanged: a 400 {@link ControlError}, for a body that does not
 * decode (`advance_ms` negative or not an integer) or an advance that would move the sandbox's time past
 * {@link latestTime} (the message says how far it may still move).
 *
 * @since 0.1.0
 * @category errors
 */
export const ClockOutOfRange = ControlError.pipe(HttpApiSchema.status(400)).annotate({
  identifier: "ClockOutOfRange",
  description: "The advance does not decode, or would move the sandbox's time past 9999-01-01T00:00:00Z"
})

/** `?tenant=<id>`: another tenant's data than the first's */
const TenantParam = Schema.Struct({ tenant: Schema.optionalKey(Schema.String) })

/**
 * The sandbox's time: `now` (ISO 8601, UTC) and how far the control plane moved it ahead of the machine's clock.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ClockState = Schema.Struct({ now: Schema.String, offset_ms: Schema.Int })

/**
 * How far to move the sandbox's time forward: request_ids, their stored answers and their transactions past the
 * retention window are pruned at once.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AdvanceClock = Schema.Struct({ advance_ms: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)) })

/**
 * What a sandbox holds, and its process's memory (after a memory-reducing full garbage collection, V8's
 * "last-resort" one, when node runs with `--expose-gc`): for benchmarks that check that memory comes back after
 * pruning.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Stats = Schema.Struct({
  rss: Schema.Int,
  heap_used: Schema.Int,
  /** the process's CPU time so far (user and system), in microseconds */
  cpu_us: Schema.Int,
  request_ids: Schema.Int,
  transactions: Schema.Int,
  logged_requests: Schema.Int,
  /** the keys (tenants) the POST /pay/fields limiter keeps a window for */
  limiter_keys: Schema.Int,
  /** the request times the limiter stores, over all keys */
  limiter_times: Schema.Int
})

/**
 * The control endpoints of a sandbox: seed data and tenants, balances and the request_id ledger (of the first tenant,
 * or of `?tenant=<id>`), the request log, the fault rules
 * and the clock.
 *
 * @since 0.1.0
 * @category groups
 */
export class ControlGroup extends HttpApiGroup.make("sandbox")
  .add(
    HttpApiEndpoint.get("seed", "/seed", { success: SeedSummary }),
    HttpApiEndpoint.get("accounts", "/accounts", {
      query: TenantParam,
      success: Schema.Array(AccountBalance),
      error: UnknownTenant
    }),
    HttpApiEndpoint.get("ledger", "/ledger", {
      query: TenantParam,
      success: Schema.Array(LedgerEntry),
      error: UnknownTenant
    }),
    HttpApiEndpoint.get("requests", "/requests", { success: Schema.Array(LoggedRequest) }),
    HttpApiEndpoint.delete("clearRequests", "/requests"),
    HttpApiEndpoint.get("faults", "/faults", { success: Schema.Array(Fault.FaultRule) }),
    HttpApiEndpoint.put("setFaults", "/faults", { payload: Schema.Array(Fault.FaultRule) }),
    HttpApiEndpoint.delete("clearFaults", "/faults"),
    HttpApiEndpoint.get("clock", "/clock", { success: ClockState }),
    HttpApiEndpoint.post("advanceClock", "/clock", {
      payload: AdvanceClock,
      success: ClockState,
      error: ClockOutOfRange
    }),
    HttpApiEndpoint.get("stats", "/stats", { success: Stats })
  )
  .prefix("/__sandbox")
  .annotate(OpenApi.Description, "Sandbox control: seed data, balances, ledger, request log, faults, clock, stats") {}

/**
 * The names of the Bearer security schemes of the families in the sandbox's OpenAPI document (and on /docs): each
 * family's operations require its own, so that a page that tries a call knows which credentials to send.
 *
 * @since 0.1.0
 * @category constants
 */
export const securitySchemes = {
  openBanking: "OpenBankingBearer",
  merchant: "MerchantBearer",
  business: "BusinessBearer"
} as const

const schemeDescriptions: Readonly<Record<keyof typeof securitySchemes, string>> = {
  openBanking:
    "Authorization: Bearer <token> of a sandbox tenant on the Open Banking API (GET /__sandbox/seed lists them)",
  merchant: "Authorization: Bearer <token> of a sandbox tenant on the merchant API (GET /__sandbox/seed lists them)",
  business: "Authorization: Bearer <token> of a sandbox tenant on the business API (GET /__sandbox/seed lists them)"
}

/**
 * What `HttpApi.addHttpApi` gives a family's group: the family's annotations (its title names the group's tag), under
 * the group's own. All but the family's `OpenApi.Transform`: a transform of a family's whole document, which effect
 * would apply to the group's tag, and which the paths under a base path would not match anyway.
 */
const familyAnnotations = (
  api: { readonly annotations: Context.Context<never> },
  group: { readonly annotations: Context.Context<never> }
): Context.Context<never> => Context.merge(Context.omit(OpenApi.Transform)(api.annotations), group.annotations)

/**
 * The families' APIs declare their scheme under the same name; in one document they become a scheme per family, each
 * required by the operations under the family's base path.
 */
const securityPerFamily = OpenApiSecurity.perFamily(
  (Object.keys(securitySchemes) as ReadonlyArray<keyof typeof securitySchemes>).map((family) => ({
    prefix: basePaths[family],
    scheme: securitySchemes[family],
    description: schemeDescriptions[family]
  }))
)

/**
 * The whole sandbox API.
 *
 * @since 0.1.0
 * @category api
 */
export class SandboxApi extends HttpApi.make("sandbox")
  .add(
    OpenBankingApi.PaymentsGroup.prefix(basePaths.openBanking).annotateMerge(
      familyAnnotations(OpenBankingApi.OpenBankingApi, OpenBankingApi.PaymentsGroup)
    ),
    MerchantApi.SubscriptionPlansGroup.prefix(basePaths.merchant).annotateMerge(
      familyAnnotations(MerchantApi.MerchantApi, MerchantApi.SubscriptionPlansGroup)
    ),
    BusinessApi.ExchangeGroup.prefix(basePaths.business).annotateMerge(
      familyAnnotations(BusinessApi.BusinessApi, BusinessApi.ExchangeGroup)
    ),
    BusinessApi.PayGroup.prefix(basePaths.business).annotateMerge(
      familyAnnotations(BusinessApi.BusinessApi, BusinessApi.PayGroup)
    ),
    ControlGroup
  )
  .annotate(OpenApi.Title, "payrules sandbox")
  .annotate(
    OpenApi.Description,
    "The merchant, business and Open Banking APIs as the payrules sandbox serves them, each under its own base path, and the sandbox's control endpoints."
  )
  .annotate(OpenApi.Transform, securityPerFamily) {}
