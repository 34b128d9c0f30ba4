import { describe, expect, it } from "@effect/vitest"
import { Fault } from "@payrules/sandbox"
import { Effect } from "effect"
import * as ExactlyOnce from "./exactlyOnce.js"

// The sandbox runs in this process and virtual time (`@payrules/vitest/VirtualTime`) drives every timeout, retry and
// delay: the counts depend on the seed alone, not on the machine's speed or on how the requests interleave. This run
// and the one of ExactlyOnceReplay.test.ts (another file, another process) must both report what exactlyOnce.ts
// recorded.

describe("BusinessClient exactly once under faults of every kind (in process, virtual time)", () => {
  it.effect(
    "1,000 exchanges at 30%: each ends with one transaction on the server, or refused with none; the counts and outcomes recorded for the seed",
    () =>
      Effect.gen(function* () {
        const run = yield* ExactlyOnce.recordedRun
        const { summary } = run
        expect(run.problems).toEqual([])
        expect(summary.transactions + summary.refused).toBe(1_000)
        expect(run.onServer).toBe(summary.transactions)
        // every transaction moved 1 GBP, once
        expect(run.moved).toBe(String(summary.transactions))
        for (const kind of Fault.Kind.literals) expect(summary.faults[kind]).toBeGreaterThan(0)
        // each unknown exchange settled with one resumed call once the faults stopped
        expect(summary.resumes).toBe(summary.unknown)
        expect({ summary, outcomes: ExactlyOnce.outcomesDigest(run.ended) }).toEqual(ExactlyOnce.recorded)
      })
  )
})
