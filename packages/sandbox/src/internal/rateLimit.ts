/**
 * A sliding-window rate limit per key (the bearer token): at most `limit` requests in any `windowMs`.
 *
 * @internal
 */
import * as Effect from "effect/Effect"

/** @internal */
export interface SlidingWindow {
  readonly limit: number
  readonly windowMs: number
  /** records a request at `now`, or answers how many seconds to wait (Retry-After) when the window is full */
  readonly take: (key: string, now: number) => Effect.Effect<number | undefined>
}

/** @internal */
export const make = (limit: number, windowMs: number): SlidingWindow => {
  const seen = new Map<string, Array<number>>()
  return {
    limit,
    windowMs,
    take: (key, now) =>
      Effect.sync(() => {
        const times = seen.get(key) ?? []
        let drop = 0
        while (drop < times.length && times[drop]! <= now - windowMs) drop++
        const live = drop === 0 ? times : times.slice(drop)
        if (live.length >= limit) {
          seen.set(key, live)
          return Math.max(1, Math.ceil((live[0]! + windowMs - now) / 1000))
        }
        live.push(now)
        seen.set(key, live)
        return undefined
      })
  }
}
