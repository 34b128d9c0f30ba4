/**
 * Issue 34: `payrules exchange` against a server of a later API version, which answers an exchange in a state this
 * version does not know ("held"): the command succeeds (the money moved), shows the unknown state for what it is, and
 * prints the finding; `payrules resume` then has nothing pending.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeTransaction, findingLines } from "../src/commands/Exchange.js"
import { payrules } from "./Harness.js"

interface LaterServer {
  readonly url: string
  /** how many exchanges it received */
  readonly posts: () => number
  readonly close: Effect.Effect<void>
}

/** a business server on loopback that answers every exchange as "held", and every lookup with nothing */
const laterServer = Effect.acquireRelease(
  Effect.callback<LaterServer>((resume) => {
    let posts = 0
    const server = createServer((req, res) => {
      if (req.method === "POST") posts++
      req.resume()
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(
          JSON.stringify(
            req.method === "POST" ? { id: "8b0d3f3e-0c3a-4d59-9a4e-8f5c1f2b7a10", type: "exchange", state: "held" } : []
          )
        )
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(
        Effect.succeed({
          url: `http://127.0.0.1:${port}`,
          posts: () => posts,
          close: Effect.callback<void>((done) => {
            server.close(() => done(Effect.void))
            server.closeAllConnections()
          })
        })
      )
    })
  }),
  (s) => s.close
)

const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "payrules-cli-held-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("payrules exchange: a state added to the API since", () => {
  it("the transaction line says the state is unknown and what that means; the finding follows", () => {
    expect(describeTransaction({ id: "t-1", state: { _tag: "Unknown", value: "held" } })).toBe(
      'transaction t-1: unknown state "held" (a state this version does not know: the exchange exists, its request_id is settled)'
    )
    expect(describeTransaction({ id: "t-2", state: "declined", reason_code: "insufficient_balance" })).toBe(
      "transaction t-2: declined (insufficient_balance)"
    )
    expect(
      findingLines([{ severity: "warning", rule: "UnknownValue", path: ["state"], message: "state held is new" }])
    ).toEqual(["warning: state: state held is new"])
  })

  it.live("the command succeeds with the unknown state and its finding, and resume has nothing pending", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* laterServer
        const dir = yield* tempDir
        const env = { PAYRULES_TOKEN: "t" }
        const args = ["--base-url", server.url, "--ledger", "sqlite:./ledger.db"]
        const exchange = yield* payrules(
          ["exchange", "--sell", "25", "--from-account", "a", "--to-account", "b", "--request-id", "held-cli", ...args],
          { cwd: dir, env }
        )
        expect([exchange.code, exchange.stderr]).toEqual([0, ""])
        const lines = exchange.stdout.trim().split("\n")
        expect(lines[0]).toBe(
          'transaction 8b0d3f3e-0c3a-4d59-9a4e-8f5c1f2b7a10: unknown state "held" (a state this version does not know: the exchange exists, its request_id is settled)'
        )
        expect(lines[1]).toMatch(/^warning: state: state "held" is not a state this version of payrules knows/)
        expect(lines).toHaveLength(2)
        const resume = yield* payrules(["resume", ...args], { cwd: dir, env })
        expect([resume.code, resume.stdout.trim()]).toEqual([0, `nothing pending in sqlite:${join(dir, "ledger.db")}`])
        expect(server.posts()).toBe(1)
      })
    )
  )
})
