import { describe, expect, it } from "@effect/vitest"
import { Fault } from "@payrules/sandbox"
import { Effect } from "effect"
import * as ExactlyOnce from "./exactlyOnce.js"
import { inProcess } from "./layers.js"
import * as VirtualTime from "./virtualTime.js"

// The sandbox runs in this process and virtual time (./virtualTime.ts) drives every timeout, retry and delay: the
// counts depend on the seed alone, not on the machine's speed or on how the requests interleave.

const runAt = (seed: number, rate: number) =>
  Effect.map(
    VirtualTime.run(
      ExactlyOnce.run({ exchanges: 1_000, prefix: "eo", refused: (i) => i % 7 === 3 }).pipe(
        Effect.provide(inProcess({ seed, plans: 15, faults: ExactlyOnce.everyFault(rate) }, { timeout: "1 second" }))
      )
    ),
    (r) => r.value
  )

describe("BusinessClient exactly once under faults of every kind (in process, virtual time)", () => {
  it.effect(
    "1,000 exchanges at 30%: each ends with one transaction on the server, or refused with none; two runs with the same seed report the same counts",
    () =>
      Effect.gen(function* () {
        const first = yield* runAt(41, 0.3)
        const { summary } = first
        expect(first.problems).toEqual([])
        expect(summary.transactions + summary.refused).toBe(1_000)
        expect(first.onServer).toBe(summary.transactions)
        // every transaction moved 1 GBP, once
        expect(first.moved).toBe(String(summary.transactions))
        for (const kind of Fault.Kind.literals) expect(summary.faults[kind]).toBeGreaterThan(0)
        // each unknown exchange settled with one resumed call once the faults stopped
        expect(summary.resumes).toBe(summary.unknown)
        const second = yield* runAt(41, 0.3)
        expect(second.summary).toEqual(summary)
        const tags = (ended: typeof first.ended) => ended.map(([id, end]) => `${id} ${end._tag}`)
        expect(tags(second.ended)).toEqual(tags(first.ended))
      })
  )
})
