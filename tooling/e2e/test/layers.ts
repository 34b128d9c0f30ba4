/**
 * A sandbox, on an ephemeral port or in this process, with the typed clients pointed at it.
 */
import { RequestLedger } from "@payrules/exchange"
import { type Fault, Sandbox } from "@payrules/sandbox"
import { BusinessClient, MerchantClient, OpenBankingClient } from "@payrules/transport"
import { Duration, Effect, Layer, Redacted } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"

/** a token for fake servers (tests without a sandbox) */
export const token = Redacted.make("e2e-secret-token-1f6b2c")

/** the Bearer token of the sandbox's first seeded tenant, as the clients take it */
export const tenantToken = (s: Sandbox.Running, tenant = 0) => Redacted.make(s.tenants[tenant]!.token)

/** retries scaled down so that tests run in milliseconds; the production defaults are in the clients */
export const fastRetry = {
  maxAttempts: 4,
  baseDelay: Duration.millis(5),
  maxDelay: Duration.millis(40),
  minSpacing: Duration.millis(10)
}

/** the three clients pointed at the sandbox, over the `HttpClient` of the context */
export const clients = (options: { readonly timeout?: Duration.Input } = {}) =>
  Layer.unwrap(
    Effect.map(Sandbox.SandboxServer, (s) => {
      const token = tenantToken(s)
      return Layer.mergeAll(
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
    })
  ).pipe(Layer.provide(RequestLedger.layer))

/** a sandbox on a port, the clients over fetch, and fetch as the `HttpClient` (for `control`), for `layer(...)` */
export const withSandbox = (options: Sandbox.Options, clientOptions: { readonly timeout?: Duration.Input } = {}) =>
  clients(clientOptions).pipe(Layer.provideMerge(FetchHttpClient.layer), Layer.provideMerge(Sandbox.layer(options)))

/**
 * A sandbox in this process and the clients over it: nothing leaves the process, and the test's clock (`TestClock`)
 * drives every timeout, retry, delay and rate window. Build it inside the test, so that it gets the test's clock.
 */
export const inProcess = (options: Sandbox.Options, clientOptions: { readonly timeout?: Duration.Input } = {}) =>
  clients(clientOptions).pipe(Layer.provideMerge(Sandbox.layerInProcess(options)))

/** GET of a control endpoint of the sandbox, as JSON */
export const control = <A = unknown>(path: string) =>
  Effect.gen(function* () {
    const s = yield* Sandbox.SandboxServer
    const http = yield* HttpClient.HttpClient
    const response = yield* http.get(`${s.urls.control}${path}`)
    return (yield* response.json) as A
  }).pipe(Effect.orDie)

/** replaces the sandbox's fault rules */
export const setFaults = (rules: ReadonlyArray<Fault.FaultRule>) =>
  Effect.gen(function* () {
    const s = yield* Sandbox.SandboxServer
    const http = yield* HttpClient.HttpClient
    const response = yield* http.execute(
      HttpClientRequest.put(`${s.urls.control}/faults`).pipe(HttpClientRequest.bodyJsonUnsafe(rules))
    )
    if (response.status !== 204 && response.status !== 200) {
      return yield* Effect.die(new Error(`PUT /faults answered ${response.status}`))
    }
  }).pipe(Effect.orDie)

export interface Seed {
  readonly accounts: ReadonlyArray<{ readonly id: string; readonly currency: string; readonly institution: string }>
}
