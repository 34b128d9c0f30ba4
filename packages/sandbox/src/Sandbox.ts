import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { FapiHeaders } from "@payrules/open-banking"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FileSystem from "effect/FileSystem"
import { constTrue } from "effect/Function"
import * as Etag from "effect/http/Etag"
import * as Headers from "effect/http/Headers"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpPlatform from "effect/http/HttpPlatform"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import type * as HttpServerError from "effect/http/HttpServerError"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Layer from "effect/Layer"
import * as NetAddress from "effect/net/NetAddress"
import * as Path from "effect/Path"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import * as Result from "effect/Result"
import * as Scope from "effect/Scope"
import * as Stdio from "effect/Stdio"
import * as Terminal from "effect/Terminal"
import type * as Fault from "./Fault.js"
import * as Docs from "./internal/docs.js"
import type * as Exchanges from "./internal/exchanges.js"
import * as Handlers from "./internal/handlers.js"
import * as InProcess from "./internal/inProcess.js"
import * as Middleware from "./internal/middleware.js"
import * as Server from "./internal/server.js"
import { SandboxState, type SandboxStateService } from "./internal/state.js"
import * as StateLayer from "./internal/stateLayer.js"
import * as Tenants from "./internal/tenants.js"
import { basePaths, SandboxApi } from "./SandboxApi.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** 0 (default) for an ephemeral port */
  readonly port?: number | undefined
  /** default 127.0.0.1: the sandbox is for this machine */
  readonly host?: string | undefined
  /** the data seed (default 1): the same seed gives the same ids, balances, plans and payments */
  readonly seed?: number | undefined
  /** how many subscription plans to serve (default 1,200; at least the 15 plans that show every phase shape) */
  readonly plans?: number | undefined
  /** fault rules active from the start (they can be changed at /__sandbox/faults) */
  readonly faults?: ReadonlyArray<Fault.FaultRule> | undefined
  /**
   * how exchanges behave: `duplicates` ("replay", the default, or "error"), `reasonThresholds`, `settlement` and
   * `retentionMs` (how long a request_id, its stored answer and its transaction are kept: 24 hours by default)
   */
  readonly exchange?: Partial<Exchanges.ExchangeOptions> | undefined
  /**
   * the POST /pay/fields limit per tenant, counted across all of its tokens (default 450 per 60 s, as the real API)
   */
  readonly payFieldsLimit?: { readonly limit: number; readonly windowMs: number } | undefined
  /**
   * the Bearer token `/__sandbox/*` requires (a token68: letters, digits and `-._~+/`). Without one, the control plane
   * is open, which only a loopback binding allows: on any other host the sandbox refuses to start without it.
   */
  readonly controlToken?: string | undefined
  /** a server span per request, for a tracer you provide (default false: they cost more than most requests) */
  readonly tracing?: boolean | undefined
  /** what the server takes from a client: body size and depth, time, header size, connections (see {@link Limits}) */
  readonly limits?: Partial<Limits> | undefined
}

/**
 * What the sandbox takes from a client before it refuses (see the README, "Hostile input and limits").
 *
 * @since 0.1.0
 * @category models
 */
export interface Limits {
  /** the largest request body in bytes: 413 above, checked from `Content-Length` and while reading */
  readonly maxBodyBytes: number
  /** how deep arrays and objects may nest in a JSON body: 400 above */
  readonly maxJsonDepth: number
  /** the largest request line and headers in bytes (Node's `maxHeaderSize`): 431 above */
  readonly maxHeaderBytes: number
  /** ms to receive the request line and headers (Node's `headersTimeout`, at most `requestTimeoutMs`): 408 after */
  readonly headersTimeoutMs: number
  /** ms to receive a whole request, headers and body (Node's `requestTimeout`): 408 after */
  readonly requestTimeoutMs: number
  /** ms an idle kept-alive connection stays open (Node's `keepAliveTimeout`) */
  readonly keepAliveTimeoutMs: number
  /** the most open connections (Node's `maxConnections`); more are closed as they arrive */
  readonly maxConnections: number
}

/**
 * The limits when none are given: 1 MiB bodies nested at most 64 deep, 16 KiB of headers received within 10 s, a
 * request received within 30 s, idle connections kept 5 s, 1,000 connections.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultLimits: Limits = {
  maxBodyBytes: 1024 * 1024,
  maxJsonDepth: 64,
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000
}

const limitsOf = (options: Options): Limits => ({ ...defaultLimits, ...options.limits })

/**
 * Where a running sandbox answers.
 *
 * @since 0.1.0
 * @category models
 */
export interface Running {
  /** who may call it: the seeded tenants and their Bearer tokens, the first tenant first */
  readonly tenants: ReadonlyArray<TenantCredentials>
  readonly port: number
  readonly url: string
  readonly urls: {
    readonly openBanking: string
    readonly merchant: string
    readonly business: string
    readonly docs: string
    readonly control: string
  }
}

/**
 * A seeded tenant and its credentials: `token` is the first of its `tokens`.
 *
 * @since 0.1.0
 * @category models
 */
export interface TenantCredentials {
  readonly id: string
  readonly name: string
  readonly token: string
  readonly tokens: ReadonlyArray<string>
}

/**
 * The tenants a sandbox with these options is seeded with, and their Bearer tokens. The tokens are derived from the
 * seed (the same seed, the same tokens: a sandbox is not a secret store), so a script can know them before it starts
 * the sandbox; a running sandbox also lists them (`Running.tenants`, `GET /__sandbox/seed`) and prints them at start.
 *
 * @example
 * ```ts
 * import { Sandbox } from "@payrules/sandbox"
 *
 * const [first] = Sandbox.tenants({ seed: 7 })
 * console.log(first?.name, first?.token) // Northwind Trading Ltd sbx_northwind_...
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const tenants = (options: Pick<Options, "seed" | "plans"> = {}): ReadonlyArray<TenantCredentials> =>
  Tenants.seeded(options.seed ?? 1, options.plans ?? 1200).map(({ id, name, tokens }) => ({
    id,
    name,
    token: tokens[0]!,
    tokens
  }))

/**
 * The lines a command prints about the tenants at start: each tenant's id, name and tokens.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatTenants = (list: ReadonlyArray<TenantCredentials>): ReadonlyArray<string> =>
  list.flatMap((t) => [`  ${t.id.padEnd(12)}  ${t.name}`, ...t.tokens.map((token) => `                ${token}`)])

/**
 * Options a sandbox cannot start with: `ControlTokenRequired` (a host other than loopback and no `controlToken`: the
 * control plane would be open to the network), `InvalidControlToken` (not a token68 a Bearer header can carry).
 *
 * @since 0.1.0
 * @category errors
 */
export class SandboxOptionsError extends Data.TaggedError("SandboxOptionsError")<{
  readonly reason: "ControlTokenRequired" | "InvalidControlToken"
  readonly message: string
}> {}

/** the options' problem, if the sandbox cannot start with them */
const checkOptions = (options: Options): SandboxOptionsError | undefined => {
  const host = options.host ?? "127.0.0.1"
  if (options.controlToken !== undefined && Result.isFailure(Tenants.bearerOf(`Bearer ${options.controlToken}`))) {
    return new SandboxOptionsError({
      reason: "InvalidControlToken",
      message: "controlToken must be one token68 (letters, digits and -._~+/, then = padding)"
    })
  }
  if (options.controlToken === undefined && !Tenants.isLoopback(host)) {
    return new SandboxOptionsError({
      reason: "ControlTokenRequired",
      message: `the sandbox binds ${host}, beyond this machine: give a controlToken (--control-token or PAYRULES_SANDBOX_CONTROL_TOKEN) so that /__sandbox/* is not open to the network`
    })
  }
  return undefined
}

/**
 * The running sandbox, for tests that start it as a layer.
 *
 * @since 0.1.0
 * @category tags
 */
export class SandboxServer extends Context.Service<SandboxServer, Running>()("@payrules/sandbox/SandboxServer") {}

const urlsOf = (url: string, port: number, options: Options): Running => ({
  tenants: tenants(options),
  port,
  url,
  urls: {
    openBanking: `${url}${basePaths.openBanking}`,
    merchant: `${url}${basePaths.merchant}`,
    business: `${url}${basePaths.business}`,
    docs: `${url}/docs`,
    control: `${url}/__sandbox`
  }
})

const runningLayer = (options: Options) =>
  Layer.effect(
    SandboxServer,
    Effect.map(HttpServer.HttpServer, (server): Running => {
      const address = server.address
      const inet = address._tag === "InetAddressV4" || address._tag === "InetAddressV6"
      const port = inet ? address.port : 0
      const host = inet ? NetAddress.formatIp(address.address) : "127.0.0.1"
      return urlsOf(`http://${host.includes(":") ? `[${host}]` : host}:${port}`, port, options)
    })
  )

/** The app of a sandbox, as the server (on a socket or in this process) runs it. */
class SandboxApp extends Context.Service<SandboxApp, Middleware.App>()("@payrules/sandbox/SandboxApp") {}

/** The routes: the API with its handlers, and the /docs page (see `internal/docs.ts`). */
const routes = Layer.mergeAll(HttpApiBuilder.layer(SandboxApi), Docs.layer).pipe(Layer.provide(Handlers.layer))

/** A router that takes paths as the middleware reads them (see `internal/server.ts`), with the routes on it. */
const router = Layer.provideMerge(
  routes,
  Layer.effect(
    HttpRouter.HttpRouter,
    Effect.provideService(HttpRouter.make, HttpRouter.RouterConfig, Server.routerConfig)
  )
)

/**
 * The app: the router, made once with all its routes, wrapped by the sandbox's middleware. Per request, nothing is
 * built: the middleware's checks, the router's lookup and the handler run.
 */
const appLayer = (limits: Limits) =>
  Layer.effect(
    SandboxApp,
    Effect.gen(function* () {
      const state = yield* SandboxState
      const { asHttpEffect } = yield* HttpRouter.HttpRouter
      return Middleware.make(state, { maxBodyBytes: limits.maxBodyBytes, maxDepth: limits.maxJsonDepth })(
        asHttpEffect()
      )
    })
  ).pipe(Layer.provide(router))

/**
 * The services the sandbox's own layers add (the Node platform, the state, the app): no request reads them from its
 * context (the app needs only the request and its scope, as its type says).
 */
const ownServices = Context.omit(
  HttpServer.HttpServer,
  HttpPlatform.HttpPlatform,
  Etag.Generator,
  FileSystem.FileSystem,
  Path.Path,
  Stdio.Stdio,
  Terminal.Terminal,
  ChildProcessSpawner.ChildProcessSpawner,
  SandboxState,
  SandboxApp,
  Layer.CurrentMemoMap
)

/**
 * Serves the app. effect's Node server starts every request in the context it was started in, and effect's
 * HttpApiBuilder copies that context once per request: the server starts without the services no request reads.
 * A layer per sandbox (a function, not one value): a layer value is built once per memo map, and a sandbox started
 * inside another's scope must serve its own app.
 */
const serveLayer = () =>
  Layer.effectDiscard(
    Effect.flatMap(SandboxApp, (app) =>
      HttpServer.HttpServer.use((server) =>
        Effect.updateContext(server.serve(app), (context: Context.Context<Scope.Scope>) => ownServices(context))
      )
    )
  )

/** A span per request (with the URL and every header as attributes) costs more than serving most requests: off. */
const untraced = Layer.succeed(HttpMiddleware.TracerDisabledWhen, constTrue)

/**
 * The headers a log of the server never shows: effect's secret ones (`authorization`, cookies, API keys) and the end
 * user's personal data of Open Banking (`FapiHeaders.redactedHeaderNames`).
 */
const redactedNames = (names: ReadonlyArray<string | RegExp>): ReadonlyArray<string | RegExp> => [
  ...names,
  ...FapiHeaders.redactedHeaderNames.filter((name) => !names.includes(name))
]

const redacted = Layer.effect(Headers.CurrentRedactedNames)(Effect.map(Headers.CurrentRedactedNames, redactedNames))

/**
 * The sandbox as a layer: serves on `options.port` (ephemeral by default) for the lifetime of the layer and
 * provides where it runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options = {}
): Layer.Layer<SandboxServer, HttpServerError.ServeError | SandboxOptionsError> => {
  // before anything listens
  const refused = checkOptions(options)
  if (refused !== undefined) return Layer.effectContext(Effect.fail(refused))
  const drop: SandboxStateService["drop"] = (request) =>
    Effect.sync(() => NodeHttpServerRequest.toServerResponse(request).socket?.destroy())
  const limits = limitsOf(options)
  const serve = serveLayer().pipe(Layer.provide(options.tracing === true ? redacted : Layer.merge(redacted, untraced)))
  return Layer.merge(serve, runningLayer(options)).pipe(
    Layer.provide(appLayer(limits)),
    Layer.provide(StateLayer.layer(options, drop)),
    Layer.provide(
      NodeHttpServer.layer(() => Server.nodeServer(limits), {
        port: options.port ?? 0,
        host: options.host ?? "127.0.0.1"
      })
    )
  )
}

/**
 * The origin of an in-process sandbox's URLs (see {@link layerInProcess}).
 *
 * @since 0.1.0
 * @category constants
 */
export const inProcessUrl = "http://sandbox.in-process.invalid"

/**
 * The sandbox in this process, without a socket: an `HttpClient` that hands every request (whatever its host) to the
 * sandbox's server code, and where it "runs" ({@link inProcessUrl}). The whole server runs in the calling fiber with
 * its `Clock`, so a test can drive retries, timeouts, delays and rate windows with `TestClock`, deterministically;
 * dropped connections are transport errors of the client.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerInProcess = (options: Options = {}): Layer.Layer<SandboxServer | HttpClient.HttpClient> => {
  // in this process counts as loopback: only a control token that no header could carry is refused (a defect: the
  // layer has no error channel)
  const refused = checkOptions({ ...options, host: "127.0.0.1" })
  if (refused !== undefined) return Layer.effectContext(Effect.die(refused))
  const drops = InProcess.makeDrops()
  const client = Layer.effect(
    HttpClient.HttpClient,
    Effect.gen(function* () {
      const app = yield* SandboxApp
      const names = redactedNames(yield* Headers.CurrentRedactedNames)
      return InProcess.make(app, drops, { tracing: options.tracing === true, redactedNames: names })
    })
  )
  return Layer.merge(client, Layer.succeed(SandboxServer, urlsOf(inProcessUrl, 0, options))).pipe(
    Layer.provide(appLayer(limitsOf(options))),
    Layer.provide(StateLayer.layer(options, drops.add)),
    Layer.provide(NodeHttpServer.layerHttpServices)
  )
}

/**
 * Starts a sandbox in the scope and returns where it runs; it stops when the scope closes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options = {}
): Effect.Effect<Running, HttpServerError.ServeError | SandboxOptionsError, Scope.Scope> =>
  Effect.map(Layer.build(layer(options)), Context.get(SandboxServer))

/**
 * Starts a sandbox from plain JavaScript: resolves to where it runs and a `stop()` that closes it.
 *
 * @example
 * ```ts
 * import { Sandbox } from "@payrules/sandbox"
 *
 * const sandbox = await Sandbox.start({ seed: 7 })
 * console.log(sandbox.urls.business) // http://127.0.0.1:<port>/business
 * await sandbox.stop()
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const start = async (options: Options = {}): Promise<Running & { readonly stop: () => Promise<void> }> => {
  const scope = Scope.makeUnsafe()
  const running = await Effect.runPromise(Scope.provide(make(options), scope))
  return { ...running, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
