/**
 * An `HttpClient` that hands each request to the sandbox's `HttpApp` in the same process, without a socket: the whole
 * server (router, middleware, handlers, encoding) runs in the caller's fiber, with the caller's `Clock`, so tests can
 * drive time with `TestClock` and nothing depends on the machine's speed.
 *
 * @internal
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { constTrue, identity } from "effect/Function"

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

const bodyOf = (
  request: HttpClientRequest.HttpClientRequest
): { readonly body: Uint8Array | string | undefined; readonly contentType: string | undefined } | string => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return { body: undefined, contentType: undefined }
    case "Uint8Array":
      return { body: body.body, contentType: body.contentType }
    case "Raw":
      return typeof body.body === "string" || body.body instanceof Uint8Array
        ? { body: body.body, contentType: body.contentType }
        : "a raw body other than a string or bytes"
    default:
      return `a ${body._tag} body`
  }
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
      const body = bodyOf(request)
      if (typeof body === "string") {
        return yield* new HttpClientError.RequestError({
          request,
          reason: "Encode",
          description: `the in-process sandbox does not take ${body}`
        })
      }
      const headers = new Headers(request.headers)
      if (body.contentType !== undefined && !headers.has("content-type")) headers.set("content-type", body.contentType)
      const serverRequest = HttpServerRequest.fromWeb(
        new Request(url, {
          method: request.method,
          headers,
          ...(body.body === undefined || request.method === "GET" || request.method === "HEAD"
            ? {}
            : { body: body.body })
        })
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
      return HttpClientResponse.fromWeb(request, HttpServerResponse.toWeb(answer))
    })
  )
