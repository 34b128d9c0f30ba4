/**
 * Everything a running sandbox holds, as one service for the handlers and the middleware.
 *
 * @internal
 */
import * as Context from "effect/Context"
import type { Faults } from "./faults.js"
import type { SlidingWindow } from "./rateLimit.js"
import type { RequestLog } from "./requestLog.js"
import type { Store } from "./store.js"

/** @internal */
export interface SandboxStateService {
  readonly store: Store
  readonly faults: Faults
  readonly log: RequestLog
  readonly payFieldsLimit: SlidingWindow
}

/** @internal */
export class SandboxState extends Context.Tag("@payrules/sandbox/SandboxState")<SandboxState, SandboxStateService>() {}
