import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Effect } from "effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { lazily, type SeedSummary, seedIn, sendIn, type TenantData, urlsIn } from "./helpers.js"

// Tenant isolation (issue 15, D12): for each resource type, tenant B cannot read, list, replay or conflict with A's.
// In process: the first tenant is A, the second B.

const options = { seed: 31, plans: 120 } as const
const sandbox = () => Sandbox.layerInProcess(options)
const credentials = lazily(() => Sandbox.tenants(options))
const A = () => credentials()[0]!
const B = () => credentials()[1]!

/** a request as a tenant (its first token unless told) */
const as = (token: string, request: HttpClientRequest.HttpClientRequest) =>
  sendIn(request.pipe(HttpClientRequest.bearerToken(token)))

const exchangeBody = (data: TenantData, requestId: string, amount: number) => ({
  from: { account_id: data.accounts[0]!.id, currency: data.accounts[0]!.currency, amount },
  to: { account_id: data.accounts[1]!.id, currency: data.accounts[1]!.currency },
  request_id: requestId
})

const exchange = (token: string, body: unknown) =>
  Effect.flatMap(urlsIn, (u) =>
    as(token, HttpClientRequest.post(`${u.business}/exchange`).pipe(HttpClientRequest.bodyJsonUnsafe(body)))
  )
const transactions = (token: string, requestId: string) =>
  Effect.flatMap(urlsIn, (u) =>
    as(
      token,
      HttpClientRequest.get(`${u.business}/transactions`).pipe(HttpClientRequest.setUrlParam("request_id", requestId))
    )
  )
const control = (path: string) => Effect.flatMap(urlsIn, (u) => sendIn(HttpClientRequest.get(`${u.control}${path}`)))
const plans = (token: string, query: Record<string, string> = {}) =>
  Effect.flatMap(urlsIn, (u) =>
    as(
      token,
      HttpClientRequest.get(`${u.merchant}/api/subscription-plans`).pipe(
        HttpClientRequest.setUrlParams(query),
        HttpClientRequest.setHeader("revolut-api-version", "2024-09-01")
      )
    )
  )
const payment = (token: string, id: string) =>
  Effect.flatMap(urlsIn, (u) =>
    as(
      token,
      HttpClientRequest.get(`${u.openBanking}/international-payments/${id}`).pipe(
        HttpClientRequest.setHeader("x-fapi-financial-id", "001580000103UAvAAM")
      )
    )
  )
const payFields = (token: string, data: TenantData, counterparty: SeedSummary["counterparties"][number]) =>
  Effect.flatMap(urlsIn, (u) =>
    as(
      token,
      HttpClientRequest.post(`${u.business}/pay/fields`).pipe(
        HttpClientRequest.bodyJsonUnsafe({
          account_id: data.accounts[0]!.id,
          receiver: { counterparty_id: counterparty.id, account_id: counterparty.accounts[0]!.id }
        })
      )
    )
  )

interface Page {
  readonly subscription_plans: ReadonlyArray<{ readonly id: string }>
  readonly next_page_token?: string | null
}

const tenantsOf = Effect.map(seedIn, (seed) => ({ seed, a: seed.tenants[0]!, b: seed.tenants[1]! }))

describe("tenants: the seed", () => {
  it.effect("lists the tenants with their tokens and data; the top level is the first tenant's", () =>
    Effect.gen(function* () {
      const { a, b, seed } = yield* tenantsOf
      const s = yield* Effect.flatMap(urlsIn, () => Sandbox.SandboxServer)
      expect(seed.tenants.map((t) => [t.id, t.name, t.token, t.tokens])).toEqual(
        s.tenants.map((t) => [t.id, t.name, t.token, t.tokens])
      )
      expect(s.tenants).toEqual(Sandbox.tenants(options))
      expect(seed.tenants.length).toBeGreaterThanOrEqual(3)
      expect(a.tokens.length).toBeGreaterThan(1)
      const tokens = seed.tenants.flatMap((t) => t.tokens)
      expect(new Set(tokens).size).toBe(tokens.length)
      expect({ accounts: seed.accounts, counterparties: seed.counterparties, payments: seed.payments }).toEqual({
        accounts: a.accounts,
        counterparties: a.counterparties,
        payments: a.payments
      })
      expect(seed.plans).toBe(120)
      // B's data is its own
      const ids = (t: TenantData) => [...t.accounts.map((x) => x.id), ...t.counterparties.map((x) => x.id)]
      expect(ids(b).filter((id) => ids(a).includes(id))).toEqual([])
      expect(b.payments.filter((p) => a.payments.some((q) => q.id === p.id))).toEqual([])
      // the same seed gives the same tokens; another seed others
      expect(Sandbox.tenants(options)).toEqual(s.tenants)
      expect(Sandbox.tenants({ seed: 32 }).map((t) => t.token)).not.toEqual(s.tenants.map((t) => t.token))
    }).pipe(Effect.provide(sandbox()))
  )
})

describe("tenants: isolation", () => {
  it.effect("transactions: B finds nothing under A's request_id; A's are unchanged", () =>
    Effect.gen(function* () {
      const { a } = yield* tenantsOf
      const created = yield* exchange(A().token, exchangeBody(a, "iso-tx-1", 10))
      expect(created.status).toBe(200)
      expect((yield* transactions(A().token, "iso-tx-1")).json).toEqual([created.json])
      // with A's other token: the same tenant
      expect((yield* transactions(A().tokens[1]!, "iso-tx-1")).json).toEqual([created.json])
      const other = yield* transactions(B().token, "iso-tx-1")
      expect([other.status, other.json]).toEqual([200, []])
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("request_id: B reusing A's neither replays A's answer nor conflicts; A still replays its own", () =>
    Effect.gen(function* () {
      const { a, b } = yield* tenantsOf
      const first = yield* exchange(A().token, exchangeBody(a, "iso-rid-1", 10))
      expect(first.status).toBe(200)
      // the identical body (A's accounts) from B: not a replay of A's answer, and A's accounts do not exist for B
      const same = yield* exchange(B().token, exchangeBody(a, "iso-rid-1", 10))
      expect(same.headers["idempotent-replayed"]).toBeUndefined()
      expect([same.status, same.json]).toMatchObject([
        400,
        { code: 3000, message: expect.stringContaining("is not an account of this business") }
      ])
      // another body under the same request_id from B: its own fresh exchange, not a 3021 conflict
      const own = yield* exchange(B().token, exchangeBody(b, "iso-rid-1", 25))
      expect(own.status).toBe(200)
      expect(own.headers["idempotent-replayed"]).toBeUndefined()
      expect((own.json as { id: string }).id).not.toBe((first.json as { id: string }).id)
      // each tenant replays its own answer
      const againA = yield* exchange(A().tokens[1]!, exchangeBody(a, "iso-rid-1", 10))
      expect([againA.status, againA.headers["idempotent-replayed"], againA.json]).toEqual([200, "true", first.json])
      const againB = yield* exchange(B().token, exchangeBody(b, "iso-rid-1", 25))
      expect([againB.status, againB.headers["idempotent-replayed"], againB.json]).toEqual([200, "true", own.json])
      // and conflicts only with its own
      const conflictB = yield* exchange(B().token, exchangeBody(b, "iso-rid-1", 26))
      expect([conflictB.status, conflictB.json]).toMatchObject([400, { code: 3021 }])
      // the ledgers are apart: one transaction each
      const ledgerA = (yield* control("/ledger")).json as ReadonlyArray<{ request_id: string; transactions: number }>
      const ledgerB = (yield* control(`/ledger?tenant=${B().id}`)).json as ReadonlyArray<{
        request_id: string
        received: number
        conflicts: number
        transactions: number
      }>
      expect(ledgerA.find((e) => e.request_id === "iso-rid-1")).toMatchObject({ received: 2, transactions: 1 })
      expect(ledgerB.find((e) => e.request_id === "iso-rid-1")).toMatchObject({
        received: 3,
        conflicts: 1,
        transactions: 1
      })
      expect((yield* control("/ledger?tenant=nobody")).status).toBe(404)
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("accounts and counterparties: A's do not exist for B (exchange 400, pay/fields 404, balances apart)", () =>
    Effect.gen(function* () {
      const { a, b } = yield* tenantsOf
      const balancesA = (yield* control("/accounts")).json
      const balancesB = (yield* control(`/accounts?tenant=${B().id}`)).json as ReadonlyArray<{ id: string }>
      expect(balancesB.map((x) => x.id)).toEqual(b.accounts.map((x) => x.id))
      // B's exchange between its own accounts moves only B's balances
      expect((yield* exchange(B().token, exchangeBody(b, "iso-acc-1", 10))).status).toBe(200)
      expect((yield* control("/accounts")).json).toEqual(balancesA)
      expect((yield* control(`/accounts?tenant=${B().id}`)).json).not.toEqual(balancesB)
      // a B body with one of A's accounts
      const mixed = { ...exchangeBody(b, "iso-acc-2", 10), to: exchangeBody(a, "x", 1).to }
      const refused = yield* exchange(B().token, mixed)
      expect([refused.status, refused.json]).toMatchObject([400, { code: 3000 }])
      // /pay/fields: A's counterparty (and A's account) are unknown to B, known to A
      const fps = (t: TenantData) => t.counterparties.find((c) => c.name === "Acme Supplies Ltd")!
      expect((yield* payFields(A().token, a, fps(a))).status).toBe(200)
      const foreign = yield* payFields(B().token, a, fps(a))
      expect([foreign.status, foreign.json]).toMatchObject([404, { code: 3404 }])
      const foreignCounterparty = yield* payFields(B().token, b, fps(a))
      expect([foreignCounterparty.status, foreignCounterparty.json]).toMatchObject([404, { code: 3404 }])
      expect((yield* payFields(B().token, b, fps(b))).status).toBe(200)
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("plans: each tenant lists its own; A's page tokens are refused for B (400)", () =>
    Effect.gen(function* () {
      const { a, b } = yield* tenantsOf
      const pageA = (yield* plans(A().token, { limit: "50" })).json as unknown as Page
      const pageB = (yield* plans(B().token, { limit: "50" })).json as unknown as Page
      expect(pageA.subscription_plans.length).toBe(50)
      const idsA = new Set(pageA.subscription_plans.map((p) => p.id))
      expect(pageB.subscription_plans.filter((p) => idsA.has(p.id))).toEqual([])
      // B's whole list
      const allB: Array<string> = []
      let token: string | undefined
      do {
        const r = yield* plans(B().token, { limit: "25", ...(token === undefined ? {} : { page_token: token }) })
        expect(r.status).toBe(200)
        const page = r.json as Page
        allB.push(...page.subscription_plans.map((p) => p.id))
        token = page.next_page_token ?? undefined
      } while (token !== undefined)
      expect(allB.length).toBe(b.plans)
      expect(allB.filter((id) => idsA.has(id))).toEqual([])
      expect(a.plans).toBe(120)
      // A's token: good for A (with either of its tokens), refused for B in the merchant error shape
      const next = pageA.next_page_token!
      expect((yield* plans(A().tokens[1]!, { limit: "50", page_token: next })).status).toBe(200)
      const stolen = yield* plans(B().token, { limit: "50", page_token: next })
      expect([stolen.status, stolen.json]).toMatchObject([
        400,
        { code: "bad_request", message: expect.stringContaining("page_token"), timestamp: expect.any(Number) }
      ])
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("Open Banking payments: A's ids are unknown to B (400 Resource.NotFound), B reads its own", () =>
    Effect.gen(function* () {
      const { a, b } = yield* tenantsOf
      for (const p of a.payments) {
        expect((yield* payment(A().token, p.id)).status).toBe(200)
        const other = yield* payment(B().token, p.id)
        expect(other.status).toBe(400)
        expect(other.json).toMatchObject({ Errors: [{ ErrorCode: "UK.OBIE.Resource.NotFound" }] })
      }
      for (const p of b.payments) expect((yield* payment(B().token, p.id)).status).toBe(200)
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("/pay/fields limit: A's full window does not limit B", () =>
    Effect.gen(function* () {
      const { a, b } = yield* tenantsOf
      const fps = (t: TenantData) => t.counterparties.find((c) => c.name === "Acme Supplies Ltd")!
      const statuses: Array<number> = []
      for (let i = 0; i < 4; i++) statuses.push((yield* payFields(A().tokens[i % 2]!, a, fps(a))).status)
      expect(statuses).toEqual([200, 200, 200, 429])
      expect((yield* payFields(B().token, b, fps(b))).status).toBe(200)
    }).pipe(Effect.provide(Sandbox.layerInProcess({ ...options, payFieldsLimit: { limit: 3, windowMs: 60_000 } })))
  )
})

describe("page tokens: opaque and authenticated", () => {
  const tamper = (token: string) => {
    const [payload, mac] = token.split(".")
    const decoded = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as { o: number }
    const forged = Buffer.from(JSON.stringify({ ...decoded, o: 7 })).toString("base64url")
    return {
      forged: `${forged}.${mac}`,
      unsigned: Buffer.from(JSON.stringify({ o: 7, f: null, t: null })).toString("base64url")
    }
  }

  it.effect("a forged, altered, unsigned or garbage token is a 400 in the merchant shape", () =>
    Effect.gen(function* () {
      const first = (yield* plans(A().token, { limit: "10" })).json as unknown as Page
      const { forged, unsigned } = tamper(first.next_page_token!)
      // the first character of the signature carries six of its bits (the last one carries only four: changing it can
      // leave the signature as it was)
      const [payload, mac] = first.next_page_token!.split(".") as [string, string]
      const flipped = `${payload}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`
      for (const token of [forged, unsigned, flipped, "not-a-token", `${"x".repeat(300)}.y`, "."]) {
        const r = yield* plans(A().token, { limit: "10", page_token: token })
        expect([token, r.status, r.json]).toMatchObject([
          token,
          400,
          { code: "bad_request", message: "page_token is not a token this API issued to this caller" }
        ])
      }
      expect((yield* plans(A().token, { limit: "10", page_token: first.next_page_token! })).status).toBe(200)
    }).pipe(Effect.provide(sandbox()))
  )

  it.effect("stale: a token of another sandbox (another key) is refused by this one", () =>
    Effect.gen(function* () {
      const fromOther = yield* Effect.map(
        plans(A().token, { limit: "10" }),
        (r) => (r.json as Page).next_page_token!
      ).pipe(Effect.provide(sandbox()))
      const here = yield* plans(A().token, { limit: "10", page_token: fromOther })
      expect([here.status, here.json]).toMatchObject([400, { code: "bad_request" }])
    }).pipe(Effect.provide(sandbox()))
  )
})
