import { describe, expect, it } from "@effect/vitest"
import { ExchangeRequest, RequestLedger } from "@payrules/exchange"
import { BusinessClient, PayFieldsLimiter } from "@payrules/transport"
import { issuesOf } from "@payrules/vitest"
import {
  BigDecimal,
  Cause,
  Clock,
  Config,
  ConfigProvider,
  Duration,
  Effect,
  Exit,
  Fiber,
  Layer,
  Logger,
  Option,
  Redacted,
  Result,
  Schema
} from "effect"
import { HttpClient, HttpClientError, type HttpClientRequest, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"

/** the typed failure of an exit (undefined when it succeeded or died) */
const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined => Option.getOrUndefined(Exit.findErrorOption(exit))

// The business client against a fake server (an HttpClient that answers in process), on the TestClock.

interface Seen {
  readonly method: string
  readonly path: string
  /** the query string, `?` included (empty when there is none) */
  readonly query: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** the TestClock's time when the request was sent */
  readonly at: number
  /** the spans the request was sent in, innermost first, past the HttpClient's own: their names and attributes */
  readonly spans: ReadonlyArray<readonly [string, Readonly<Record<string, unknown>>]>
}

/** the spans around the current one (the HttpClient's), innermost first */
const enclosingSpans = Effect.map(Effect.option(Effect.currentSpan), (current) => {
  const spans: Array<readonly [string, Readonly<Record<string, unknown>>]> = []
  let s = Option.flatMap(current, (c) => c.parent)
  while (Option.isSome(s) && s.value._tag === "Span") {
    spans.push([s.value.name, Object.fromEntries(s.value.attributes)])
    s = s.value.parent
  }
  return spans
})

/**
 * a response, or no answer: `drop` (the connection is lost after sending), `hang` (no answer ever), `unsent` (the
 * HttpClient refuses the request before sending it: a body it cannot encode)
 */
type Answer = Response | "drop" | "hang" | "unsent" | "bad-url"

const fake = (answer: (seen: Seen, n: number) => Answer) => {
  const seen: Array<Seen> = []
  const http = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request: HttpClientRequest.HttpClientRequest, url) =>
      Effect.flatMap(Effect.zip(Clock.currentTimeMillis, enclosingSpans), ([at, spans]) => {
        const body = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
        const s = {
          method: request.method,
          path: url.pathname,
          query: url.search,
          headers: request.headers,
          body,
          at,
          spans
        }
        seen.push(s)
        const a = answer(s, seen.length)
        if (a === "hang") return Effect.never
        if (a === "drop" || a === "unsent" || a === "bad-url") {
          return Effect.fail(
            new HttpClientError.HttpClientError({
              reason:
                a === "drop"
                  ? new HttpClientError.TransportError({ request, description: "dropped" })
                  : a === "unsent"
                    ? new HttpClientError.EncodeError({ request, description: "cannot encode" })
                    : new HttpClientError.InvalidUrlError({ request, description: "bad url" })
            })
          )
        }
        return Effect.succeed(HttpClientResponse.fromWeb(request, a))
      })
    )
  )
  return { seen, http }
}

const client = (
  http: Layer.Layer<HttpClient.HttpClient>,
  config: Partial<BusinessClient.BusinessClientConfig> = {},
  ledger: Layer.Layer<RequestLedger.RequestLedger> = RequestLedger.layer
) =>
  Effect.provide(
    BusinessClient.BusinessClient,
    BusinessClient.layer({
      ...BusinessClient.defaults,
      baseUrl: "http://business.test",
      token: Redacted.make("t"),
      ...config
    }).pipe(Layer.provide([http, ledger]))
  )

/** a client and the ledger it records in (in memory), to look at what it recorded */
const withLedger = (
  http: Layer.Layer<HttpClient.HttpClient>,
  config: Partial<BusinessClient.BusinessClientConfig> = {}
) =>
  Effect.gen(function* () {
    const ledger = yield* RequestLedger.make()
    const business = yield* client(http, config, Layer.succeed(RequestLedger.RequestLedger, ledger))
    return { business, ledger }
  })

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

/**
 * runs `self` in a fiber while the TestClock moves by `step` until it ends (at most `steps` times); the TestClock
 * wakes each sleeper at its own instant, so the times the fake server sees are exact
 */
const settle = <A, E>(self: Effect.Effect<A, E>, step: Duration.Input = "1 minute", steps = 10) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(Effect.exit(self))
    for (let i = 0; i < steps && fiber.pollUnsafe() === undefined; i++) yield* TestClock.adjust(step)
    // a call that never ends fails the test now, not at its timeout
    expect(fiber.pollUnsafe(), "the call did not end").toBeDefined()
    return yield* Fiber.join(fiber)
  })

const quick = { maxAttempts: 3, baseDelay: 10, maxDelay: 10, minSpacing: 0 }

const fieldsRequest = { account_id: "acc", receiver: { counterparty_id: "c" } }
const fieldsAnswer = { fields: [{ name: "reference", required: true, validation: { max_length: 140 } }] }

describe("the retries of a read (TestClock)", () => {
  it.effect("a 503 is tried three times by default, then fails with the server's code and message", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 9503, message: "down for maintenance" }, 503))
      const business = yield* client(server.http)
      const e = failureOf(yield* settle(business.exchangeReasons))
      expect(e).toMatchObject({
        _tag: "BusinessClientError",
        reason: "ServerError",
        status: 503,
        body: { code: 9503, message: "down for maintenance" },
        raw: JSON.stringify({ code: 9503, message: "down for maintenance" }),
        message: "503: down for maintenance",
        requestId: undefined,
        retryAfter: undefined,
        replayed: false
      })
      expect(server.seen).toHaveLength(3)
    })
  )

  it.effect("the backoff starts at 0.5 s and doubles, with at most 20% jitter either way", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 9503, message: "down" }, 503))
      const business = yield* client(server.http)
      yield* settle(business.exchangeReasons)
      const [first, second, third] = server.seen.map((s) => s.at)
      expect(second! - first!).toBeGreaterThanOrEqual(400)
      expect(second! - first!).toBeLessThanOrEqual(600)
      expect(third! - second!).toBeGreaterThanOrEqual(800)
      expect(third! - second!).toBeLessThanOrEqual(1200)
    })
  )

  it.effect("no backoff is longer than maxDelay, and none shorter than minSpacing", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 9503, message: "down" }, 503))
      const capped = yield* client(server.http, {
        retry: { maxAttempts: 4, baseDelay: Duration.seconds(4), maxDelay: Duration.seconds(5), minSpacing: 0 }
      })
      yield* settle(capped.exchangeReasons)
      const gaps = server.seen.slice(1).map((s, i) => Math.round(s.at - server.seen[i]!.at))
      expect(gaps).toHaveLength(3)
      expect(gaps[0]).toBeGreaterThanOrEqual(3200)
      expect(gaps[0]).toBeLessThanOrEqual(4800)
      // 8 s and 16 s, jittered, capped at 5 s
      expect(gaps.slice(1)).toEqual([5000, 5000])

      const spaced = fake(() => json({ code: 9503, message: "down" }, 503))
      const patient = yield* client(spaced.http, {
        retry: { maxAttempts: 2, baseDelay: 10, maxDelay: 10, minSpacing: Duration.seconds(2) }
      })
      yield* settle(patient.exchangeReasons)
      expect(spaced.seen.map((s) => Math.round(s.at - spaced.seen[0]!.at))).toEqual([0, 2000])
    })
  )

  it.effect.each([408, 429, 500, 502, 503, 504])("a %d is worth another attempt: the second one answers", (status) =>
    Effect.gen(function* () {
      const server = fake((_, n) => (n === 1 ? json({ code: 9000, message: "try again" }, status) : json(reasons)))
      const business = yield* client(server.http, { retry: quick })
      expect(yield* settle(business.exchangeReasons)).toEqual(Exit.succeed({ reasons, findings: [] }))
      expect(server.seen).toHaveLength(2)
    })
  )

  it.effect.each([
    [400, "BadRequest"],
    [401, "Unauthorized"],
    [402, "BadRequest"],
    [403, "Forbidden"],
    [404, "NotFound"],
    [405, "MethodNotAllowed"],
    [406, "NotAcceptable"],
    [409, "BadRequest"],
    [422, "BadRequest"],
    [501, "ServerError"]
  ] as const)("a %d is final: one attempt, reason %s", ([status, reason]) =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 9000, message: "no" }, status))
      const business = yield* client(server.http, { retry: quick })
      expect(failureOf(yield* settle(business.exchangeReasons))).toMatchObject({
        reason,
        status,
        message: `${status}: no`
      })
      expect(server.seen).toHaveLength(1)
    })
  )

  it.effect("maxAttempts 1, or less, sends once", () =>
    Effect.gen(function* () {
      for (const maxAttempts of [1, 0]) {
        const server = fake(() => "drop")
        const business = yield* client(server.http, { retry: { ...quick, maxAttempts } })
        expect(failureOf(yield* settle(business.exchangeReasons))).toMatchObject({ reason: "Transport" })
        expect(server.seen).toHaveLength(1)
      }
    })
  )

  it.effect("a Retry-After longer than the backoff is waited for; a shorter one does not shorten it", () =>
    Effect.gen(function* () {
      const server = fake((_, n) =>
        n === 1 ? json({ code: 9429, message: "slow down" }, 429, { "retry-after": " 3 " }) : json(reasons)
      )
      const business = yield* client(server.http, { retry: quick })
      yield* settle(business.exchangeReasons)
      expect(server.seen.map((s) => s.at)).toEqual([0, 3000])

      const soon = fake((_, n) =>
        n === 1 ? json({ code: 9429, message: "slow down" }, 429, { "retry-after": "1" }) : json(reasons)
      )
      const spaced = yield* client(soon.http, { retry: { ...quick, minSpacing: Duration.seconds(2) } })
      yield* settle(spaced.exchangeReasons)
      expect(soon.seen.map((s) => Math.round(s.at - soon.seen[0]!.at))).toEqual([0, 2000])
    })
  )

  it.effect("a Retry-After that is neither seconds nor an HTTP date is ignored: the backoff applies", () =>
    Effect.gen(function* () {
      for (const value of ["30s", "a30", "", "soon"]) {
        const server = fake((_, n) =>
          n === 1 ? json({ code: 9429, message: "slow down" }, 429, { "retry-after": value }) : json(reasons)
        )
        const business = yield* client(server.http, { retry: quick })
        const exit = yield* settle(business.exchangeReasons)
        expect(exit).toEqual(Exit.succeed({ reasons, findings: [] }))
        expect(server.seen[1]!.at - server.seen[0]!.at).toBeLessThanOrEqual(12)
      }
    })
  )

  it.effect("a Retry-After over the cap is reported with both durations, and not retried", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 9429, message: "come back later" }, 429, { "retry-after": "90" }))
      const business = yield* client(server.http, { maxRetryAfter: Duration.seconds(30) })
      const e = yield* Effect.flip(business.exchangeReasons)
      expect(e.message).toBe(
        "429: come back later; the server asks to wait 1m 30s, longer than this client waits (maxRetryAfter 30s)"
      )
      expect(server.seen).toHaveLength(1)
      // at the cap, it is waited for
      const atCap = fake((_, n) =>
        n === 1 ? json({ code: 9429, message: "slow down" }, 429, { "retry-after": "30" }) : json(reasons)
      )
      const patient = yield* client(atCap.http, { maxRetryAfter: Duration.seconds(30) })
      expect(yield* settle(patient.exchangeReasons)).toEqual(Exit.succeed({ reasons, findings: [] }))
    })
  )
})

describe("what the client sends", () => {
  it.effect(
    "every request carries the bearer token and asks for JSON; the lookup sends the request_id as a query",
    () =>
      Effect.gen(function* () {
        const server = fake((s) => (s.path === "/exchange-reasons" ? json(reasons) : json([tx])))
        const business = yield* client(server.http)
        yield* business.exchangeReasons
        yield* business.findTransactionByRequestId("req 1")
        expect(server.seen.map((s) => [s.method, s.path, s.query])).toEqual([
          ["GET", "/exchange-reasons", ""],
          ["GET", "/transactions", "?request_id=req+1"]
        ])
        for (const s of server.seen) {
          expect(s.headers).toMatchObject({ authorization: "Bearer t", accept: "application/json" })
        }
      })
  )

  it.effect("an exchange is POSTed to /exchange as its wire body, with the token", () =>
    Effect.gen(function* () {
      const server = fake(() => json(tx))
      const business = yield* client(server.http)
      yield* business.exchange(sell("10.50"))
      expect(server.seen.map((s) => [s.method, s.path])).toEqual([["POST", "/exchange"]])
      expect(server.seen[0]!.headers).toMatchObject({ authorization: "Bearer t", accept: "application/json" })
      expect(JSON.parse(server.seen[0]!.body)).toEqual({
        request_id: "req-1",
        from: { account_id: "a", currency: "GBP", amount: 10.5 },
        to: { account_id: "b", currency: "EUR" }
      })
    })
  )
})

describe("failures without a readable answer", () => {
  it.effect("a lost connection is retried, then a Transport error that says so", () =>
    Effect.gen(function* () {
      const server = fake(() => "drop")
      const business = yield* client(server.http, { retry: quick })
      const e = failureOf(yield* settle(business.exchangeReasons))
      expect(e).toMatchObject({ reason: "Transport", status: undefined, raw: undefined, body: undefined })
      expect(e?.message).toMatch(/^the request failed: .*dropped/)
      expect(server.seen).toHaveLength(3)
    })
  )

  it.effect("a request the HttpClient refuses to send is not retried; an exchange so refused frees its id", () =>
    Effect.gen(function* () {
      for (const [answer, why] of [
        ["unsent", "cannot encode"],
        ["bad-url", "bad url"]
      ] as const) {
        const server = fake(() => answer)
        const { business, ledger } = yield* withLedger(server.http, { retry: quick, exchangeRetry: quick })
        const e = failureOf(yield* settle(business.exchangeReasons))
        expect(e).toMatchObject({
          reason: "Transport",
          message: expect.stringMatching(`^the request failed: .*${why}`)
        })
        expect(server.seen).toHaveLength(1)
        // never sent: nothing to look up, the request_id is free again
        expect(failureOf(yield* settle(business.exchange(sell("10"))))).toMatchObject({
          _tag: "BusinessClientError",
          reason: "Transport"
        })
        expect(server.seen.map((s) => s.method)).toEqual(["GET", "POST"])
        expect(yield* ledger.lookup("req-1")).toEqual(Option.none())
      }
    })
  )

  it.effect("an attempt without an answer times out after `timeout`, and says after how long", () =>
    Effect.gen(function* () {
      const server = fake(() => "hang")
      const business = yield* client(server.http, { timeout: Duration.seconds(3), retry: { ...quick, maxAttempts: 2 } })
      const e = failureOf(yield* settle(business.exchangeReasons))
      expect(e).toMatchObject({ reason: "Transport", message: "no answer within 3s" })
      expect(server.seen.map((s) => s.at)).toEqual([0, expect.closeTo(3010, -1)])
    })
  )

  it.effect("a body that breaks off while it is read is a Transport failure", () =>
    Effect.gen(function* () {
      const broken = () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              controller.error(new Error("connection reset"))
            }
          })
        )
      const server = fake(() => broken())
      const business = yield* client(server.http, { retry: { ...quick, maxAttempts: 1 } })
      const e = failureOf(yield* settle(business.exchangeReasons))
      expect(e).toMatchObject({ reason: "Transport" })
      expect(e?.message).toMatch(/^the response could not be read: /)
    })
  )

  it.effect("a 200 that is not JSON is a Decode failure with the raw body, not retried", () =>
    Effect.gen(function* () {
      const server = fake(() => new Response("<html>maintenance</html>", { status: 200 }))
      const business = yield* client(server.http, { retry: quick })
      const e = failureOf(yield* settle(business.exchangeReasons))
      expect(e).toMatchObject({
        reason: "Decode",
        status: 200,
        raw: "<html>maintenance</html>",
        body: undefined,
        message: "the response body is not JSON"
      })
      expect(server.seen).toHaveLength(1)
    })
  )

  it.effect("a 200 without a body, or of the wrong shape, names the path and the issue", () =>
    Effect.gen(function* () {
      const empty = fake(() => new Response("", { status: 200 }))
      const e = failureOf(yield* settle((yield* client(empty.http)).exchangeReasons))
      expect(e?.message).toBe("the response does not match the schema at (body): Expected array")
      const fields = fake(() => json({ fields: "none" }))
      const f = failureOf(yield* settle((yield* client(fields.http)).transferFieldRequirements(fieldsRequest)))
      expect(f).toMatchObject({
        reason: "Decode",
        message: expect.stringContaining("the response does not match the schema at fields: ")
      })
    })
  )

  it.effect("an error answer that is not the family's body keeps its first 200 characters as the message", () =>
    Effect.gen(function* () {
      const text = `gateway: ${"x".repeat(300)}`
      const server = fake(() => new Response(text, { status: 400 }))
      const e = failureOf(yield* settle((yield* client(server.http)).exchangeReasons))
      expect(e).toMatchObject({
        reason: "BadRequest",
        body: undefined,
        raw: text,
        message: `400: ${text.slice(0, 200)}`
      })
      // a JSON error of another shape: not the family's body either
      const other = fake(() => json({ error: "nope" }, 400))
      expect(failureOf(yield* settle((yield* client(other.http)).exchangeReasons))).toMatchObject({
        body: undefined,
        message: '400: {"error":"nope"}'
      })
    })
  )

  it.effect("an error body of exactly 4 KiB is kept whole", () =>
    Effect.gen(function* () {
      const text = "e".repeat(4096)
      const server = fake(() => new Response(text, { status: 400 }))
      expect(failureOf(yield* settle((yield* client(server.http)).exchangeReasons))?.raw).toBe(text)
    })
  )

  it.effect("a Content-Length within the limit is read; one over it says how long the body is", () =>
    Effect.gen(function* () {
      const body = JSON.stringify(reasons)
      const server = fake(() => new Response(body, { headers: { "content-length": String(body.length) } }))
      const business = yield* client(server.http, { maxResponseBytes: body.length })
      expect(yield* business.exchangeReasons).toEqual({ reasons, findings: [] })
      const small = yield* client(server.http, { maxResponseBytes: body.length - 1 })
      const e = yield* Effect.flip(small.exchangeReasons)
      expect(e).toMatchObject({ reason: "ResponseTooLarge", status: 200, raw: undefined })
      expect(e.message).toBe(
        `200: the response body is larger than ${body.length - 1} bytes (Content-Length ${body.length}); it was not read`
      )
    })
  )

  it.effect("a streamed body over the limit keeps its first 4 KiB; a 503 that large is not retried", () =>
    Effect.gen(function* () {
      const chunked = (...parts: ReadonlyArray<string>) =>
        new ReadableStream<Uint8Array>({
          pull(controller) {
            const next = parts[0]
            parts = parts.slice(1)
            if (next === undefined) controller.close()
            else controller.enqueue(new TextEncoder().encode(next))
          }
        })
      const server = fake(
        () => new Response(chunked("y".repeat(3000), "z".repeat(1500), "w".repeat(3000)), { status: 503 })
      )
      const business = yield* client(server.http, { maxResponseBytes: 5000, retry: quick })
      const e = failureOf(yield* settle(business.exchangeReasons))
      expect(e).toMatchObject({ reason: "ResponseTooLarge", status: 503 })
      expect(e?.raw).toBe(`${"y".repeat(3000)}${"z".repeat(1096)}`)
      expect(e?.message).toBe("503: the response body is larger than 5000 bytes; it was not read")
      expect(server.seen).toHaveLength(1)
      // a body of exactly the limit is read
      const exact = fake(() => new Response(JSON.stringify(reasons)))
      const fits = yield* client(exact.http, { maxResponseBytes: JSON.stringify(reasons).length })
      expect(yield* fits.exchangeReasons).toEqual({ reasons, findings: [] })
    })
  )
})

describe("POST /pay/fields under its rate limit (TestClock)", () => {
  it.effect("the request is POSTed as sent, with the token, and the answer read", () =>
    Effect.gen(function* () {
      const server = fake(() => json(fieldsAnswer))
      const business = yield* client(server.http)
      expect(yield* business.transferFieldRequirements(fieldsRequest)).toEqual({ ...fieldsAnswer, findings: [] })
      expect(server.seen.map((s) => [s.method, s.path, JSON.parse(s.body)])).toEqual([
        ["POST", "/pay/fields", fieldsRequest]
      ])
      expect(server.seen[0]!.headers).toMatchObject({ authorization: "Bearer t", accept: "application/json" })
    })
  )

  it.effect("bug: a request its Schema refuses is not sent and takes no permit (it was sent as it was)", () =>
    Effect.gen(function* () {
      let taken = 0
      const counting = Layer.succeed(PayFieldsLimiter.PayFieldsLimiter, { take: Effect.sync(() => void taken++) })
      const server = fake(() => json(fieldsAnswer))
      const business = yield* client(server.http).pipe(Effect.provide(counting))
      const both = { account_id: "acc", receiver: { counterparty_id: "c", account_id: "x", card_id: "y" } }
      const e = failureOf(yield* settle(business.transferFieldRequirements(both)))
      expect(e).toMatchObject({ _tag: "BusinessClientError", reason: "BadRequest", status: undefined })
      expect(e?.message).toMatch(/^the \/pay\/fields request is invalid: receiver: /)
      // a value of another type through a cast (a BigInt threw out of the JSON encoding) is refused the same way
      const cast = { account_id: 1n, receiver: { counterparty_id: "c" } } as unknown as typeof fieldsRequest
      expect(failureOf(yield* settle(business.transferFieldRequirements(cast)))?.message).toMatch(
        /^the \/pay\/fields request is invalid: account_id: /
      )
      expect([server.seen.length, taken]).toEqual([0, 0])
      // what is sent is the request as its Schema writes it: a key it does not have is not sent
      const extra = { ...fieldsRequest, note: "not a field" } as typeof fieldsRequest
      expect(Exit.isSuccess(yield* settle(business.transferFieldRequirements(extra)))).toBe(true)
      expect(server.seen.map((s) => JSON.parse(s.body))).toEqual([fieldsRequest])
    })
  )

  it.effect("without a limiter in the context, the client keeps its own payFieldsLimit", () =>
    Effect.gen(function* () {
      const server = fake(() => json(fieldsAnswer))
      // 2 a minute: a burst of 1, then one permit a minute
      const business = yield* client(server.http, { payFieldsLimit: { limit: 2, window: Duration.minutes(1) } })
      const calls = Effect.forEach([1, 2], () => business.transferFieldRequirements(fieldsRequest))
      expect(Exit.isSuccess(yield* settle(calls))).toBe(true)
      expect(server.seen.map((s) => s.at)).toEqual([0, 60_000])
    })
  )

  it.effect("every attempt takes a permit of the limiter of the context, retries included", () =>
    Effect.gen(function* () {
      let taken = 0
      const counting = Layer.succeed(PayFieldsLimiter.PayFieldsLimiter, {
        take: Effect.sync(() => void taken++)
      })
      const server = fake((_, n) => (n === 1 ? json({ code: 9429, message: "slow down" }, 429) : json(fieldsAnswer)))
      const business = yield* client(server.http, { retry: quick }).pipe(Effect.provide(counting))
      expect(Exit.isSuccess(yield* settle(business.transferFieldRequirements(fieldsRequest)))).toBe(true)
      expect(server.seen).toHaveLength(2)
      expect(taken).toBe(2)
    })
  )

  it.effect("a limiter that fails ends the call with its error, and nothing is sent", () =>
    Effect.gen(function* () {
      const failing = Layer.succeed(PayFieldsLimiter.PayFieldsLimiter, {
        take: Effect.fail(new PayFieldsLimiter.PayFieldsLimiterError({ reason: "StoreFailed", message: "no store" }))
      })
      const server = fake(() => json(fieldsAnswer))
      const business = yield* client(server.http, { retry: quick }).pipe(Effect.provide(failing))
      const e = failureOf(yield* settle(business.transferFieldRequirements(fieldsRequest)))
      expect(e).toMatchObject({ _tag: "PayFieldsLimiterError", reason: "StoreFailed", message: "no store" })
      expect(server.seen).toEqual([])
    })
  )

  it.effect("a 429 is retried, and a refusal comes back as a BusinessClientError without a request_id", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 3404, message: "no such counterparty" }, 404))
      const business = yield* client(server.http, { retry: quick })
      expect(failureOf(yield* settle(business.transferFieldRequirements(fieldsRequest)))).toMatchObject({
        _tag: "BusinessClientError",
        reason: "NotFound",
        requestId: undefined,
        body: { code: 3404 }
      })
      expect(server.seen).toHaveLength(1)
    })
  )
})

describe("an exchange under faults: sent once, settled or said unknown (TestClock)", () => {
  it.effect("without a request_id, the client makes one before the first attempt and resends it on every retry", () =>
    Effect.gen(function* () {
      const server = fake((_, n) => (n === 1 ? "drop" : json(tx)))
      const business = yield* client(server.http)
      const { request_id: _, ...anonymous } = sell("10") as BusinessClient.ExchangeInput & { request_id?: string }
      const exit = yield* settle(business.exchange(anonymous as BusinessClient.ExchangeInput))
      const made = server.seen.map((s) => JSON.parse(s.body).request_id)
      expect(made).toHaveLength(2)
      expect(made[1]).toBe(made[0])
      expect(made[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      expect(exit).toEqual(Exit.succeed(expect.objectContaining({ requestId: made[0] })))
      // at least 1 s between the attempts of an exchange (exchangeRetry's minSpacing)
      expect(Math.round(server.seen[1]!.at - server.seen[0]!.at)).toBe(1000)
    })
  )

  it.effect("an invalid exchange is refused before anything is sent, with every issue and its path", () =>
    Effect.gen(function* () {
      const server = fake(() => json(tx))
      const { business, ledger } = yield* withLedger(server.http)
      const e = yield* Effect.flip(business.exchange(sell("-1", { request_id: "bad-1" })))

      expect(e).toMatchObject({
        _tag: "BusinessClientError",
        reason: "BadRequest",
        status: undefined,
        requestId: "bad-1",
        replayed: false
      })
      expect(e.message).toBe("the exchange request is invalid: amount: an exchange amount is greater than 0")
      const same = yield* Effect.flip(business.exchange(sell("5", { to: { account_id: "b", currency: "GBP" } })))
      expect(same.message).toBe(
        "the exchange request is invalid: to.currency: to.currency must differ from from.currency: both are GBP, and an exchange converts one currency into another"
      )
      expect(server.seen).toEqual([])
      expect(yield* ledger.lookup("bad-1")).toEqual(Option.none())
    })
  )

  it.effect(
    "a refusal stored by the server (replayed) answers a repeat from the ledger with its status and message",
    () =>
      Effect.gen(function* () {
        const server = fake(
          () => new Response("stored failure", { status: 502, headers: { "idempotent-replayed": "True" } })
        )
        const { business, ledger } = yield* withLedger(server.http)
        const first = yield* Effect.flip(business.exchange(sell("10")))
        expect(first).toMatchObject({ reason: "ServerError", status: 502, replayed: true, body: undefined })
        expect(server.seen).toHaveLength(1)
        expect(Option.getOrThrow(yield* ledger.lookup("req-1")).state).toBe("refused")
        const again = yield* Effect.flip(business.exchange(sell("10")))
        expect(again).toMatchObject({
          _tag: "BusinessClientError",
          reason: "ServerError",
          status: 502,
          raw: undefined,
          body: undefined,
          requestId: "req-1",
          replayed: true,
          message: "502: 502: stored failure (the server's stored answer to request_id req-1)"
        })
        expect(server.seen).toHaveLength(1)
      })
  )

  it.effect("a stored refusal with a code keeps it, and its reason, on a repeat", () =>
    Effect.gen(function* () {
      const server = fake(() =>
        json({ code: 3004, message: "not enough money" }, 422, { "idempotent-replayed": "true" })
      )
      const business = yield* client(server.http)
      yield* Effect.flip(business.exchange(sell("10")))
      expect(yield* Effect.flip(business.exchange(sell("10")))).toMatchObject({
        reason: "BadRequest",
        status: 422,
        body: { code: 3004, message: "422: not enough money" },
        message: "422: 422: not enough money (the server's stored answer to request_id req-1)"
      })
    })
  )

  it.effect("attempts that all go unanswered end ExchangeOutcomeUnknown, with the count and how to resume", () =>
    Effect.gen(function* () {
      const server = fake((s) => (s.method === "POST" ? "drop" : json([])))
      const { business, ledger } = yield* withLedger(server.http)
      const e = failureOf(yield* settle(business.exchange(sell("10"))))
      expect(e).toMatchObject({ _tag: "ExchangeOutcomeUnknown", requestId: "req-1", attempts: 3 })
      expect(e?._tag === "ExchangeOutcomeUnknown" && e.lastError).toMatchObject({
        reason: "Transport",
        requestId: "req-1"
      })
      expect(e?.message).toMatch(
        /^the outcome of exchange req-1 is unknown after 3 attempt\(s\) \(the request failed: .*\); call exchange again with the same request_id to resume$/
      )
      // looked up by request_id once, after the last attempt
      expect(server.seen.map((s) => `${s.method} ${s.path}${s.query}`)).toEqual([
        "POST /exchange",
        "POST /exchange",
        "POST /exchange",
        "GET /transactions?request_id=req-1"
      ])
      const entry = Option.getOrThrow(yield* ledger.lookup("req-1"))
      expect(entry.state).toBe("unknown")
      expect(entry.outcome).toEqual(
        Option.some(
          RequestLedger.Outcome.Unknown({ message: (e as BusinessClient.ExchangeOutcomeUnknown).lastError.message })
        )
      )
    })
  )

  it.effect("a lost answer whose lookup finds the transaction settles the exchange, with the lookup's findings", () =>
    Effect.gen(function* () {
      const server = fake((s) => (s.method === "POST" ? "drop" : json([{ id: 7 }, tx])))
      const { business, ledger } = yield* withLedger(server.http, { exchangeRetry: { ...quick, maxAttempts: 1 } })
      const exit = yield* settle(business.exchange(sell("10")))
      expect(exit).toEqual(
        Exit.succeed({
          requestId: "req-1",
          transaction: expect.objectContaining({ id: tx.id }),
          findings: [
            expect.objectContaining({
              rule: "UnreadableItem",
              path: ["lookup", 0, "id"],
              message: expect.stringMatching(/^the lookup by request_id \(GET \/transactions\): /)
            })
          ]
        })
      )
      expect(Option.getOrThrow(yield* ledger.lookup("req-1")).state).toBe("succeeded")
      // a repeat answers from the ledger, with the transaction the lookup found
      const before = server.seen.length
      expect((yield* business.exchange(sell("10"))).transaction).toMatchObject({ id: tx.id })
      expect(server.seen.length).toBe(before)
    })
  )

  it.effect("an error answer too large to read: a 4xx frees the id, a 502 may come after processing", () =>
    Effect.gen(function* () {
      const big = (status: number) => new Response("e".repeat(2048), { status })
      const refused = fake((s) => (s.method === "GET" ? json([tx]) : big(400)))
      const first = yield* withLedger(refused.http, { maxResponseBytes: 1024 })
      expect(failureOf(yield* settle(first.business.exchange(sell("10"))))).toMatchObject({
        reason: "ResponseTooLarge",
        status: 400
      })
      expect(refused.seen.map((s) => s.method)).toEqual(["POST"])
      expect(yield* first.ledger.lookup("req-1")).toEqual(Option.none())

      const failed = fake((s) => (s.method === "GET" ? json([tx]) : big(502)))
      const second = yield* withLedger(failed.http, { maxResponseBytes: 1024 })
      expect(Exit.isSuccess(yield* settle(second.business.exchange(sell("10"))))).toBe(true)
      expect(failed.seen.map((s) => s.method)).toEqual(["POST", "GET"])
    })
  )

  it.effect("a lookup that fails too leaves the outcome unknown", () =>
    Effect.gen(function* () {
      const server = fake(() => "drop")
      const business = yield* client(server.http, { exchangeRetry: { ...quick, maxAttempts: 1 }, retry: quick })
      expect(failureOf(yield* settle(business.exchange(sell("10"))))).toMatchObject({
        _tag: "ExchangeOutcomeUnknown",
        attempts: 1
      })
      expect(server.seen.map((s) => s.method)).toEqual(["POST", "GET", "GET", "GET"])
    })
  )

  it.effect("503s that say the exchange was not processed are a refusal: the id is freed, nothing is looked up", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 9503, message: "unavailable" }, 503))
      const { business, ledger } = yield* withLedger(server.http, { exchangeRetry: quick })
      expect(failureOf(yield* settle(business.exchange(sell("10"))))).toMatchObject({
        _tag: "BusinessClientError",
        reason: "ServerError",
        status: 503,
        requestId: "req-1"
      })
      expect(server.seen.map((s) => s.method)).toEqual(["POST", "POST", "POST"])
      expect(yield* ledger.lookup("req-1")).toEqual(Option.none())
    })
  )

  it.effect("once one attempt went unanswered, a later 503 no longer settles it: the lookup decides", () =>
    Effect.gen(function* () {
      const server = fake((s, n) =>
        s.method === "GET" ? json([tx]) : n === 1 ? "drop" : json({ code: 9503, message: "unavailable" }, 503)
      )
      const business = yield* client(server.http, { exchangeRetry: quick })
      const exit = yield* settle(business.exchange(sell("10")))
      expect(exit).toEqual(
        Exit.succeed(expect.objectContaining({ transaction: expect.objectContaining({ id: tx.id }) }))
      )
      expect(server.seen.map((s) => s.method)).toEqual(["POST", "POST", "POST", "GET"])
    })
  )

  it.effect("a 500 may come after processing: the lookup decides", () =>
    Effect.gen(function* () {
      const server = fake((s) => (s.method === "GET" ? json([tx]) : json({ code: 9500, message: "oops" }, 500)))
      const business = yield* client(server.http, { exchangeRetry: { ...quick, maxAttempts: 1 } })
      expect(Exit.isSuccess(yield* settle(business.exchange(sell("10"))))).toBe(true)
      expect(server.seen.map((s) => s.method)).toEqual(["POST", "GET"])
    })
  )

  it.effect(
    "a 200 the client cannot read no longer frees the id as if refused: the exchange ran, the lookup decides",
    () =>
      Effect.gen(function* () {
        for (const answer of [
          () => new Response("<html>ok</html>", { status: 200 }),
          () => json({ id: 7 }),
          () => json({ id: 7 }, 200, { "idempotent-replayed": "true" }),
          () => new Response("x".repeat(2048), { status: 200, headers: { "idempotent-replayed": "true" } })
        ]) {
          const server = fake((s) => (s.method === "GET" ? json([tx]) : answer()))
          const { business, ledger } = yield* withLedger(server.http, { maxResponseBytes: 1024 })
          const exit = yield* settle(business.exchange(sell("10")))
          expect(exit).toEqual(
            Exit.succeed(expect.objectContaining({ transaction: expect.objectContaining({ id: tx.id }) }))
          )
          expect(server.seen.map((s) => s.method)).toEqual(["POST", "GET"])
          expect(Option.getOrThrow(yield* ledger.lookup("req-1")).state).toBe("succeeded")
        }
        // and when the lookup finds nothing either, the outcome is unknown: the entry stays pending
        const server = fake((s) => (s.method === "GET" ? json([]) : json({ id: 7 })))
        const { business, ledger } = yield* withLedger(server.http)
        expect(failureOf(yield* settle(business.exchange(sell("10"))))).toMatchObject({
          _tag: "ExchangeOutcomeUnknown",
          lastError: { reason: "Decode", status: 200 }
        })
        expect((yield* ledger.pending).map((e) => e.requestId)).toEqual(["req-1"])
      })
  )

  it.effect("a fresh 400 after a lost answer is definite: the server did not execute it, the id is freed", () =>
    Effect.gen(function* () {
      const server = fake((_, n) => (n === 1 ? "drop" : json({ code: 3000, message: "bad amount" }, 400)))
      const { business, ledger } = yield* withLedger(server.http, { exchangeRetry: quick })
      expect(failureOf(yield* settle(business.exchange(sell("10"))))).toMatchObject({
        _tag: "BusinessClientError",
        status: 400,
        body: { code: 3000 }
      })
      expect(server.seen.map((s) => s.method)).toEqual(["POST", "POST"])
      expect(yield* ledger.lookup("req-1")).toEqual(Option.none())
    })
  )

  it.effect("a 429 whose Retry-After is over the cap is a refusal: the id is freed, nothing is looked up", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 9429, message: "later" }, 429, { "retry-after": "3600" }))
      const { business, ledger } = yield* withLedger(server.http)
      expect(failureOf(yield* settle(business.exchange(sell("10"))))).toMatchObject({ reason: "TooManyRequests" })
      expect(server.seen.map((s) => s.method)).toEqual(["POST"])
      expect(yield* ledger.lookup("req-1")).toEqual(Option.none())
    })
  )

  it.effect(
    "bug: a 429 or 408 not retried (Retry-After over the cap) after a lost answer freed the id: the lookup decides",
    () =>
      Effect.gen(function* () {
        for (const status of [429, 408]) {
          const server = fake((s, n) =>
            s.method === "GET"
              ? json([tx])
              : n === 1
                ? "drop"
                : json({ code: 9429, message: "later" }, status, { "retry-after": "3600" })
          )
          const { business, ledger } = yield* withLedger(server.http, { exchangeRetry: quick })
          const exit = yield* settle(business.exchange(sell("10")))
          // before: POST, POST and a definite TooManyRequests, the id freed while the server held its transaction
          expect(exit).toEqual(
            Exit.succeed(expect.objectContaining({ transaction: expect.objectContaining({ id: tx.id }) }))
          )
          expect(server.seen.map((s) => s.method)).toEqual(["POST", "POST", "GET"])
          expect(Option.getOrThrow(yield* ledger.lookup("req-1")).state).toBe("succeeded")
        }
        // and when the lookup finds nothing, the outcome is unknown: the entry stays pending
        const server = fake((s, n) =>
          s.method === "GET"
            ? json([])
            : n === 1
              ? "drop"
              : json({ code: 9429, message: "later" }, 429, { "retry-after": "3600" })
        )
        const { business, ledger } = yield* withLedger(server.http, { exchangeRetry: quick })
        expect(failureOf(yield* settle(business.exchange(sell("10"))))).toMatchObject({
          _tag: "ExchangeOutcomeUnknown",
          lastError: { reason: "TooManyRequests", status: 429 }
        })
        expect((yield* ledger.pending).map((e) => e.requestId)).toEqual(["req-1"])
      })
  )

  it.effect("bug: resuming an unknown exchange, 503s to every attempt freed the id: the lookup decides", () =>
    Effect.gen(function* () {
      let phase: "dropped" | "unavailable" | "refused" = "dropped"
      let found = true
      const server = fake((s) =>
        phase === "dropped"
          ? "drop"
          : s.method === "GET"
            ? json(found ? [tx] : [])
            : phase === "unavailable"
              ? json({ code: 9503, message: "unavailable" }, 503)
              : json({ code: 3000, message: "bad amount" }, 400)
      )
      const { business, ledger } = yield* withLedger(server.http, { exchangeRetry: quick })
      expect(failureOf(yield* settle(business.exchange(sell("10"))))?._tag).toBe("ExchangeOutcomeUnknown")
      phase = "unavailable"
      server.seen.length = 0
      // the earlier attempts may have been executed: 503s now do not say the id is free (before: a definite 503, the
      // entry deleted), the lookup finds the transaction
      const resumed = yield* settle(business.exchange(sell("10")))
      expect(resumed).toEqual(
        Exit.succeed(expect.objectContaining({ transaction: expect.objectContaining({ id: tx.id }) }))
      )
      expect(server.seen.map((s) => s.method)).toEqual(["POST", "POST", "POST", "GET"])
      expect(Option.getOrThrow(yield* ledger.lookup("req-1")).state).toBe("succeeded")
      // resumePending alike: the 503s leave it pending (Unknown) when the lookup finds nothing
      phase = "dropped"
      yield* settle(business.exchange(sell("10", { request_id: "req-3" })))
      phase = "unavailable"
      found = false
      const summary = yield* settle(business.resumePending())
      expect(summary).toEqual(Exit.succeed(expect.objectContaining({ pending: 1, unknown: 1, refused: 0 })))
      expect((yield* ledger.pending).map((e) => e.requestId)).toEqual(["req-3"])
      // a refusal of the request itself is definite even then: the server did not execute it, the id is freed
      phase = "refused"
      expect(yield* settle(business.resumePending())).toEqual(
        Exit.succeed(expect.objectContaining({ pending: 1, refused: 1 }))
      )
      expect(yield* ledger.lookup("req-3")).toEqual(Option.none())
    })
  )

  it.effect("bug: two calls at once with one request_id: the second's 503s no longer free the first's entry", () =>
    Effect.gen(function* () {
      let posts = 0
      const http = Layer.succeed(
        HttpClient.HttpClient,
        HttpClient.make((request) =>
          request.method === "GET"
            ? Effect.succeed(HttpClientResponse.fromWeb(request, json([tx])))
            : ++posts === 1
              ? Effect.as(Effect.sleep("3 seconds"), HttpClientResponse.fromWeb(request, json(tx)))
              : Effect.succeed(HttpClientResponse.fromWeb(request, json({ code: 9503, message: "busy" }, 503)))
        )
      )
      const { business, ledger } = yield* withLedger(http, { exchangeRetry: quick })
      const [first, second] = yield* yield* settle(
        Effect.all([Effect.exit(business.exchange(sell("10"))), Effect.exit(business.exchange(sell("10")))], {
          concurrency: 2
        }),
        "1 second"
      )
      expect(Exit.isSuccess(first)).toBe(true)
      expect(Exit.isSuccess(second)).toBe(true)
      // before: the second call's 503s freed the id and the first call's success could not be recorded
      expect(Option.getOrThrow(yield* ledger.lookup("req-1")).state).toBe("succeeded")
      const before = posts
      expect(failureOf(yield* settle(business.exchange(sell("99"))))?._tag).toBe("RequestIdConflict")
      expect(posts).toBe(before)
    })
  )

  it.effect("a 409 to a second call while the first is in flight keeps the id: the first's success is recorded", () =>
    Effect.gen(function* () {
      let posts = 0
      let executed = false
      const http = Layer.succeed(
        HttpClient.HttpClient,
        HttpClient.make((request) =>
          request.method === "GET"
            ? Effect.succeed(HttpClientResponse.fromWeb(request, json(executed ? [tx] : [])))
            : ++posts === 1
              ? Effect.as(
                  Effect.andThen(
                    Effect.sleep("3 seconds"),
                    Effect.sync(() => {
                      executed = true
                    })
                  ),
                  HttpClientResponse.fromWeb(request, json(tx))
                )
              : Effect.succeed(
                  HttpClientResponse.fromWeb(
                    request,
                    json({ code: 9409, message: "a request with this id is in flight" }, 409)
                  )
                )
        )
      )
      const { business, ledger } = yield* withLedger(http, { exchangeRetry: quick })
      const [first, second] = yield* yield* settle(
        Effect.all([Effect.exit(business.exchange(sell("10"))), Effect.exit(business.exchange(sell("10")))], {
          concurrency: 2
        }),
        "1 second"
      )
      expect(Exit.isSuccess(first)).toBe(true)
      // the second cannot tell yet (the lookup found nothing while the first was running): unknown, never refused
      expect(failureOf(second)?._tag).toBe("ExchangeOutcomeUnknown")
      expect(Option.getOrThrow(yield* ledger.lookup("req-1")).state).toBe("succeeded")
      // and on its own, a 409 to a fresh exchange is still the server's answer: the id is freed
      const alone = fake(() => json({ code: 9409, message: "conflict" }, 409))
      const fresh = yield* withLedger(alone.http)
      expect(failureOf(yield* settle(fresh.business.exchange(sell("10"))))).toMatchObject({ status: 409 })
      expect(yield* fresh.ledger.lookup("req-1")).toEqual(Option.none())
    })
  )

  it.effect("a 'duplicate request' answer is reconciled with the lookup", () =>
    Effect.gen(function* () {
      const server = fake((s) => (s.method === "GET" ? json([tx]) : json({ code: 3020, message: "duplicate" }, 400)))
      const business = yield* client(server.http)
      const exit = yield* settle(business.exchange(sell("10")))
      expect(exit).toEqual(Exit.succeed(expect.objectContaining({ requestId: "req-1" })))
      expect(server.seen.map((s) => s.method)).toEqual(["POST", "GET"])
    })
  )

  it.effect("the server's conflict frees the id in the ledger, and carries the server's message", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 3021, message: "request_id used for another exchange" }, 400))
      const { business, ledger } = yield* withLedger(server.http)
      expect(yield* Effect.flip(business.exchange(sell("10")))).toMatchObject({
        _tag: "RequestIdConflict",
        message: "400: request_id used for another exchange"
      })
      expect(yield* ledger.lookup("req-1")).toEqual(Option.none())
    })
  )

  it.effect("the ledger's conflict is refused before sending, with its message", () =>
    Effect.gen(function* () {
      const server = fake(() => json(tx))
      const business = yield* client(server.http)
      yield* business.exchange(sell("10"))
      expect(yield* Effect.flip(business.exchange(sell("11")))).toEqual(
        new BusinessClient.RequestIdConflict({ requestId: "req-1", message: RequestLedger.conflictMessage("req-1") })
      )
      expect(server.seen).toHaveLength(1)
    })
  )

  it.effect("a deadline that passes after sending: unknown, with the deadline as the last error", () =>
    Effect.gen(function* () {
      const server = fake(() => "hang")
      const business = yield* client(server.http, { deadline: Duration.seconds(5) })
      const e = failureOf(yield* settle(business.exchange(sell("10"))))
      expect(e).toMatchObject({ _tag: "ExchangeOutcomeUnknown", attempts: 1 })
      expect(e?._tag === "ExchangeOutcomeUnknown" && e.lastError).toMatchObject({
        reason: "Deadline",
        message: "the call did not finish within its deadline of 5s"
      })
    })
  )
})

describe("the ledger of an exchange", () => {
  it.effect("a ledger that cannot register the exchange fails the call before anything is sent", () =>
    Effect.gen(function* () {
      const storeDown = new RequestLedger.RequestLedgerError({ reason: "StoreFailed", message: "the store is down" })
      const ledger = yield* RequestLedger.make()
      const server = fake(() => json(tx))
      const business = yield* client(
        server.http,
        {},
        Layer.succeed(RequestLedger.RequestLedger, { ...ledger, register: () => Effect.fail(storeDown) })
      )
      expect(yield* Effect.flip(business.exchange(sell("10")))).toBe(storeDown)
      expect(server.seen).toEqual([])
    })
  )

  it.effect("a ledger that cannot record the answer does not hide it: the call succeeds, and a warning says so", () =>
    Effect.gen(function* () {
      const storeDown = new RequestLedger.RequestLedgerError({ reason: "StoreFailed", message: "the store is down" })
      const ledger = yield* RequestLedger.make()
      const server = fake(() => json(tx))
      const business = yield* client(
        server.http,
        {},
        Layer.succeed(RequestLedger.RequestLedger, { ...ledger, complete: () => Effect.fail(storeDown) })
      )
      const logged: Array<string> = []
      const logger = Logger.make((options) => {
        logged.push(`${options.logLevel}: ${Logger.formatSimple.log(options)}`)
      })
      const result = yield* business.exchange(sell("10")).pipe(Effect.provide(Logger.layer([logger])))
      expect(result.transaction.id).toBe(tx.id)
      expect(logged).toEqual([
        expect.stringMatching(
          /^Warn: .*the request ledger could not record what became of exchange req-1; it stays pending \(resumePending settles it\): the store is down/
        )
      ])
      expect((yield* ledger.pending).map((e) => e.requestId)).toEqual(["req-1"])
    })
  )
})

describe("resumePending: what became of each exchange left pending (TestClock)", () => {
  /** registers exchanges in the ledger as a process that stopped before their answers would have */
  const pendingIn = (ledger: RequestLedger.RequestLedgerService<never>, ...ids: ReadonlyArray<string>) =>
    Effect.forEach(ids, (id) =>
      ledger.register(
        Result.getOrThrow(
          ExchangeRequest.parse({
            from: { account_id: "a", currency: "GBP", amount: 10 },
            to: { account_id: "b", currency: "EUR" },
            request_id: id
          })
        )
      )
    )

  it.effect("each is looked up, sent again when the server has none, and counted by what became of it", () =>
    Effect.gen(function* () {
      const server = fake((s) => {
        const id = s.method === "GET" ? new URLSearchParams(s.query).get("request_id") : JSON.parse(s.body).request_id
        if (s.method === "GET")
          return id === "found"
            ? json([{ id: 7 }, tx])
            : id === "lookup-fails"
              ? json({ code: 9001, message: "who?" }, 401)
              : json([{ id: 8 }])
        return id === "sent"
          ? json(tx)
          : id === "refused"
            ? json({ code: 3004, message: "not enough money" }, 422)
            : "drop"
      })
      const { business, ledger } = yield* withLedger(server.http, {
        exchangeRetry: { ...quick, maxAttempts: 1 },
        retry: { ...quick, maxAttempts: 1 }
      })
      yield* pendingIn(ledger, "found", "sent", "refused", "lost", "lookup-fails")
      const exit = yield* settle(business.resumePending())
      expect(Exit.isSuccess(exit)).toBe(true)
      const summary = Exit.isSuccess(exit) ? exit.value : undefined
      expect(summary).toMatchObject({ pending: 5, found: 1, sent: 1, refused: 1, unknown: 2 })
      expect(summary?.results.map((r) => [r._tag, r.requestId])).toEqual([
        ["Found", "found"],
        ["Sent", "sent"],
        ["Refused", "refused"],
        ["Unknown", "lost"],
        ["Unknown", "lookup-fails"]
      ])
      const [found, sent, refused, lost, lookupFails] = summary!.results
      expect(found).toMatchObject({
        transaction: { id: tx.id },
        findings: [{ rule: "UnreadableItem", path: ["lookup", 0, "id"] }]
      })
      // the lookup that found nothing still reports what it could not read
      expect(sent).toMatchObject({
        transaction: { id: tx.id },
        findings: [{ rule: "UnreadableItem", path: ["lookup", 0, "id"] }]
      })
      expect(refused).toMatchObject({ error: { _tag: "BusinessClientError", status: 422, body: { code: 3004 } } })
      expect(lost).toMatchObject({
        message: expect.stringMatching(/^the outcome of exchange lost is unknown after 1 attempt/)
      })
      expect(lookupFails).toMatchObject({ message: "the lookup by request_id failed: 401: who?" })
      expect((yield* ledger.pending).map((e) => e.requestId)).toEqual(["lost", "lookup-fails"])
      // what a resume found is in the ledger: the transaction itself
      expect(Option.getOrThrow(yield* ledger.lookup("found")).outcome).toEqual(
        Option.some(
          RequestLedger.Outcome.Succeeded({ transaction: (found as { transaction: unknown }).transaction as never })
        )
      )
    })
  )

  it.effect("olderThan leaves the exchanges registered since to the calls still running", () =>
    Effect.gen(function* () {
      const server = fake((s) => (s.method === "GET" ? json([tx]) : json(tx)))
      const { business, ledger } = yield* withLedger(server.http)
      yield* pendingIn(ledger, "old")
      yield* TestClock.adjust("10 seconds")
      yield* pendingIn(ledger, "new")
      yield* TestClock.adjust("1 millis")
      const summary = yield* business.resumePending({ olderThan: Duration.seconds(10) })
      expect(summary.results.map((r) => [r._tag, r.requestId])).toEqual([["Found", "old"]])
      expect((yield* ledger.pending).map((e) => e.requestId)).toEqual(["new"])
      expect((yield* business.resumePending()).results.map((r) => r.requestId)).toEqual(["new"])
    })
  )

  it.effect("four at a time by default, or as many as asked", () =>
    Effect.gen(function* () {
      for (const [concurrency, expected] of [
        [undefined, 4],
        [2, 2]
      ] as const) {
        const server = fake(() => "hang")
        const { business, ledger } = yield* withLedger(server.http)
        yield* pendingIn(ledger, "a", "b", "c", "d", "e", "f")
        const fiber = yield* Effect.forkChild(business.resumePending({ concurrency }))
        yield* TestClock.adjust("1 millis")
        expect(server.seen).toHaveLength(expected)
        yield* Fiber.interrupt(fiber)
      }
    })
  )

  it.effect("a conflict the server reports, or a ledger that cannot register, is a Refused or an Unknown", () =>
    Effect.gen(function* () {
      const server = fake((s) =>
        s.method === "GET" ? json([]) : json({ code: 3021, message: "request_id used for another exchange" }, 400)
      )
      const { business, ledger } = yield* withLedger(server.http)
      yield* pendingIn(ledger, "taken")
      const summary = yield* business.resumePending()
      expect(summary).toMatchObject({ pending: 1, refused: 1 })
      expect(summary.results[0]).toMatchObject({
        _tag: "Refused",
        requestId: "taken",
        error: { _tag: "RequestIdConflict", requestId: "taken" }
      })

      const storeDown = new RequestLedger.RequestLedgerError({ reason: "StoreFailed", message: "the store is down" })
      const other = yield* RequestLedger.make()
      yield* pendingIn(other, "stuck")
      const failing = { ...other, register: () => Effect.fail(storeDown) }
      const down = fake(() => json([]))
      const stuck = yield* client(down.http, {}, Layer.succeed(RequestLedger.RequestLedger, failing))
      expect((yield* stuck.resumePending()).results).toEqual([
        BusinessClient.Resumed.Unknown({ requestId: "stuck", message: "the store is down" })
      ])
      // looked up, never sent
      expect(down.seen.map((s) => s.method)).toEqual(["GET"])
    })
  )

  it.effect("an entry whose stored body does not decode stays unknown, and says why", () =>
    Effect.gen(function* () {
      const server = fake(() => json([]))
      const ledger = yield* RequestLedger.make()
      yield* pendingIn(ledger, "broken")
      const corrupt = {
        ...ledger,
        pending: Effect.map(ledger.pending, (entries) => entries.map((e) => ({ ...e, fingerprint: "{" })))
      }
      const business = yield* client(server.http, {}, Layer.succeed(RequestLedger.RequestLedger, corrupt))
      const summary = yield* business.resumePending()
      expect(summary).toMatchObject({ pending: 1, unknown: 1 })
      expect(summary.results[0]).toMatchObject({
        _tag: "Unknown",
        requestId: "broken",
        message: expect.stringMatching(/^the ledger's body does not decode: /)
      })
      expect(server.seen).toEqual([])
    })
  )
})

describe("the configuration from the environment", () => {
  const fromEnv = (env: Record<string, string>) =>
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))

  it.effect("BUSINESS_BASE_URL and BUSINESS_TOKEN are enough: everything else has its default", () =>
    Effect.gen(function* () {
      const { token, ...cfg } = yield* fromEnv({ BUSINESS_BASE_URL: "http://b.test", BUSINESS_TOKEN: "secret" })(
        Effect.gen(function* () {
          return yield* BusinessClient.config
        })
      )
      expect(Redacted.value(token)).toBe("secret")
      expect(cfg).toEqual({ ...BusinessClient.defaults, baseUrl: "http://b.test" })
      expect(BusinessClient.defaults).toEqual({
        timeout: Duration.seconds(10),
        deadline: Duration.minutes(2),
        maxRetryAfter: Duration.seconds(60),
        maxResponseBytes: 1_048_576,
        retry: {
          maxAttempts: 3,
          baseDelay: Duration.millis(500),
          maxDelay: Duration.seconds(5),
          minSpacing: Duration.zero
        },
        exchangeRetry: {
          maxAttempts: 3,
          baseDelay: Duration.millis(500),
          maxDelay: Duration.seconds(5),
          minSpacing: Duration.seconds(1)
        },
        payFieldsLimit: { limit: 450, window: Duration.minutes(1) }
      })
    })
  )

  it.effect("every BUSINESS_ variable is read, MAX_ATTEMPTS for the reads and the exchanges alike", () =>
    Effect.gen(function* () {
      const { token: _, ...cfg } = yield* fromEnv({
        BUSINESS_BASE_URL: "http://b.test",
        BUSINESS_TOKEN: "secret",
        BUSINESS_TIMEOUT: "3 seconds",
        BUSINESS_MAX_ATTEMPTS: "5",
        BUSINESS_DEADLINE: "30 seconds",
        BUSINESS_MAX_RETRY_AFTER: "7 seconds",
        BUSINESS_MAX_RESPONSE_BYTES: "2048"
      })(
        Effect.gen(function* () {
          return yield* BusinessClient.config
        })
      )
      expect(cfg).toEqual({
        ...BusinessClient.defaults,
        baseUrl: "http://b.test",
        timeout: Duration.seconds(3),
        deadline: Duration.seconds(30),
        maxRetryAfter: Duration.seconds(7),
        maxResponseBytes: 2048,
        retry: { ...BusinessClient.defaults.retry, maxAttempts: 5 },
        exchangeRetry: { ...BusinessClient.defaults.exchangeRetry, maxAttempts: 5 }
      })
    })
  )

  it.effect("layerConfig builds the client from the environment", () =>
    Effect.gen(function* () {
      const server = fake(() => "drop")
      const business = yield* Effect.provide(
        BusinessClient.BusinessClient,
        BusinessClient.layerConfig().pipe(Layer.provide([server.http, RequestLedger.layer]))
      ).pipe(fromEnv({ BUSINESS_BASE_URL: "http://b.test/v1", BUSINESS_TOKEN: "secret", BUSINESS_MAX_ATTEMPTS: "1" }))
      expect(failureOf(yield* settle(business.exchangeReasons))).toMatchObject({ reason: "Transport" })
      expect(server.seen.map((s) => [s.path, s.headers.authorization])).toEqual([
        ["/v1/exchange-reasons", "Bearer secret"]
      ])
    })
  )
})

describe("tracing", () => {
  it.effect("a failure printed names the call's span, without capturing a stack for it on every call", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ code: 3000, message: "bad" }, 400))
      const exit = yield* Effect.exit((yield* client(server.http)).exchangeReasons)
      const printed = Exit.isFailure(exit) ? Cause.pretty(exit.cause) : ""
      expect(printed).toMatch(/^BusinessClientError: 400: bad\n/)
      // the span's frame, with no source location (captured only when `captureStackTrace` is on)
      expect(printed).toMatch(/^\s+at BusinessClient\.exchangeReasons$/m)
    })
  )

  it.effect("each call runs in a span named after it; the exchanges and the lookup carry their request_id", () =>
    Effect.gen(function* () {
      const server = fake((s) =>
        s.path === "/exchange-reasons"
          ? json(reasons)
          : s.path === "/pay/fields"
            ? json(fieldsAnswer)
            : s.method === "GET"
              ? json([])
              : "drop"
      )
      const business = yield* client(server.http, { exchangeRetry: { ...quick, maxAttempts: 1 } })
      yield* business.exchangeReasons
      yield* business.transferFieldRequirements(fieldsRequest)
      yield* business.findTransactionByRequestId("r-1")
      yield* settle(business.exchange(sell("10")))
      expect(server.seen.map((s) => s.spans)).toStrictEqual([
        [["BusinessClient.exchangeReasons", {}]],
        [["BusinessClient.transferFieldRequirements", {}]],
        [["BusinessClient.findTransactionByRequestId", { "payrules.request_id": "r-1" }]],
        [["BusinessClient.exchange", {}]],
        [
          ["BusinessClient.findTransactionByRequestId", { "payrules.request_id": "req-1" }],
          ["BusinessClient.exchange", {}]
        ]
      ])
      // the exchange is pending (unknown): resuming looks it up, and sends it again, in the resume's span
      const before = server.seen.length
      yield* settle(business.resumePending())
      expect(server.seen.slice(before).map((s) => s.spans.map(([name]) => name))).toEqual([
        ["BusinessClient.findTransactionByRequestId", "BusinessClient.resumePending"],
        ["BusinessClient.exchange", "BusinessClient.resumePending"],
        ["BusinessClient.findTransactionByRequestId", "BusinessClient.exchange", "BusinessClient.resumePending"]
      ])
    })
  )
})

describe("a client configured without a deadline (TestClock)", () => {
  it.effect("ends a read, and an exchange, 2 minutes after the call", () =>
    Effect.gen(function* () {
      const server = fake(() => "hang")
      const business = yield* client(server.http, { deadline: undefined, timeout: Duration.minutes(10) })
      const read = yield* Effect.forkChild(Effect.flip(business.exchangeReasons))
      const exchange = yield* Effect.forkChild(Effect.flip(business.exchange(sell("10"))))
      yield* TestClock.adjust(Duration.millis(119_999))
      expect(read.pollUnsafe()).toBeUndefined()
      expect(exchange.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Fiber.join(read)).toMatchObject({ reason: "Deadline", message: expect.stringContaining("2m") })
      expect(yield* Fiber.join(exchange)).toMatchObject({
        _tag: "ExchangeOutcomeUnknown",
        lastError: { reason: "Deadline", message: "the call did not finish within its deadline of 2m" }
      })
    })
  )
})

describe("the lookup by request_id", () => {
  it.effect("a request_id that breaks the rule is refused with the rule's message", () =>
    Effect.gen(function* () {
      const server = fake(() => json([tx]))
      const business = yield* client(server.http)
      const e = yield* Effect.flip(business.findTransactionByRequestId(""))
      expect(e).toMatchObject({
        reason: "BadRequest",
        status: undefined,
        requestId: "",
        message: "not sent: request_id must have 1 to 40 characters; it has 0 characters"
      })
      expect(server.seen).toEqual([])
    })
  )
})

describe("what counts as an answer, and as processed", () => {
  it.effect("an error status is a failure even when its body reads as an answer, a 3xx too", () =>
    Effect.gen(function* () {
      for (const status of [300, 404]) {
        const server = fake(() => json(reasons, status))
        expect(failureOf(yield* settle((yield* client(server.http)).exchangeReasons))).toMatchObject({
          _tag: "BusinessClientError",
          status
        })
      }
    })
  )

  it.effect("a 503 too large to read, or a 3xx, was not processed: the exchange's id is freed, nothing looked up", () =>
    Effect.gen(function* () {
      for (const answer of [
        () => new Response("e".repeat(2048), { status: 503 }),
        () => new Response("e".repeat(2048), { status: 300 })
      ]) {
        const server = fake((s) => (s.method === "GET" ? json([tx]) : answer()))
        const { business, ledger } = yield* withLedger(server.http, { maxResponseBytes: 1024 })
        expect(failureOf(yield* settle(business.exchange(sell("10"))))).toMatchObject({ reason: "ResponseTooLarge" })
        expect(server.seen.map((s) => s.method)).toEqual(["POST"])
        expect(yield* ledger.lookup("req-1")).toEqual(Option.none())
      }
    })
  )

  it.effect("a 500 whose Retry-After is over the cap may come after processing: the lookup decides", () =>
    Effect.gen(function* () {
      const server = fake((s) =>
        s.method === "GET" ? json([tx]) : json({ code: 9500, message: "later" }, 500, { "retry-after": "3600" })
      )
      const business = yield* client(server.http)
      expect(Exit.isSuccess(yield* settle(business.exchange(sell("10"))))).toBe(true)
      expect(server.seen.map((s) => s.method)).toEqual(["POST", "GET"])
    })
  )

  it.effect("a Content-Length that is not a number is ignored: the body is read up to the limit", () =>
    Effect.gen(function* () {
      for (const declared of ["12abc", "abc12"]) {
        const server = fake(() => new Response("x".repeat(4096), { headers: { "content-length": declared } }))
        const business = yield* client(server.http, { maxResponseBytes: 1024 })
        const e = yield* Effect.flip(business.exchangeReasons)
        expect(e).toMatchObject({ reason: "ResponseTooLarge" })
        expect(e.message).toBe(
          `200: the response body is larger than 1024 bytes (Content-Length ${declared}); it was not read`
        )
      }
    })
  )
})
