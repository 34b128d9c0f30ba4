import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { crashes, points } from "./crash.js"

// Issue 16, done when 1 (kills 1 to 10 of 50; the five files run the kills of five seeds)
describe("crash test: SIGKILL at a random point, then resumePending in a new process on the same SQLite file", () => {
  it.live("10 kills (seed 161): exactly one transaction per request_id, each settled by the next process", () =>
    Effect.map(crashes({ seed: 161, kills: 10 }), (drawn) => {
      expect(new Set(drawn)).toEqual(new Set(points))
    })
  )
})
