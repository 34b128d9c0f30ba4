import { describe, expect, it } from "@effect/vitest"
import {
  Auth,
  BusinessApi,
  BusinessClient,
  MerchantApi,
  MerchantClient,
  OpenBankingApi,
  OpenBankingClient,
  PayFieldsLimiter
} from "@payrules/transport"
import { issuesOf, schemaLaws } from "@payrules/vitest"
import { Arbitrary, Cause, type Context, Duration, Effect, Exit, Fiber, Layer, Option, Result, Schema } from "effect"
import { HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import * as Http from "../src/internal/http.js"

describe("client failure classification", () => {
  it.each([
    [400, "BadRequest"],
    [401, "Unauthorized"],
    [403, "Forbidden"],
    [404, "NotFound"],
    [405, "MethodNotAllowed"],
    [406, "NotAcceptable"],
    [408, "TooManyRequests"],
    [429, "TooManyRequests"],
    [500, "ServerError"],
    [503, "ServerError"]
  ] as const)("%d -> %s", (status, reason) => {
    expect(Http.reasonOfStatus(status)).toBe(reason)
  })

  it("reads Retry-After in seconds or as an HTTP date, and ignores garbage", () => {
    const now = Date.UTC(2017, 8, 10, 19, 43, 21)
    expect(Http.retryAfterOf("120", now)).toEqual(Duration.seconds(120))
    expect(Http.retryAfterOf("Sun, 10 Sep 2017 19:43:31 GMT", now)).toEqual(Duration.millis(10_000))
    expect(Http.retryAfterOf("Sun, 10 Sep 2017 19:43:01 GMT", now)).toEqual(Duration.zero)
    expect(Http.retryAfterOf("soon", now)).toBeUndefined()
    expect(Http.retryAfterOf(undefined, now)).toBeUndefined()
  })
})

describe("family error schemas", () => {
  it("a business error body decodes to a BusinessError with the status of its schema, and encodes back", () => {
    const at400 = BusinessApi.businessErrorAt(400)
    const e = Result.getOrThrow(Schema.decodeUnknownResult(at400)({ code: 3448, message: "reason required" }))
    expect(e).toBeInstanceOf(BusinessApi.BusinessError)
    expect(e.status).toBe(400)
    expect(Schema.encodeSync(at400)(e)).toEqual({ code: 3448, message: "reason required" })
    expect(Schema.is(BusinessApi.businessErrorAt(401))(e)).toBe(false)
  })

  it("a merchant error keeps its optional message absent", () => {
    const at401 = MerchantApi.merchantErrorAt(401)
    const e = Result.getOrThrow(Schema.decodeUnknownResult(at401)({ code: "unauthorized", timestamp: 1 }))
    expect(Schema.encodeSync(at401)(e)).toEqual({ code: "unauthorized", timestamp: 1 })
  })
})

describe("the services and the errors by name", () => {
  it.effect.each([
    ["@payrules/transport/BusinessClient", BusinessClient.BusinessClient],
    ["@payrules/transport/MerchantClient", MerchantClient.MerchantClient],
    ["@payrules/transport/OpenBankingClient", OpenBankingClient.OpenBankingClient],
    ["@payrules/transport/PayFieldsLimiter", PayFieldsLimiter.PayFieldsLimiter],
    ["@payrules/transport/BearerToken", Auth.BearerToken],
    ["BusinessAuthorization", BusinessApi.BusinessAuthorization],
    ["MerchantAuthorization", MerchantApi.MerchantAuthorization],
    ["OpenBankingAuthorization", OpenBankingApi.OpenBankingAuthorization]
  ] as const)("a missing %s is named in the defect", ([key, service]) =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        Effect.service(service as Context.Key<unknown, unknown>) as Effect.Effect<unknown>
      )
      expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toContain(`Service not found: ${key}`)
    })
  )

  it("the error bodies decode to errors tagged by family, and the APIs are named", () => {
    const business = Schema.decodeUnknownSync(BusinessApi.businessErrorAt(400))({ code: 3000, message: "bad" })
    const merchant = Schema.decodeUnknownSync(MerchantApi.merchantErrorAt(400))({ code: "bad", timestamp: 1 })
    expect([business._tag, merchant._tag]).toEqual(["BusinessError", "MerchantError"])
    expect(
      [BusinessApi.BusinessApi, MerchantApi.MerchantApi, OpenBankingApi.OpenBankingApi].map((a) => a.identifier)
    ).toEqual(["business", "merchant", "openBanking"])
  })

  it("an error encodes only at its own status, and says so", () => {
    const e = new BusinessApi.BusinessError({ status: 400, code: 3000, message: "bad" })
    const encoded = Schema.encodeUnknownResult(BusinessApi.businessErrorAt(401))(e)
    expect(Result.isFailure(encoded) && encoded.failure.message).toContain("a status of 401, not 400")
    // a merchant error with a message sends it; one without leaves the key out
    const withMessage = new MerchantApi.MerchantError({ status: 400, code: "bad", message: "why", timestamp: 1 })
    expect(Schema.encodeSync(MerchantApi.merchantErrorAt(400))(withMessage)).toEqual({
      code: "bad",
      message: "why",
      timestamp: 1
    })
  })
})

describe("the business error codes", () => {
  it("are the codes the business API answers with, which callers match on", () => {
    expect(BusinessApi.ErrorCode).toEqual({
      InvalidRequest: 3000,
      DuplicateRequest: 3020,
      RequestIdConflict: 3021,
      ExchangeReasonRequired: 3448,
      UnknownExchangeReason: 3449,
      InsufficientBalance: 3004,
      NotFound: 3404,
      Unauthorized: 9001,
      MethodNotAllowed: 9405,
      NotAcceptable: 9406,
      PayloadTooLarge: 9413,
      UnsupportedMediaType: 9415,
      TooManyRequests: 9429,
      InternalError: 9500,
      ServiceUnavailable: 9503
    })
  })
})

describe("family error schemas, one per status", () => {
  it("a status answers the same schema every time, so that the 401 of an endpoint and of its middleware are one", () => {
    expect(BusinessApi.businessErrorAt(401)).toBe(BusinessApi.businessErrorAt(401))
    expect(MerchantApi.merchantErrorAt(400)).toBe(MerchantApi.merchantErrorAt(400))
    expect(OpenBankingApi.openBankingErrorAt(500)).toBe(OpenBankingApi.openBankingErrorAt(500))
    expect(BusinessApi.businessErrorAt(401)).not.toBe(BusinessApi.businessErrorAt(429))
  })

  it("an Open Banking body keeps its Errors and its optional Id", () => {
    const at400 = OpenBankingApi.openBankingErrorAt(400)
    const body = {
      Code: "UK.OBIE.Field.Invalid",
      Message: "bad",
      Errors: [{ ErrorCode: "UK.OBIE.Field.Invalid", Message: "x" }]
    }
    const e = Result.getOrThrow(Schema.decodeUnknownResult(at400)(body))
    expect(e).toMatchObject({ _tag: "OpenBankingError", status: 400, Code: "UK.OBIE.Field.Invalid" })
    expect(Schema.encodeSync(at400)(e)).toEqual(body)
  })
})

schemaLaws("BusinessErrorBody", BusinessApi.BusinessErrorBody)
schemaLaws("MerchantErrorBody", MerchantApi.MerchantErrorBody)
schemaLaws("OBErrorResponse1", OpenBankingApi.OBErrorResponse1)
schemaLaws("businessErrorAt(429)", BusinessApi.businessErrorAt(429), {
  arbitrary: Arbitrary.schema(BusinessApi.BusinessErrorBody).pipe(
    Arbitrary.map((body) => new BusinessApi.BusinessError({ status: 429, ...body }))
  )
})
schemaLaws("openBankingErrorAt(403)", OpenBankingApi.openBankingErrorAt(403), {
  arbitrary: Arbitrary.schema(OpenBankingApi.OBErrorResponse1).pipe(
    Arbitrary.map((body) => new OpenBankingApi.OpenBankingError({ status: 403, ...body }))
  )
})

describe("the base URL of a client", () => {
  const refusal = (raw: string) =>
    Effect.map(Effect.flip(Http.parseBaseUrl(raw)), (e) => (Schema.isSchemaError(e.cause) ? issuesOf(e.cause) : []))

  it.effect.each([
    ["not a url", "it does not parse as a URL"],
    ["mailto:someone@business.test", "it is not an absolute URL"],
    ["x-y:http://business.test", "it is not an absolute URL"],
    ["ftp://business.test", "the scheme is ftp, not http or https"],
    ["http://user:secret@business.test", "it carries credentials (pass the token separately)"],
    ["http://business.test/?sandbox=1", "it has a query or a fragment"],
    ["http://business.test/#top", "it has a query or a fragment"],
    ["http://business.test?", "it has a query or a fragment"]
  ] as const)("%s is refused: %s", ([raw, why]) =>
    Effect.gen(function* () {
      expect(yield* refusal(raw)).toEqual([
        { path: ["baseUrl"], message: `${JSON.stringify(raw)} is not a base URL: ${why}` }
      ])
    })
  )

  it.effect("a long URL is quoted in the message up to 200 characters", () =>
    Effect.gen(function* () {
      const raw = `ftp://${"a".repeat(300)}.test`
      expect(yield* refusal(raw)).toEqual([
        {
          path: ["baseUrl"],
          message: `${JSON.stringify(raw.slice(0, 200))} is not a base URL: the scheme is ftp, not http or https`
        }
      ])
    })
  )

  it.effect("http and https, in any case, with a path; the trailing slashes are dropped", () =>
    Effect.gen(function* () {
      expect(yield* Http.parseBaseUrl("HTTPS://Business.test/api//")).toBe("HTTPS://Business.test/api")
      expect(yield* Http.parseBaseUrl("http://business.test:8080")).toBe("http://business.test:8080")
      expect(yield* Http.parseBaseUrl("http://business.test/a/b/")).toBe("http://business.test/a/b")
    })
  )
})

describe("what a failure says", () => {
  it.each([
    [499, "BadRequest", false],
    [500, "ServerError", true],
    [501, "ServerError", false],
    [502, "ServerError", true],
    [503, "ServerError", false],
    [504, "ServerError", true],
    [599, "ServerError", true]
  ] as const)("%d is %s, and may come after processing: %s", (status, reason, ambiguous) => {
    expect(Http.reasonOfStatus(status)).toBe(reason)
    expect(Http.ambiguousStatus(status)).toBe(ambiguous)
  })

  it("Retry-After: surrounding spaces are ignored, blank is none, a date now or past is no wait", () => {
    const now = Date.UTC(2017, 8, 10, 19, 43, 21)
    expect(Http.retryAfterOf(" 7 ", now)).toEqual(Duration.seconds(7))
    expect(Http.retryAfterOf("0", now)).toEqual(Duration.zero)
    expect(Http.retryAfterOf("   ", now)).toBeUndefined()
    expect(Http.retryAfterOf("", now)).toBeUndefined()
    expect(Http.retryAfterOf("7s", now)).toBeUndefined()
    expect(Http.retryAfterOf("-7", now)).toBeUndefined()
    expect(Http.retryAfterOf("x7", now)).toBeUndefined()
    expect(Http.retryAfterOf(" Sun, 10 Sep 2017 19:43:21 GMT ", now)).toEqual(Duration.zero)
  })

  it("bug: Retry-After in the obsolete RFC 850 and asctime forms is read, as RFC 9110 asks of a recipient (it was ignored)", () => {
    const now = Date.UTC(2017, 8, 10, 19, 43, 21)
    expect(Http.retryAfterOf("Sunday, 10-Sep-17 19:43:31 GMT", now)).toEqual(Duration.millis(10_000))
    expect(Http.retryAfterOf("Sun Sep 10 19:44:21 2017", now)).toEqual(Duration.seconds(60))
    expect(Http.retryAfterOf("Sun Sep  3 19:44:21 2017", now)).toEqual(Duration.zero)
    // with their dates checked all the same
    expect(Http.retryAfterOf("Monday, 10-Sep-17 19:43:31 GMT", now)).toBeUndefined()
  })

  it("a transport failure or 408, 429, 500, 502, 503, 504 is worth another attempt, unless replayed or told not", () => {
    const failure = (
      reason: Http.Reason,
      status: number | undefined,
      extra: Partial<Http.Failure> = {}
    ): Http.Failure => ({
      reason,
      status,
      raw: undefined,
      body: undefined,
      retryAfter: undefined,
      headers: {},
      message: "",
      ambiguous: false,
      ...extra
    })
    expect(Http.isRetryable(failure("Transport", undefined))).toBe(true)
    expect(Http.isRetryable(failure("Transport", undefined, { retryable: false }))).toBe(false)
    expect(Http.isRetryable(failure("Decode", 200))).toBe(false)
    expect(Http.isRetryable(failure("Deadline", undefined))).toBe(false)
    expect(Http.isRetryable(failure("BadRequest", 400, { retryable: true }))).toBe(true)
    for (const status of [408, 429, 500, 502, 503, 504]) {
      expect(Http.isRetryable(failure("ServerError", status))).toBe(true)
      expect(Http.isRetryable(failure("ServerError", status, { replayed: true }))).toBe(false)
      expect(Http.isRetryable(failure("ServerError", status, { replayed: false }))).toBe(true)
    }
    for (const status of [400, 401, 404, 501, 505]) expect(Http.isRetryable(failure("ServerError", status))).toBe(false)
  })

  it.effect("bug: an error answer without a body said only its status ('431:'), now the status's reason phrase", () =>
    Effect.gen(function* () {
      const answering = (status: number, body: string) =>
        Layer.succeed(
          HttpClient.HttpClient,
          HttpClient.make((request) =>
            Effect.succeed(HttpClientResponse.fromWeb(request, new Response(body, { status })))
          )
        )
      const messageOf = (status: number, body: string) =>
        Effect.map(
          Effect.flip(
            Http.send(HttpClientRequest.get("http://api.test/x"), {
              timeout: "1 second",
              success: Schema.Unknown,
              errorBody: Schema.Unknown
            }).pipe(Effect.provide(answering(status, body)))
          ),
          (f) => f.message
        )
      expect(yield* messageOf(431, "")).toBe("431: Request Header Fields Too Large (the answer has no body)")
      expect(yield* messageOf(502, "  ")).toBe("502: Bad Gateway (the answer has no body)")
      expect(yield* messageOf(499, "")).toBe("499: no message (the answer has no body)")
      expect(yield* messageOf(400, JSON.stringify({ message: "" }))).toBe("400: Bad Request (the answer has no body)")
      // a body says what it says
      expect(yield* messageOf(431, "headers too long")).toBe("431: headers too long")
      expect(yield* messageOf(400, JSON.stringify({ message: "bad amount" }))).toBe("400: bad amount")
    })
  )

  it("a 4xx refuses the request itself, but 408 and 429, which say when to come back, and 409, a request in flight", () => {
    for (const status of [400, 401, 403, 404, 413, 422, 431, 499]) expect(Http.refusesRequest(status)).toBe(true)
    for (const status of [408, 409, 429, 200, 302, 500, 503]) expect(Http.refusesRequest(status)).toBe(false)
  })

  it.effect("a call without a deadline of its own ends after 2 minutes", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(Effect.flip(Http.withDeadline(Effect.never, undefined)))
      yield* TestClock.adjust(Duration.millis(119_999))
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Fiber.join(fiber)).toEqual({
        reason: "Deadline",
        status: undefined,
        raw: undefined,
        body: undefined,
        retryAfter: undefined,
        headers: {},
        message: "the call did not finish within its deadline of 2m",
        ambiguous: true,
        retryable: false
      })
    })
  )

  it("the first issue of a decoding failure: its dotted path, or (body) at the top", () => {
    const S = Schema.Struct({ a: Schema.Array(Schema.Struct({ b: Schema.Number })) })
    const failure = (input: unknown) => Result.getFailure(Schema.decodeUnknownResult(S)(input))
    expect(Http.firstIssue(Option.getOrThrow(failure({ a: [{ b: 1 }, { b: "x" }] })))).toEqual({
      path: "a.1.b",
      message: "Expected number"
    })
    expect(Http.firstIssue(Option.getOrThrow(failure(null)))).toEqual({ path: "(body)", message: "Expected object" })
  })
})
