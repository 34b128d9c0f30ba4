/**
 * What the middleware knows of a request and hands to the handlers: the tenant it authenticated, the sandbox's time
 * it read once, the Open Banking interaction id it chose, whether a `fail-during` fault applies, and the body the
 * gate parsed. The handlers read no clock, header or body of their own.
 *
 * The call rides on the request object the handlers receive, under a symbol of this module (as effect's own
 * `HttpEffect` marks the requests it answered): no context update per request (a new context, restored on exit),
 * and no `WeakMap` entry (whose insertion and collection cost more than serving a small answer).
 *
 * @internal
 */
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import type { TenantState } from "./state.js"

/** @internal */
export interface Call {
  /** the tenant of an authenticated API request (none on the control plane) */
  readonly tenant: TenantState | undefined
  /** the sandbox's time, epoch milliseconds */
  readonly now: number
  /** the `x-fapi-interaction-id` of an Open Banking answer */
  readonly interactionId: string | undefined
  /** a `fail-during` fault: the execution fails */
  readonly failExecution: boolean
  /** the body the gate read and parsed (`undefined` without one) */
  readonly body: unknown
}

const CallSymbol = Symbol("@payrules/sandbox/Call")

interface WithCall {
  [CallSymbol]?: Call
}

/** Hands the call of a request to its handler (the request as the router passes it on). @internal */
export const set = (request: HttpServerRequest.HttpServerRequest, call: Call): void => {
  ;(request as WithCall)[CallSymbol] = call
}

/** The call of a request; `undefined` for a request the middleware did not pass on. @internal */
export const get = (request: HttpServerRequest.HttpServerRequest): Call | undefined => (request as WithCall)[CallSymbol]
