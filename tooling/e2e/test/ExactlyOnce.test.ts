import { describe, expect, it } from "@effect/vitest"
import { Fault } from "@payrules/sandbox"
import { Effect } from "effect"
import * as ExactlyOnce from "./exactlyOnce.js"
import { inProcess } from "./layers.js"
import * as VirtualTime from "./virtualTime.js"

// The sandbox runs in this process and virtual time (./virtualTime.ts) drives every timeout, retry and delay: the
// counts depend on the seed alone, not on the machine's speed or on how the requests interleave.
const faulty = (seed: number, rate: number) =>
  inProcess(
    { seed, plans: 15, faults: Fault.mixed("*", rate, undefined, { delayMs: 2_500, retryAfterSeconds: 0 }) },
    { timeout: "1 second" }
  )

const runAt = (seed: number, rate: number, exchanges: number) =>
  Effect.map(
    VirtualTime.run(ExactlyOnce.run({ exchanges, prefix: "eo" }).pipe(Effect.provide(faulty(seed, rate)))),
    (r) => r.value
  )

describe("BusinessClient exactly once under faults of every kind (in process, virtual time)", () => {
  it.effect(
    "1,000 exchanges at 30%: each ends with exactly one transaction on the server, or refused with none; the same seed gives the same counts",
    () =>
      Effect.gen(function* () {
        const first = yield* runAt(41, 0.3, 1_000)
        const { summary } = first
        expect(first.problems).toEqual([])
        expect(summary.transactions + summary.refused).toBe(1_000)
        expect(first.onServer).toBe(summary.transactions)
        // every transaction moved 1 GBP, once
        expect(first.moved).toBe(String(summary.transactions))
        for (const kind of Fault.Kind.literals) expect(summary.faults[kind]).toBeGreaterThan(0)
        expect(summary.received).toBeGreaterThan(1_000)
        const second = yield* runAt(41, 0.3, 1_000)
        expect(second.summary).toEqual(summary)
        const tags = (ended: typeof first.ended) => [...ended].map(([id, end]) => `${id} ${end._tag}`)
        expect(tags(second.ended)).toEqual(tags(first.ended))
      })
  )
})
