/**
 * What the sandbox does around every request, as the real APIs do: the interaction id of Open Banking on every
 * response, 400 for a request target that is not one path (see `target.ts`), 406 when the client does not accept
 * JSON, authentication (a tenant's Bearer token on the APIs, the control token on `/__sandbox/*` when one is set),
 * the body gate (413, 415, 400: see `body.ts`), 405 for a known path with another method, errors in the body shape of
 * each family (also for bad JSON and schema mismatches), the /pay/fields rate limit per tenant, fault injection and
 * the request log.
 *
 * @internal
 */
import { createHash, timingSafeEqual } from "node:crypto"
import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { FapiHeaders } from "@payrules/open-banking"
import { BusinessApi, MerchantApi, OpenBankingApi } from "@payrules/transport"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { identity } from "effect/Function"
import * as Option from "effect/Option"
import * as Fault from "../Fault.js"
import { SandboxApi, UnknownTenant } from "../SandboxApi.js"
import * as Body from "./body.js"
import * as Errors from "./errors.js"
import * as Faults from "./faults.js"
import * as Json from "./json.js"
import type { SandboxStateService, TenantState } from "./state.js"
import * as Target from "./target.js"
import * as Tenants from "./tenants.js"

interface Route {
  readonly method: string
  readonly pattern: RegExp
  readonly operation: Fault.Operation | null
}

const operations = new Set<string>(Fault.Operation.literals)

/** The routes of the sandbox API, read from its definition (so they cannot drift from it). */
const routes: ReadonlyArray<Route> = (() => {
  const out: Array<Route> = []
  HttpApi.reflect(SandboxApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const pattern = new RegExp(
        `^${endpoint.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z0-9_]+\??/g, "[^/]+")}$`
      )
      out.push({
        method: endpoint.method,
        pattern,
        operation: operations.has(endpoint.name) ? (endpoint.name as Fault.Operation) : null
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
    route = routes.find((r) => r.method === method && r.pattern.test(path)) ?? null
    // long paths are not kept: 10,000 of them could hold a lot of memory
    if (key.length <= 256) {
      if (known.size >= 10_000) known.clear()
      known.set(key, route)
    }
  }
  return route
}
const methodsOf = (path: string) => [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))]

/** `Accept` absent, or with a media range that JSON satisfies (q > 0). */
const acceptsJson = (accept: string | undefined): boolean => {
  if (accept === undefined || accept === "*/*" || accept === "application/json" || accept.trim() === "") return true
  return accept.split(",").some((range) => {
    const [type, ...params] = range.trim().toLowerCase().split(";")
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false
    return type === "*/*" || type === "application/*" || type === "application/json" || type?.endsWith("+json")
  })
}

const isTagged = (u: unknown, tag: string): u is { readonly _tag: string } =>
  typeof u === "object" && u !== null && "_tag" in u && (u as { _tag: unknown })._tag === tag

const unauthorized = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.setHeader(response, "www-authenticate", 'Bearer realm="payrules-sandbox"')

/** the same token, compared in constant time */
const sameToken = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest())

/** @internal */
export const make =
  (state: SandboxStateService, limits: Body.BodyLimits) =>
  (app: HttpApp.Default): HttpApp.Default =>
    // the sandbox's own time only once the control plane moved it: until then, the caller's clock as it is
    Effect.suspend(() =>
      state.clock.offset() === 0 ? handle(state, limits, app) : state.clock.within(handle(state, limits, app))
    )

const handle = (state: SandboxStateService, limits: Body.BodyLimits, app: HttpApp.Default): HttpApp.Default =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    // the path as written, as the router reads it: a target that would need normalising is refused below
    const target = Target.check(request.url)
    const path = Either.isRight(target) ? target.right.path : target.left.path
    const query = Either.isRight(target) ? target.right.query : ""
    const family = Errors.familyOf(path)
    const now = yield* Clock.currentTimeMillis
    // the response rule of @payrules/open-banking: the sent id when it is a UUID, otherwise a fresh one
    const interactionId =
      family === "open-banking"
        ? yield* FapiHeaders.interactionIdFor({ "x-fapi-interaction-id": request.headers["x-fapi-interaction-id"] })
        : undefined
    const route = routeOf(request.method, path)
    const operation = route?.operation ?? null
    const error = (
      status: number,
      message: string,
      extra: { issues?: ReadonlyArray<Errors.Issue>; code?: number | string } = {}
    ) => Errors.response(family, status, message, { ...extra, interactionId, now })

    const finish = (answer: HttpServerResponse.HttpServerResponse, fault: Fault.Kind | null) => {
      // a body of known length goes out with its Content-Length: without it, Node writes the answer in chunks, which
      // costs both ends more than the answer itself
      const body = answer.body
      const response =
        body._tag === "Uint8Array"
          ? HttpServerResponse.setHeader(answer, "content-length", String(body.body.length))
          : body._tag === "Raw" && typeof body.body === "string"
            ? HttpServerResponse.setHeader(answer, "content-length", String(Buffer.byteLength(body.body)))
            : answer
      return Effect.as(
        state.log.add({
          method: request.method,
          // a hostile target can be kilobytes long: the log keeps its start
          path: Json.clip(path, 1024),
          query: query === "" ? "" : `?${Json.clip(query, 1023)}`,
          operation,
          status: response.status,
          fault,
          at: now
        }),
        interactionId === undefined
          ? response
          : HttpServerResponse.setHeader(response, "x-fapi-interaction-id", interactionId)
      )
    }

    // refused before the body gate: a body it did not read must not be read (or drained) as the next request
    const unread = (answer: HttpServerResponse.HttpServerResponse) =>
      request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? 0) > 0
        ? HttpServerResponse.setHeader(answer, "connection", "close")
        : answer

    if (Either.isLeft(target)) return yield* finish(unread(error(400, target.left.message)), null)

    if (family !== undefined && !acceptsJson(request.headers.accept)) {
      return yield* finish(
        unread(error(406, `only application/json is produced; Accept was ${request.headers.accept}`)),
        null
      )
    }

    // who calls: an operation of the APIs needs a tenant's token (an unknown path is a 404 for anyone), the control
    // plane the control token when one is set; nothing unauthenticated is read further or reaches the rate limit
    let tenant: TenantState | undefined
    if (family !== undefined && route !== null) {
      const bearer = Tenants.bearerOf(request.headers.authorization)
      tenant = Either.isRight(bearer) ? state.tenantByToken.get(bearer.right) : undefined
      if (tenant === undefined) {
        const message = Either.isLeft(bearer) ? bearer.left : "the Bearer token is not one of this sandbox's tenants"
        return yield* finish(
          unread(unauthorized(error(401, message, { issues: [{ path: ["Authorization"], message }] }))),
          null
        )
      }
    } else if (state.controlToken !== undefined && (path === "/__sandbox" || path.startsWith("/__sandbox/"))) {
      const bearer = Tenants.bearerOf(request.headers.authorization)
      if (Either.isLeft(bearer) || !sameToken(bearer.right, state.controlToken)) {
        return yield* finish(
          unread(
            unauthorized(error(401, Either.isLeft(bearer) ? bearer.left : "the Bearer token is not the control token"))
          ),
          null
        )
      }
    }

    const gated = yield* Effect.either(Body.gate(request, limits))
    if (gated._tag === "Left") {
      const refusal = gated.left
      const answer = error(refusal.status, refusal.message, refusal.issues ? { issues: refusal.issues } : {})
      // a body left unread would be read as the next request: close the connection after the answer
      return yield* finish(refusal.close ? HttpServerResponse.setHeader(answer, "connection", "close") : answer, null)
    }
    const checked = gated.right

    if (operation === "transferFieldRequirements" && tenant !== undefined) {
      const retryAfter = yield* state.payFieldsLimit.take(tenant.tenant.id, now)
      if (retryAfter !== undefined) {
        return yield* finish(
          HttpServerResponse.setHeader(
            error(429, `at most ${state.payFieldsLimit.limit} requests per ${state.payFieldsLimit.windowMs / 1000} s`),
            "retry-after",
            String(retryAfter)
          ),
          null
        )
      }
    }

    const fault =
      operation === null || !state.faults.active(operation)
        ? undefined
        : yield* state.faults.decide(
            operation,
            state.faults.keyed(operation)
              ? Faults.requestKey(operation, {
                  method: request.method,
                  path,
                  query: new URLSearchParams(query),
                  authorization: request.headers.authorization,
                  body: yield* Effect.orElseSucceed(checked.text, () => "")
                })
              : undefined
          )
    if (fault?.kind === "fail-before" || (fault?.kind === "fail-during" && operation !== "exchange")) {
      const status = fault.status ?? (fault.kind === "fail-during" ? 500 : 503)
      const message =
        status === 503 ? "the service is unavailable (injected fault)" : "the service failed (injected fault)"
      return yield* finish(error(status, message), fault.kind)
    }
    if (fault?.kind === "rate-limit") {
      return yield* finish(
        HttpServerResponse.setHeader(
          error(429, "too many requests (injected fault)"),
          "retry-after",
          String(fault.retryAfterSeconds ?? 1)
        ),
        fault.kind
      )
    }

    const response = yield* app.pipe(
      Effect.provideService(HttpServerRequest.HttpServerRequest, checked),
      fault?.kind === "fail-during" ? Effect.locally(Faults.failExecution, true) : identity,
      tenant === undefined ? identity : Effect.locally(Tenants.current, tenant.tenant.id),
      Effect.catchAllCause((cause) => {
        const failure = Cause.failureOption(cause)
        const defect = Option.isNone(failure) ? Cause.dieOption(cause) : Option.none()
        const e: unknown = Option.isSome(failure) ? failure.value : Option.getOrUndefined(defect)
        if (isTagged(e, "RouteNotFound")) {
          // 405 only when the path is a route of other methods: a route of this method that the router did not take
          // is no resource of it (404)
          const allowed = methodsOf(path)
          return Effect.succeed(
            allowed.length > 0 && !allowed.includes(request.method)
              ? HttpServerResponse.setHeader(
                  error(405, `${request.method} is not allowed on ${path}; use ${allowed.join(", ")}`),
                  "allow",
                  allowed.join(", ")
                )
              : error(404, `no operation at ${request.method} ${path}`)
          )
        }
        if (isTagged(e, "RequestError")) {
          return Effect.succeed(error(400, "the request body is not valid JSON"))
        }
        if (isTagged(e, "HttpApiDecodeError")) {
          const d = e as unknown as { issues: ReadonlyArray<Errors.Issue>; message: string }
          return Effect.succeed(
            error(
              400,
              d.issues
                .slice(0, Errors.MAX_ISSUES)
                .map((i) => `${i.path.map(String).join(".") || "(body)"}: ${i.message}`)
                .join("; "),
              { issues: d.issues }
            )
          )
        }
        if (e instanceof UnknownTenant) return Effect.succeed(error(404, e.message))
        if (e instanceof BusinessApi.BusinessError) return Effect.succeed(error(e.status, e.message, { code: e.code }))
        if (e instanceof MerchantApi.MerchantError) return Effect.succeed(error(e.status, e.message, { code: e.code }))
        if (e instanceof OpenBankingApi.OpenBankingError) {
          // the handler chose the codes: keep them, with the interaction id of this exchange
          return Effect.succeed(
            HttpServerResponse.unsafeJson(
              {
                Code: e.Code,
                ...(interactionId === undefined ? {} : { Id: interactionId }),
                Message: Errors.clipMessage(e.Message),
                Errors: e.Errors.map((x) => ({ ...x, Message: Errors.clipMessage(x.Message) }))
              },
              { status: e.status }
            )
          )
        }
        return Effect.as(Effect.logError("sandbox: unexpected failure", cause), error(500, "unexpected failure"))
      })
    )

    // logged once processed: a client that gives up during a delay interrupts what follows
    const answer = yield* finish(response, fault?.kind ?? null)
    if (fault?.kind === "delay-after") yield* Effect.sleep(fault.delayMs ?? 10_000)
    if (fault?.kind === "drop-after") {
      // processed: now end the connection without an answer
      yield* state.drop(request)
    }
    return answer
  })
