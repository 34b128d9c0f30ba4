/**
 * What the sandbox does around every request, as the real APIs do: the interaction id of Open Banking on every
 * response, 400 for a request target that is not one path (see `target.ts`), 406 when the client does not accept
 * JSON, authentication (a tenant's Bearer token on the APIs, the control token on `/__sandbox/*` when one is set),
 * the body gate (413, 415, 400: see `body.ts`), 405 for a known path with another method, errors in the body shape of
 * each family (also for bad JSON and schema mismatches), the /pay/fields rate limit per tenant, fault injection and
 * the request log.
 *
 * It wraps the router of the HttpApi (`HttpRouter.asHttpEffect`), and hands the handlers what it learnt (the tenant,
 * the time, the parsed body, the interaction id) in one `Call` (see `call.ts`).
 *
 * @internal
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { IncomingMessage } from "node:http"
import { FapiHeaders } from "@payrules/open-banking"
import type * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApi from "effect/http-api/HttpApi"
import { HttpApiSchemaError } from "effect/http-api/HttpApiError"
import * as Random from "effect/Random"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Fault from "../Fault.js"
import { SandboxApi } from "../SandboxApi.js"
import * as Body from "./body.js"
import * as Call from "./call.js"
import * as Errors from "./errors.js"
import * as Faults from "./faults.js"
import * as Json from "./json.js"
import * as SingleHeaders from "./singleHeaders.js"
import type { SandboxStateService, TenantState } from "./state.js"
import * as Target from "./target.js"
import * as Tenants from "./tenants.js"

interface Route {
  readonly method: string
  readonly pattern: RegExp
  readonly operation: Fault.Operation | null
}

const operations = new Set<string>(Fault.Operation.literals)

/**
 * The routes of the sandbox API, read from its definition (so they cannot drift from it), matched as effect's router
 * matches them: a path parameter may be empty (`/international-payments/` is that operation, with an empty id), and
 * a HEAD request is served by the GET route of its path.
 */
const routes: ReadonlyArray<Route> = (() => {
  const out: Array<Route> = []
  HttpApi.reflect(SandboxApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const pattern = new RegExp(
        `^${endpoint.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z0-9_]+\??/g, "[^/]*")}$`
      )
      out.push({
        method: endpoint.method,
        pattern,
        operation: operations.has(endpoint.identifier) ? (endpoint.identifier as Fault.Operation) : null
      })
    }
  })
  return out
})()

/** the route of a method and path: a cache in front of the patterns, emptied when it holds 10,000 short paths */
const known = new Map<string, Route | null>()
const routeOf = (method: string, path: string): Route | null => {
  const key = `${method} ${path}`
  let route = known.get(key)
  if (route === undefined) {
    const served = method === "HEAD" ? "GET" : method
    route = routes.find((r) => r.method === served && r.pattern.test(path)) ?? null
    // long paths are not kept: 10,000 of them could hold a lot of memory
    if (key.length <= 256) {
      if (known.size >= 10_000) known.clear()
      known.set(key, route)
    }
  }
  return route
}
/** the methods of a path's routes, HEAD with GET */
const methodsOf = (path: string) => {
  const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))
  if (methods.has("GET")) methods.add("HEAD")
  return [...methods]
}

/** `Accept` absent, or with a media range that JSON satisfies (q > 0); spaces may surround each `;` (RFC 9110). */
const acceptsJson = (accept: string | undefined): boolean => {
  if (accept === undefined || accept === "*/*" || accept === "application/json" || accept.trim() === "") return true
  return accept.split(",").some((range) => {
    const [type, ...params] = range
      .toLowerCase()
      .split(";")
      .map((part) => part.trim())
    const q = params.find((p) => p.startsWith("q="))
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false
    return type === "*/*" || type === "application/*" || type === "application/json" || type?.endsWith("+json")
  })
}

const unauthorized = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.setHeader(response, "www-authenticate", 'Bearer realm="payrules-sandbox"')

/** the same token, compared in constant time */
const sameToken = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest())

/** the first failure of a cause, else its first defect; `undefined` for an interruption alone */
const errorOf = (cause: Cause.Cause<unknown>): { readonly error: unknown } | undefined => {
  let defect: { readonly error: unknown } | undefined
  for (const reason of cause.reasons) {
    if (reason._tag === "Fail") return { error: reason.error }
    if (reason._tag === "Die" && defect === undefined) defect = { error: reason.defect }
  }
  return defect
}

const decodedKinds = new Set<string>(["Params", "Headers", "Query", "Payload"])

const HEX = "0123456789abcdef"

/**
 * The interaction id of an Open Banking answer, as `FapiHeaders.interactionIdFor` of @payrules/open-banking gives it:
 * the sent one when it is a UUID, otherwise a fresh version 4 UUID from effect's `Random` (the same bytes for the same
 * seed: `Random.nextIntBetween(0, 255)`, 16 times), drawn at once rather than in 16 effects.
 */
const interactionIdFor = (sent: string | undefined, random: Random.Random): string => {
  if (typeof sent === "string" && FapiHeaders.isInteractionId(sent)) return sent
  let out = ""
  for (let i = 0; i < 16; i++) {
    let b = Math.floor(random.nextDoubleUnsafe() * 256)
    if (i === 6) b = (b & 0x0f) | 0x40
    if (i === 8) b = (b & 0x3f) | 0x80
    if (i === 4 || i === 6 || i === 8 || i === 10) out += "-"
    out += HEX[b >> 4]! + HEX[b & 0x0f]!
  }
  return out
}

/** The router's app, as the sandbox serves it. @internal */
export type App = Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  unknown,
  HttpServerRequest.HttpServerRequest | Scope.Scope
>

/**
 * The issues of a query that does not decode, where a parameter the operation reads once is given more than once
 * (its Schema sees an array where it expects one value) saying so, rather than that the value is wrong.
 */
const repeatedIn = (query: string, issues: ReadonlyArray<Errors.Issue>): ReadonlyArray<Errors.Issue> => {
  const params = new URLSearchParams(query)
  return issues.map((issue) => {
    const name = issue.path[0]
    const times = issue.path.length === 1 && typeof name === "string" ? params.getAll(name).length : 0
    return times > 1 ? { path: issue.path, message: `given ${times} times; give it once` } : issue
  })
}

/**
 * One request as the middleware sees it: what it read once (the path, the family, the time, the interaction id) and
 * how it answers (an error in the family's shape, the request log). Its methods live on the prototype: nothing is
 * made per request but this object and the answer.
 */
class Served {
  constructor(
    readonly state: SandboxStateService,
    readonly request: HttpServerRequest.HttpServerRequest,
    readonly path: string,
    readonly query: string,
    readonly family: Errors.Family | undefined,
    readonly now: number,
    readonly interactionId: string | undefined,
    readonly operation: Fault.Operation | null
  ) {}

  error(
    status: number,
    message: string,
    extra: { readonly issues?: ReadonlyArray<Errors.Issue>; readonly code?: number | string } = {}
  ): HttpServerResponse.HttpServerResponse {
    return Errors.response(this.family, status, message, {
      ...extra,
      interactionId: this.interactionId,
      now: this.now
    })
  }

  /** the answer, logged, with the interaction id of Open Banking */
  finish(
    response: HttpServerResponse.HttpServerResponse,
    fault: Fault.Kind | null
  ): HttpServerResponse.HttpServerResponse {
    const { path, query } = this
    this.state.log.addUnsafe({
      method: this.request.method,
      // a hostile target can be kilobytes long: the log keeps its start
      path: Json.clip(path, 1024),
      query: query === "" ? "" : `?${Json.clip(query, 1023)}`,
      operation: this.operation,
      status: response.status,
      fault,
      at: this.now
    })
    return this.interactionId === undefined
      ? response
      : HttpServerResponse.setHeader(response, "x-fapi-interaction-id", this.interactionId)
  }

  /** refused before the body gate: a body it did not read must not be read (or drained) as the next request */
  unread(answer: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse {
    return Body.hasBody(this.request.headers) ? HttpServerResponse.setHeader(answer, "connection", "close") : answer
  }

  /** an error of the app (the router's, a decoder's, a defect) as an answer in the family's shape */
  failure(cause: Cause.Cause<unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> {
    const found = errorOf(cause)
    if (found === undefined) return Effect.failCause(cause)
    const e = found.error
    const { path, request } = this
    if (HttpServerError.isHttpServerError(e) && e.reason._tag === "RouteNotFound") {
      // 405 only when the path is a route of other methods: a route of this method that the router did not take is
      // no resource of it (404)
      const allowed = methodsOf(path)
      return Effect.succeed(
        allowed.length > 0 && !allowed.includes(request.method)
          ? HttpServerResponse.setHeader(
              this.error(405, `${request.method} is not allowed on ${path}; use ${allowed.join(", ")}`),
              "allow",
              allowed.join(", ")
            )
          : this.error(404, `no operation at ${request.method} ${path}`)
      )
    }
    if (HttpServerError.isHttpServerError(e) && e.reason._tag === "RequestParseError") {
      return Effect.succeed(this.error(400, "the request body is not valid JSON"))
    }
    if (HttpApiSchemaError.is(e) && decodedKinds.has(e.kind)) {
      const issues = e.kind === "Query" ? repeatedIn(this.query, Errors.issuesOf(e.cause)) : Errors.issuesOf(e.cause)
      return Effect.succeed(this.error(400, Errors.issuesMessage(issues), { issues }))
    }
    return Effect.as(Effect.logError("sandbox: unexpected failure", cause), this.error(500, "unexpected failure"))
  }
}

/**
 * The middleware. Everything a request needs before the app (the target, authentication, the rate limit, the fault)
 * is decided in plain code, in one step of the fiber: only the body gate (which reads), the app and a fault that
 * delays or drops the answer are effects.
 *
 * @internal
 */
export const make = (state: SandboxStateService, limits: Body.BodyLimits) => (app: App) => {
  /** the tenant of each Authorization header seen (as written: the scheme in any case, the spaces), at most 1,000 */
  const authenticated = new Map<string, TenantState>()

  /** after the body gate: the rate limit, the fault, then the app */
  const proceed = (
    x: Served,
    tenant: TenantState | undefined,
    checked: Body.Gated
  ): Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    unknown,
    HttpServerRequest.HttpServerRequest | Scope.Scope
  > => {
    const { operation, request } = x
    if (operation === "transferFieldRequirements" && tenant !== undefined) {
      const retryAfter = state.payFieldsLimit.takeUnsafe(tenant.tenant.id, x.now)
      if (retryAfter !== undefined) {
        const limit = state.payFieldsLimit
        return Effect.succeed(
          x.finish(
            HttpServerResponse.setHeader(
              x.error(429, `at most ${limit.limit} requests per ${limit.windowMs / 1000} s`),
              "retry-after",
              String(retryAfter)
            ),
            null
          )
        )
      }
    }
    const fault =
      operation === null || !state.faults.active(operation)
        ? undefined
        : state.faults.decideUnsafe(
            operation,
            state.faults.keyed(operation)
              ? Faults.requestKey(operation, {
                  method: request.method,
                  path: x.path,
                  query: new URLSearchParams(x.query),
                  authorization: request.headers.authorization,
                  body: checked.body
                })
              : undefined
          )
    if (fault?.kind === "fail-before" || (fault?.kind === "fail-during" && operation !== "exchange")) {
      const status = fault.status ?? (fault.kind === "fail-during" ? 500 : 503)
      const message =
        status === 503 ? "the service is unavailable (injected fault)" : "the service failed (injected fault)"
      return Effect.succeed(x.finish(x.error(status, message), fault.kind))
    }
    if (fault?.kind === "rate-limit") {
      return Effect.succeed(
        x.finish(
          HttpServerResponse.setHeader(
            x.error(429, "too many requests (injected fault)"),
            "retry-after",
            String(fault.retryAfterSeconds ?? 1)
          ),
          fault.kind
        )
      )
    }
    const handed = checked.request
    Call.set(handed, {
      tenant,
      now: x.now,
      interactionId: x.interactionId,
      failExecution: fault?.kind === "fail-during",
      body: checked.body
    })
    const kind = fault?.kind ?? null
    const served = Effect.matchCauseEffect(
      handed === request
        ? app
        : // the request that serves the checked body; the request's frame (effect's `HttpEffect.toHandled`) restores
          // the fiber's context when the request ends, as effect's router relies on for what it adds
          Effect.withFiber((fiber) => {
            fiber.setContext(Context.add(fiber.context, HttpServerRequest.HttpServerRequest, handed))
            return app
          }),
      {
        onFailure: (cause) => Effect.map(x.failure(cause), (response) => x.finish(response, kind)),
        // logged once processed: a client that gives up during a delay interrupts what follows
        onSuccess: (response) => Effect.succeed(x.finish(response, kind))
      }
    )
    if (fault?.kind === "delay-after") return Effect.tap(served, () => Effect.sleep(fault.delayMs ?? 10_000))
    // processed: now end the connection without an answer
    if (fault?.kind === "drop-after") return Effect.tap(served, () => state.drop(request))
    return served
  }

  return Effect.withFiber((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
    const headers = request.headers
    // the target as written on the request line (Node's server rewrites an absolute-form one into a path: the raw one
    // is refused), as the router reads it: a target that would need normalising is refused below
    const source = request.source
    const target = Target.check(source instanceof IncomingMessage ? (source.url ?? request.url) : request.url)
    const path = Result.isSuccess(target) ? target.success.path : target.failure.path
    const family = Errors.familyOf(path)
    const route = routeOf(request.method, path)
    const x = new Served(
      state,
      request,
      path,
      Result.isSuccess(target) ? target.success.query : "",
      family,
      // the sandbox's time, read once: the caller's clock, moved forward by the control plane
      fiber.getRef(Clock.Clock).currentTimeMillisUnsafe() + state.clock.offset(),
      // the response rule of @payrules/open-banking: the sent id when it is a UUID, otherwise a fresh one
      family === "open-banking"
        ? interactionIdFor(headers["x-fapi-interaction-id"], fiber.getRef(Random.Random))
        : undefined,
      route?.operation ?? null
    )

    if (Result.isFailure(target)) return Effect.succeed(x.finish(x.unread(x.error(400, target.failure.message)), null))

    if (source instanceof IncomingMessage) {
      const twice = SingleHeaders.repeated(source.rawHeaders, Object.keys(source.headers).length)
      if (twice !== undefined) {
        const message = `the ${twice.name} header is given ${twice.times} times: HTTP allows it once`
        return Effect.succeed(
          x.finish(x.unread(x.error(400, message, { issues: [{ path: [twice.name], message }] })), null)
        )
      }
    }

    if (family !== undefined && !acceptsJson(headers.accept)) {
      return Effect.succeed(
        x.finish(x.unread(x.error(406, `only application/json is produced; Accept was ${headers.accept}`)), null)
      )
    }

    // who calls: an operation of the APIs needs a tenant's token (an unknown path is a 404 for anyone), the control
    // plane the control token when one is set; nothing unauthenticated is read further or reaches the rate limit
    let tenant: TenantState | undefined
    if (family !== undefined && route !== null) {
      const authorization = headers.authorization
      tenant = authorization === undefined ? undefined : authenticated.get(authorization)
      const bearer = tenant === undefined ? Tenants.bearerOf(authorization) : undefined
      if (bearer !== undefined && Result.isSuccess(bearer)) {
        tenant = state.tenantByToken.get(bearer.success)
        // only a header that names a tenant is kept: a flood of unknown tokens leaves nothing here
        if (tenant !== undefined && authorization !== undefined) {
          if (authenticated.size >= 1_000) authenticated.clear()
          authenticated.set(authorization, tenant)
        }
      }
      if (tenant === undefined) {
        const message =
          bearer !== undefined && Result.isFailure(bearer)
            ? bearer.failure
            : "the Bearer token is not one of this sandbox's tenants"
        return Effect.succeed(
          x.finish(
            x.unread(unauthorized(x.error(401, message, { issues: [{ path: ["Authorization"], message }] }))),
            null
          )
        )
      }
    } else if (state.controlToken !== undefined && (path === "/__sandbox" || path.startsWith("/__sandbox/"))) {
      const bearer = Tenants.bearerOf(headers.authorization)
      if (Result.isFailure(bearer) || !sameToken(bearer.success, state.controlToken)) {
        const message = Result.isFailure(bearer) ? bearer.failure : "the Bearer token is not the control token"
        return Effect.succeed(x.finish(x.unread(unauthorized(x.error(401, message))), null))
      }
    }

    if (!Body.hasBody(headers)) return proceed(x, tenant, { request, body: undefined })
    return Effect.matchEffect(Body.gate(request, limits), {
      onFailure: (refusal) => {
        const answer = x.error(refusal.status, refusal.message, refusal.issues ? { issues: refusal.issues } : {})
        // a body left unread would be read as the next request: close the connection after the answer
        return Effect.succeed(
          x.finish(refusal.close ? HttpServerResponse.setHeader(answer, "connection", "close") : answer, null)
        )
      },
      onSuccess: (checked) => proceed(x, tenant, checked)
    })
  })
}
