/**
 * The two servers the load and cost benchmarks compare: the sandbox (./servers/sandbox.ts) and a plain node:http
 * server (./servers/baseline.ts) serving the same data, which is read from the sandbox (its plans, a payment, the
 * exchange reasons, the /pay/fields answer of a SWIFT corridor, the tenants' tokens), each in its own process; and the
 * operations both serve, as autocannon sends them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Sandbox } from "@payrules/sandbox"
import { type Child, spawn } from "./servers/spawn.js"

export const sandboxOptions = (plans: number) => ({
  seed: 95,
  plans,
  payFieldsLimit: { limit: 1e9, windowMs: 60_000 }
})
/** the first seeded tenant's token (derived from the seed, whatever the number of plans) */
export const token = `Bearer ${Sandbox.tenants(sandboxOptions(0))[0]!.token}`

/** one operation: a request autocannon repeats (`[<id>]` in a body is a fresh id per request) */
export interface Case {
  /** its name in `BENCH_COST` */
  readonly key: "plans" | "payment" | "reasons" | "fields" | "exchange"
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
}

/** a request of a case, without its names */
export type Request = Omit<Case, "key" | "name">

/** what autocannon sends for a request of `c` to the server at `url` */
export const requestOf = (url: string, c: Request) => ({
  url: `${url}${c.path}`,
  method: c.method,
  headers: { ...c.headers, ...(c.body === undefined ? {} : { "content-type": "application/json" }) },
  ...(c.body === undefined ? {} : { body: c.body, idReplacement: true })
})

export interface Pair {
  readonly sandbox: Child
  readonly baseline: Child
  readonly cases: ReadonlyArray<Case>
  readonly stop: () => Promise<void>
}

export const json = async <A>(url: string, init?: RequestInit): Promise<A> => {
  const r = await fetch(url, init)
  if (!r.ok) throw new Error(`${init?.method ?? "GET"} ${url}: ${r.status} ${await r.text()}`)
  return (await r.json()) as A
}

/** starts both servers (the sandbox with 1,200 plans) */
export const startPair = async (): Promise<Pair> => {
  const sandbox = await spawn("sandbox", sandboxOptions(1_200))
  const dir = mkdtempSync(join(tmpdir(), "payrules-load-"))
  const stopSandbox = async () => {
    await sandbox.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    // the data both servers serve, read from the sandbox
    const seed = await json<{
      accounts: ReadonlyArray<{ id: string }>
      counterparties: ReadonlyArray<{ id: string; accounts: ReadonlyArray<{ id: string; corridor: string }> }>
      payments: ReadonlyArray<{ id: string }>
    }>(`${sandbox.url}/__sandbox/seed`)
    const merchant = { authorization: token, "revolut-api-version": "2024-09-01" }
    const openBanking = { authorization: token, "x-fapi-financial-id": "001580000103UAvAAM" }
    const business = { authorization: token }
    const plans: Array<unknown> = []
    for (let next: string | undefined = ""; next !== undefined; ) {
      const page: { subscription_plans: ReadonlyArray<unknown>; next_page_token?: string } = await json(
        `${sandbox.url}/merchant/api/subscription-plans?limit=500${next === "" ? "" : `&page_token=${next}`}`,
        { headers: merchant }
      )
      plans.push(...page.subscription_plans)
      next = page.next_page_token
    }
    const paymentId = seed.payments[0]!.id
    const payments = {
      [paymentId]: await json(`${sandbox.url}/open-banking/international-payments/${paymentId}`, {
        headers: openBanking
      })
    }
    const reasons = await json(`${sandbox.url}/business/exchange-reasons`, { headers: business })
    const swift = seed.counterparties.find((c) => c.accounts[0]?.corridor === "US-USD-SWIFT")!
    const fieldsBody = JSON.stringify({
      account_id: seed.accounts[0]!.id,
      receiver: { counterparty_id: swift.id, account_id: swift.accounts[0]!.id }
    })
    const answer = await json<{ fields: unknown }>(`${sandbox.url}/business/pay/fields`, {
      method: "POST",
      headers: { ...business, "content-type": "application/json" },
      body: fieldsBody
    })
    const data = join(dir, "data.json")
    writeFileSync(
      data,
      JSON.stringify({
        plans,
        payments,
        reasons,
        fields: { [swift.accounts[0]!.id]: answer.fields },
        // the Bearer tokens of every tenant, as the sandbox knows them: the baseline looks each request's up
        tokens: Sandbox.tenants(sandboxOptions(0)).flatMap((t) => t.tokens.map((token) => [token, t.id]))
      })
    )
    const baseline = await spawn("baseline", { data })

    const cases: ReadonlyArray<Case> = [
      {
        key: "plans",
        name: "GET plans (limit 10)",
        method: "GET",
        path: "/merchant/api/subscription-plans?limit=10",
        headers: merchant
      },
      {
        key: "payment",
        name: "GET payment",
        method: "GET",
        path: `/open-banking/international-payments/${paymentId}`,
        headers: openBanking
      },
      {
        key: "reasons",
        name: "GET exchange-reasons",
        method: "GET",
        path: "/business/exchange-reasons",
        headers: business
      },
      {
        key: "fields",
        name: "POST /pay/fields",
        method: "POST",
        path: "/business/pay/fields",
        headers: business,
        body: fieldsBody
      },
      {
        key: "exchange",
        name: "POST exchange",
        method: "POST",
        path: "/business/exchange",
        headers: business,
        body: JSON.stringify({
          from: { account_id: seed.accounts[0]!.id, currency: "GBP", amount: 0.01 },
          to: { account_id: seed.accounts[1]!.id, currency: "EUR" },
          request_id: "[<id>]"
        })
      }
    ]
    return {
      sandbox,
      baseline,
      cases,
      stop: async () => {
        await baseline.stop()
        await stopSandbox()
      }
    }
  } catch (e) {
    await stopSandbox()
    throw e
  }
}
