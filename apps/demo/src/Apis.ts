import { RequestLedger } from "@payrules/exchange"
import type { Sandbox } from "@payrules/sandbox"
import { BusinessClient, MerchantClient, OpenBankingClient } from "@payrules/transport"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import type * as HttpServerError from "effect/http/HttpServerError"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { CliError, mapLayerError, oneLine } from "./CliError.js"
import * as Flags from "./Flags.js"

/**
 * `--base-url`: checked (an absolute http or https URL) before anything runs, see `Checks.optionalBaseUrl`.
 *
 * @since 0.1.0
 * @category flags
 */
export const baseUrlOption = Flags.optional(
  "base-url",
  "url",
  "the API's base URL, absolute http(s) (tokens come from PAYRULES_<FAMILY>_TOKEN or PAYRULES_TOKEN); without it, an embedded sandbox"
)

const tokenFor = (family: "MERCHANT" | "BUSINESS" | "OPEN_BANKING") =>
  Config.Redacted(`PAYRULES_${family}_TOKEN`).pipe(
    Config.orElse(() => Config.Redacted("PAYRULES_TOKEN")),
    Effect.mapError(
      () =>
        new CliError({
          where: "environment",
          reason: `set PAYRULES_${family}_TOKEN (or PAYRULES_TOKEN) to call ${family.toLowerCase().replace("_", " ")} APIs at --base-url`
        })
    )
  )

/**
 * Why a server could not start, in a person's words: the port in use, a port that needs privileges, a bad address,
 * options the sandbox refuses.
 *
 * @since 0.1.0
 * @category sandbox
 */
export const serveErrorReason = (error: HttpServerError.ServeError | Sandbox.SandboxOptionsError): string => {
  if (error._tag === "SandboxOptionsError") return error.message
  const cause = error.cause as { readonly code?: unknown; readonly message?: unknown } | undefined
  const code = typeof cause?.code === "string" ? cause.code : undefined
  switch (code) {
    case "EADDRINUSE":
      return "the port is in use (EADDRINUSE)"
    case "EACCES":
      return "permission denied: ports below 1024 need privileges (EACCES)"
    case "EADDRNOTAVAIL":
      return "the address is not on this machine (EADDRNOTAVAIL)"
    default:
      return typeof cause?.message === "string" && cause.message !== ""
        ? oneLine(cause.message)
        : oneLine(String(error.cause ?? "the server did not start"))
  }
}

/**
 * The sandbox's module, loaded when a command first needs it (the embedded sandbox, `serve`): `--help` and the
 * commands that run without a sandbox start without loading its server.
 *
 * @since 0.1.0
 * @category sandbox
 */
export const loadSandbox: Effect.Effect<typeof Sandbox> = Effect.promise(() =>
  import("@payrules/sandbox").then((m) => m.Sandbox)
)

/**
 * The embedded sandbox: seed 1 with the 15 plans that show every phase shape; started on first use, stopped with
 * the program. The commands call it as its first seeded tenant, with that tenant's token. The same seed gives the same ids every run, so the ids `payrules plans` lists work in the next command.
 *
 * @since 0.1.0
 * @category sandbox
 */
export const embedded = Layer.unwrap(Effect.map(loadSandbox, (S) => S.layer({ seed: 1, plans: 15 }))).pipe(
  mapLayerError(
    (e) => new CliError({ where: "embedded sandbox", reason: `could not listen on 127.0.0.1: ${serveErrorReason(e)}` })
  )
)

/** the embedded sandbox's first seeded tenant: the commands and the tour call it with that tenant's token */
export const sandboxToken = (s: Sandbox.Running) => Redacted.make(s.tenants[0]!.token)

/** the client's own check of its configuration (the CLI checks --base-url first) */
const configFailure = (e: Config.ConfigError) => new CliError({ where: "--base-url", reason: oneLine(String(e)) })

const merchantClient = (baseUrl: string, token: Redacted.Redacted<string>) =>
  MerchantClient.layer({ ...MerchantClient.defaults, baseUrl, token }).pipe(mapLayerError(configFailure))

const businessClient = (baseUrl: string, token: Redacted.Redacted<string>) =>
  BusinessClient.layer({ ...BusinessClient.defaults, baseUrl, token }).pipe(mapLayerError(configFailure))

const openBankingClient = (baseUrl: string, token: Redacted.Redacted<string>, financialId: string) =>
  OpenBankingClient.layer({ ...OpenBankingClient.defaults, baseUrl, token, financialId }).pipe(
    mapLayerError(configFailure)
  )

/** A client of the embedded sandbox; the layer also provides `SandboxServer`, for commands that read its seed. */
const fromSandbox = <A, E, R>(f: (running: Sandbox.Running) => Layer.Layer<A, E, R>) =>
  Layer.unwrap(Effect.flatMap(loadSandbox, (S) => Effect.map(Effect.service(S.SandboxServer), f))).pipe(
    Layer.provideMerge(embedded)
  )

type ApiLayer<A> = Layer.Layer<A, CliError>

const choose = <A, R>(
  baseUrl: Option.Option<string>,
  embeddedClient: (s: Sandbox.Running) => Layer.Layer<A, CliError, R>,
  remoteClient: (url: string) => Layer.Layer<A, CliError, R>,
  requirements: Layer.Layer<R>
): ApiLayer<A> => {
  const client: Layer.Layer<A, CliError, R> = Option.isNone(baseUrl)
    ? fromSandbox(embeddedClient)
    : remoteClient(baseUrl.value)
  return Layer.provide(client, requirements)
}

const remote = <A, R>(
  family: "MERCHANT" | "BUSINESS" | "OPEN_BANKING",
  make: (token: Redacted.Redacted<string>) => Layer.Layer<A, CliError, R>
) => Layer.unwrap(Effect.map(tokenFor(family), make))

/**
 * The client of each API family, for a base URL (already checked) or the embedded sandbox.
 *
 * @since 0.1.0
 * @category layers
 */
export const Apis = {
  merchant: (baseUrl: Option.Option<string>): ApiLayer<MerchantClient.MerchantClient> =>
    choose(
      baseUrl,
      (s) => merchantClient(s.urls.merchant, sandboxToken(s)),
      (url) => remote("MERCHANT", (t) => merchantClient(url, t)),
      FetchHttpClient.layer
    ),
  business: (
    baseUrl: Option.Option<string>,
    ledger: Layer.Layer<RequestLedger.RequestLedger, CliError> = RequestLedger.layer
  ): ApiLayer<BusinessClient.BusinessClient> =>
    Layer.unwrap(
      // the ledger opens (and fails) before the sandbox starts
      Effect.map(Layer.build(ledger), (context) =>
        choose(
          baseUrl,
          (s) => businessClient(s.urls.business, sandboxToken(s)),
          (url) => remote("BUSINESS", (t) => businessClient(url, t)),
          Layer.merge(FetchHttpClient.layer, Layer.succeedContext(context))
        )
      )
    ),
  openBanking: (baseUrl: Option.Option<string>, financialId: string): ApiLayer<OpenBankingClient.OpenBankingClient> =>
    choose(
      baseUrl,
      (s) => openBankingClient(s.urls.openBanking, sandboxToken(s), financialId),
      (url) => remote("OPEN_BANKING", (t) => openBankingClient(url, t, financialId)),
      FetchHttpClient.layer
    )
}

/**
 * The seed data of the embedded sandbox (its accounts, payments), when the command runs against it: none with a
 * base URL.
 *
 * @since 0.1.0
 * @category sandbox
 */
export const embeddedSeed = <A>(baseUrl: Option.Option<string>) =>
  Option.isSome(baseUrl)
    ? Effect.succeed(Option.none<A>())
    : Effect.flatMap(
        Effect.flatMap(loadSandbox, (S) => Effect.serviceOption(S.SandboxServer)),
        (server) =>
          Option.match(server, {
            onNone: () => Effect.succeed(Option.none<A>()),
            onSome: (s) =>
              Effect.tryPromise({
                try: () => fetch(`${s.urls.control}/seed`).then((r) => r.json() as Promise<A>),
                catch: (e) => new CliError({ where: "embedded sandbox", reason: `no seed data (${String(e)})` })
              }).pipe(Effect.map(Option.some))
          })
      )

/**
 * The failure of an API call as one line, where being the API (the sandbox or `--base-url`) unless given.
 *
 * @since 0.1.0
 * @category errors
 */
export const apiFailure =
  (baseUrl: Option.Option<string>, where?: string) =>
  (error: { readonly message: string }): CliError =>
    error instanceof CliError
      ? error
      : new CliError({
          where: where ?? Option.match(baseUrl, { onNone: () => "sandbox", onSome: (url) => `--base-url ${url}` }),
          reason: oneLine(error.message) || "failed"
        })
