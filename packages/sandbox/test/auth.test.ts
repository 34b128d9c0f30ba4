import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Effect, Exit, Result } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Tenants from "../src/internal/tenants.js"
import { call, lazily, type SeedSummary, sendBareIn, sendIn, urlsIn } from "./helpers.js"

// Authentication (issue 15): Bearer only, one token68 of a seeded tenant; 401 in each family's error shape otherwise.
// The control plane: open on loopback unless a control token is set; required beyond loopback.

const options = { seed: 33, plans: 15 } as const
const tenantsOf = lazily(() => Sandbox.tenants(options))
const A = () => tenantsOf()[0]!
const B = () => tenantsOf()[1]!
const interaction = "93bac548-d2de-4546-b106-880a5018460d"

/** one operation of each family, with what it needs besides credentials */
const operations = (seed: SeedSummary, u: Sandbox.Running["urls"]) =>
  [
    {
      family: "business",
      request: HttpClientRequest.get(`${u.business}/exchange-reasons`),
      shape: { code: 9001, message: expect.any(String) }
    },
    {
      family: "business (POST)",
      request: HttpClientRequest.post(`${u.business}/pay/fields`).pipe(
        HttpClientRequest.bodyJsonUnsafe({
          account_id: seed.accounts[0]!.id,
          receiver: { counterparty_id: seed.counterparties[0]!.id }
        })
      ),
      shape: { code: 9001, message: expect.any(String) }
    },
    {
      family: "merchant",
      request: HttpClientRequest.get(`${u.merchant}/api/subscription-plans`).pipe(
        HttpClientRequest.setHeader("revolut-api-version", "2024-09-01")
      ),
      shape: { code: "unauthorized", message: expect.any(String), timestamp: expect.any(Number) }
    },
    {
      family: "open-banking",
      request: HttpClientRequest.get(`${u.openBanking}/international-payments/${seed.payments[0]!.id}`).pipe(
        HttpClientRequest.setHeaders({
          "x-fapi-financial-id": "001580000103UAvAAM",
          "x-fapi-interaction-id": interaction
        })
      ),
      shape: {
        Code: "401 Unauthorized",
        Id: interaction,
        Message: expect.any(String),
        Errors: [
          {
            ErrorCode: expect.stringMatching(/^UK\.OBIE\.Header\.(Missing|Invalid)$/),
            Message: expect.any(String),
            Path: "Authorization"
          }
        ]
      }
    }
  ] as const

/** the request with this Authorization header, or none */
const send = (request: HttpClientRequest.HttpClientRequest, value: string | undefined) =>
  sendBareIn(value === undefined ? request : request.pipe(HttpClientRequest.setHeader("authorization", value)))

describe("authentication", () => {
  it.effect("401 in each family's shape for no header, another scheme, a malformed or an unknown token", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      const seed = (yield* sendIn(HttpClientRequest.get(`${u.control}/seed`))).json as SeedSummary
      const refused: ReadonlyArray<string | undefined> = [
        undefined,
        "",
        "Basic dXNlcjpwYXNz",
        `Basic ${A().token}`,
        `Token  ${A().token}`,
        `Digest ${A().token}`,
        "Bearer",
        "Bearer ",
        `Bearer ${A().token} ${B().token}`,
        `Bearer ${A().token},x`,
        `Bearer "${A().token}"`,
        "Bearer sbx_northwind_00000000000000000000000000000000",
        `Bearer ${A().token}x`,
        `Bearer ${A().token.slice(0, -1)}`,
        `Bearer${A().token}`
      ]
      for (const op of operations(seed, u)) {
        for (const value of refused) {
          const r = yield* send(op.request, value)
          expect([op.family, value, r.status]).toEqual([op.family, value, 401])
          expect(r.json).toEqual(op.shape)
          expect(r.headers["www-authenticate"]).toBe('Bearer realm="payrules-sandbox"')
          if (op.family === "open-banking") {
            // absent credentials are Missing; present and refused ones Invalid
            const code = value === undefined || value === "" ? "UK.OBIE.Header.Missing" : "UK.OBIE.Header.Invalid"
            expect((r.json as { Errors: ReadonlyArray<{ ErrorCode: string }> }).Errors[0]!.ErrorCode).toBe(code)
          }
          // the message quotes no credentials
          expect(JSON.stringify(r.json)).not.toContain(A().token.slice(4))
        }
      }
    }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect("the Bearer scheme in any case, with any of the tenant's tokens, is accepted", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      const seed = (yield* sendIn(HttpClientRequest.get(`${u.control}/seed`))).json as SeedSummary
      for (const op of operations(seed, u)) {
        for (const value of [
          `Bearer ${A().token}`,
          `bearer ${A().token}`,
          `BEARER ${A().token}`,
          `Bearer   ${A().token}`,
          `Bearer ${A().tokens[1]}`,
          `Bearer ${B().token}`
        ]) {
          const r = yield* send(op.request, value)
          // B's payment and pay/fields ids are unknown to B: what counts here is that B got past authentication
          expect([op.family, value, r.status === 401]).toEqual([op.family, value, false])
        }
        expect((yield* send(op.request, `bearer ${A().token}`)).status).toBe(200)
      }
    }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect("an unknown path is a 404 with or without credentials", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      expect((yield* sendIn(HttpClientRequest.get(`${u.business}/nothing-here`))).status).toBe(404)
      const bare = HttpClientRequest.get(`${u.business}/nothing-here`).pipe(
        HttpClientRequest.setHeader("authorization", "Basic x")
      )
      expect((yield* sendIn(bare)).status).toBe(404)
    }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )
})

describe("the token of an Authorization header, and which hosts are loopback", () => {
  it('reads one token68 after the Bearer scheme in any case, and says why anything else is refused (bug: the scheme alone taken for the token "Bearer", or a blank header called another scheme)', () => {
    const required = "Authorization: Bearer <token> is required"
    const otherScheme = "only the Bearer authorization scheme is accepted"
    const notOne = "the Bearer credentials must be one token (RFC 7235 token68)"
    const noToken = "the Bearer scheme has no token: write Authorization: Bearer <token>"
    const cases: ReadonlyArray<readonly [string | undefined, Result.Result<string, string>]> = [
      [undefined, Result.fail(required)],
      ["", Result.fail(required)],
      ["   ", Result.fail(required)],
      ["Bearer", Result.fail(noToken)],
      ["bearer", Result.fail(noToken)],
      ["Bearer ", Result.fail(notOne)],
      ["Basic dXNlcjpwYXNz", Result.fail(otherScheme)],
      ["Bearertok", Result.fail(otherScheme)],
      ["Bearer tok", Result.succeed("tok")],
      ["BEARER   tok.en~/+_-9==", Result.succeed("tok.en~/+_-9==")],
      ["Bearer tok ", Result.succeed("tok")],
      ["Bearer a b", Result.fail(notOne)],
      ["Bearer =tok", Result.fail(notOne)],
      ['Bearer "tok"', Result.fail(notOne)]
    ]
    for (const [header, expected] of cases) expect([header, Tenants.bearerOf(header)]).toEqual([header, expected])
  })

  it("knows this machine's names and addresses, in any case and in brackets (bug: a host beyond the machine taken for loopback, or the reverse)", () => {
    for (const host of ["localhost", "LocalHost", "::1", "[::1]", "127.0.0.1", "127.255.0.9", "::ffff:127.0.0.1"]) {
      expect([host, Tenants.isLoopback(host)]).toEqual([host, true])
    }
    for (const host of [
      "0.0.0.0",
      "::",
      "192.0.2.10",
      "1127.0.0.1",
      "127.0.0.1.nip.io",
      "127.0.0",
      "localhost.example",
      "x127.0.0.1",
      "127.0.0.1234"
    ]) {
      expect([host, Tenants.isLoopback(host)]).toEqual([host, false])
    }
  })
})

describe("the control plane", () => {
  const get = (path: string, authorization?: string) =>
    Effect.flatMap(urlsIn, (u) => send(HttpClientRequest.get(`${u.control}${path}`), authorization))

  it.effect("open on loopback (and in process) without a control token", () =>
    Effect.gen(function* () {
      expect((yield* get("/seed")).status).toBe(200)
      expect((yield* get("/stats")).status).toBe(200)
    }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect("with a control token: required on every control endpoint (401 otherwise), and only there", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      for (const path of ["/seed", "/faults", "/ledger", "/stats", "/clock", "/requests", "/accounts"]) {
        for (const wrong of ["Bearer wrong-token", `Bearer ${A().token}`, "Basic Y29udHJvbA==", "Bearer"]) {
          const r = yield* get(path, wrong)
          expect([path, wrong, r.status]).toEqual([path, wrong, 401])
          expect(r.json).toMatchObject({ status: 401, message: expect.any(String) })
        }
        expect((yield* get(path)).status).toBe(401)
        expect((yield* get(path, "bearer ctl-secret.1")).status).toBe(200)
      }
      // a PUT of faults too
      const put = HttpClientRequest.put(`${u.control}/faults`).pipe(HttpClientRequest.bodyJsonUnsafe([]))
      expect((yield* send(put, "Bearer nope")).status).toBe(401)
      // the control token is no tenant's
      const reasons = HttpClientRequest.get(`${u.business}/exchange-reasons`)
      expect((yield* send(reasons, "Bearer ctl-secret.1")).status).toBe(401)
      // the control plane's root is refused like its endpoints; the pages beside it need no token
      const origin = new URL(u.control).origin
      expect((yield* send(HttpClientRequest.get(`${origin}/__sandbox`), undefined)).status).toBe(401)
      expect((yield* send(HttpClientRequest.get(`${origin}/__sandbox`), "Bearer ctl-secret.1")).status).toBe(404)
      const http = yield* HttpClient.HttpClient
      for (const page of ["/docs", "/favicon.ico"]) {
        expect([page, (yield* http.execute(HttpClientRequest.get(`${origin}${page}`))).status]).toEqual([page, 200])
      }
      expect((yield* send(HttpClientRequest.get(`${origin}/__sandboxes`), undefined)).status).toBe(404)
    }).pipe(Effect.provide(Sandbox.layerInProcess({ ...options, controlToken: "ctl-secret.1" })))
  )

  it.effect("beyond loopback without a control token: a typed error before listening", () =>
    Effect.gen(function* () {
      for (const host of ["0.0.0.0", "::", "192.0.2.10"]) {
        const exit = yield* Effect.exit(Effect.scoped(Sandbox.make({ ...options, host })))
        expect(exit).toStrictEqual(
          Exit.fail(
            new Sandbox.SandboxOptionsError({
              reason: "ControlTokenRequired",
              message: expect.stringContaining(host) as unknown as string
            })
          )
        )
      }
      const invalid = yield* Effect.exit(Effect.scoped(Sandbox.make({ ...options, controlToken: "two words" })))
      expect(Exit.isFailure(invalid) && JSON.stringify(invalid.cause)).toContain("InvalidControlToken")
    })
  )

  it.effect("on 0.0.0.0 with a control token: starts, and the control plane needs it", () =>
    Effect.gen(function* () {
      const s = yield* Sandbox.make({ ...options, host: "0.0.0.0", controlToken: "ctl-secret.2" })
      const url = `http://127.0.0.1:${s.port}/__sandbox/seed`
      expect((yield* call(url)).status).toBe(401)
      expect((yield* call(url, { headers: { authorization: "Bearer ctl-secret.2" } })).status).toBe(200)
      const api = yield* call(`http://127.0.0.1:${s.port}/business/exchange-reasons`, {
        headers: { authorization: `Bearer ${A().token}` }
      })
      expect(api.status).toBe(200)
    }).pipe(Effect.scoped)
  )
})
