/**
 * Virtual time for workloads with thousands of sleeps: a `Clock` whose time moves only to the next pending sleep, and
 * only once every fiber of the workload is idle. Like effect's `TestClock`, an answer that needs no waiting never loses
 * a race against a timeout, however slow or busy the machine is. Unlike it, a sleep that is interrupted (the timeout of
 * every request answered in time) is forgotten at once, and the workload runs on a scheduler of microtasks, so one
 * `setImmediate` turn tells that it is idle (effect's `TestClock.adjust` waits three 1 ms timer turns for every sleep
 * that comes due, interrupted ones included: a run of 1,000 exchanges registers some 2,000 timeouts, six seconds of
 * waiting for nothing). The e2e suites and the sandbox's in-process suite drive their fault scenarios with it.
 *
 * @since 0.0.0
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Scheduler from "effect/Scheduler"

interface Sleeper {
  readonly at: number
  readonly seq: number
  readonly wake: () => void
}

const byTime = (a: Sleeper, b: Sleeper) => a.at - b.at || a.seq - b.seq

/**
 * Runs `self` on a virtual clock that starts at `start` (epoch milliseconds) and returns its result and the virtual
 * time it took. Fails with a defect if the workload waits for something other than time (it would never end).
 *
 * @since 0.0.0
 */
export const run = <A, E, R>(
  self: Effect.Effect<A, E, R>,
  start = 0
): Effect.Effect<{ readonly value: A; readonly elapsed: Duration.Duration }, E, R> =>
  Effect.gen(function* () {
    let now = start
    let seq = 0
    // every task the workload's fibers schedule, every sleep they start and every sleep that ends: no change over a
    // turn of the event loop means that none of them can run until the time moves
    let events = 0
    const sleepers: Array<Sleeper> = []
    const insert = (s: Sleeper) => {
      let lo = 0
      let hi = sleepers.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (byTime(sleepers[mid]!, s) <= 0) lo = mid + 1
        else hi = mid
      }
      sleepers.splice(lo, 0, s)
    }
    const nanos = () => BigInt(Math.floor(now * 1_000_000))
    const monotonic = () => BigInt(Math.floor((now - start) * 1_000_000))
    const clock: Clock.Clock = {
      currentTimeMillisUnsafe: () => Math.floor(now),
      currentTimeNanosUnsafe: nanos,
      monotonicTimeNanosUnsafe: monotonic,
      currentTimeMillis: Effect.sync(() => Math.floor(now)),
      currentTimeNanos: Effect.sync(nanos),
      monotonicTimeNanos: Effect.sync(monotonic),
      sleep: (duration) => {
        const ms = Duration.toMillis(duration)
        if (!(ms > 0)) return Effect.yieldNow
        return Effect.callback<void>((resume) => {
          events++
          const sleeper: Sleeper = {
            at: now + ms,
            seq: seq++,
            wake: () => {
              events++
              resume(Effect.void)
            }
          }
          insert(sleeper)
          return Effect.sync(() => {
            const i = sleepers.indexOf(sleeper)
            if (i >= 0) sleepers.splice(i, 1)
          })
        })
      }
    }
    // the workload's fibers run in microtasks only: after one check phase of the event loop, all of them that can
    // run have run
    const microtasks: Scheduler.Scheduler = {
      executionMode: "async",
      shouldYield: (fiber) => fiber.currentOpCount > 2048,
      makeDispatcher: () => ({
        scheduleTask: (task) => {
          events++
          queueMicrotask(task)
        },
        flush: () => {}
      })
    }
    const quiet = Effect.callback<boolean>((resume) => {
      const before = events
      const check = setImmediate(() => resume(Effect.succeed(events === before)))
      return Effect.sync(() => clearImmediate(check))
    })
    const fiber = yield* Effect.forkChild(
      self.pipe(Effect.provideService(Clock.Clock, clock), Effect.provideService(Scheduler.Scheduler, microtasks))
    )
    while (true) {
      while (!(yield* quiet)) {
        // busy: wait for another turn
      }
      if (fiber.pollUnsafe() !== undefined) break
      const next = sleepers.shift()
      if (next === undefined) {
        if (fiber.pollUnsafe() !== undefined) break
        return yield* Effect.die(new Error("the workload waits, but not for time: it would never end"))
      }
      now = next.at
      next.wake()
      while (sleepers.length > 0 && sleepers[0]!.at === now) sleepers.shift()!.wake()
    }
    const value = yield* Fiber.join(fiber)
    return { value, elapsed: Duration.millis(now - start) }
  })
