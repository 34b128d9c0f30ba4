import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Sandbox } from "@payrules/sandbox"
import { type Duration, Effect, Fiber, Option, TestClock } from "effect"

export const auth = { authorization: "Bearer sandbox-test-token" }

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

export const postJson = (url: string, body: unknown, headers: Record<string, string> = auth) =>
  call(url, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

export const server = Effect.map(Sandbox.SandboxServer, (s) => s)

export interface SeedSummary {
  readonly accounts: ReadonlyArray<{ id: string; currency: string; institution: string }>
  readonly counterparties: ReadonlyArray<{
    id: string
    name: string
    accounts: ReadonlyArray<{ id: string; corridor: string }>
    cards: ReadonlyArray<{ id: string }>
  }>
}

export const seedOf = Effect.flatMap(server, (s) =>
  Effect.map(call(`${s.urls.control}/seed`), (r) => r.json as SeedSummary)
)

/**
 * Runs `self` while moving the `TestClock` forward by `step` until it is done: for work that sleeps at many points
 * (timeouts, delays). The step is small against every timeout, so an answer that needs no waiting never loses its
 * race against one.
 */
export const driveClock = <A, E, R>(self: Effect.Effect<A, E, R>, step: Duration.DurationInput) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(self)
    while (Option.isNone(yield* Fiber.poll(fiber))) yield* TestClock.adjust(step)
    return yield* Fiber.join(fiber)
  })

// The sandbox in process (Sandbox.layerInProcess): requests through its HttpClient, on the test's clock.

/** one request to an in-process sandbox, with a token: the status, the headers and the JSON body */
export const sendIn = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function* () {
    const http = yield* HttpClient.HttpClient
    const response = yield* http.execute(request.pipe(HttpClientRequest.bearerToken("in-process-token")))
    return { status: response.status, headers: response.headers, json: yield* response.json }
  })

export const urlsIn = Effect.map(Sandbox.SandboxServer, (s) => s.urls)

export const seedIn = Effect.flatMap(urlsIn, (u) =>
  Effect.map(sendIn(HttpClientRequest.get(`${u.control}/seed`)), (r) => r.json as SeedSummary)
)

/** POST /exchange of any body to an in-process sandbox (0 for a dropped connection) */
export const postExchangeIn = (body: unknown) =>
  Effect.flatMap(urlsIn, (u) =>
    sendIn(HttpClientRequest.post(`${u.business}/exchange`).pipe(HttpClientRequest.bodyUnsafeJson(body)))
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
