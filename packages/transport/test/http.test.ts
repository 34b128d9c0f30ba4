import { describe, expect, it } from "@effect/vitest"
import { BusinessApi, MerchantApi, OpenBankingApi } from "@payrules/transport"
import { schemaLaws } from "@payrules/vitest"
import { Arbitrary, Duration, Result, Schema } from "effect"
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
