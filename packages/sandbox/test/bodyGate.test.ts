import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { BusinessApi } from "@payrules/transport"
import { Effect } from "effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { seedIn, sendIn, urlsIn } from "./helpers.js"

// The body gate as a client meets it (the in-process sandbox: the same middleware and gate as on a socket, see
// test/inProcessParity.test.ts): each refusal in each family's error body, with its status, its message, the path of
// what is wrong where the family has a place for it, and `Connection: close` when the body was not read to its end.

const limits = { maxBodyBytes: 64, maxJsonDepth: 3 } as const
const options = { seed: 41, plans: 15, limits } as const
const interactionId = "8f0e3c1a-6b2d-4c5e-9f7a-1d2b3c4d5e6f"

type Family = "business" | "merchant" | "openBanking" | "control"

interface Refusal {
  readonly status: 400 | 413 | 415
  readonly message: string
  readonly issues?: ReadonlyArray<{ readonly path: ReadonlyArray<string | number>; readonly message: string }>
}

const businessCode = { 400: BusinessApi.ErrorCode.InvalidRequest, 413: 9413, 415: 9415 } as const
const merchantCode = { 400: "bad_request", 413: "payload_too_large", 415: "unsupported_media_type" } as const
const obCode = { 400: "400 Bad Request", 413: "413 Content Too Large", 415: "415 Unsupported Media Type" } as const

/** the error body each family answers a refusal with */
const bodyOf = (family: Family, r: Refusal): unknown => {
  switch (family) {
    case "business":
      return { code: businessCode[r.status], message: r.message }
    case "merchant":
      return { code: merchantCode[r.status], message: r.message, timestamp: expect.any(Number) }
    case "openBanking": {
      const errorCode = r.status === 415 ? "UK.OBIE.Header.Invalid" : "UK.OBIE.Field.Invalid"
      return {
        Code: obCode[r.status],
        Id: interactionId,
        Message: r.message,
        Errors:
          r.issues === undefined
            ? [{ ErrorCode: errorCode, Message: r.message }]
            : r.issues.map((i) => ({
                ErrorCode: errorCode,
                Message: i.message,
                ...(i.path.length > 0 ? { Path: i.path.join(".") } : {})
              }))
      }
    }
    case "control":
      return { status: r.status, message: r.message, ...(r.issues === undefined ? {} : { issues: r.issues }) }
  }
}

/** a request with a body to a path of each family that takes one */
const requestTo = Effect.gen(function* () {
  const u = yield* urlsIn
  const seed = yield* seedIn
  return (family: Family): HttpClientRequest.HttpClientRequest => {
    switch (family) {
      case "business":
        return HttpClientRequest.post(`${u.business}/exchange`)
      case "merchant":
        return HttpClientRequest.post(`${u.merchant}/api/subscription-plans`)
      case "openBanking":
        return HttpClientRequest.post(`${u.openBanking}/international-payments/${seed.payments[0]!.id}`).pipe(
          HttpClientRequest.setHeader("x-fapi-interaction-id", interactionId)
        )
      case "control":
        return HttpClientRequest.put(`${u.control}/faults`)
    }
  }
})

const encoder = new TextEncoder()
const families: ReadonlyArray<Family> = ["business", "merchant", "openBanking", "control"]

/** each family's answer to the same body: the status, the body and whether the connection closes */
const answers = (body: string | Uint8Array, contentType: string | undefined) =>
  Effect.gen(function* () {
    const to = yield* requestTo
    return yield* Effect.forEach(families, (family) => {
      const bytes = typeof body === "string" ? encoder.encode(body) : body
      let request = HttpClientRequest.bodyUint8Array(to(family), bytes, contentType ?? "application/json")
      if (contentType === undefined) request = HttpClientRequest.removeHeader(request, "content-type")
      return Effect.map(sendIn(request), (r) => ({
        family,
        status: r.status,
        json: r.json,
        closes: r.headers.connection === "close"
      }))
    })
  })

const expected = (r: Refusal, closes: boolean) =>
  families.map((family) => ({ family, status: r.status, json: bodyOf(family, r), closes }))

describe("the body gate, as each family answers it", () => {
  it.effect(
    "a body over the limit: 413 in each family's shape, the connection closed (bug: a large body read whole, or answered in another family's shape)",
    () =>
      Effect.gen(function* () {
        const refusal = { status: 413, message: "the request body is larger than 64 bytes (the limit)" } as const
        expect(yield* answers(`"${"x".repeat(63)}"`, "application/json")).toEqual(expected(refusal, true))
      }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect(
    "a body that is not JSON by its Content-Type: 415, the connection closed (bug: a form body parsed, or a charset ignored)",
    () =>
      Effect.gen(function* () {
        expect(yield* answers("{}", "text/plain")).toEqual(
          expected(
            { status: 415, message: "only application/json bodies are accepted; Content-Type was text/plain" },
            true
          )
        )
        expect(yield* answers("{}", undefined)).toEqual(
          expected({ status: 415, message: "a request body needs Content-Type: application/json" }, true)
        )
        expect(yield* answers("{}", "application/json; charset=utf-16")).toEqual(
          expected({ status: 415, message: "a JSON body is UTF-8; Content-Type said charset=utf-16" }, true)
        )
      }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect(
    "bytes that are not UTF-8, or a byte order mark: 400, the connection kept (bug: a body read to its end closing the connection, or U+FFFD stored)",
    () =>
      Effect.gen(function* () {
        const invalid = new Uint8Array([...encoder.encode('{"a":"'), 0xc3, 0x28, ...encoder.encode('"}')])
        expect(yield* answers(invalid, "application/json")).toEqual(
          expected({ status: 400, message: "the request body is not valid UTF-8 (a JSON body is UTF-8)" }, false)
        )
        const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode("{}")])
        expect(yield* answers(bom, "application/json")).toEqual(
          expected(
            {
              status: 400,
              message: "the request body starts with a byte order mark: JSON is UTF-8 without one (RFC 8259)"
            },
            false
          )
        )
      }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect(
    "a body that breaks a JSON rule: 400 naming each problem and its path, the connection kept (bug: a refusal that does not say where)",
    () =>
      Effect.gen(function* () {
        const syntax = "the request body is not valid JSON"
        expect(yield* answers('{"a":', "application/json")).toEqual(
          expected({ status: 400, message: syntax, issues: [{ path: [], message: syntax }] }, false)
        )
        const deep = "the body nests arrays and objects more than 3 deep (the limit is 3)"
        expect(yield* answers('{"a":[{"b":[]}]}', "application/json")).toEqual(
          expected({ status: 400, message: deep, issues: [{ path: ["a", 0, "b"], message: deep }] }, false)
        )
        const issues = [
          {
            path: ["a"],
            message: 'a: the key "a" is given twice in one object (each key of a JSON object must be unique)'
          },
          {
            path: ["b", 1],
            message:
              "b.1: the number 1e400 cannot be read exactly as written (a double holds Infinity); send at most the digits a double carries"
          }
        ]
        expect(yield* answers('{"a":1,"a":2,"b":[0,1e400]}', "application/json")).toEqual(
          expected({ status: 400, message: issues.map((i) => i.message).join("; "), issues }, false)
        )
      }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )
})
