import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Effect } from "effect"
import { lazily, payFieldsIn, untraced } from "./helpers.js"

// Issue 15: credentials are checked before the /pay/fields limiter, so a flood of unknown tokens leaves it as it was
// (measured as the limiter's keys and stored times, from /__sandbox/stats). In its own file: 10,000 requests in
// process take a few seconds.

const options = { seed: 35, plans: 15 } as const
const tenantsOf = lazily(() => Sandbox.tenants(options))
const A = () => tenantsOf()[0]!

describe("the /pay/fields limiter's memory (in process)", () => {
  it.effect("10,000 requests with distinct unknown tokens get 401 and leave the limiter as it was", () =>
    Effect.gen(function* () {
      const { fields, stats } = yield* payFieldsIn
      for (let i = 0; i < 5; i++) expect(yield* fields(A().token)).toBe(200)
      const before = yield* stats
      expect(before).toMatchObject({ limiter_keys: 1, limiter_times: 5 })
      const statuses = new Set<number>()
      yield* Effect.forEach(
        Array.from({ length: 10_000 }, (_, i) => `sbx_mallory_${i.toString(16).padStart(32, "0")}`),
        (token) => Effect.map(fields(token), (status) => void statuses.add(status)),
        { concurrency: 16, discard: true }
      )
      expect([...statuses]).toEqual([401])
      expect(yield* stats).toMatchObject({ limiter_keys: before.limiter_keys, limiter_times: before.limiter_times })
      // and the tenant is still counted where it was
      expect(yield* fields(A().tokens[1]!)).toBe(200)
      expect(yield* stats).toMatchObject({ limiter_keys: 1, limiter_times: 6 })
    }).pipe(untraced, Effect.provide(Sandbox.layerInProcess(options)))
  )
})
