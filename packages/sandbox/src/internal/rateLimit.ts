/**
 * A sliding-window rate limit per key (the tenant): at most `limit` requests in any `windowMs`. Each key keeps the
 * times of its requests still in the window in a queue (a growing array read from a moving head, compacted when half
 * of it is spent): a request costs the same whatever the window holds, and no more than `limit` times are kept.
 *
 * The keys are kept in the order of their last request: the least recently used comes first, and each request drops
 * up to two keys whose window is empty from the front. Memory stays bounded by the keys active in the last window,
 * at a constant cost per request.
 *
 * @internal
 */
import * as Effect from "effect/Effect"

/** What the limiter holds. @internal */
export interface LimiterSize {
  /** the keys it keeps a window for */
  readonly keys: number
  /** the request times it stores, over all keys (spent slots not yet compacted included) */
  readonly times: number
}

/** @internal */
export interface SlidingWindow {
  readonly limit: number
  readonly windowMs: number
  /** records a request at `now`, or answers how many seconds to wait (Retry-After) when the window is full */
  readonly take: (key: string, now: number) => Effect.Effect<number | undefined>
  /** {@link take}, at once */
  readonly takeUnsafe: (key: string, now: number) => number | undefined
  readonly size: Effect.Effect<LimiterSize>
}

interface Queue {
  times: Array<number>
  head: number
}

/** keys with an empty window dropped per request, at most */
const EVICT = 2

/** @internal */
export const make = (limit: number, windowMs: number): SlidingWindow => {
  const queues = new Map<string, Queue>()
  const evict = (now: number) => {
    let dropped = 0
    for (const [key, q] of queues) {
      if (dropped >= EVICT || q.times[q.times.length - 1]! > now - windowMs) return
      queues.delete(key)
      dropped++
    }
  }
  const self: SlidingWindow = {
    limit,
    windowMs,
    take: (key, now) => Effect.sync(() => self.takeUnsafe(key, now)),
    takeUnsafe: (key, now) => {
      let q = queues.get(key)
      if (q === undefined) q = { times: [], head: 0 }
      // to the back: the order of the map is the order of last use
      queues.delete(key)
      evict(now)
      queues.set(key, q)
      while (q.head < q.times.length && q.times[q.head]! <= now - windowMs) q.head++
      if (q.head > 1024 && q.head * 2 > q.times.length) {
        q.times = q.times.slice(q.head)
        q.head = 0
      }
      if (q.times.length - q.head >= limit) {
        return Math.max(1, Math.ceil((q.times[q.head]! + windowMs - now) / 1000))
      }
      if (q.head === q.times.length && q.head > 0) {
        // an empty window: start the queue again
        q.times = []
        q.head = 0
      }
      q.times.push(now)
      return undefined
    },
    size: Effect.sync(() => {
      let times = 0
      for (const q of queues.values()) times += q.times.length
      return { keys: queues.size, times }
    })
  }
  return self
}
