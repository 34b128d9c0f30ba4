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
import * as Option from "effect/Option"
import * as Scheduler from "effect/Scheduler"
import * as Supervisor from "effect/Supervisor"

interface Sleeper {
  readonly at: number
  readonly seq: number
  readonly wake: () => void
}

/** counts every start, run and end of the workload's fibers: no change over a turn of the event loop means idle */
class Activity extends Supervisor.AbstractSupervisor<void> {
  events = 0
  value = Effect.void
  override onStart() {
    this.events++
  }
  override onResume() {
    this.events++
  }
  override onSuspend() {
    this.events++
  }
  override onEnd() {
    this.events++
  }
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
    const clock: Clock.Clock = {
      [Clock.ClockTypeId]: Clock.ClockTypeId,
      unsafeCurrentTimeMillis: () => Math.floor(now),
      unsafeCurrentTimeNanos: nanos,
      currentTimeMillis: Effect.sync(() => Math.floor(now)),
      currentTimeNanos: Effect.sync(nanos),
      sleep: (duration) => {
        const ms = Duration.toMillis(Duration.decode(duration))
        if (!(ms > 0)) return Effect.void
        return Effect.async<void>((resume) => {
          const sleeper: Sleeper = { at: now + ms, seq: seq++, wake: () => resume(Effect.void) }
          insert(sleeper)
          return Effect.sync(() => {
            const i = sleepers.indexOf(sleeper)
            if (i >= 0) sleepers.splice(i, 1)
          })
        })
      }
    }
    const activity = new Activity()
    // the workload's fibers run in microtasks only: after one check phase of the event loop, all of them that can
    // run have run, and no change in their activity means none can run until the time moves
    const microtasks = Scheduler.make((task) => queueMicrotask(task))
    const quiet = Effect.async<boolean>((resume) => {
      const before = activity.events
      const check = setImmediate(() => resume(Effect.succeed(activity.events === before)))
      return Effect.sync(() => clearImmediate(check))
    })
    const fiber = yield* Effect.fork(
      self.pipe(Effect.withClock(clock), Effect.supervised(activity), Effect.withScheduler(microtasks))
    )
    while (true) {
      while (!(yield* quiet)) {
        // busy: wait for another turn
      }
      if (Option.isSome(yield* Fiber.poll(fiber))) break
      const next = sleepers.shift()
      if (next === undefined) {
        if (Option.isSome(yield* Fiber.poll(fiber))) break
        return yield* Effect.dieMessage("the workload waits, but not for time: it would never end")
      }
      now = next.at
      next.wake()
      while (sleepers.length > 0 && sleepers[0]!.at === now) sleepers.shift()!.wake()
    }
    const value = yield* Fiber.join(fiber)
    return { value, elapsed: Duration.millis(now - start) }
  })
