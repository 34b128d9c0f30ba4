/**
 * What the sandbox serves: the three API families, each under its own base path, and its control endpoints under
 * `/__sandbox`, as one HttpApi (so `/docs` renders them all).
 *
 * @since 0.1.0
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { BusinessApi, MerchantApi, OpenBankingApi } from "@payrules/transport"
import * as Schema from "effect/Schema"
import * as Fault from "./Fault.js"

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
  query: Schema.Record({ key: Schema.String, value: Schema.String }),
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
      institution: Schema.Literal("same", "other")
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
 * A control endpoint asked for a tenant the sandbox does not have.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownTenant extends Schema.TaggedError<UnknownTenant>()(
  "UnknownTenant",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** `?tenant=<id>`: another tenant's data than the first's */
const TenantParam = Schema.Struct({ tenant: Schema.optional(Schema.String) })

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
export const AdvanceClock = Schema.Struct({ advance_ms: Schema.Int.pipe(Schema.nonNegative()) })

/**
 * What a sandbox holds, and its process's memory (after a full garbage collection when node runs with
 * `--expose-gc`): for benchmarks that check that memory comes back after pruning.
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
  .add(HttpApiEndpoint.get("seed", "/seed").addSuccess(SeedSummary))
  .add(
    HttpApiEndpoint.get("accounts", "/accounts")
      .setUrlParams(TenantParam)
      .addSuccess(Schema.Array(AccountBalance))
      .addError(UnknownTenant)
  )
  .add(
    HttpApiEndpoint.get("ledger", "/ledger")
      .setUrlParams(TenantParam)
      .addSuccess(Schema.Array(LedgerEntry))
      .addError(UnknownTenant)
  )
  .add(HttpApiEndpoint.get("requests", "/requests").addSuccess(Schema.Array(LoggedRequest)))
  .add(HttpApiEndpoint.del("clearRequests", "/requests"))
  .add(HttpApiEndpoint.get("faults", "/faults").addSuccess(Schema.Array(Fault.FaultRule)))
  .add(HttpApiEndpoint.put("setFaults", "/faults").setPayload(Schema.Array(Fault.FaultRule)))
  .add(HttpApiEndpoint.del("clearFaults", "/faults"))
  .add(HttpApiEndpoint.get("clock", "/clock").addSuccess(ClockState))
  .add(HttpApiEndpoint.post("advanceClock", "/clock").setPayload(AdvanceClock).addSuccess(ClockState))
  .add(HttpApiEndpoint.get("stats", "/stats").addSuccess(Stats))
  .prefix("/__sandbox")
  .annotate(OpenApi.Description, "Sandbox control: seed data, balances, ledger, request log, faults, clock, stats") {}

/**
 * The whole sandbox API.
 *
 * @since 0.1.0
 * @category api
 */
export class SandboxApi extends HttpApi.make("sandbox")
  .addHttpApi(OpenBankingApi.OpenBankingApi.prefix(basePaths.openBanking))
  .addHttpApi(MerchantApi.MerchantApi.prefix(basePaths.merchant))
  .addHttpApi(BusinessApi.BusinessApi.prefix(basePaths.business))
  .add(ControlGroup)
  .annotate(OpenApi.Title, "payrules sandbox")
  .annotate(
    OpenApi.Description,
    "The merchant, business and Open Banking APIs as the payrules sandbox serves them, each under its own base path, and the sandbox's control endpoints."
  ) {}
