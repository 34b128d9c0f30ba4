/**
 * An `HttpClient` that hands each request to the sandbox's `HttpApp` in the same process, without a socket: the whole
 * server (router, middleware, handlers, encoding) runs in the caller's fiber, with the caller's `Clock`, so tests can
 * drive time with `TestClock` and nothing depends on the machine's speed.
 *
 * The request and the answer cross over as they are, bytes and headers, without web `Request` and `Response` objects in
 * between (building and reading those cost a fifth of an in-process call). What a client on a socket would refuse to
 * send (a header name or value that HTTP cannot carry, a body of a kind that is not bytes or text) is refused here as
 * an `Encode` error of the request.
 *
 * @internal
 */
import { validateHeaderName, validateHeaderValue } from "node:http"
import * as Cookies from "@effect/platform/Cookies"
import * as Headers from "@effect/platform/Headers"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Multipart from "@effect/platform/Multipart"
import type * as Socket from "@effect/platform/Socket"
import * as UrlParams from "@effect/platform/UrlParams"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { constTrue, identity } from "effect/Function"
import * as Inspectable from "effect/Inspectable"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"

/** The requests whose connection the sandbox dropped (a fault): answered with a transport error. @internal */
export interface Drops {
  readonly add: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<void>
  readonly has: (request: HttpServerRequest.HttpServerRequest) => boolean
}

/** @internal */
export const makeDrops = (): Drops => {
  const dropped = new WeakSet<object>()
  return {
    add: (request) => Effect.sync(() => void dropped.add(request)),
    has: (request) => dropped.has(request)
  }
}

const encoder = new TextEncoder()
/** as `Request.text()` and `Response.text()` read: UTF-8, a leading byte order mark dropped, bad bytes replaced */
const decoder = new TextDecoder()

/** a copy of the bytes in an `ArrayBuffer` of their own, as `arrayBuffer()` of a web body gives */
const bufferOf = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer

interface Sent {
  readonly headers: Headers.Headers
  readonly body: Uint8Array | undefined
}

/** What a client would put on the wire: the headers (with the body's `Content-Type`) and the body's bytes. */
const sentOf = (request: HttpClientRequest.HttpClientRequest): Sent | string => {
  const body = request.body
  let bytes: Uint8Array | undefined
  let contentType: string | undefined
  switch (body._tag) {
    case "Empty":
      break
    case "Uint8Array":
      bytes = body.body
      contentType = body.contentType
      break
    case "Raw":
      if (typeof body.body === "string") {
        bytes = encoder.encode(body.body)
        // what fetch gives a text body sent without a type
        contentType = body.contentType ?? "text/plain;charset=UTF-8"
      } else if (body.body instanceof Uint8Array) {
        bytes = body.body
        contentType = body.contentType
      } else {
        return "a raw body other than a string or bytes"
      }
      break
    default:
      return `a ${body._tag} body`
  }
  for (const [name, value] of Object.entries(request.headers)) {
    try {
      validateHeaderName(name)
      validateHeaderValue(name, value)
    } catch {
      return `the header ${JSON.stringify(name.slice(0, 64))}, which HTTP cannot carry`
    }
  }
  // a GET or HEAD carries no body
  if (request.method === "GET" || request.method === "HEAD") return { headers: request.headers, body: undefined }
  const headers =
    contentType !== undefined && request.headers["content-type"] === undefined
      ? Headers.set(request.headers, "content-type", contentType)
      : request.headers
  return { headers, body: bytes }
}

const notMultipart = () =>
  new Multipart.MultipartError({ reason: "InternalError", cause: "the in-process sandbox takes no multipart bodies" })

/**
 * A message whose body is in memory, read as a web body reads: text as UTF-8, JSON as the Node server and the fetch
 * client read it (an empty body is `null`), bytes copied, a stream of one chunk (none when there is no body).
 */
abstract class InMemoryMessage<E> extends Inspectable.Class implements HttpIncomingMessage.HttpIncomingMessage<E> {
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId

  constructor(
    readonly headers: Headers.Headers,
    protected readonly bytes: Uint8Array | undefined,
    readonly remoteAddress: Option.Option<string>
  ) {
    super()
  }

  /** the error of this kind of message when its body cannot be read as asked */
  protected abstract bodyError(reason: "Decode" | "EmptyBody", cause: unknown, description?: string): E

  get text(): Effect.Effect<string, E> {
    return Effect.succeed(this.bytes === undefined ? "" : decoder.decode(this.bytes))
  }

  get json(): Effect.Effect<unknown, E> {
    return Effect.tryMap(this.text, {
      try: (text) => (text === "" ? null : (JSON.parse(text) as unknown)),
      catch: (cause) => this.bodyError("Decode", cause)
    })
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, E> {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, E> {
    const bytes = this.bytes
    return Effect.sync(() => (bytes === undefined ? new ArrayBuffer(0) : bufferOf(bytes)))
  }

  get stream(): Stream.Stream<Uint8Array, E> {
    return this.bytes === undefined
      ? Stream.fail(this.bodyError("EmptyBody", undefined, "can not create stream from empty body"))
      : Stream.succeed(this.bytes)
  }
}

/** The request as the server sees it: the client's method, target, headers and bytes. */
class InProcessRequest
  extends InMemoryMessage<HttpServerError.RequestError>
  implements HttpServerRequest.HttpServerRequest
{
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId

  constructor(
    readonly source: HttpClientRequest.HttpClientRequest,
    readonly method: HttpMethod,
    readonly originalUrl: string,
    readonly url: string,
    headers: Headers.Headers,
    bytes: Uint8Array | undefined,
    remoteAddress: Option.Option<string> = Option.none()
  ) {
    super(headers, bytes, remoteAddress)
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpServerRequest",
      method: this.method,
      url: this.originalUrl
    })
  }

  modify(options: { readonly url?: string; readonly headers?: Headers.Headers; readonly remoteAddress?: string }) {
    return new InProcessRequest(
      this.source,
      this.method,
      this.originalUrl,
      options.url ?? this.url,
      options.headers ?? this.headers,
      this.bytes,
      options.remoteAddress === undefined ? this.remoteAddress : Option.some(options.remoteAddress)
    )
  }

  private cachedCookies: Record<string, string> | undefined
  get cookies(): Record<string, string> {
    this.cachedCookies ??= Cookies.parseHeader(this.headers.cookie ?? "")
    return this.cachedCookies
  }

  protected bodyError(_: "Decode" | "EmptyBody", cause: unknown, description?: string) {
    return new HttpServerError.RequestError({
      request: this,
      reason: "Decode",
      cause,
      ...(description === undefined ? {} : { description })
    })
  }

  get multipart(): Effect.Effect<Multipart.Persisted, Multipart.MultipartError, Scope.Scope> {
    return Effect.fail(notMultipart())
  }

  get multipartStream(): Stream.Stream<Multipart.Part, Multipart.MultipartError> {
    return Stream.fail(notMultipart())
  }

  get upgrade(): Effect.Effect<Socket.Socket, HttpServerError.RequestError> {
    return Effect.fail(this.bodyError("Decode", undefined, "Not an upgradeable ServerRequest"))
  }
}

/** The answer as the client sees it: the server's status, headers and bytes. */
class InProcessResponse
  extends InMemoryMessage<HttpClientError.ResponseError>
  implements HttpClientResponse.HttpClientResponse
{
  readonly [HttpClientResponse.TypeId]: HttpClientResponse.TypeId = HttpClientResponse.TypeId

  constructor(
    readonly request: HttpClientRequest.HttpClientRequest,
    readonly status: number,
    headers: Headers.Headers,
    bytes: Uint8Array | undefined
  ) {
    super(headers, bytes, Option.none())
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpClientResponse",
      request: this.request.toJSON(),
      status: this.status
    })
  }

  get cookies(): Cookies.Cookies {
    const setCookie = this.headers["set-cookie"]
    return setCookie === undefined ? Cookies.empty : Cookies.fromSetCookie(setCookie)
  }

  protected bodyError(reason: "Decode" | "EmptyBody", cause: unknown, description?: string) {
    return new HttpClientError.ResponseError({
      request: this.request,
      response: this,
      reason,
      cause,
      ...(description === undefined ? {} : { description })
    })
  }

  get formData(): Effect.Effect<FormData, HttpClientError.ResponseError> {
    return Effect.tryPromise({
      try: () => new Response(this.bytes, { headers: this.headers }).formData(),
      catch: (cause) => this.bodyError("Decode", cause)
    })
  }
}

/**
 * The answer of the server, handed to the client: bytes and text bodies as they are (the server response holds their
 * `Content-Type` and `Content-Length` among its headers); any other body (a stream, form data) through a web
 * `Response`, as a client on a socket would read it.
 */
const responseOf = (
  request: HttpClientRequest.HttpClientRequest,
  answer: HttpServerResponse.HttpServerResponse
): HttpClientResponse.HttpClientResponse => {
  const body = answer.body
  const bytes =
    body._tag === "Empty"
      ? undefined
      : body._tag === "Uint8Array"
        ? body.body
        : body._tag === "Raw" && typeof body.body === "string"
          ? encoder.encode(body.body)
          : body._tag === "Raw" && body.body instanceof Uint8Array
            ? body.body
            : null
  if (bytes === null) return HttpClientResponse.fromWeb(request, HttpServerResponse.toWeb(answer))
  const headers = Cookies.isEmpty(answer.cookies)
    ? answer.headers
    : Headers.set(answer.headers, "set-cookie", Cookies.toSetCookieHeaders(answer.cookies).join(", "))
  return new InProcessResponse(request, answer.status, headers, bytes)
}

/** @internal */
export const make = <R>(
  app: HttpApp.Default<never, R>,
  context: Context.Context<R>,
  drops: Drops,
  tracing: boolean
): HttpClient.HttpClient =>
  HttpClient.make((request, url) =>
    Effect.gen(function* () {
      const sent = sentOf(request)
      if (typeof sent === "string") {
        return yield* new HttpClientError.RequestError({
          request,
          reason: "Encode",
          description: `the in-process sandbox does not take ${sent}`
        })
      }
      const serverRequest = new InProcessRequest(
        request,
        request.method,
        url.href,
        // the target as a server reads it off the request line: no scheme, credentials or host; a fragment stays, as
        // the undici client sends it (the sandbox refuses it)
        `${url.pathname}${url.search}${url.hash}`,
        sent.headers,
        sent.body
      )
      let answer: HttpServerResponse.HttpServerResponse | undefined
      yield* HttpApp.toHandled(app, (_, response) =>
        Effect.sync(() => {
          answer = response
        })
      ).pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, serverRequest),
        Effect.provide(context),
        // no server span per request unless asked for, as over HTTP
        tracing ? identity : Effect.locally(HttpMiddleware.currentTracerDisabledWhen, constTrue)
      )
      if (answer === undefined || drops.has(serverRequest)) {
        return yield* new HttpClientError.RequestError({
          request,
          reason: "Transport",
          description: "the connection was closed without an answer"
        })
      }
      return responseOf(request, answer)
    })
  )
