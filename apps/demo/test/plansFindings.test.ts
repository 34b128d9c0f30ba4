import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { payrules } from "./Harness.js"

// Issue 34: `payrules plans` against an API of a later version: a plan in a state added since and a plan the reader
// cannot decode no longer cost the listing; both are shown as findings, and the listing goes on to the next page.

const plan = (id: string, state: string, cycle_duration = "P1M") => ({
  id,
  name: `Plan ${id}`,
  state,
  created_at: "2026-04-01T00:00:00Z",
  updated_at: "2026-04-01T00:00:00Z",
  variations: [{ id: `${id}-v`, phases: [{ id: `${id}-p`, ordinal: 1, cycle_duration, amount: 500, currency: "GBP" }] }]
})

const pages = (url: URL) =>
  url.searchParams.get("page_token") === "p2"
    ? { subscription_plans: [plan("d", "active")] }
    : {
        subscription_plans: [plan("a", "active"), plan("b", "archived"), plan("c", "active", "P0.5Y")],
        next_page_token: "p2"
      }

/** a merchant API on 127.0.0.1 answering the two pages, for the length of the scope */
const laterApi = Effect.acquireRelease(
  Effect.callback<Server>((resume) => {
    const server = createServer((request, response) => {
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify(pages(new URL(request.url ?? "/", "http://127.0.0.1"))))
    })
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
)

const env = { PAYRULES_TOKEN: "t" }

describe("payrules plans shows what a later API sends (issue 34)", () => {
  it.live("a plan in state archived and an undecodable plan: the others listed, both reported, every page read", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* laterApi
        const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        const r = yield* payrules(["plans", "--base-url", baseUrl], { env })
        expect(r.code).toBe(0)
        const lines = r.stdout.trimEnd().split("\n")
        expect(lines[0]).toBe("3 plans")
        expect(r.stdout).toContain("b  Plan b (archived: a state this version does not know)")
        expect(r.stdout).toContain("d  Plan d (active)")
        expect(lines.slice(-2)).toEqual([
          expect.stringMatching(/^warning: page 1, subscription_plans\.1\.state: state "archived" is not a value/),
          expect.stringMatching(
            /^error: page 1, subscription_plans\.2\.variations\.0\.phases\.0\.cycle_duration: plan 2 \(id "c"\) could not be read/
          )
        ])
        const json = yield* payrules(["plans", "--base-url", baseUrl, "--format", "json"], { env })
        const plans = JSON.parse(json.stdout) as ReadonlyArray<{ id: string; state: string }>
        // the plans as the API sent them: the state added since is the text that was read
        expect(plans.map((p) => [p.id, p.state])).toEqual([
          ["a", "active"],
          ["b", "archived"],
          ["d", "active"]
        ])
        expect(
          json.stderr
            .trimEnd()
            .split("\n")
            .map((l) => l.split(":")[0])
        ).toEqual(["warning", "error"])
      })
    )
  )
})
