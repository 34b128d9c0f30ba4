import { describe, expect, it } from "@effect/vitest"
import { Sandbox, SandboxApi } from "@payrules/sandbox"
import { Effect, Schema } from "effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiClient from "effect/http-api/HttpApiClient"
import { balancesIn, seedIn, sendBareIn, sendIn, urlsIn } from "./helpers.js"

// What each handler answers, to the field, where a client reads more than the status: the JSON content type of the
// answers written as text, the Open Banking refusals (another institution,
// an unknown payment) as the Open Banking error format has them, the control plane's tenant lookup, its request log
// cleared, its clock moved twice, and its stats (the process's CPU, a full collection when the process exposes one).

const options = { seed: 27, plans: 15 } as const
/** made in each test that provides it, not when the file loads (see @payrules/vitest/Lazy) */
const sandbox = () => Sandbox.layerInProcess(options)
const financialId = "001580000103UAvAAM"

describe("sandbox handlers: what each answers", () => {
  it.effect("GET plans and GET transactions are JSON (bug: their text served as text/plain)", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      const plans = yield* sendIn(
        HttpClientRequest.get(`${u.merchant}/api/subscription-plans?limit=2`).pipe(
          HttpClientRequest.setHeader("revolut-api-version", "2024-09-01")
        )
      )
      expect(plans.status).toBe(200)
      expect(plans.headers["content-type"]).toBe("application/json")
      const transactions = yield* sendIn(HttpClientRequest.get(`${u.business}/transactions?request_id=never-sent`))
      expect(transactions.status).toBe(200)
      expect(transactions.headers["content-type"]).toBe("application/json")
      expect(transactions.json).toEqual([])
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("Open Banking: another institution is 403 naming the institution and the one the sandbox is", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      const seed = yield* seedIn
      const other = "0015800000jfwxXAAQ"
      const r = yield* sendIn(
        HttpClientRequest.get(`${u.openBanking}/international-payments/${seed.payments[0]!.id}`).pipe(
          HttpClientRequest.setHeader("x-fapi-financial-id", other)
        )
      )
      expect(r.status).toBe(403)
      expect(r.json).toEqual({
        Code: "403 Forbidden",
        Id: r.headers["x-fapi-interaction-id"],
        Message: `this token may not access institution ${other}`,
        Errors: [
          {
            ErrorCode: "UK.OBIE.Header.Invalid",
            Message: `x-fapi-financial-id must be ${financialId} in the sandbox`,
            Path: "x-fapi-financial-id"
          }
        ]
      })
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("Open Banking: an unknown payment id is 400 Resource.NotFound naming the id", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      const r = yield* sendIn(
        HttpClientRequest.get(`${u.openBanking}/international-payments/ip_nope`).pipe(
          HttpClientRequest.setHeader("x-fapi-financial-id", financialId)
        )
      )
      expect(r.status).toBe(400)
      expect(r.json).toMatchObject({
        Code: "400 Bad Request",
        Message: "no international payment ip_nope",
        Errors: [
          {
            ErrorCode: "UK.OBIE.Resource.NotFound",
            Message: "the InternationalPaymentId does not exist",
            Path: "InternationalPaymentId"
          }
        ]
      })
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("GET /__sandbox/seed: each payment with its id, status and profile", () =>
    Effect.gen(function* () {
      const seed = yield* seedIn
      expect(seed.payments.length).toBeGreaterThan(0)
      for (const payment of seed.payments as ReadonlyArray<{ id: string; status: string; profile: string }>) {
        expect(payment).toEqual({ id: expect.any(String), status: expect.any(String), profile: "revolut" })
      }
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("a control request for an unknown tenant: 404 naming the tenant asked for", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      for (const path of ["accounts", "ledger"]) {
        const r = yield* sendBareIn(HttpClientRequest.get(`${u.control}/${path}?tenant=t_nobody`))
        expect(r.status).toBe(404)
        expect(r.json).toEqual({ status: 404, message: 'no tenant "t_nobody"' })
      }
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("bug: the control plane's declared errors are what it sends (an HttpApiClient could not read them)", () =>
    Effect.gen(function* () {
      // the control endpoints as a client of their own HttpApi group reads them: before, the group declared
      // `{ _tag, message }` and the sandbox sent `{ status, message }`, so each refusal was a decoding failure
      const client = yield* HttpApiClient.make(HttpApi.make("control").add(SandboxApi.ControlGroup), {
        baseUrl: Sandbox.inProcessUrl
      })
      const unknown = yield* Effect.flip(client.sandbox.accounts({ query: { tenant: "t_nobody" } }))
      expect(unknown).toEqual({ status: 404, message: 'no tenant "t_nobody"' })
      const ledger = yield* Effect.flip(client.sandbox.ledger({ query: { tenant: "t_nobody" } }))
      expect(ledger).toEqual({ status: 404, message: 'no tenant "t_nobody"' })
      const far = yield* Effect.flip(client.sandbox.advanceClock({ payload: { advance_ms: 8_640_000_000_000_000 } }))
      expect(far).toMatchObject({ status: 400, message: expect.stringContaining("past 9999-01-01T00:00:00.000Z") })
      // a body the endpoint's Schema refuses is the same 400, with the issue's path
      const negative = yield* Effect.flip(
        Effect.flatMap(
          sendBareIn(
            HttpClientRequest.post(`${Sandbox.inProcessUrl}/__sandbox/clock`).pipe(
              HttpClientRequest.bodyJsonUnsafe({ advance_ms: -1 })
            )
          ),
          (r) => (r.status === 400 ? Effect.fail(r.json) : Effect.succeed(r))
        )
      )
      expect(Schema.decodeUnknownSync(SandboxApi.ClockOutOfRange)(negative)).toMatchObject({
        status: 400,
        issues: [{ path: ["advance_ms"], message: expect.any(String) }]
      })
      expect(yield* client.sandbox.clock()).toMatchObject({ offset_ms: 0 })
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("DELETE /__sandbox/requests empties the request log (bug: it answered and kept the log)", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      yield* sendIn(HttpClientRequest.get(`${u.business}/exchange-reasons`))
      yield* sendIn(HttpClientRequest.get(`${u.business}/exchange-reasons`))
      const before = (yield* sendBareIn(HttpClientRequest.get(`${u.control}/requests`))).json as ReadonlyArray<unknown>
      expect(before.length).toBeGreaterThanOrEqual(2)
      yield* sendBareIn(HttpClientRequest.delete(`${u.control}/requests`)).pipe(Effect.ignore)
      const after = (yield* sendBareIn(HttpClientRequest.get(`${u.control}/requests`))).json as ReadonlyArray<{
        path: string
      }>
      // what is left is at most the DELETE itself
      expect(after.filter((e) => e.path.endsWith("/exchange-reasons"))).toEqual([])
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("POST /__sandbox/clock twice: each answer is the clock moved by all advances so far", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      const clock = (yield* sendBareIn(HttpClientRequest.get(`${u.control}/clock`))).json as { now: string }
      const start = Date.parse(clock.now)
      const advance = (ms: number) =>
        Effect.map(
          sendBareIn(
            HttpClientRequest.post(`${u.control}/clock`).pipe(HttpClientRequest.bodyJsonUnsafe({ advance_ms: ms }))
          ),
          (r) => r.json as { now: string; offset_ms: number }
        )
      expect(yield* advance(60_000)).toEqual({ now: new Date(start + 60_000).toISOString(), offset_ms: 60_000 })
      expect(yield* advance(3_600_000)).toEqual({
        now: new Date(start + 3_660_000).toISOString(),
        offset_ms: 3_660_000
      })
      const read = (yield* sendBareIn(HttpClientRequest.get(`${u.control}/clock`))).json
      expect(read).toEqual({ now: new Date(start + 3_660_000).toISOString(), offset_ms: 3_660_000 })
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect(
    "bug: an advance past 9999-01-01 is a 400 that moves nothing (it moved the time past JavaScript's dates: every exchange answered 500 after moving the money, and moved it again when retried)",
    () =>
      Effect.gen(function* () {
        const u = yield* urlsIn
        const seed = yield* seedIn
        const clock = () =>
          Effect.map(
            sendBareIn(HttpClientRequest.get(`${u.control}/clock`)),
            (r) => r.json as { now: string; offset_ms: number }
          )
        const advance = (ms: number) =>
          sendBareIn(
            HttpClientRequest.post(`${u.control}/clock`).pipe(HttpClientRequest.bodyJsonUnsafe({ advance_ms: ms }))
          )
        const start = yield* clock()
        const room = Date.UTC(9999, 0, 1) - Date.parse(start.now)
        expect(yield* advance(8_640_000_000_000_000)).toEqual({
          status: 400,
          headers: expect.anything(),
          json: {
            status: 400,
            message: `advance_ms: 8640000000000000 would move the sandbox's time past 9999-01-01T00:00:00.000Z (it is ${start.now}): at most ${room}`
          }
        })
        expect(yield* advance(room + 1)).toMatchObject({ status: 400 })
        expect(yield* clock()).toEqual(start)
        // to the latest time itself, and no further
        expect(yield* advance(room)).toMatchObject({
          status: 200,
          json: { now: "9999-01-01T00:00:00.000Z", offset_ms: room }
        })
        expect(yield* advance(1)).toMatchObject({
          status: 400,
          json: { message: expect.stringContaining("at most 0") }
        })
        // exchanges still run there, once each, and their instants are written in four-digit years
        const balances = () => Effect.map(balancesIn, (accounts) => accounts.find((a) => a.id === seed.accounts[0]!.id))
        const before = yield* balances()
        const body = {
          from: { account_id: seed.accounts[0]!.id, currency: "GBP", amount: 1 },
          to: { account_id: seed.accounts[1]!.id, currency: "EUR" },
          request_id: "late-1"
        }
        const first = yield* sendIn(
          HttpClientRequest.post(`${u.business}/exchange`).pipe(HttpClientRequest.bodyJsonUnsafe(body))
        )
        expect(first).toMatchObject({ status: 200, json: { created_at: "9999-01-01T00:00:00Z" } })
        const again = yield* sendIn(
          HttpClientRequest.post(`${u.business}/exchange`).pipe(HttpClientRequest.bodyJsonUnsafe(body))
        )
        expect(again).toMatchObject({ status: 200, json: first.json, headers: { "idempotent-replayed": "true" } })
        expect(Number((yield* balances())!.balance)).toBe(Number(before!.balance) - 1)
      }).pipe(Effect.provide(sandbox()))
  )

  it.effect(
    "GET /__sandbox/stats: the process's CPU so far, after a memory-reducing full collection when gc is exposed",
    () =>
      Effect.gen(function* () {
        const u = yield* urlsIn
        const g = globalThis as { gc?: unknown }
        const had = g.gc
        const calls: Array<unknown> = []
        g.gc = (gcOptions: unknown) => {
          calls.push(gcOptions)
        }
        const cpu = process.cpuUsage()
        const stats = yield* sendBareIn(HttpClientRequest.get(`${u.control}/stats`)).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              if (had === undefined) delete g.gc
              else g.gc = had
            })
          )
        )
        expect(calls).toEqual([{ type: "major", execution: "sync", flavor: "last-resort" }])
        const json = stats.json as { cpu_us: number; rss: number; heap_used: number }
        // user and system time together, of this process, from its start
        expect(json.cpu_us).toBeGreaterThanOrEqual(cpu.user + cpu.system)
        expect(json.rss).toBeGreaterThan(json.heap_used)
      }).pipe(Effect.provide(sandbox()))
  )
})
