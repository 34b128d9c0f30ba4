/**
 * A sliding-window rate limit per key (the bearer token): at most `limit` requests in any `windowMs`. Each key keeps
 * the times of its requests still in the window in a queue (a growing array read from a moving head, compacted when
 * half of it is spent): a request costs the same whatever the window holds, and no more than `limit` times are kept.
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

interface Queue {
  times: Array<number>
  head: number
}

/** @internal */
export const make = (limit: number, windowMs: number): SlidingWindow => {
  const queues = new Map<string, Queue>()
  return {
    limit,
    windowMs,
    take: (key, now) =>
      Effect.sync(() => {
        let q = queues.get(key)
        if (q === undefined) {
          q = { times: [], head: 0 }
          queues.set(key, q)
        }
        while (q.head < q.times.length && q.times[q.head]! <= now - windowMs) q.head++
        if (q.head > 1024 && q.head * 2 > q.times.length) {
          q.times = q.times.slice(q.head)
          q.head = 0
        }
        if (q.times.length - q.head >= limit) {
          return Math.max(1, Math.ceil((q.times[q.head]! + windowMs - now) / 1000))
        }
        q.times.push(now)
        return undefined
      })
  }
}
