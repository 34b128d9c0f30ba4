/**
 * A sandbox on an ephemeral port with the typed clients pointed at it, for tests over real HTTP.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { RequestLedger } from "@payrules/exchange"
import { type Fault, Sandbox } from "@payrules/sandbox"
import { BusinessClient, MerchantClient, OpenBankingClient } from "@payrules/transport"
import { Duration, Effect, Layer, Redacted } from "effect"

export const token = Redacted.make("e2e-secret-token-1f6b2c")

/** retries scaled down so that tests run in milliseconds; the production defaults are in the clients */
export const fastRetry = {
  maxAttempts: 4,
  baseDelay: Duration.millis(5),
  maxDelay: Duration.millis(40),
  minSpacing: Duration.millis(10)
}

export const clients = (options: { readonly timeout?: Duration.DurationInput } = {}) =>
  Layer.unwrapEffect(
    Effect.map(Sandbox.SandboxServer, (s) =>
      Layer.mergeAll(
        OpenBankingClient.layer({
          ...OpenBankingClient.defaults,
          baseUrl: s.urls.openBanking,
          token,
          financialId: "001580000103UAvAAM",
          timeout: options.timeout ?? Duration.seconds(5),
          retry: fastRetry
        }),
        MerchantClient.layer({
          ...MerchantClient.defaults,
          baseUrl: s.urls.merchant,
          token,
          timeout: options.timeout ?? Duration.seconds(5),
          retry: fastRetry
        }),
        BusinessClient.layer({
          ...BusinessClient.defaults,
          baseUrl: s.urls.business,
          token,
          timeout: options.timeout ?? Duration.seconds(5),
          retry: fastRetry,
          exchangeRetry: fastRetry
        })
      )
    )
  ).pipe(Layer.provide([FetchHttpClient.layer, RequestLedger.layer]))

/** the sandbox and the clients, for `layer(...)` of @effect/vitest */
export const withSandbox = (
  options: Sandbox.Options,
  clientOptions: { readonly timeout?: Duration.DurationInput } = {}
) => clients(clientOptions).pipe(Layer.provideMerge(Sandbox.layer(options)))

export const control = <A = unknown>(path: string) =>
  Effect.flatMap(Sandbox.SandboxServer, (s) =>
    Effect.promise(() => fetch(`${s.urls.control}${path}`).then((r) => r.json() as Promise<A>))
  )

/** replaces the sandbox's fault rules */
export const setFaults = (rules: ReadonlyArray<Fault.FaultRule>) =>
  Effect.flatMap(Sandbox.SandboxServer, (s) =>
    Effect.promise(() =>
      fetch(`${s.urls.control}/faults`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(rules)
      })
    )
  )

export interface Seed {
  readonly accounts: ReadonlyArray<{ readonly id: string; readonly currency: string; readonly institution: string }>
}
