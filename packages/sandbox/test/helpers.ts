import { Sandbox } from "@payrules/sandbox"
import { Effect } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"

/** the Authorization header of a seeded tenant of the sandbox (the first one by default) */
export const authOf = (s: Sandbox.Running, tenant = 0) => ({ authorization: `Bearer ${s.tenants[tenant]!.token}` })

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly json: unknown
  readonly text: string
}

/** fetch as an Effect, reading the whole body (JSON when it parses) */
export const call = (url: string, init: RequestInit = {}): Effect.Effect<Reply> =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    const text = await response.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, json, text }
  })

/** fixtures made on first use, not when a test file loads (see @payrules/vitest/Lazy) */
export { lazily } from "@payrules/vitest/Lazy"

export const server = Effect.map(Sandbox.SandboxServer, (s) => s)

/** the Authorization header of the sandbox's first tenant */
export const auth = Effect.map(server, (s) => authOf(s))

/** POST of JSON, as the first tenant unless `headers` are given */
export const postJson = (url: string, body: unknown, headers?: Record<string, string>) =>
  Effect.flatMap(headers === undefined ? auth : Effect.succeed(headers), (h) =>
    call(url, {
      method: "POST",
      headers: { ...h, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body)
    })
  )

export interface TenantData {
  readonly accounts: ReadonlyArray<{ id: string; currency: string; institution: string }>
  readonly counterparties: ReadonlyArray<{
    id: string
    name: string
    accounts: ReadonlyArray<{ id: string; corridor: string }>
    cards: ReadonlyArray<{ id: string }>
  }>
  readonly plans: number
  readonly payments: ReadonlyArray<{ id: string; status: string }>
}

export interface SeedSummary extends TenantData {
  readonly tenants: ReadonlyArray<
    TenantData & {
      readonly id: string
      readonly name: string
      readonly token: string
      readonly tokens: ReadonlyArray<string>
    }
  >
}

export const seedOf = Effect.flatMap(server, (s) =>
  Effect.map(call(`${s.urls.control}/seed`), (r) => r.json as SeedSummary)
)

// The sandbox in process (Sandbox.layerInProcess): requests through its HttpClient, on the test's clock.

/** one request to an in-process sandbox as it is (no credentials added) */
export const sendBareIn = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function* () {
    const http = yield* HttpClient.HttpClient
    const response = yield* http.execute(request)
    return { status: response.status, headers: response.headers, json: (yield* response.json) as unknown }
  })

/**
 * one request to an in-process sandbox, as a tenant (the first one unless the request has an Authorization header):
 * the status, the headers and the JSON body
 */
export const sendIn = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function* () {
    const http = yield* HttpClient.HttpClient
    const s = yield* Sandbox.SandboxServer
    const response = yield* http.execute(
      request.headers.authorization === undefined
        ? request.pipe(HttpClientRequest.bearerToken(s.tenants[0]!.token))
        : request
    )
    return { status: response.status, headers: response.headers, json: (yield* response.json) as unknown }
  })

export const urlsIn = Effect.map(Sandbox.SandboxServer, (s) => s.urls)

export const seedIn = Effect.flatMap(urlsIn, (u) =>
  Effect.map(sendIn(HttpClientRequest.get(`${u.control}/seed`)), (r) => r.json as SeedSummary)
)

/** the balances of the first tenant's accounts in an in-process sandbox, as GET /__sandbox/accounts gives them */
export const balancesIn = Effect.flatMap(urlsIn, (u) =>
  Effect.map(
    sendBareIn(HttpClientRequest.get(`${u.control}/accounts`)),
    (r) => r.json as ReadonlyArray<{ readonly id: string; readonly currency: string; readonly balance: string }>
  )
)

/** POST /exchange of any body to an in-process sandbox (0 for a dropped connection) */
export const postExchangeIn = (body: unknown) =>
  Effect.flatMap(urlsIn, (u) =>
    sendIn(HttpClientRequest.post(`${u.business}/exchange`).pipe(HttpClientRequest.bodyJsonUnsafe(body)))
  )

/** the status of an exchange of 1 GBP to EUR with this request_id (0 for a dropped connection) */
export const exchangeIn = (seed: SeedSummary, requestId: string) =>
  postExchangeIn({
    from: { account_id: seed.accounts[0]!.id, currency: "GBP", amount: 1 },
    to: { account_id: seed.accounts[1]!.id, currency: "EUR" },
    request_id: requestId
  }).pipe(
    Effect.map((r) => r.status),
    Effect.orElseSucceed(() => 0)
  )

/**
 * POST /pay/fields to an in-process sandbox with a token (the status only), and the limiter's size from
 * /__sandbox/stats
 */
export const payFieldsIn = Effect.gen(function* () {
  const u = yield* urlsIn
  const seed = (yield* sendBareIn(HttpClientRequest.get(`${u.control}/seed`))).json as SeedSummary
  const card = seed.counterparties.find((c) => c.cards.length > 0 && c.accounts.length === 0)!
  const request = HttpClientRequest.post(`${u.business}/pay/fields`).pipe(
    HttpClientRequest.bodyJsonUnsafe({
      account_id: seed.accounts[0]!.id,
      receiver: { counterparty_id: card.id, card_id: card.cards[0]!.id }
    })
  )
  const fields = (token: string) =>
    Effect.map(sendBareIn(request.pipe(HttpClientRequest.bearerToken(token))), (r) => r.status)
  const stats = Effect.map(
    sendBareIn(HttpClientRequest.get(`${u.control}/stats`)),
    (r) => r.json as { readonly limiter_keys: number; readonly limiter_times: number }
  )
  return { fields, stats }
})

/** the in-process client without its client span per request (which costs more than the sandbox's answer) */
export const untraced = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.provideService(self, HttpClient.TracerDisabledWhen, () => true)
