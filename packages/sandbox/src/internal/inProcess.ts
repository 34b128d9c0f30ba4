/**
 * An `HttpClient` that hands each request to the sandbox's server code in the same process, without a socket: the
 * whole server (middleware, router, handlers, encoding) runs in the caller's fiber, with the caller's `Clock`, so
 * tests can drive time with `TestClock` and nothing depends on the machine's speed.
 *
 * The request and the answer cross over as they are, bytes and headers, without web `Request` and `Response` objects
 * in between (building and reading those cost a fifth of an in-process call): the client request becomes the server's
 * with effect's `HttpServerRequest.fromClientRequest` (its bytes are read as they are, see `body.ts`), and the server's
 * answer the client's with `HttpServerResponse.toClientResponse`. What a client on a socket would refuse to send (a
 * header name or value that HTTP cannot carry, a body of a kind that is not bytes or text) is refused here as an
 * `EncodeError` of the request.
 *
 * @internal
 */
import { validateHeaderName, validateHeaderValue } from "node:http"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { constTrue } from "effect/Function"
import * as Headers from "effect/http/Headers"
import * as HttpBody from "effect/http/HttpBody"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpEffect from "effect/http/HttpEffect"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { App } from "./middleware.js"

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

/**
 * The request as a client would put it on the wire: its headers checked, a text body as bytes (with the type fetch
 * gives a text sent without one), no body on GET and HEAD; or what a client would refuse to send.
 */
const sentOf = (request: HttpClientRequest.HttpClientRequest): HttpClientRequest.HttpClientRequest | string => {
  for (const [name, value] of Object.entries(request.headers)) {
    try {
      validateHeaderName(name)
      validateHeaderValue(name, value)
    } catch {
      return `the header ${JSON.stringify(name.slice(0, 64))}, which HTTP cannot carry`
    }
  }
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return request
    case "Uint8Array":
      break
    case "Raw":
      if (typeof body.body === "string") {
        return sentOf(
          HttpClientRequest.setBody(
            request,
            HttpBody.uint8Array(encoder.encode(body.body), body.contentType ?? "text/plain;charset=UTF-8")
          )
        )
      }
      if (body.body instanceof Uint8Array) {
        return sentOf(
          HttpClientRequest.setBody(
            request,
            HttpBody.uint8Array(body.body, body.contentType ?? "application/octet-stream")
          )
        )
      }
      return "a raw body other than a string or bytes"
    default:
      return `a ${body._tag} body`
  }
  // a GET or HEAD carries no body
  return request.method === "GET" || request.method === "HEAD"
    ? HttpClientRequest.setBody(request, HttpBody.empty).pipe(
        HttpClientRequest.setHeaders(
          request.headers["content-type"] === undefined ? {} : { "content-type": request.headers["content-type"] }
        )
      )
    : request
}

/** @internal */
export const make = (
  app: App,
  drops: Drops,
  options: {
    /** a server span per request */
    readonly tracing: boolean
    /** the headers a log of the server never shows */
    readonly redactedNames: ReadonlyArray<string | RegExp>
  }
): HttpClient.HttpClient => {
  // the server's answer to each request, as the Node server would write it
  const answers = new WeakMap<object, HttpServerResponse.HttpServerResponse>()
  const handled = HttpEffect.toHandled(app, (request, response) =>
    Effect.sync(() => {
      answers.set(request, response)
    })
  )
  return HttpClient.make((request, url) =>
    Effect.suspend(() => {
      const sent = sentOf(request)
      if (typeof sent === "string") {
        return Effect.fail(
          new HttpClientError.HttpClientError({
            reason: new HttpClientError.EncodeError({
              request,
              description: `the in-process sandbox does not take ${sent}`
            })
          })
        )
      }
      const serverRequest = HttpServerRequest.fromClientRequest(sent).modify({
        // the target as a server reads it off the request line: no scheme, credentials or host, and no fragment (effect
        // 4's clients send none, as RFC 9110 says)
        url: `${url.pathname}${url.search}`,
        headers: Headers.fromInput(sent.headers)
      })
      return handled.pipe(
        Effect.updateContext((context: Context.Context<never>) => {
          const withRequest = Context.add(
            Context.add(context, Headers.CurrentRedactedNames, options.redactedNames),
            HttpServerRequest.HttpServerRequest,
            serverRequest
          )
          // no server span per request unless asked for, as over HTTP
          return options.tracing ? withRequest : Context.add(withRequest, HttpMiddleware.TracerDisabledWhen, constTrue)
        }),
        Effect.flatMap(() => {
          const answer = answers.get(serverRequest)
          if (answer === undefined || drops.has(serverRequest)) {
            return Effect.fail(
              new HttpClientError.HttpClientError({
                reason: new HttpClientError.TransportError({
                  request,
                  description: "the connection was closed without an answer"
                })
              })
            )
          }
          // the answer to a HEAD is the GET's headers without its body, as Node's server writes it
          const written =
            sent.method === "HEAD"
              ? HttpServerResponse.empty({
                  status: answer.status,
                  statusText: answer.statusText,
                  headers: answer.headers,
                  cookies: answer.cookies
                })
              : answer
          return Effect.succeed(HttpServerResponse.toClientResponse(written, { request }))
        })
      )
    })
  )
}
