/**
 * The state of a running sandbox, built from its options: each tenant's data (checked against the Schemas first: a
 * sandbox that serves invalid data would test nothing), the faults, the request log, the /pay/fields limit and the
 * key of the page tokens.
 *
 * @internal
 */
import { randomBytes } from "node:crypto"
import { InternationalPayment } from "@payrules/open-banking"
import { SubscriptionPlan } from "@payrules/subscriptions"
import { FieldValidator, PayFields } from "@payrules/transfers"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { Options } from "../Sandbox.js"
import * as SandboxClock from "./clock.js"
import * as Exchanges from "./exchanges.js"
import * as Faults from "./faults.js"
import * as Payments from "./payments.js"
import * as RateLimit from "./rateLimit.js"
import * as RequestLog from "./requestLog.js"
import * as Seed from "./seed.js"
import { SandboxState, type SandboxStateService, type TenantState } from "./state.js"
import * as Store from "./store.js"
import * as Tenants from "./tenants.js"

const decodePlans = Schema.decodeUnknownResult(Schema.Array(SubscriptionPlan.SubscriptionPlan))
const decodePayment = Schema.decodeUnknownResult(InternationalPayment.RevolutStrict)
const decodeFields = Schema.decodeUnknownResult(PayFields.FieldsResponse)

const invalid = (message: string) => Effect.die(new Error(message))

const tenantState = (
  tenant: Tenants.Tenant,
  exchange: Exchanges.ExchangeOptions,
  key: Uint8Array,
  clock: SandboxClock.SandboxClock
): Effect.Effect<TenantState> =>
  Effect.gen(function* () {
    const seed = Seed.make(tenant.dataSeed, { plans: tenant.plans })
    // the seed data must be what the Schemas accept: a sandbox that serves invalid data would test nothing
    const plans = decodePlans(seed.plans)
    if (Result.isFailure(plans)) return yield* invalid(`invalid seed plans: ${plans.failure.message}`)
    const payments = Payments.make(tenant.dataSeed)
    const wrong = payments.flatMap((p) => {
      const r = decodePayment(p.body)
      return Result.isFailure(r) ? [`${p.id}: ${r.failure.message}`] : []
    })
    if (wrong.length > 0) return yield* invalid(`invalid seed payments: ${wrong.join("; ")}`)
    const store = yield* Store.make(seed, exchange, payments, { key, tenant: tenant.id }, clock)
    return { tenant, store }
  })

/** @internal */
export const layer = (options: Options, drop: SandboxStateService["drop"]): Layer.Layer<SandboxState> =>
  Layer.effect(
    SandboxState,
    Effect.gen(function* () {
      const seedNumber = options.seed ?? 1
      for (const corridor of Seed.corridors) {
        const fields = decodeFields({ fields: corridor.fields })
        if (Result.isFailure(fields))
          return yield* invalid(`invalid corridor ${corridor.id}: ${fields.failure.message}`)
        const compiled = FieldValidator.compile(fields.success.fields)
        if (Result.isFailure(compiled)) {
          return yield* invalid(
            `corridor ${corridor.id} does not compile: ${compiled.failure.map((e) => e.message).join("; ")}`
          )
        }
      }
      // the key of the page tokens: drawn at start, so a token of another sandbox (or of this one before a restart)
      // is refused
      const key = randomBytes(32)
      const exchange = { ...Exchanges.defaultExchangeOptions, ...options.exchange }
      const clock = SandboxClock.make()
      const tenants = yield* Effect.forEach(Tenants.seeded(seedNumber, options.plans ?? 1200), (tenant) =>
        tenantState(tenant, exchange, key, clock)
      )
      const faults = yield* Faults.make(seedNumber, options.faults ?? [])
      const log = yield* RequestLog.make
      const limit = options.payFieldsLimit ?? { limit: 450, windowMs: 60_000 }
      return {
        tenants,
        tenantById: new Map(tenants.map((t) => [t.tenant.id, t])),
        tenantByToken: new Map(tenants.flatMap((t) => t.tenant.tokens.map((token) => [token, t] as const))),
        controlToken: options.controlToken,
        faults,
        log,
        payFieldsLimit: RateLimit.make(limit.limit, limit.windowMs),
        drop,
        clock
      }
    })
  )
