import { describe, expect, it } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { BusinessClient } from "@payrules/transport"
import { issuesOf } from "@payrules/vitest"
import { BigDecimal, Config, Duration, Effect, Exit, Fiber, Layer, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientError, type HttpClientRequest, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"

/** the typed failure of an exit (undefined when it succeeded or died) */
const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined => Option.getOrUndefined(Exit.findErrorOption(exit))

// The business client against a fake server (an HttpClient that answers in process), on the TestClock.

interface Seen {
  readonly method: string
  readonly path: string
  readonly body: string
}

type Answer = Response | "drop" | "hang"

const fake = (answer: (seen: Seen, n: number) => Answer) => {
  const seen: Array<Seen> = []
  const http = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request: HttpClientRequest.HttpClientRequest, url) =>
      Effect.suspend(() => {
        const body = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
        const s = { method: request.method, path: url.pathname, body }
        seen.push(s)
        const a = answer(s, seen.length)
        if (a === "hang") return Effect.never
        if (a === "drop") {
          return Effect.fail(
            new HttpClientError.HttpClientError({
              reason: new HttpClientError.TransportError({ request, description: "dropped" })
            })
          )
        }
        return Effect.succeed(HttpClientResponse.fromWeb(request, a))
      })
    )
  )
  return { seen, http }
}

const client = (http: Layer.Layer<HttpClient.HttpClient>, config: Partial<BusinessClient.BusinessClientConfig> = {}) =>
  Effect.provide(
    BusinessClient.BusinessClient,
    BusinessClient.layer({
      ...BusinessClient.defaults,
      baseUrl: "http://business.test",
      token: Redacted.make("t"),
      ...config
    }).pipe(Layer.provide([http, RequestLedger.layer]))
  )

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

const reasons = [{ code: "supplier_payment", name: "Paying a supplier" }]
const tx = { id: "8b0d3f3e-0c3a-4d59-9a4e-8f5c1f2b7a10", type: "exchange", state: "completed" }

const sell = (amount: string, extra: object = {}): BusinessClient.ExchangeInput =>
  ({
    _tag: "Sell",
    from: { account_id: "a", currency: "GBP" },
    to: { account_id: "b", currency: "EUR" },
    amount: BigDecimal.fromStringUnsafe(amount),
    request_id: "req-1",
    ...extra
  }) as BusinessClient.ExchangeInput

describe("Retry-After, up to maxRetryAfter (TestClock)", () => {
  it.effect("a Retry-After within the cap is waited for exactly, then the call is retried", () =>
    Effect.gen(function* () {
      const server = fake((_, n) =>
        n === 1 ? json({ code: 9429, message: "slow down" }, 429, { "retry-after": "30" }) : json(reasons)
      )
      const business = yield* client(server.http)
      const fiber = yield* Effect.forkChild(business.exchangeReasons)
      yield* TestClock.adjust(Duration.millis(29_999))
      expect(server.seen).toHaveLength(1)
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Fiber.join(fiber)).toEqual({ reasons, findings: [] })
      expect(server.seen).toHaveLength(2)
    })
  )

  it.effect("a Retry-After over the cap fails at once: a typed rate-limit error with the server's value", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 9429, message: "come back later" }, 429, { "retry-after": "120" }))
      const business = yield* client(server.http)
      // no clock moves: the call ends now
      const e = yield* Effect.flip(business.exchangeReasons)
      expect(e).toMatchObject({ reason: "TooManyRequests", status: 429, retryAfter: Duration.seconds(120) })
      expect(e.message).toContain("maxRetryAfter 1m")
      expect(server.seen).toHaveLength(1)
      // the cap is configurable (and the deadline, 2 minutes by default, would end the call at the instant of the retry)
      const patient = yield* client(server.http, { maxRetryAfter: Duration.minutes(5), deadline: Duration.minutes(5) })
      const fiber = yield* Effect.forkChild(patient.exchangeReasons)
      yield* TestClock.adjust("119 seconds")
      expect(server.seen).toHaveLength(2)
      yield* TestClock.adjust("1 second")
      expect(server.seen).toHaveLength(3)
      yield* Fiber.interrupt(fiber)
    })
  )
})

describe("the deadline of a call (TestClock)", () => {
  it.effect("a read ends at its deadline with reason Deadline, attempts and waits included", () =>
    Effect.gen(function* () {
      const server = fake(() => "hang")
      // 3 attempts of 10 s and their backoff would take more than 30 s
      const business = yield* client(server.http, { deadline: Duration.seconds(15) })
      const fiber = yield* Effect.forkChild(Effect.exit(business.exchangeReasons))
      yield* TestClock.adjust(Duration.millis(14_999))
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.millis(1))
      const exit = yield* Fiber.join(fiber)
      expect(failureOf(exit)).toMatchObject({ _tag: "BusinessClientError", reason: "Deadline" })
      expect(server.seen).toHaveLength(2)
    })
  )

  it.effect("an exchange that meets its deadline after sending is ExchangeOutcomeUnknown; resuming settles it", () =>
    Effect.gen(function* () {
      let up = false
      const server = fake((s) => (up ? (s.path.endsWith("/exchange") ? json(tx) : json([])) : "hang"))
      const business = yield* client(server.http, { deadline: Duration.seconds(5) })
      const fiber = yield* Effect.forkChild(Effect.flip(business.exchange(sell("10"))))
      yield* TestClock.adjust("5 seconds")
      expect(yield* Fiber.join(fiber)).toMatchObject({ _tag: "ExchangeOutcomeUnknown", requestId: "req-1" })
      up = true
      const before = server.seen.length
      expect(yield* business.exchange(sell("10"))).toMatchObject({ transaction: { id: tx.id }, findings: [] })
      expect(server.seen.length - before).toBe(1)
    })
  )
})

describe("the response size limit", () => {
  it.effect("a Content-Length over the limit is a typed error, and the body is not read", () =>
    Effect.gen(function* () {
      let pulled = 0
      const big = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++
          controller.enqueue(new Uint8Array(65_536))
        }
      })
      const server = fake(() => new Response(big, { headers: { "content-length": String(4 * 1_048_576) } }))
      const business = yield* client(server.http)
      const e = yield* Effect.flip(business.exchangeReasons)
      expect(e).toMatchObject({ reason: "ResponseTooLarge", status: 200 })
      expect(e.message).toContain("larger than 1048576 bytes")
      expect(pulled).toBeLessThanOrEqual(1)
    })
  )

  it.effect("a body without Content-Length is read up to the limit and no further", () =>
    Effect.gen(function* () {
      let pulled = 0
      const endless = () =>
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled++
            controller.enqueue(new TextEncoder().encode("x".repeat(65_536)))
          }
        })
      const server = fake(() => new Response(endless()))
      const business = yield* client(server.http, { maxResponseBytes: 256 * 1024 })
      const e = yield* Effect.flip(business.exchangeReasons)
      expect(e).toMatchObject({ reason: "ResponseTooLarge", status: 200 })
      // 256 KiB is four chunks of 64 KiB: the fifth passes the limit, and reading stops there
      expect(pulled).toBeLessThanOrEqual(7)
      expect(e.raw?.length ?? 0).toBeLessThanOrEqual(4096)
    })
  )

  it.effect("an error keeps at most 4 KiB of its raw body", () =>
    Effect.gen(function* () {
      const server = fake(() => new Response("e".repeat(100_000), { status: 400 }))
      const business = yield* client(server.http)
      const e = yield* Effect.flip(business.exchangeReasons)
      expect(e).toMatchObject({ reason: "BadRequest", status: 400 })
      expect(e.raw!.startsWith("e".repeat(4096))).toBe(true)
      expect(e.raw!.length).toBeLessThan(4200)
      expect(e.raw).toContain("95904 more characters")
    })
  )
})

describe("the base URL", () => {
  it.effect.each([
    "not a url",
    "/business",
    "ftp://business.test",
    "http://user:secret@business.test",
    "http://business.test/?sandbox=1",
    "http://business.test/#top",
    "http://bad host"
  ])("%s is refused when the layer is built, before any request", (baseUrl) =>
    Effect.gen(function* () {
      const server = fake(() => json(reasons))
      const error = yield* Effect.flip(client(server.http, { baseUrl }))
      expect(error).toBeInstanceOf(Config.ConfigError)
      expect(Schema.isSchemaError(error.cause) ? issuesOf(error.cause) : []).toEqual([
        { path: ["baseUrl"], message: expect.stringContaining("is not a base URL") }
      ])
      expect(server.seen).toHaveLength(0)
    })
  )

  it.effect("a trailing slash is fine", () =>
    Effect.gen(function* () {
      const server = fake(() => json(reasons))
      const business = yield* client(server.http, { baseUrl: "https://business.test/api/" })
      yield* business.exchangeReasons
      expect(server.seen.map((s) => s.path)).toEqual(["/api/exchange-reasons"])
    })
  )
})

describe("replayed and fresh refusals", () => {
  it.effect("a replayed refusal is definite, carries the server's code, and answers repeats from the ledger", () =>
    Effect.gen(function* () {
      const server = fake(() =>
        json({ code: 3448, message: "an exchange reason is required" }, 400, { "idempotent-replayed": "true" })
      )
      const business = yield* client(server.http)
      const e = yield* Effect.flip(business.exchange(sell("20000")))
      expect(e).toMatchObject({ _tag: "BusinessClientError", replayed: true, status: 400, body: { code: 3448 } })
      const again = yield* Effect.flip(business.exchange(sell("20000")))
      expect(again).toMatchObject({ _tag: "BusinessClientError", replayed: true, body: { code: 3448 } })
      expect(server.seen).toHaveLength(1)
      // the server keeps that answer for the id: another body under it is refused before sending
      expect((yield* Effect.flip(business.exchange(sell("1"))))._tag).toBe("RequestIdConflict")
      expect(server.seen).toHaveLength(1)
    })
  )

  it.effect("a fresh refusal frees the request_id: the corrected body is sent with it and succeeds", () =>
    Effect.gen(function* () {
      const server = fake((s) =>
        s.body.includes("exchange_reason_code") ? json(tx) : json({ code: 3448, message: "reason required" }, 400)
      )
      const business = yield* client(server.http)
      const e = yield* Effect.flip(business.exchange(sell("20000")))
      expect(e).toMatchObject({ _tag: "BusinessClientError", replayed: false, body: { code: 3448 } })
      const ok = yield* business.exchange(sell("20000", { exchange_reason_code: "supplier_payment" }))
      expect(ok.transaction.id).toBe(tx.id)
      expect(server.seen.map((s) => JSON.parse(s.body).request_id)).toEqual(["req-1", "req-1"])
    })
  )

  it.effect("a replayed 500 (a failure the server stored) is definite: not retried, not unknown", () =>
    Effect.gen(function* () {
      const server = fake(() =>
        json({ code: 9500, message: "failed in execution" }, 500, { "idempotent-replayed": "true" })
      )
      const business = yield* client(server.http)
      const e = yield* Effect.flip(business.exchange(sell("10")))
      expect(e).toMatchObject({ _tag: "BusinessClientError", reason: "ServerError", replayed: true, status: 500 })
      expect(server.seen).toHaveLength(1)
    })
  )

  it.effect("the server's conflict (3021) is a RequestIdConflict", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 3021, message: "request_id used for another exchange" }, 400))
      const business = yield* client(server.http)
      expect(yield* Effect.flip(business.exchange(sell("10")))).toMatchObject({
        _tag: "RequestIdConflict",
        requestId: "req-1"
      })
    })
  )

  it.effect("unknown while the answers are lost; once they are not, one call settles it", () =>
    Effect.gen(function* () {
      let lost = true
      const server = fake((s) => (lost ? "drop" : s.path.endsWith("/exchange") ? json(tx) : json([])))
      const business = yield* client(server.http, {
        exchangeRetry: { maxAttempts: 2, baseDelay: 10, maxDelay: 10, minSpacing: 0 },
        retry: { maxAttempts: 1, baseDelay: 10, maxDelay: 10, minSpacing: 0 }
      })
      const fiber = yield* Effect.forkChild(Effect.flip(business.exchange(sell("10"))))
      yield* TestClock.adjust("1 second")
      expect(yield* Fiber.join(fiber)).toMatchObject({ _tag: "ExchangeOutcomeUnknown", attempts: 2 })
      lost = false
      const before = server.seen.length
      expect((yield* business.exchange(sell("10"))).transaction.id).toBe(tx.id)
      expect(server.seen.length - before).toBe(1)
    })
  )
})

describe("request_id on the lookup (strict out)", () => {
  it.effect("a request_id with a control character, empty or over 40 characters is refused before sending", () =>
    Effect.gen(function* () {
      const server = fake(() => json([tx]))
      const business = yield* client(server.http)
      for (const id of ["a\u0000b", "r\r\nx", "", "r".repeat(41), "r\ud800"]) {
        const e = yield* Effect.flip(business.findTransactionByRequestId(id))
        expect(e.reason).toBe("BadRequest")
        expect(e.status).toBeUndefined()
        expect(e.message).toContain("request_id")
      }
      expect(server.seen).toEqual([])
      expect((yield* business.findTransactionByRequestId("r-1")).transaction._tag).toBe("Some")
      expect(server.seen.length).toBe(1)
    })
  )
})
