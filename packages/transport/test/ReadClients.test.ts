import { describe, expect, it } from "@effect/vitest"
import { InternationalPayment } from "@payrules/open-banking"
import { MerchantClient, OpenBankingClient } from "@payrules/transport"
import { issuesOf } from "@payrules/vitest"
import {
  Arbitrary,
  Config,
  ConfigProvider,
  DateTime,
  Duration,
  Effect,
  Exit,
  Fiber,
  Layer,
  Option,
  Redacted,
  Schema,
  Stream
} from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"

/** the typed failure of an exit (undefined when it succeeded or died) */
const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined => Option.getOrUndefined(Exit.findErrorOption(exit))

// The two read clients (Open Banking, merchant) against an HttpClient that answers in process, on the TestClock:
// an overall deadline per call, the base URL checked when the layer is built, and findings instead of failed reads.

type Answer = Response | "hang"

const server = (answer: (url: URL, headers: Readonly<Record<string, string>>) => Answer) => {
  const seen: Array<string> = []
  /** every request as sent: its URL (path and query), its headers, and the span it was sent in (the client's) */
  const requests: Array<{
    readonly url: string
    readonly headers: Readonly<Record<string, string>>
    readonly span: readonly [string, Readonly<Record<string, unknown>>] | undefined
    /** the attributes of the HttpClient's own span (headers among them when `HttpClient.TracerHeaderFilter` lets them) */
    readonly traced: Readonly<Record<string, unknown>>
  }> = []
  const http = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request, url) =>
      Effect.map(Effect.option(Effect.currentSpan), (current) => {
        const parent = Option.getOrUndefined(Option.flatMap(current, (c) => c.parent))
        seen.push(url.pathname)
        requests.push({
          url: `${url.pathname}${url.search}`,
          headers: request.headers,
          span: parent?._tag === "Span" ? [parent.name, Object.fromEntries(parent.attributes)] : undefined,
          traced: Option.match(current, {
            onNone: () => ({}),
            onSome: (span) => (span._tag === "Span" ? Object.fromEntries(span.attributes) : {})
          })
        })
        return answer(url, request.headers)
      }).pipe(
        Effect.flatMap((a) => (a === "hang" ? Effect.never : Effect.succeed(HttpClientResponse.fromWeb(request, a))))
      )
    )
  )
  return { seen, requests, http }
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

const token = Redacted.make("t")
const noRetry = { maxAttempts: 1, baseDelay: Duration.millis(10), maxDelay: Duration.millis(10), minSpacing: 0 }

const openBanking = (
  http: Layer.Layer<HttpClient.HttpClient>,
  config: Partial<OpenBankingClient.OpenBankingClientConfig> = {}
) =>
  Effect.provide(
    OpenBankingClient.OpenBankingClient,
    OpenBankingClient.layer({
      ...OpenBankingClient.defaults,
      baseUrl: "http://ob.test",
      token,
      financialId: "001580000103UAvAAM",
      ...config
    }).pipe(Layer.provide(http))
  )

const merchant = (
  http: Layer.Layer<HttpClient.HttpClient>,
  config: Partial<MerchantClient.MerchantClientConfig> = {}
) =>
  Effect.provide(
    MerchantClient.MerchantClient,
    MerchantClient.layer({ ...MerchantClient.defaults, baseUrl: "http://merchant.test", token, ...config }).pipe(
      Layer.provide(http)
    )
  )

/** a valid revolut payment, as a server sends it (drawn with the arbitrary its Schema carries) */
const samplePayment = Effect.map(
  Arbitrary.sampleEffect(Arbitrary.schema(InternationalPayment.RevolutStrict), { count: 1, seed: 7 }),
  ([drawn]) => Schema.encodeSync(InternationalPayment.RevolutStrict)(drawn!)
)

type Payment = Effect.Success<typeof samplePayment>

const withCurrencyOfTransfer = (payment: Payment, currency: string) => ({
  ...payment,
  Data: { ...payment.Data, Initiation: { ...payment.Data.Initiation, CurrencyOfTransfer: currency } }
})

const plan = (currency: string) => ({
  id: "8e1c4f0a-3b5d-4c2e-9f6a-1d2b3c4d5e6f",
  name: "Caribbean",
  state: "active",
  created_at: "2025-04-01T00:00:00Z",
  updated_at: "2025-04-01T00:00:00Z",
  variations: [
    {
      id: "0b9f7d1e-2c3a-4b5d-8e6f-7a8b9c0d1e2f",
      phases: [
        { id: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", ordinal: 1, cycle_duration: "P1M", amount: 1500, currency }
      ]
    }
  ]
})

describe("OpenBankingClient reads what a strict reading would lose, with findings (D11)", () => {
  it.effect("a 200 without the played-back interaction id: the payment and an InteractionIdNotPlayedBack finding", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server(() => json(payment))
      const client = yield* openBanking(fake.http)
      const r = yield* client.getInternationalPayment("ip-1")
      expect(r.payment.Data.InternationalPaymentId).toBe(payment.Data.InternationalPaymentId)
      expect(r.findings.filter((f) => f.path[0] === "headers")).toEqual([
        expect.objectContaining({
          severity: "warning",
          rule: "InteractionIdNotPlayedBack",
          path: ["headers", "x-fapi-interaction-id"]
        })
      ])
    })
  )

  it.effect("another interaction id than the one sent: the payment and an InteractionIdMismatch finding", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const other = "0f8e1f6c-3a4b-4c5d-9e6f-7a8b9c0d1e2f"
      const fake = server(() => json(payment, 200, { "x-fapi-interaction-id": other }))
      const client = yield* openBanking(fake.http)
      const r = yield* client.getInternationalPayment("ip-1")
      expect(r.findings.filter((f) => f.path[0] === "headers").map((f) => f.rule)).toEqual(["InteractionIdMismatch"])
    })
  )

  it.effect("the id played back: no header finding", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server((_, headers) =>
        json(payment, 200, { "x-fapi-interaction-id": headers["x-fapi-interaction-id"] ?? "" })
      )
      const client = yield* openBanking(fake.http)
      const r = yield* client.getInternationalPayment("ip-1")
      expect(r.findings.filter((f) => f.path[0] === "headers")).toEqual([])
    })
  )

  it.effect("a well-formed currency code not on the list (XYZ): the payment and a CurrencyNotListed finding", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server((_, headers) =>
        json(withCurrencyOfTransfer(payment, "XYZ"), 200, {
          "x-fapi-interaction-id": headers["x-fapi-interaction-id"] ?? ""
        })
      )
      const client = yield* openBanking(fake.http)
      const r = yield* client.getInternationalPayment("ip-1")
      expect(r.payment.Data.Initiation.CurrencyOfTransfer).toBe("XYZ")
      expect(r.findings.filter((f) => f.rule === "CurrencyNotListed").map((f) => f.path.join("."))).toEqual([
        "Data.Initiation.CurrencyOfTransfer"
      ])
    })
  )

  it.effect("a currency code that is not well-formed is still a Decode failure", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server(() => json(withCurrencyOfTransfer(payment, "xyz")))
      const client = yield* openBanking(fake.http)
      const e = yield* Effect.flip(client.getInternationalPayment("ip-1"))
      expect(e).toMatchObject({ reason: "Decode", message: expect.stringContaining("CurrencyOfTransfer") })
    })
  )

  it.effect("the call ends at its deadline, attempts and waits included (TestClock)", () =>
    Effect.gen(function* () {
      const fake = server(() => "hang")
      const client = yield* openBanking(fake.http, {
        timeout: Duration.seconds(10),
        deadline: Duration.seconds(15),
        retry: { ...noRetry, maxAttempts: 5 }
      })
      const fiber = yield* Effect.forkChild(client.getInternationalPayment("ip-1"))
      yield* TestClock.adjust(Duration.millis(14_999))
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.millis(1))
      const exit = yield* Fiber.await(fiber)
      expect(failureOf(exit)).toMatchObject({ _tag: "OpenBankingClientError", reason: "Deadline" })
      expect(fake.seen.length).toBe(2) // one attempt timed out at 10 s, the second cut by the deadline
    })
  )
})

describe("MerchantClient reads pages with findings (D11)", () => {
  it.effect("a plan in XYZ decodes; the page and the plan carry a CurrencyNotListed finding", () =>
    Effect.gen(function* () {
      const fake = server(() => json({ subscription_plans: [plan("GBP"), plan("XYZ")], next_page_token: null }))
      const client = yield* merchant(fake.http)
      const page = yield* client.listSubscriptionPlansPage({})
      expect(page.subscription_plans.map((p) => p.variations[0]!.phases[0]!.currency)).toEqual(["GBP", "XYZ"])
      expect(page.findings.map((f) => [f.rule, f.path.join(".")])).toEqual([
        ["CurrencyNotListed", "subscription_plans.1.variations.0.phases.0.currency"]
      ])
      expect(page.subscription_plans[0]!.findings).toEqual([])
      expect(page.subscription_plans[1]!.findings.map((f) => f.path.join("."))).toEqual([
        "variations.0.phases.0.currency"
      ])
      const streamed = yield* Stream.runCollect(client.listSubscriptionPlans())
      expect([...streamed].map((p) => p.findings.length)).toEqual([0, 1])
    })
  )

  it.effect("a page request ends at its deadline (TestClock)", () =>
    Effect.gen(function* () {
      const fake = server(() => "hang")
      const client = yield* merchant(fake.http, { deadline: Duration.seconds(3), retry: noRetry })
      const fiber = yield* Effect.forkChild(client.listSubscriptionPlansPage({}))
      yield* TestClock.adjust(Duration.millis(2_999))
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.millis(1))
      expect(failureOf(yield* Fiber.await(fiber))).toMatchObject({ _tag: "MerchantClientError", reason: "Deadline" })
    })
  )
})

describe("the base URL is checked when the layer is built", () => {
  const bad = ["not a url", "/api", "ftp://api.test", "http://user:secret@api.test", "http://api.test/?q=1"]

  it.effect.each(bad)("%s is refused by both layers, before any request", (baseUrl) =>
    Effect.gen(function* () {
      const fake = server(() => json({}))
      for (const error of [
        yield* Effect.flip(openBanking(fake.http, { baseUrl })),
        yield* Effect.flip(merchant(fake.http, { baseUrl }))
      ]) {
        expect(error).toBeInstanceOf(Config.ConfigError)
        expect(Schema.isSchemaError(error.cause) ? issuesOf(error.cause) : []).toEqual([
          { path: ["baseUrl"], message: expect.stringContaining("is not a base URL") }
        ])
      }
      expect(fake.seen).toEqual([])
    })
  )

  it.effect("a trailing slash is fine", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server((url) =>
        url.pathname.startsWith("/ob") ? json(payment) : json({ subscription_plans: [], next_page_token: null })
      )
      yield* (yield* openBanking(fake.http, { baseUrl: "https://api.test/ob/" })).getInternationalPayment("ip-1")
      yield* (yield* merchant(fake.http, { baseUrl: "https://api.test/m/" })).listSubscriptionPlansPage({})
      expect(fake.seen).toEqual(["/ob/international-payments/ip-1", "/m/api/subscription-plans"])
    })
  )
})

describe("OpenBankingClient: the FAPI request and the error answers", () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

  it.effect("sends the token, the financial id and a fresh interaction id; no customer header unless given", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server(() => json(payment))
      const client = yield* openBanking(fake.http)
      const r = yield* client.getInternationalPayment("ip/1 ?")
      expect(fake.requests.map((q) => q.url)).toEqual(["/international-payments/ip%2F1%20%3F"])
      const headers = fake.requests[0]!.headers
      expect(headers).toMatchObject({
        authorization: "Bearer t",
        accept: "application/json",
        "x-fapi-financial-id": "001580000103UAvAAM",
        "x-fapi-interaction-id": r.interactionId
      })
      expect(r.interactionId).toMatch(uuid)
      expect(fake.requests[0]!.span).toStrictEqual([
        "OpenBankingClient.getInternationalPayment",
        { "payrules.payment_id": "ip/1 ?" }
      ])
      for (const name of ["x-fapi-customer-ip-address", "x-customer-user-agent", "x-fapi-customer-last-logged-time"]) {
        expect(headers[name]).toBeUndefined()
      }
      // a second call makes another id
      expect((yield* client.getInternationalPayment("ip-2")).interactionId).not.toBe(r.interactionId)
    })
  )

  it.effect("sends the interaction id given, the same on every retry, and the customer headers", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server(() => (fake.requests.length === 1 ? json({}, 503) : json(payment)))
      const client = yield* openBanking(fake.http, { retry: { ...noRetry, maxAttempts: 2 } })
      const fiber = yield* Effect.forkChild(
        client.getInternationalPayment("ip-1", {
          interactionId: "3f0c1e2d-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
          customer: {
            ipAddress: "203.0.113.7",
            userAgent: "payrules-test/1.0",
            lastLoggedTime: DateTime.makeUnsafe("2017-06-13T11:36:09Z")
          }
        })
      )
      yield* TestClock.adjust("1 second")
      expect((yield* Fiber.join(fiber)).interactionId).toBe("3f0c1e2d-4b5a-4c6d-8e7f-9a0b1c2d3e4f")
      expect(fake.requests).toHaveLength(2)
      for (const { headers } of fake.requests) {
        expect(headers).toMatchObject({
          "x-fapi-interaction-id": "3f0c1e2d-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
          "x-fapi-customer-ip-address": "203.0.113.7",
          "x-customer-user-agent": "payrules-test/1.0",
          "x-fapi-customer-last-logged-time": "Tue, 13 Jun 2017 11:36:09 GMT"
        })
      }
    })
  )

  it.effect("the token, the end user's address and user agent never reach a span, even one that records headers", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server(() => json(payment))
      const client = yield* openBanking(fake.http)
      yield* client
        .getInternationalPayment("ip-1", {
          interactionId: "i-1",
          customer: { ipAddress: "203.0.113.7", userAgent: "payrules-test/1.0" }
        })
        .pipe(Effect.provideService(HttpClient.TracerHeaderFilter, () => true))
      expect(fake.requests[0]!.traced).toMatchObject({
        "http.request.header.authorization": "<redacted>",
        "http.request.header.x-fapi-customer-ip-address": "<redacted>",
        "http.request.header.x-customer-user-agent": "<redacted>",
        "http.request.header.x-fapi-interaction-id": "i-1",
        "http.request.header.x-fapi-financial-id": "001580000103UAvAAM"
      })
    })
  )

  it.effect("an error answer: its body read leniently, its Message as the message, the interaction id sent", () =>
    Effect.gen(function* () {
      const body = {
        Code: "400 BadRequest",
        Id: "e-1",
        Message: "the payment id is not known",
        Errors: [{ ErrorCode: "UK.OBIE.Resource.NotFound", Message: "no such payment" }, { ErrorCode: 7 }]
      }
      const fake = server(() => json(body, 400, { "retry-after": "5" }))
      const client = yield* openBanking(fake.http)
      const e = yield* Effect.flip(client.getInternationalPayment("ip-1", { interactionId: "i-1" }))
      expect(e).toMatchObject({
        _tag: "OpenBankingClientError",
        reason: "BadRequest",
        status: 400,
        raw: JSON.stringify(body),
        body: { ...body, Errors: [body.Errors[0]] },
        findings: [
          {
            rule: "UnreadableItem",
            index: 1,
            path: ["Errors", 1, "ErrorCode"],
            message: "the error at Errors[1] could not be read and was left out (Expected string at Errors.1.ErrorCode)"
          }
        ],
        interactionId: "i-1",
        retryAfter: Duration.seconds(5),
        message: "400: the payment id is not known"
      })
      // a body that is not an OBErrorResponse1: no body, no findings
      const other = server(() => new Response("upstream down", { status: 502 }))
      const f = yield* Effect.flip((yield* openBanking(other.http, { retry: noRetry })).getInternationalPayment("ip-1"))
      expect(f).toMatchObject({ reason: "ServerError", body: undefined, findings: [], message: "502: upstream down" })
    })
  )

  it.effect("the findings of the body follow those of the headers, and the check takes the caller's options", () =>
    Effect.gen(function* () {
      const payment = yield* samplePayment
      const fake = server(() => json(withCurrencyOfTransfer(payment, "XYZ")))
      const r = yield* (yield* openBanking(fake.http)).getInternationalPayment("ip-1")
      expect(r.findings.map((f) => f.rule).slice(0, 2)).toEqual(["InteractionIdNotPlayedBack", "CurrencyNotListed"])
      // the caller's knowledge (the debtor account's currency) and the revolut profile (DebtorAccount expected)
      const { DebtorAccount: _, ...initiation } = payment.Data.Initiation as typeof payment.Data.Initiation & {
        DebtorAccount?: unknown
      }
      const withoutDebtor = { ...payment, Data: { ...payment.Data, Initiation: initiation } }
      const plain = server(() => json(withoutDebtor))
      const checked = yield* (yield* openBanking(plain.http)).getInternationalPayment("ip-1", {
        check: { debtorAccountCurrency: payment.Data.Initiation.CurrencyOfTransfer }
      })
      const rules = checked.findings.map((f) => f.rule)
      expect(rules).toContain("CurrencyOfTransferIsDebtorCurrency")
      expect(rules).toContain("DebtorAccountMissing")
    })
  )

  it.effect("OPEN_BANKING_ variables configure the client", () =>
    Effect.gen(function* () {
      const env = {
        OPEN_BANKING_BASE_URL: "http://ob.test",
        OPEN_BANKING_TOKEN: "secret",
        OPEN_BANKING_FINANCIAL_ID: "0015800001",
        OPEN_BANKING_MAX_ATTEMPTS: "4"
      }
      const { token, ...cfg } = yield* Effect.provideService(
        Effect.gen(function* () {
          return yield* OpenBankingClient.config
        }),
        ConfigProvider.ConfigProvider,
        ConfigProvider.fromEnv({ env })
      )
      expect(Redacted.value(token)).toBe("secret")
      expect(cfg).toEqual({
        ...OpenBankingClient.defaults,
        baseUrl: "http://ob.test",
        financialId: "0015800001",
        retry: { ...OpenBankingClient.defaults.retry, maxAttempts: 4 }
      })
      const payment = yield* samplePayment
      const fake = server(() => json(payment))
      const client = yield* Effect.provide(
        OpenBankingClient.OpenBankingClient,
        OpenBankingClient.layerConfig().pipe(Layer.provide(fake.http))
      ).pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))
      yield* client.getInternationalPayment("ip-1")
      expect(fake.requests[0]!.headers).toMatchObject({
        "x-fapi-financial-id": "0015800001",
        authorization: "Bearer secret"
      })
    })
  )
})

describe("MerchantClient: the request, pagination and errors", () => {
  it.effect("sends the token and the API version, the default one or the configured one", () =>
    Effect.gen(function* () {
      const fake = server(() => json({ subscription_plans: [], next_page_token: null }))
      yield* (yield* merchant(fake.http)).listSubscriptionPlansPage({ limit: 5 })
      yield* (yield* merchant(fake.http, { apiVersion: "2025-01-01" })).listSubscriptionPlansPage({})
      expect(fake.requests.map((q) => [q.url, q.headers["revolut-api-version"]])).toEqual([
        ["/api/subscription-plans?limit=5", "2024-09-01"],
        ["/api/subscription-plans", "2025-01-01"]
      ])
      expect(fake.requests[0]!.headers).toMatchObject({ authorization: "Bearer t", accept: "application/json" })
      expect(fake.requests[0]!.span).toStrictEqual(["MerchantClient.listSubscriptionPlansPage", {}])
    })
  )

  it.effect("a query that breaks its Schema is refused before sending", () =>
    Effect.gen(function* () {
      const fake = server(() => json({ subscription_plans: [] }))
      const e = yield* Effect.flip((yield* merchant(fake.http)).listSubscriptionPlansPage({ limit: 0 }))
      expect(e).toMatchObject({
        _tag: "MerchantClientError",
        reason: "BadRequest",
        status: undefined,
        message: expect.stringMatching(/^the query is invalid: /)
      })
      expect(fake.seen).toEqual([])
    })
  )

  it.effect("a page token handed back a second time ends the listing with PaginationLoop", () =>
    Effect.gen(function* () {
      const long = `p1-${"t".repeat(60)}`
      const fake = server((url) =>
        json({
          subscription_plans: [plan("GBP")],
          next_page_token: url.searchParams.get("page_token") === long ? "p2" : long
        })
      )
      const client = yield* merchant(fake.http)
      const exit = yield* Effect.exit(Stream.runCollect(client.listSubscriptionPlanPages()))
      expect(failureOf(exit)).toMatchObject({
        _tag: "MerchantClientError",
        reason: "PaginationLoop",
        status: undefined,
        message: `the server returned page token "${long.slice(0, 40)}" a second time: following it would never end`
      })
      expect(fake.requests.map((q) => q.url)).toEqual([
        "/api/subscription-plans",
        `/api/subscription-plans?page_token=${long}`,
        "/api/subscription-plans?page_token=p2"
      ])
    })
  )

  it.effect("an error answer keeps the merchant body, and a 503 is retried per the policy", () =>
    Effect.gen(function* () {
      const fake = server(() =>
        fake.requests.length === 1
          ? json({ code: "unavailable", message: "later", timestamp: 1 }, 503)
          : json({ code: "unauthorized", message: "bad token", timestamp: 2 }, 401)
      )
      const client = yield* merchant(fake.http, { retry: { ...noRetry, maxAttempts: 3 } })
      const fiber = yield* Effect.forkChild(Effect.flip(client.listSubscriptionPlansPage({})))
      yield* TestClock.adjust("1 second")
      expect(yield* Fiber.join(fiber)).toMatchObject({
        _tag: "MerchantClientError",
        reason: "Unauthorized",
        status: 401,
        body: { code: "unauthorized", message: "bad token", timestamp: 2 },
        retryAfter: undefined,
        message: "401: bad token"
      })
      expect(fake.requests).toHaveLength(2)
    })
  )

  it.effect("MERCHANT_ variables configure the client, API_VERSION with its default", () =>
    Effect.gen(function* () {
      const read = (env: Record<string, string>) =>
        Effect.provideService(
          Effect.gen(function* () {
            return yield* MerchantClient.config
          }),
          ConfigProvider.ConfigProvider,
          ConfigProvider.fromEnv({ env })
        )
      const base = { MERCHANT_BASE_URL: "http://m.test", MERCHANT_TOKEN: "secret" }
      const { token: _, ...cfg } = yield* read({ ...base, MERCHANT_MAX_ATTEMPTS: "2" })
      expect(cfg).toEqual({
        ...MerchantClient.defaults,
        baseUrl: "http://m.test",
        retry: { ...MerchantClient.defaults.retry, maxAttempts: 2 }
      })
      expect((yield* read({ ...base, MERCHANT_API_VERSION: "2025-01-01" })).apiVersion).toBe("2025-01-01")
      const fake = server(() => json({ subscription_plans: [] }))
      const client = yield* Effect.provide(
        MerchantClient.MerchantClient,
        MerchantClient.layerConfig().pipe(Layer.provide(fake.http))
      ).pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: base })))
      yield* client.listSubscriptionPlansPage({})
      expect(fake.requests[0]!.headers).toMatchObject({
        authorization: "Bearer secret",
        "revolut-api-version": "2024-09-01"
      })
    })
  )
})

describe("OpenBankingClient.ErrorBodyEnvelope", () => {
  it("is named OBErrorResponse1Envelope in the JSON Schema it gives", () => {
    expect(Schema.toJsonSchemaDocument(OpenBankingClient.ErrorBodyEnvelope)).toMatchObject({
      schema: { $ref: "#/$defs/OBErrorResponse1Envelope" }
    })
  })
})
