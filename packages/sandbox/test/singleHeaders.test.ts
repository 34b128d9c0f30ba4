import { describe, expect, it } from "@effect/vitest"
import * as SingleHeaders from "../src/internal/singleHeaders.js"

// Which repeated headers the middleware refuses (singleHeaders.ts), read off Node's raw header list: over a socket,
// two Authorization headers, two Content-Types or two Hosts were read as the first (Node drops the others), and two
// x-fapi-financial-id as one joined value. The answers over HTTP are in tooling/e2e's Hostile tests.

/** Node's raw list of these headers, and the number of names its headers object would have */
const raw = (...headers: ReadonlyArray<readonly [string, string]>) =>
  [headers.flat(), new Set(headers.map(([n]) => n.toLowerCase())).size] as const

describe("SingleHeaders.repeated", () => {
  it("finds a header HTTP allows once, given twice or more, in any case of its name", () => {
    expect(SingleHeaders.repeated(...raw(["Authorization", "Bearer a"], ["authorization", "Bearer b"]))).toEqual({
      name: "authorization",
      times: 2
    })
    expect(
      SingleHeaders.repeated(...raw(["Host", "a"], ["X-A", "1"], ["HOST", "a"], ["host", "b"], ["Accept", "*/*"]))
    ).toEqual({ name: "host", times: 3 })
    for (const name of SingleHeaders.names) {
      expect(SingleHeaders.repeated(...raw([name, "1"], [name.toUpperCase(), "1"]))).toEqual({ name, times: 2 })
    }
  })

  it("names the first header repeated, with all its repeats counted, not a header given once after it", () => {
    expect(
      SingleHeaders.repeated(
        ...raw(["Content-Type", "a"], ["Host", "h"], ["Host", "h"], ["Content-Type", "b"], ["Host", "h"])
      )
    ).toEqual({ name: "host", times: 3 })
    // a header given once after the repeated one is not it
    expect(SingleHeaders.repeated(...raw(["Host", "a"], ["Host", "b"], ["Authorization", "Bearer t"]))).toEqual({
      name: "host",
      times: 2
    })
  })

  it("lets lists and unknown headers repeat, and reads nothing when no name repeats", () => {
    expect(SingleHeaders.repeated(...raw(["Accept", "a"], ["accept", "b"], ["X-Trace", "1"], ["x-trace", "2"]))).toBe(
      undefined
    )
    expect(SingleHeaders.repeated(...raw(["Host", "a"], ["Authorization", "Bearer t"]))).toBe(undefined)
    expect(SingleHeaders.repeated([], 0)).toBe(undefined)
    // as many names as headers: the list is not read (a repeat it holds would be a list that lies about its count)
    expect(SingleHeaders.repeated(["Host", "a", "Host", "b"], 2)).toBe(undefined)
  })

  it("covers every header the sandbox reads that HTTP allows once", () => {
    expect([...SingleHeaders.names].sort()).toEqual([
      "authorization",
      "content-length",
      "content-type",
      "host",
      "revolut-api-version",
      "x-customer-user-agent",
      "x-fapi-auth-date",
      "x-fapi-customer-ip-address",
      "x-fapi-customer-last-logged-time",
      "x-fapi-financial-id",
      "x-fapi-interaction-id"
    ])
  })
})
