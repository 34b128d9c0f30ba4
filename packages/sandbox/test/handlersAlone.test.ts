import { NodeHttpServer } from "@effect/platform-node"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Sandbox, SandboxApi } from "@payrules/sandbox"
import { Effect, Layer } from "effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Handlers from "../src/internal/handlers.js"
import * as StateLayer from "../src/internal/stateLayer.js"
import { lazily } from "./helpers.js"

// The handlers trust the sandbox's middleware: it authenticates each request and hands its tenant and time on
// (internal/call.ts). Served without it (a router with only the API's routes), no API handler serves a tenant's data:
// each family's security answers 401 in the family's own error shape (as a client of that family reads a refusal),
// and a control handler that needs the sandbox's time fails (500) rather than answer on a clock it did not read.
// Guards the handlers' own checks, which the middleware otherwise hides: a change that let a request without a tenant
// through would serve data to no one in particular.

const options = { seed: 8, plans: 15 } as const
// made in the tests that use them, not when the file loads (see @payrules/vitest/Lazy)
const tenant = lazily(() => Sandbox.tenants(options)[0]!)
const bearer = lazily(() => ({ authorization: `Bearer ${tenant().token}` }))
const base = "http://handlers.test"

/** the API's routes and handlers on effect's router, with the sandbox's state, and nothing else */
const serveWithoutMiddleware = () =>
  HttpRouter.toWebHandler(
    HttpApiBuilder.layer(SandboxApi.SandboxApi).pipe(
      Layer.provide(Handlers.layer),
      Layer.provide(StateLayer.layer(options, () => Effect.void)),
      Layer.provide(NodeHttpServer.layerHttpServices)
    ),
    { disableLogger: true }
  )

let made: ReturnType<typeof serveWithoutMiddleware> | undefined
const web = () => {
  made ??= serveWithoutMiddleware()
  return made
}
afterAll(() => made?.dispose())

const send = async (path: string, init: RequestInit = {}) => {
  const response = await web().handler(new Request(`${base}${path}`, init))
  const text = await response.text()
  return { status: response.status, text, json: text === "" ? undefined : (JSON.parse(text) as unknown) }
}

const unauthenticated = "Authorization: Bearer <token> of a tenant is required"

describe("sandbox handlers without the middleware", () => {
  it("Open Banking: 401 in the Open Banking shape, naming the Authorization header", async () => {
    const r = await send("/open-banking/international-payments/ip_1", {
      headers: { ...bearer(), "x-fapi-financial-id": "001580000103UAvAAM" }
    })
    expect(r.status).toBe(401)
    expect(r.json).toEqual({
      Code: "401 Unauthorized",
      Message: unauthenticated,
      Errors: [{ ErrorCode: "UK.OBIE.Header.Missing", Message: unauthenticated, Path: "Authorization" }]
    })
  })

  it("merchant: 401 in the merchant shape, at the sandbox's time the middleware did not read (0)", async () => {
    const r = await send("/merchant/api/subscription-plans", { headers: bearer() })
    expect(r.status).toBe(401)
    expect(r.json).toEqual({ code: "unauthorized", message: unauthenticated, timestamp: 0 })
  })

  it("business: 401 in the business shape, for each of its operations", async () => {
    for (const [path, init] of [
      ["/business/exchange-reasons", {}],
      ["/business/transactions", {}],
      [
        "/business/exchange",
        { method: "POST", body: "{}", headers: { ...bearer(), "content-type": "application/json" } }
      ],
      [
        "/business/pay/fields",
        { method: "POST", body: "{}", headers: { ...bearer(), "content-type": "application/json" } }
      ]
    ] as const) {
      const r = await send(path, { headers: bearer(), ...init })
      expect(r.status, path).toBe(401)
      expect(r.json, path).toMatchObject({ code: 9001, message: unauthenticated })
    }
  })

  it("control: a handler that reads the sandbox's time fails (500) outside the middleware, and shows nothing", async () => {
    for (const path of ["/__sandbox/clock", "/__sandbox/ledger", "/__sandbox/accounts"]) {
      const r = await send(path)
      expect(r.status, path).toBe(500)
      expect(r.text, path).not.toContain(tenant().token)
      expect(r.text, path).not.toContain(tenant().id)
    }
    const advance = await send("/__sandbox/clock", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_ms: 1_000 })
    })
    expect(advance.status).toBe(500)
  })
})
