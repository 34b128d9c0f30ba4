/**
 * The API clients of the demo: pointed at `--base-url` with tokens from the environment, or at an embedded sandbox
 * started in this process on 127.0.0.1 (an ephemeral port) when no base URL is given.
 */
import * as Options from "@effect/cli/Options"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpServerError from "@effect/platform/HttpServerError"
import { RequestLedger } from "@payrules/exchange"
import { Sandbox } from "@payrules/sandbox"
import { BusinessClient, MerchantClient, OpenBankingClient } from "@payrules/transport"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { DemoError } from "./DemoError.js"

export const baseUrlOption = Options.text("base-url").pipe(
  Options.optional,
  Options.withDescription(
    "the API's base URL (tokens come from PAYRULES_<FAMILY>_TOKEN or PAYRULES_TOKEN); without it, an embedded sandbox"
  )
)

const tokenFor = (family: "MERCHANT" | "BUSINESS" | "OPEN_BANKING") =>
  Config.redacted(`PAYRULES_${family}_TOKEN`).pipe(
    Config.orElse(() => Config.redacted("PAYRULES_TOKEN")),
    Effect.mapError(
      () =>
        new DemoError({
          where: "environment",
          reason: `set PAYRULES_${family}_TOKEN (or PAYRULES_TOKEN) to call ${family.toLowerCase().replace("_", " ")} APIs at --base-url`
        })
    )
  )

/** The embedded sandbox: started on first use, stopped with the program. */
export const embedded = Sandbox.layer({ seed: 1 })

const sandboxToken = Redacted.make("sandbox-token")

const merchantClient = (baseUrl: string, token: Redacted.Redacted<string>) =>
  MerchantClient.layer({ ...MerchantClient.defaults, baseUrl, token })

const businessClient = (baseUrl: string, token: Redacted.Redacted<string>) =>
  BusinessClient.layer({ ...BusinessClient.defaults, baseUrl, token }).pipe(
    Layer.mapError((e) => new DemoError({ where: "--base-url", reason: e.message }))
  )

const openBankingClient = (baseUrl: string, token: Redacted.Redacted<string>, financialId: string) =>
  OpenBankingClient.layer({ ...OpenBankingClient.defaults, baseUrl, token, financialId })

/** A client of the embedded sandbox; the layer also provides `SandboxServer`, for commands that read its seed. */
const fromSandbox = <A, E, R>(f: (running: Sandbox.Running) => Layer.Layer<A, E, R>) =>
  Layer.unwrapEffect(Effect.map(Sandbox.SandboxServer, f)).pipe(Layer.provideMerge(embedded))

type ApiLayer<A> = Layer.Layer<A, HttpServerError.ServeError | DemoError>

const choose = <A, R>(
  baseUrl: Option.Option<string>,
  embeddedClient: (s: Sandbox.Running) => Layer.Layer<A, DemoError, R>,
  remoteClient: (url: string) => Layer.Layer<A, DemoError, R>,
  requirements: Layer.Layer<R>
): ApiLayer<A> => {
  const client: Layer.Layer<A, HttpServerError.ServeError | DemoError, R> = Option.isNone(baseUrl)
    ? fromSandbox(embeddedClient)
    : remoteClient(baseUrl.value)
  return Layer.provide(client, requirements)
}

const remote = <A, R>(
  family: "MERCHANT" | "BUSINESS" | "OPEN_BANKING",
  make: (token: Redacted.Redacted<string>) => Layer.Layer<A, DemoError, R>
) => Layer.unwrapEffect(Effect.map(tokenFor(family), make))

export const Apis = {
  merchant: (baseUrl: Option.Option<string>): ApiLayer<MerchantClient.MerchantClient> =>
    choose(
      baseUrl,
      (s) => merchantClient(s.urls.merchant, sandboxToken),
      (url) => remote("MERCHANT", (t) => merchantClient(url, t)),
      FetchHttpClient.layer
    ),
  business: (baseUrl: Option.Option<string>): ApiLayer<BusinessClient.BusinessClient> =>
    choose(
      baseUrl,
      (s) => businessClient(s.urls.business, sandboxToken),
      (url) => remote("BUSINESS", (t) => businessClient(url, t)),
      Layer.merge(FetchHttpClient.layer, RequestLedger.layer)
    ),
  openBanking: (baseUrl: Option.Option<string>, financialId: string): ApiLayer<OpenBankingClient.OpenBankingClient> =>
    choose(
      baseUrl,
      (s) => openBankingClient(s.urls.openBanking, sandboxToken, financialId),
      (url) => remote("OPEN_BANKING", (t) => openBankingClient(url, t, financialId)),
      FetchHttpClient.layer
    )
}

/** The seed of the embedded sandbox, when the command runs against it. */
export const embeddedSeed = <A>() =>
  Effect.flatMap(Effect.serviceOption(Sandbox.SandboxServer), (server) =>
    Option.match(server, {
      onNone: () => Effect.succeed(Option.none<A>()),
      onSome: (s) =>
        Effect.map(
          Effect.promise(() => fetch(`${s.urls.control}/seed`).then((r) => r.json() as Promise<A>)),
          Option.some
        )
    })
  )
