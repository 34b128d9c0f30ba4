/**
 * The sandbox's clock: the caller's `Clock` (the live one, or a `TestClock` in process) moved forward by an offset
 * that the control plane can only increase, so tests can let retention windows and settlements pass without waiting.
 *
 * The middleware reads the sandbox's time once per request and hands it to the handlers (see `call.ts`): what a
 * request does happens at one instant, and no handler reads a clock of its own. Sleeps (a delayed answer) are the
 * caller's.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"

/** @internal */
export interface SandboxClock {
  /** milliseconds the sandbox is ahead of the caller's clock */
  readonly offset: () => number
  /** moves the sandbox's time forward */
  readonly advance: (ms: number) => Effect.Effect<void>
  /** the sandbox's time: the caller's clock plus the offset, in epoch milliseconds */
  readonly now: Effect.Effect<number>
}

/** @internal */
export const make = (): SandboxClock => {
  let offset = 0
  return {
    offset: () => offset,
    advance: (ms) =>
      Effect.sync(() => {
        offset += Math.max(0, Math.floor(ms))
      }),
    now: Clock.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe() + offset))
  }
}
