/**
 * What the middleware knows of a request and hands to the handlers: the tenant it authenticated, the sandbox's time
 * it read once, the Open Banking interaction id it chose, whether a `fail-during` fault applies, and the body the
 * gate parsed. The handlers read no clock, header or body of their own.
 *
 * @internal
 */
import * as Context from "effect/Context"
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

/** The call being handled; `undefined` outside the middleware. @internal */
export const CurrentCall = Context.Reference<Call | undefined>("@payrules/sandbox/CurrentCall", {
  defaultValue: () => undefined
})
