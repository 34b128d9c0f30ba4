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

const decodePlans = Schema.decodeUnknownEither(Schema.Array(SubscriptionPlan.SubscriptionPlan))
const decodePayment = Schema.decodeUnknownEither(InternationalPayment.RevolutStrict)
const decodeFields = Schema.decodeUnknownEither(PayFields.FieldsResponse)

const tenantState = (
  tenant: Tenants.Tenant,
  exchange: Exchanges.ExchangeOptions,
  key: Uint8Array
): Effect.Effect<TenantState> =>
  Effect.gen(function* () {
    const seed = Seed.make(tenant.dataSeed, { plans: tenant.plans })
    // the seed data must be what the Schemas accept: a sandbox that serves invalid data would test nothing
    const plans = decodePlans(seed.plans)
    if (plans._tag === "Left") return yield* Effect.dieMessage(`invalid seed plans: ${plans.left.message}`)
    const payments = Payments.make(tenant.dataSeed)
    const invalid = payments.flatMap((p) => {
      const r = decodePayment(p.body)
      return r._tag === "Left" ? [`${p.id}: ${r.left.message}`] : []
    })
    if (invalid.length > 0) return yield* Effect.dieMessage(`invalid seed payments: ${invalid.join("; ")}`)
    const store = yield* Store.make(seed, exchange, payments, { key, tenant: tenant.id })
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
        if (fields._tag === "Left")
          return yield* Effect.dieMessage(`invalid corridor ${corridor.id}: ${fields.left.message}`)
        const compiled = FieldValidator.compile(fields.right.fields)
        if (compiled._tag === "Left") {
          return yield* Effect.dieMessage(
            `corridor ${corridor.id} does not compile: ${compiled.left.map((e) => e.message).join("; ")}`
          )
        }
      }
      // the key of the page tokens: drawn at start, so a token of another sandbox (or of this one before a restart)
      // is refused
      const key = randomBytes(32)
      const exchange = { ...Exchanges.defaultExchangeOptions, ...options.exchange }
      const tenants = yield* Effect.forEach(Tenants.seeded(seedNumber, options.plans ?? 1200), (tenant) =>
        tenantState(tenant, exchange, key)
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
        clock: SandboxClock.make()
      }
    })
  )
