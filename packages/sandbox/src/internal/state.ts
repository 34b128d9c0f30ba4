/**
 * Everything a running sandbox holds, as one service for the handlers and the middleware.
 *
 * @internal
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import type { SandboxClock } from "./clock.js"
import type { Faults } from "./faults.js"
import type { SlidingWindow } from "./rateLimit.js"
import type { RequestLog } from "./requestLog.js"
import type { Store } from "./store.js"
import type { Tenant } from "./tenants.js"

/** A tenant and its data. @internal */
export interface TenantState {
  readonly tenant: Tenant
  readonly store: Store
}

/** @internal */
export interface SandboxStateService {
  /** the tenants, the first one first (the control plane shows its data unless asked for another's) */
  readonly tenants: ReadonlyArray<TenantState>
  readonly tenantById: ReadonlyMap<string, TenantState>
  /** every tenant's tokens */
  readonly tenantByToken: ReadonlyMap<string, TenantState>
  /** the token /__sandbox/* requires (open without one) */
  readonly controlToken: string | undefined
  readonly faults: Faults
  readonly log: RequestLog
  /** the POST /pay/fields limit, per tenant */
  readonly payFieldsLimit: SlidingWindow
  /** the sandbox's time: the caller's clock, moved forward by the control plane */
  readonly clock: SandboxClock
  /** ends the connection of a request without an answer (a socket over HTTP, a transport error in process) */
  readonly drop: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<void>
}

/** @internal */
export class SandboxState extends Context.Service<SandboxState, SandboxStateService>()(
  "@payrules/sandbox/SandboxState"
) {}
