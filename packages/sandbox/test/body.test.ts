import { IncomingMessage } from "node:http"
import { Socket } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Option, Result, Schema, Stream } from "effect"
import * as Headers from "effect/http/Headers"
import * as HttpBody from "effect/http/HttpBody"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as UrlParams from "effect/http/UrlParams"
import * as Body from "../src/internal/body.js"
import * as Json from "../src/internal/json.js"

// The body gate called directly (src/internal/body.ts): which rule a refused body breaks, with its status, reason,
// message and whether the connection must close; each limit at its edge; and what passes, unchanged. The three ways
// a body is read are each driven here: the bytes of an in-process client request, a Node IncomingMessage (the socket
// server's) and any other request's arrayBuffer (a streamed body).

const limits: Body.BodyLimits = { maxBodyBytes: 16, maxDepth: 3 }
const encoder = new TextEncoder()
const bytesOf = (text: string) => encoder.encode(text)
const url = "http://sandbox.test/business/exchange"

/** a request of the in-process client: its bytes as they are, with these headers (set last: they win) */
const inMemory = (
  method: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE",
  body: Uint8Array | undefined,
  headers: Record<string, string>
) => {
  let request = HttpClientRequest.make(method)(url)
  if (body !== undefined) request = HttpClientRequest.setBody(request, HttpBody.uint8Array(body))
  request = HttpClientRequest.removeHeader(request, "content-type")
  return HttpServerRequest.fromClientRequest(HttpClientRequest.setHeaders(request, headers))
}

/** POST of a JSON text (or bytes) with its Content-Length, as a client sends it */
const post = (body: string | Uint8Array, contentType = "application/json") => {
  const bytes = typeof body === "string" ? bytesOf(body) : body
  return inMemory("POST", bytes, { "content-type": contentType, "content-length": String(bytes.length) })
}

/** a POST whose body is a stream of chunks (read through the request's arrayBuffer), without a Content-Length */
const streamed = (stream: Stream.Stream<Uint8Array, unknown>) =>
  HttpServerRequest.fromClientRequest(
    HttpClientRequest.post(url).pipe(
      HttpClientRequest.setBody(HttpBody.stream(stream, "application/json")),
      HttpClientRequest.setHeaders({ "content-type": "application/json", "transfer-encoding": "chunked" })
    )
  )

const gate = (request: HttpServerRequest.HttpServerRequest, l: Body.BodyLimits = limits) => Body.gate(request, l)
const refusal = (request: HttpServerRequest.HttpServerRequest, l: Body.BodyLimits = limits) =>
  Effect.flip(Body.gate(request, l))
/** a refusal as plain data: what the middleware answers with (and the error's tag, which a caller may catch) */
const refusedAs = (e: Body.BodyRefused) => {
  expect(e._tag).toBe("BodyRefused")
  return { reason: e.reason, status: e.status, message: e.message, issues: e.issues, close: e.close }
}

const tooLarge = (limit: number) => ({
  reason: "TooLarge",
  status: 413,
  message: `the request body is larger than ${limit} bytes (the limit)`,
  issues: undefined,
  close: true
})
const mediaType = (message: string) => ({ reason: "MediaType", status: 415, message, issues: undefined, close: true })
const notUtf8 = {
  reason: "Encoding",
  status: 400,
  message: "the request body is not valid UTF-8 (a JSON body is UTF-8)",
  issues: undefined,
  close: false
}
const unreadable = (close: boolean) => ({
  reason: "Unreadable",
  status: 400,
  message: "the request body could not be read",
  issues: undefined,
  close
})

const forbiddenKeys = new Set(["__proto__", "constructor", "prototype"])
const namesForbiddenKey = (value: Schema.Json): boolean =>
  Array.isArray(value)
    ? value.some(namesForbiddenKey)
    : typeof value === "object" && value !== null
      ? Object.entries(value).some(([key, inner]) => forbiddenKeys.has(key) || namesForbiddenKey(inner))
      : false

describe("hasBody", () => {
  it("a body is announced by Transfer-Encoding or by a Content-Length other than 0 (bug: a body left unread, or an empty one read)", () => {
    const hasBody = (headers: Record<string, string>) => Body.hasBody(Headers.fromInput(headers))
    expect(hasBody({ "transfer-encoding": "chunked" })).toBe(true)
    expect(hasBody({ "transfer-encoding": "chunked", "content-length": "0" })).toBe(true)
    expect(hasBody({ "content-length": "1" })).toBe(true)
    expect(hasBody({ "content-length": "x" })).toBe(true)
    expect(hasBody({ "content-length": "0" })).toBe(false)
    expect(hasBody({})).toBe(false)
  })
})

describe("the body gate", () => {
  it.effect(
    "a request without a body passes as it is, whatever its Content-Type (bug: a 415 for a POST with no body)",
    () =>
      Effect.gen(function* () {
        for (const headers of [
          {},
          { "content-length": "0" },
          { "content-type": "text/plain", "content-length": "0" }
        ]) {
          const request = inMemory("POST", undefined, headers)
          const passed = yield* gate(request)
          expect(passed.request).toBe(request)
          expect(passed.body).toBeUndefined()
        }
      })
  )

  it.effect(
    "a declared Content-Length is refused past the limit before anything is read or checked (bug: an announced 100 MB body read, or a 415 where the size is the problem)",
    () =>
      Effect.gen(function* () {
        // exactly at the limit: read and parsed
        expect((yield* gate(post(`"${"a".repeat(14)}"`))).body).toBe("a".repeat(14))
        // one past: 413, the connection closed, whatever the media type
        expect(refusedAs(yield* refusal(post(`"${"a".repeat(15)}"`)))).toEqual(tooLarge(16))
        expect(refusedAs(yield* refusal(post("x".repeat(17), "text/plain")))).toEqual(tooLarge(16))
        // announced, never sent: refused from the header alone (the body's stream would fail if it were read)
        const announced = HttpServerRequest.fromClientRequest(
          HttpClientRequest.post(url).pipe(
            HttpClientRequest.setBody(HttpBody.stream(Stream.fail("never sent"), "application/json")),
            HttpClientRequest.setHeaders({ "content-type": "application/json", "content-length": "100000000" })
          )
        )
        expect(refusedAs(yield* refusal(announced))).toEqual(tooLarge(16))
        // a Content-Length that is not a number is not "within the limit"
        const garbled = inMemory("POST", bytesOf("{}"), {
          "content-type": "application/json",
          "content-length": "2 bytes"
        })
        expect(refusedAs(yield* refusal(garbled))).toEqual(tooLarge(16))
        // the limit in the message is the one given
        expect((yield* refusal(post("[1,2,3]"), { maxBodyBytes: 6, maxDepth: 3 })).message).toBe(
          "the request body is larger than 6 bytes (the limit)"
        )
      })
  )

  it.effect(
    "a body without a Content-Length is counted as it is read: at the limit it passes, one byte more is 413 (bug: a chunked body buffered whole)",
    () =>
      Effect.gen(function* () {
        const chunked = (text: string) =>
          inMemory("POST", bytesOf(text), { "content-type": "application/json", "transfer-encoding": "chunked" })
        expect((yield* gate(chunked(`"${"b".repeat(14)}"`))).body).toBe("b".repeat(14))
        expect(refusedAs(yield* refusal(chunked(`"${"b".repeat(15)}"`)))).toEqual(tooLarge(16))
        // a Content-Length smaller than what the client gives: the bytes count, not the header
        const lying = inMemory("POST", bytesOf(`"${"b".repeat(15)}"`), {
          "content-type": "application/json",
          "content-length": "2"
        })
        expect(refusedAs(yield* refusal(lying))).toEqual(tooLarge(16))
      })
  )

  it.effect(
    "a streamed body is read through the request: at the limit it passes, past it 413, a failing stream 400 (bug: a stream read without a limit, or its failure a defect)",
    () =>
      Effect.gen(function* () {
        // 16 bytes in three chunks
        const passed = yield* gate(streamed(Stream.make(bytesOf('{"a":'), bytesOf("[1]"), bytesOf(',"b":""}'))))
        expect(passed.body).toEqual({ a: [1], b: "" })
        expect(yield* passed.request.text).toBe('{"a":[1],"b":""}')
        expect(refusedAs(yield* refusal(streamed(Stream.make(bytesOf('{"a":[1]'), bytesOf(',"b":"x"}')))))).toEqual(
          tooLarge(16)
        )
        expect(refusedAs(yield* refusal(streamed(Stream.fail("reset"))))).toEqual(unreadable(false))
      })
  )

  it.effect(
    "only application/json or application/<x>+json in UTF-8 is read, on every method with a body (bug: a form or text body parsed as JSON)",
    () =>
      Effect.gen(function* () {
        const withType = (contentType: string | undefined, method: "POST" | "PUT" | "PATCH" | "DELETE" = "POST") =>
          inMemory(method, bytesOf("{}"), {
            ...(contentType === undefined ? {} : { "content-type": contentType }),
            "content-length": "2"
          })
        for (const contentType of [
          "application/json",
          "APPLICATION/JSON",
          "application/json; charset=utf-8",
          "Application/Json;Charset=UTF-8",
          'application/json; charset="utf-8"',
          "application/json ; charset = utf-8",
          "application/json; version=2",
          "application/vnd.payrules+json",
          "application/merge-patch+json; charset=utf-8"
        ]) {
          expect((yield* gate(withType(contentType))).body, contentType).toEqual({})
        }
        const needed = mediaType("a request body needs Content-Type: application/json")
        for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
          expect(refusedAs(yield* refusal(withType(undefined, method))), method).toEqual(needed)
          expect(refusedAs(yield* refusal(withType("text/plain", method))), method).toEqual(
            mediaType("only application/json bodies are accepted; Content-Type was text/plain")
          )
        }
        expect(refusedAs(yield* refusal(withType("   ")))).toEqual(needed)
        for (const contentType of [
          "application/jsonx",
          "text/json",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "text/plain+json",
          "application/json+xml",
          "application/+jsonp"
        ]) {
          expect(refusedAs(yield* refusal(withType(contentType))), contentType).toEqual(
            mediaType(`only application/json bodies are accepted; Content-Type was ${contentType}`)
          )
        }
        // the Content-Type is quoted at most 64 characters long
        const long = `text/${"x".repeat(100)}`
        expect((yield* refusal(withType(long))).message).toBe(
          `only application/json bodies are accepted; Content-Type was ${long.slice(0, 64)}…`
        )
      })
  )

  it.effect(
    "bug: a body in a content coding is 415, naming it (a gzipped body was read as text, a plain one said to be gzip was executed)",
    () =>
      Effect.gen(function* () {
        const coded = (coding: string) => {
          const bytes = bytesOf("{}")
          return inMemory("POST", bytes, {
            "content-type": "application/json",
            "content-length": String(bytes.length),
            "content-encoding": coding
          })
        }
        for (const coding of ["gzip", "br", "deflate", "identity, gzip", "x".repeat(80)]) {
          expect(refusedAs(yield* refusal(coded(coding))), coding).toEqual(
            mediaType(
              `the request body is in the content coding ${coding.length > 64 ? `${coding.slice(0, 64)}…` : coding}: send it as it is, without Content-Encoding`
            )
          )
        }
        // identity is no coding, in any case and repeated
        for (const coding of ["identity", "Identity", " identity , IDENTITY "]) {
          expect((yield* gate(coded(coding))).body, coding).toEqual({})
        }
      })
  )

  it.effect(
    "a charset other than UTF-8 is 415, naming it as sent (bug: a UTF-16 or Latin-1 body decoded as UTF-8)",
    () =>
      Effect.gen(function* () {
        const charset = (contentType: string) => refusal(post("{}", contentType))
        for (const [contentType, named] of [
          ["application/json; charset=utf-16", "utf-16"],
          ["application/json;charset=ISO-8859-1", "iso-8859-1"],
          ["application/json; charset=utf8", "utf8"],
          ['application/json; charset="utf-16"', '"utf-16"'],
          // only a quote at each end is taken off
          ['application/json; charset=utf"-8', 'utf"-8'],
          ['application/json; charset=u"tf-8"', 'u"tf-8"'],
          // a charset without a value is no UTF-8
          ["application/json; charset", ""],
          ["application/json; charset=", ""],
          ["application/json; charset=utf-8; charset=latin1", "latin1"]
        ] as const) {
          expect(refusedAs(yield* charset(contentType)), contentType).toEqual(
            mediaType(`a JSON body is UTF-8; Content-Type said charset=${named}`)
          )
        }
        expect((yield* charset(`application/json; charset=${"z".repeat(80)}`)).message).toBe(
          `a JSON body is UTF-8; Content-Type said charset=${"z".repeat(64)}…`
        )
      })
  )

  it.effect(
    "a body on GET or HEAD is read within the limit and ignored (bug: a GET refused for its Content-Type, or its body handed on)",
    () =>
      Effect.gen(function* () {
        for (const method of ["GET", "HEAD"] as const) {
          const request = inMemory(method, bytesOf("not json"), { "content-type": "text/plain", "content-length": "8" })
          const passed = yield* gate(request)
          expect(passed.request).toBe(request)
          expect(passed.body).toBeUndefined()
          const large = inMemory(method, bytesOf("x".repeat(17)), { "transfer-encoding": "chunked" })
          expect(refusedAs(yield* refusal(large))).toEqual(tooLarge(16))
        }
      })
  )

  it.effect(
    "an empty body read on a POST passes without a value; the request serves the empty text (bug: an empty chunked body refused as not JSON)",
    () =>
      Effect.gen(function* () {
        const passed = yield* gate(
          inMemory("POST", new Uint8Array(0), { "content-type": "application/json", "transfer-encoding": "chunked" })
        )
        expect(passed.body).toBeUndefined()
        expect(yield* passed.request.text).toBe("")
        expect(yield* passed.request.json).toBeNull()
        expect(new Uint8Array(yield* passed.request.arrayBuffer)).toEqual(new Uint8Array(0))
      })
  )

  it.effect(
    "bytes that are not UTF-8 are 400, never replaced (bug: U+FFFD stored in place of a byte the client sent)",
    () =>
      Effect.gen(function* () {
        for (const bad of [
          [0xff],
          [0xc3, 0x28],
          [0xc0, 0xaf],
          [0xed, 0xa0, 0x80],
          [0xf4, 0x90, 0x80, 0x80],
          [0xe2, 0x82]
        ]) {
          const body = new Uint8Array([...bytesOf('{"a":"'), ...bad, ...bytesOf('"}')])
          expect(refusedAs(yield* refusal(post(body), { maxBodyBytes: 64, maxDepth: 3 })), String(bad)).toEqual(notUtf8)
        }
        // UTF-16 with its byte order mark
        const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from("{}", "utf16le"))])
        expect(refusedAs(yield* refusal(post(utf16)))).toEqual(notUtf8)
        // multi-byte UTF-8 passes as it is
        expect((yield* gate(post('{"a":"é€🦊"}'), { maxBodyBytes: 64, maxDepth: 3 })).body).toEqual({ a: "é€🦊" })
      })
  )

  it.effect(
    "a UTF-8 byte order mark at the start is 400; U+FEFF inside a string is text (bug: a BOM skipped, or every U+FEFF refused)",
    () =>
      Effect.gen(function* () {
        const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf("{}")])
        expect(refusedAs(yield* refusal(post(bom)))).toEqual({
          reason: "Encoding",
          status: 400,
          message: "the request body starts with a byte order mark: JSON is UTF-8 without one (RFC 8259)",
          issues: undefined,
          close: false
        })
        expect((yield* gate(post('"\uFEFF"'))).body).toBe("\uFEFF")
        expect((yield* gate(post(' "\uFEFF"'))).body).toBe("\uFEFF")
      })
  )

  it.effect(
    "a body that breaks a JSON rule is 400 Json, every problem in the message and in the issues with its path (bug: a refusal that does not say where)",
    () =>
      Effect.gen(function* () {
        const wide = { maxBodyBytes: 1024, maxDepth: 3 }
        expect(refusedAs(yield* refusal(post('{"a":'), wide))).toEqual({
          reason: "Json",
          status: 400,
          message: "the request body is not valid JSON",
          issues: [{ path: [], message: "the request body is not valid JSON" }],
          close: false
        })
        // at the depth limit it passes; one level more is refused at its path
        expect((yield* gate(post('{"a":[{"b":1}]}'), wide)).body).toEqual({ a: [{ b: 1 }] })
        const deep = yield* refusal(post('{"a":[{"b":[1]}]}'), wide)
        expect(refusedAs(deep)).toEqual({
          reason: "Json",
          status: 400,
          message: "the body nests arrays and objects more than 3 deep (the limit is 3)",
          issues: [
            { path: ["a", 0, "b"], message: "the body nests arrays and objects more than 3 deep (the limit is 3)" }
          ],
          close: false
        })
        // three problems: each one's message, joined, and each an issue in order
        const three = yield* refusal(post('{"__proto__":{},"a":1,"a":2,"n":1.00000000000000001}'), wide)
        const issues = [
          {
            path: ["__proto__"],
            message:
              "__proto__: the key __proto__ is refused at any depth (it names the prototype machinery of JavaScript objects)"
          },
          {
            path: ["a"],
            message: 'a: the key "a" is given twice in one object (each key of a JSON object must be unique)'
          },
          {
            path: ["n"],
            message:
              "n: the number 1.00000000000000001 cannot be read exactly as written (a double holds 1); send at most the digits a double carries"
          }
        ]
        expect(refusedAs(three)).toEqual({
          reason: "Json",
          status: 400,
          message: issues.map((i) => i.message).join("; "),
          issues,
          close: false
        })
      })
  )

  it.effect.prop(
    "what passes is parsed once and served unchanged: the value, the text, the bytes (bug: a handler decoding other bytes than the gate checked)",
    [Schema.Json],
    ([value]) =>
      Effect.gen(function* () {
        const text = JSON.stringify(value)
        const bytes = bytesOf(text)
        // the limit exactly the body's size
        const request = post(bytes)
        const l = { maxBodyBytes: bytes.length, maxDepth: 1_000 }
        if (namesForbiddenKey(value)) {
          // the one kind of JSON value the gate refuses: tested in json.test.ts
          expect((yield* refusal(request, l)).reason).toBe("Json")
          return
        }
        const passed = yield* gate(request, l)
        expect(passed.body).toEqual(JSON.parse(text))
        expect(yield* passed.request.text).toBe(text)
        expect(yield* passed.request.json).toEqual(JSON.parse(text))
        expect(new Uint8Array(yield* passed.request.arrayBuffer)).toEqual(bytes)
      })
  )

  it.effect(
    "the request handed on serves the checked body in every form and is the original in all else (bug: a handler reading an empty or second body)",
    () =>
      Effect.gen(function* () {
        const text = '{"a":"b=1&c=2"}'
        const original = post(text).modify({
          url: "/business/exchange?x=1",
          remoteAddress: Option.some("10.0.0.1"),
          peerAddress: Option.some("10.0.0.2"),
          protocol: "https"
        })
        const passed = yield* gate(original, { maxBodyBytes: 64, maxDepth: 3 })
        const request = passed.request
        expect(request[HttpServerRequest.TypeId]).toBe(HttpServerRequest.TypeId)
        expect(yield* request.json).toBe(passed.body)
        expect(yield* Stream.runCollect(request.stream)).toEqual([bytesOf(text)])
        expect(yield* request.urlParamsBody).toEqual(UrlParams.fromInput(new URLSearchParams(text)))
        expect(request.source).toBe(original.source)
        expect(request.url).toBe("/business/exchange?x=1")
        expect(request.originalUrl).toBe(original.originalUrl)
        expect(request.method).toBe("POST")
        expect(request.headers).toBe(original.headers)
        expect(request.cookies).toBe(original.cookies)
        expect(request.remoteAddress).toEqual(Option.some("10.0.0.1"))
        expect(request.peerAddress).toEqual(Option.some("10.0.0.2"))
        expect(request.protocol).toBe("https")
        expect(request.toJSON()).toEqual(original.toJSON())
        // modified, it still serves the checked body
        const moved = request.modify({ url: "/elsewhere" })
        expect(moved.url).toBe("/elsewhere")
        expect(yield* moved.text).toBe(text)
        expect(yield* moved.json).toBe(passed.body)
      })
  )

  it.effect(
    "what the request does not serve itself is the original's: multipart and upgrades (bug: undefined where the original answers)",
    () =>
      Effect.gen(function* () {
        // a request that answers each of them with a value of its own
        const marks = {
          multipart: Effect.succeed("multipart"),
          multipartStream: Stream.make("part"),
          upgrade: Effect.succeed("upgrade"),
          upgradeWith: (options: unknown) => Effect.succeed(options)
        }
        const base = post("{}")
        const original = new Proxy(base, {
          get: (target, key, receiver) =>
            key in marks ? marks[key as keyof typeof marks] : Reflect.get(target, key, receiver)
        })
        const request = (yield* gate(original)).request
        expect(request.multipart).toBe(marks.multipart)
        expect(request.multipartStream).toBe(marks.multipartStream)
        expect(request.upgrade).toBe(marks.upgrade)
        expect(yield* request.upgradeWith({ headers: { a: "1" } })).toEqual({ headers: { a: "1" } })
      })
  )
})

/** a POST read from a Node IncomingMessage (what the socket server hands the gate), fed by the test */
const fromNode = (headers: Record<string, string>) => {
  const message = new IncomingMessage(new Socket())
  message.method = "POST"
  message.headers = { "content-type": "application/json", ...headers }
  const base = inMemory("POST", undefined, message.headers as Record<string, string>)
  const request = new Proxy(base, {
    get: (target, key, receiver) => (key === "source" ? message : Reflect.get(target, key, receiver))
  })
  return { message, request }
}

const listeners = (message: IncomingMessage) =>
  ["data", "end", "error", "close"].map((event) => message.listenerCount(event))

describe("the body gate on a Node request", () => {
  it.effect(
    "the chunks are read to the end and joined; at the limit they pass (bug: a body cut at a chunk or read twice)",
    () =>
      Effect.gen(function* () {
        const { message, request } = fromNode({ "transfer-encoding": "chunked" })
        const fiber = yield* Effect.forkChild(gate(request))
        yield* Effect.yieldNow
        // 16 bytes in two chunks
        message.push(Buffer.from("[1,"))
        message.push(Buffer.from('2,3,"abcdef"]'))
        message.push(null)
        const passed = yield* Fiber.join(fiber)
        expect(passed.body).toEqual([1, 2, 3, "abcdef"])
        expect(yield* passed.request.text).toBe('[1,2,3,"abcdef"]')
        // the joined chunks may sit inside a larger buffer: only their bytes are served
        expect(new TextDecoder().decode(yield* passed.request.arrayBuffer)).toBe('[1,2,3,"abcdef"]')
        expect(listeners(message)).toEqual([0, 0, 0, 0])
      })
  )

  it.effect(
    "past the limit the reading stops at once: 413, the message paused, nothing listened to (bug: a never-ending chunked body buffered whole)",
    () =>
      Effect.gen(function* () {
        const { message, request } = fromNode({ "transfer-encoding": "chunked" })
        const fiber = yield* Effect.forkChild(gate(request))
        yield* Effect.yieldNow
        message.push(Buffer.from('"0123456'))
        message.push(Buffer.from('789abcde"'))
        message.push(Buffer.from("x"))
        const refused = yield* Effect.flip(Fiber.join(fiber))
        expect(refusedAs(refused)).toEqual(tooLarge(16))
        expect(message.isPaused()).toBe(true)
        expect(listeners(message)).toEqual([0, 0, 0, 0])
      })
  )

  it.effect(
    "a connection that fails or closes before the end is 400 Unreadable, closing (bug: a half body parsed, or a request hanging)",
    () =>
      Effect.gen(function* () {
        const failed = fromNode({ "transfer-encoding": "chunked" })
        const first = yield* Effect.forkChild(gate(failed.request))
        yield* Effect.yieldNow
        failed.message.push(Buffer.from('{"a":'))
        failed.message.emit("error", new Error("ECONNRESET"))
        expect(refusedAs(yield* Effect.flip(Fiber.join(first)))).toEqual(unreadable(true))
        expect(listeners(failed.message)).toEqual([0, 0, 0, 0])

        const closed = fromNode({ "content-length": "7" })
        const second = yield* Effect.forkChild(gate(closed.request))
        yield* Effect.yieldNow
        closed.message.push(Buffer.from('{"a":'))
        closed.message.emit("close")
        // what would come after a close is never read
        closed.message.push(null)
        expect(refusedAs(yield* Effect.flip(Fiber.join(second)))).toEqual(unreadable(true))
        expect(listeners(closed.message)).toEqual([0, 0, 0, 0])
      })
  )

  it.effect(
    "a close once the message is complete is no failure: its end still gives the body (bug: a whole body refused as cut)",
    () =>
      Effect.gen(function* () {
        const { message, request } = fromNode({ "content-length": "7" })
        const fiber = yield* Effect.forkChild(gate(request))
        yield* Effect.yieldNow
        message.push(Buffer.from('{"a":1}'))
        message.complete = true
        message.emit("close")
        message.push(null)
        expect((yield* Fiber.join(fiber)).body).toEqual({ a: 1 })
      })
  )

  it.effect("an interrupted read stops listening to the message (bug: listeners left on a connection)", () =>
    Effect.gen(function* () {
      const { message, request } = fromNode({ "transfer-encoding": "chunked" })
      const fiber = yield* Effect.forkChild(gate(request))
      yield* Effect.yieldNow
      message.push(Buffer.from('{"a":'))
      expect(listeners(message)).toEqual([1, 1, 1, 1])
      yield* Fiber.interrupt(fiber)
      expect(Exit.hasInterrupts(yield* Fiber.await(fiber))).toBe(true)
      expect(listeners(message)).toEqual([0, 0, 0, 0])
    })
  )
})

const problems = (text: string, depth = 8) => {
  const parsed = Json.parse(text, depth)
  return Result.isFailure(parsed) ? parsed.failure : []
}
const inexactMessage = (where: string, numeral: string, held: string) =>
  `${where}: the number ${numeral} cannot be read exactly as written (a double holds ${held}); send at most the digits a double carries`

describe("the JSON the gate reads (json.ts)", () => {
  it("a number is read whole, with its sign, fraction and either exponent (bug: 1E+400 read as 1E then 400, and passed)", () => {
    expect(Json.parse('{"a":1E+2,"b":-1.5e-3,"c":2e+0,"d":[0,9,-0.5E1]}', 8)).toEqual(
      Result.succeed({ a: 100, b: -0.0015, c: 2, d: [0, 9, -5] })
    )
    expect(problems("[1E+400,-1e+400,0.1e-400,9e999,5E400]")).toEqual([
      { reason: "InexactNumber", path: [0], message: inexactMessage("0", "1E+400", "Infinity") },
      { reason: "InexactNumber", path: [1], message: inexactMessage("1", "-1e+400", "-Infinity") },
      { reason: "InexactNumber", path: [2], message: inexactMessage("2", "0.1e-400", "0") },
      { reason: "InexactNumber", path: [3], message: inexactMessage("3", "9e999", "Infinity") },
      { reason: "InexactNumber", path: [4], message: inexactMessage("4", "5E400", "Infinity") }
    ])
  })

  it("an inexact number at the top is named as the body; at most 10 are reported (bug: an empty path in the message, or 100,000 problems answered)", () => {
    expect(problems("12345678901234567890")).toEqual([
      {
        reason: "InexactNumber",
        path: [],
        message: inexactMessage("the body", "12345678901234567890", "12345678901234567000")
      }
    ])
    const many = problems(`[${Array.from({ length: 11 }, () => "1e400").join(",")}]`)
    expect(many.map((p) => p.path)).toEqual([[0], [1], [2], [3], [4], [5], [6], [7], [8], [9]])
  })

  it("a path is quoted at most 256 characters long in a message, each key at most 64 (bug: a message echoing a huge key)", () => {
    const key = "k".repeat(100)
    const path = `${"k".repeat(64)}…`
    const nested = `{"${key}":{"${key}":{"${key}":{"${key}":{"${key}":1e400,"__proto__":1,"${key}":2}}}}}`
    const all = problems(nested)
    const joined = Array.from({ length: 5 }, () => path).join(".")
    const where = `${joined.slice(0, 256)}…`
    expect(all.map((p) => [p.reason, p.path, p.message])).toEqual([
      [
        "ForbiddenKey",
        [path, path, path, path, "__proto__"],
        `${`${Array.from({ length: 4 }, () => path).join(".")}.__proto__`.slice(0, 256)}…: the key __proto__ is refused at any depth (it names the prototype machinery of JavaScript objects)`
      ],
      [
        "DuplicateKey",
        [path, path, path, path, path],
        `${where}: the key ${JSON.stringify(path)} is given twice in one object (each key of a JSON object must be unique)`
      ],
      ["InexactNumber", [path, path, path, path, path], inexactMessage(where, "1e400", "Infinity")]
    ])
  })

  it("a key that is not a JSON string is named as written in the path of a refusal for depth (bug: a key decoded wrongly or a crash)", () => {
    expect(problems('{"a\\q":[[1]]}', 2)).toEqual([
      {
        reason: "TooDeep",
        path: ['"a\\q"', 0],
        message: "the body nests arrays and objects more than 2 deep (the limit is 2)"
      }
    ])
    // a key with a valid escape is decoded
    expect(problems('{"a\\u0062":[[1]]}', 2).map((p) => p.path)).toEqual([["ab", 0]])
    // the same text is not JSON: only its syntax is reported
    expect(problems('{"a\\q":1,"a\\q":2}', 2).map((p) => p.reason)).toEqual(["Syntax"])
  })
})

describe("the JSON the gate reads: which problem is reported", () => {
  it("a duplicate is found among many keys, past the first 16 (bug: a key after the 16th never recorded, its second value let through)", () => {
    const keys = Array.from({ length: 20 }, (_, i) => `"k${i}":${i}`).join(",")
    expect(problems(`{${keys},"k18":0}`).map((p) => [p.reason, p.path])).toEqual([["DuplicateKey", ["k18"]]])
  })

  it("the first forbidden key and the first duplicate are the ones reported (bug: a later one named in their place)", () => {
    expect(problems('{"__proto__":1,"constructor":2,"a":1,"a":2,"b":1,"b":2}').map((p) => [p.reason, p.path])).toEqual([
      ["ForbiddenKey", ["__proto__"]],
      ["DuplicateKey", ["a"]]
    ])
  })

  it("a comma or a colon outside any array or object is a syntax problem (bug: a crash on a body like 1,2)", () => {
    for (const text of ["1,2", '"a":1', ",", ":"]) {
      expect(problems(text), text).toEqual([
        { reason: "Syntax", path: [], message: "the request body is not valid JSON" }
      ])
    }
  })
})
