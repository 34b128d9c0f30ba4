/**
 * The sandbox's clock: the caller's `Clock` (the live one, or a `TestClock` in process) moved forward by an offset
 * that the control plane can only increase, so tests can let retention windows and settlements pass without waiting.
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
  /** runs `self` with the sandbox's time (sleeps are the caller's) */
  readonly within: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/** @internal */
export const make = (): SandboxClock => {
  let offset = 0
  const shifted = new WeakMap<Clock.Clock, Clock.Clock>()
  const shift = (base: Clock.Clock): Clock.Clock => {
    const known = shifted.get(base)
    if (known !== undefined) return known
    const clock: Clock.Clock = {
      [Clock.ClockTypeId]: Clock.ClockTypeId,
      unsafeCurrentTimeMillis: () => base.unsafeCurrentTimeMillis() + offset,
      unsafeCurrentTimeNanos: () => base.unsafeCurrentTimeNanos() + BigInt(offset) * 1_000_000n,
      currentTimeMillis: Effect.map(base.currentTimeMillis, (ms) => ms + offset),
      currentTimeNanos: Effect.map(base.currentTimeNanos, (ns) => ns + BigInt(offset) * 1_000_000n),
      sleep: (duration) => base.sleep(duration)
    }
    shifted.set(base, clock)
    return clock
  }
  return {
    offset: () => offset,
    advance: (ms) =>
      Effect.sync(() => {
        offset += Math.max(0, Math.floor(ms))
      }),
    within: (self) => Effect.flatMap(Effect.clock, (base) => Effect.withClock(self, shift(base)))
  }
}
