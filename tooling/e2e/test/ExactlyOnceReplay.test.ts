import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ExactlyOnce from "./exactlyOnce.js"

// Issue 13, done when 2: the run of ExactlyOnce.test.ts again, in another file (another process, another time): the
// same seed reports the same fault and outcome counts, and each exchange ends the same way.

describe("BusinessClient exactly once under faults, replayed (in process, virtual time)", () => {
  it.effect("the same seed in another process: the same counts and the same outcome for each exchange", () =>
    Effect.gen(function* () {
      const run = yield* ExactlyOnce.recordedRun
      expect(run.problems).toEqual([])
      expect({ summary: run.summary, outcomes: ExactlyOnce.outcomesDigest(run.ended) }).toEqual(ExactlyOnce.recorded)
    })
  )
})
