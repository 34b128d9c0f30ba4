import { describe, it } from "@effect/vitest"
import * as ExactlyOnce from "./exactlyOnce.js"

// Issue 14, done when 1, at 50% faults: for any sequence of faults (the seed decides it: drops, delays, 503 and 500,
// 429, failures during execution) and any mix of valid and refused exchanges, once the faults stop and every unknown
// exchange is resumed, each request_id has exactly one transaction or one definite refusal: none unknown, none twice.
// The sandbox runs in process on virtual time; effect's Arbitrary draws the scenarios from a fixed seed of its own, so
// the test is the same on every run. One scenario per file (the second is ExactlyOnceAt50b.test.ts, from another seed),
// so that each file stays short on a busy machine.

describe("exactly once, as a property (in process, virtual time)", () => {
  it.effect.prop(
    "1,000 exchanges at 50% faults",
    [ExactlyOnce.scenario],
    ([s]) => ExactlyOnce.holds(0.5, s),
    ExactlyOnce.once(5014)
  )
})
