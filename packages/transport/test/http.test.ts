import { describe, expect, it } from "@effect/vitest"
import { BusinessApi, MerchantApi } from "@payrules/transport"
import { Duration, Either, Schema } from "effect"
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
    const e = Either.getOrThrow(Schema.decodeUnknownEither(at400)({ code: 3448, message: "reason required" }))
    expect(e).toBeInstanceOf(BusinessApi.BusinessError)
    expect(e.status).toBe(400)
    expect(Schema.encodeSync(at400)(e)).toEqual({ code: 3448, message: "reason required" })
    expect(Schema.is(BusinessApi.businessErrorAt(401))(e)).toBe(false)
  })

  it("a merchant error keeps its optional message absent", () => {
    const at401 = MerchantApi.merchantErrorAt(401)
    const e = Either.getOrThrow(Schema.decodeUnknownEither(at401)({ code: "unauthorized", timestamp: 1 }))
    expect(Schema.encodeSync(at401)(e)).toEqual({ code: "unauthorized", timestamp: 1 })
  })
})
