import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import * as Tracing from "@payrules/vitest/Tracing"
import { Cause, Effect, Exit, Layer, Tracer } from "effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import { call, postJson, sendIn, untraced } from "./helpers.js"

// What `Sandbox.layer` and `Sandbox.layerInProcess` promise beside serving the APIs: the URLs they give (loopback by
// default, an IPv6 host in brackets), the `tracing` option (a server span per request for the tracer the caller
// provides, with the credentials and the end user's personal data redacted; none without the option), a dropped
// connection over a real socket, the options they refuse, and the tenants' credentials as a command prints them.
// effect records a request's headers on its span only where `HttpMiddleware.TracerHeaderFilter` lets them through:
// the tests let all through, and the sandbox redacts what must not be shown.

const options = { seed: 12, plans: 15 } as const

/** every header on the server's spans (effect records none by default) */
const allHeaders = () => true

/** a tracer that keeps every span it makes, and the server spans among them */
const recording = () => {
  const { spans, tracer } = Tracing.recording()
  return { spans, tracer, servers: () => spans.filter((span) => span.kind === "server") }
}

const payment = "/international-payments/"
/** FAPI headers of a GET of an international payment, two of them the end user's personal data */
const fapi = {
  "x-fapi-financial-id": "001580000103UAvAAM",
  "x-fapi-customer-ip-address": "203.0.113.9",
  "x-customer-user-agent": "payrules-test/1.0"
}

describe("Sandbox.layerInProcess: tracing", () => {
  it.effect("tracing: true makes one server span per request, its secrets and personal data redacted", () => {
    const { servers, tracer } = recording()
    return Effect.gen(function* () {
      const s = yield* Sandbox.SandboxServer
      const id = (yield* sendIn(HttpClientRequest.get(`${s.urls.control}/seed`))).json as {
        payments: ReadonlyArray<{ id: string }>
      }
      const response = yield* sendIn(
        HttpClientRequest.get(`${s.urls.openBanking}${payment}${id.payments[0]!.id}`).pipe(
          HttpClientRequest.setHeaders(fapi)
        )
      )
      expect(response.status).toBe(200)
      const [seed, read] = servers()
      expect(servers()).toHaveLength(2)
      expect(seed?.attributes.get("http.request.method")).toBe("GET")
      const attributes = read!.attributes
      expect(attributes.get("http.response.status_code")).toBe(200)
      expect(attributes.get("url.path")).toBe(`/open-banking${payment}${id.payments[0]!.id}`)
      // effect's own secret (the token) and Open Banking's personal data are redacted; the rest is shown
      expect(String(attributes.get("http.request.header.authorization"))).toBe("<redacted>")
      expect(String(attributes.get("http.request.header.x-fapi-customer-ip-address"))).toBe("<redacted>")
      expect(String(attributes.get("http.request.header.x-customer-user-agent"))).toBe("<redacted>")
      expect(attributes.get("http.request.header.x-fapi-financial-id")).toBe(fapi["x-fapi-financial-id"])
      expect(JSON.stringify([...attributes.values()].map(String))).not.toContain(s.tenants[0]!.token)
      expect(JSON.stringify([...attributes.values()].map(String))).not.toContain("203.0.113.9")
    }).pipe(
      untraced,
      Effect.provide(Sandbox.layerInProcess({ ...options, tracing: true })),
      Effect.provideService(HttpMiddleware.TracerHeaderFilter, allHeaders),
      Effect.withTracer(tracer)
    )
  })

  it.effect("without tracing (the default): no server span, whatever tracer is provided", () => {
    const { servers, spans, tracer } = recording()
    return Effect.gen(function* () {
      const s = yield* Sandbox.SandboxServer
      expect((yield* sendIn(HttpClientRequest.get(`${s.urls.business}/exchange-reasons`))).status).toBe(200)
      expect(servers()).toEqual([])
      expect(spans).toEqual([])
    }).pipe(untraced, Effect.provide(Sandbox.layerInProcess(options)), Effect.withTracer(tracer))
  })

  it.effect("refuses a control token no Authorization header could carry: the layer dies with the typed error", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        Effect.provide(
          Effect.gen(function* () {
            return yield* Sandbox.SandboxServer
          }),
          Sandbox.layerInProcess({ ...options, controlToken: "a b" })
        )
      )
      expect(Exit.isFailure(exit)).toBe(true)
      const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      expect(defect).toBeInstanceOf(Sandbox.SandboxOptionsError)
      expect(defect).toMatchObject({ reason: "InvalidControlToken" })
    })
  )
})

describe("Sandbox.layer: over a socket", () => {
  it.effect("serves on loopback by default, on an ephemeral port, and says where", () =>
    Effect.gen(function* () {
      const s = yield* Sandbox.SandboxServer
      expect(s.port).toBeGreaterThan(0)
      expect(s.url).toBe(`http://127.0.0.1:${s.port}`)
      expect(s.urls).toEqual({
        openBanking: `${s.url}/open-banking`,
        merchant: `${s.url}/merchant`,
        business: `${s.url}/business`,
        docs: `${s.url}/docs`,
        control: `${s.url}/__sandbox`
      })
      expect((yield* call(`${s.urls.control}/clock`)).status).toBe(200)
    }).pipe(Effect.provide(Sandbox.layer(options)))
  )

  it.effect("on an IPv6 host: the URL puts the address in brackets, and it answers there", () =>
    Effect.gen(function* () {
      const s = yield* Sandbox.SandboxServer
      expect(s.url).toBe(`http://[::1]:${s.port}`)
      expect((yield* call(`${s.urls.control}/clock`)).status).toBe(200)
    }).pipe(Effect.provide(Sandbox.layer({ ...options, host: "::1" })))
  )

  it.effect("tracing: true makes a server span per request for the tracer provided to the layer, redacted", () => {
    const { servers, tracer } = recording()
    return Effect.gen(function* () {
      const s = yield* Sandbox.SandboxServer
      const r = yield* call(`${s.urls.business}/exchange-reasons`, {
        headers: { authorization: `Bearer ${s.tenants[0]!.token}` }
      })
      expect(r.status).toBe(200)
      const [span] = servers()
      expect(servers()).toHaveLength(1)
      expect(span?.attributes.get("http.response.status_code")).toBe(200)
      expect(String(span?.attributes.get("http.request.header.authorization"))).toBe("<redacted>")
    }).pipe(
      Effect.provide(
        Sandbox.layer({ ...options, tracing: true }).pipe(
          Layer.provide(
            Layer.merge(
              Layer.succeed(Tracer.Tracer)(tracer),
              Layer.succeed(HttpMiddleware.TracerHeaderFilter)(allHeaders)
            )
          )
        )
      )
    )
  })

  it.effect("without tracing: no server span for the tracer provided to the layer", () => {
    const { spans, tracer } = recording()
    return Effect.gen(function* () {
      const s = yield* Sandbox.SandboxServer
      const r = yield* call(`${s.urls.business}/exchange-reasons`, {
        headers: { authorization: `Bearer ${s.tenants[0]!.token}` }
      })
      expect(r.status).toBe(200)
      expect(spans).toEqual([])
    }).pipe(Effect.provide(Sandbox.layer(options).pipe(Layer.provide(Layer.succeed(Tracer.Tracer)(tracer)))))
  })

  it.effect(
    "a drop-after fault closes the socket without an answer, after the exchange is made (bug: an answer sent)",
    () =>
      Effect.gen(function* () {
        const s = yield* Sandbox.SandboxServer
        const seed = (yield* call(`${s.urls.control}/seed`)).json as {
          accounts: ReadonlyArray<{ id: string; currency: string }>
        }
        const gbp = seed.accounts.find((a) => a.currency === "GBP")!
        const eur = seed.accounts.find((a) => a.currency === "EUR")!
        const body = {
          from: { account_id: gbp.id, currency: "GBP", amount: 1 },
          to: { account_id: eur.id, currency: "EUR" },
          request_id: "drop-1"
        }
        const dropped = yield* Effect.exit(postJson(`${s.urls.business}/exchange`, body))
        // fetch rejects: the connection closed with no answer at all
        expect(Exit.isFailure(dropped)).toBe(true)
        expect(Exit.isFailure(dropped) && Cause.hasDies(dropped.cause)).toBe(true)
        // the exchange was made: the retry is its replay
        const retry = yield* postJson(`${s.urls.business}/exchange`, body)
        expect(retry.status).toBe(200)
        expect(retry.headers.get("idempotent-replayed")).toBe("true")
      }).pipe(
        Effect.provide(Sandbox.layer({ ...options, faults: [{ operation: "exchange", kind: "drop-after", count: 1 }] }))
      )
  )
})

describe("Sandbox.tenants and formatTenants", () => {
  it("gives the tenants of seed 1 by default, whatever the number of plans", () => {
    expect(Sandbox.tenants()).toEqual(Sandbox.tenants({ seed: 1 }))
    expect(Sandbox.tenants({ seed: 1, plans: 15 })).toEqual(Sandbox.tenants({ seed: 1 }))
    expect(Sandbox.tenants({ seed: 2 })).not.toEqual(Sandbox.tenants({ seed: 1 }))
    for (const tenant of Sandbox.tenants()) expect(tenant.token).toBe(tenant.tokens[0])
  })

  it("prints each tenant's id and name on one line, then each of its tokens on its own, indented", () => {
    const lines = Sandbox.formatTenants([
      { id: "t1", name: "First Ltd", token: "sbx_a", tokens: ["sbx_a", "sbx_b"] },
      { id: "tenant_long_id", name: "Second", token: "sbx_c", tokens: ["sbx_c"] }
    ])
    expect(lines).toEqual([
      "  t1            First Ltd",
      "                sbx_a",
      "                sbx_b",
      "  tenant_long_id  Second",
      "                sbx_c"
    ])
  })
})
