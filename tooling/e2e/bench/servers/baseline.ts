/**
 * The baseline of the load benchmark: a plain `node:http` server doing the same checks and JSON work as the sandbox
 * for the five operations measured (issue 31): it parses the URL and the body (`JSON.parse`), looks the Bearer token
 * up among the tenants' tokens, signs the page tokens it hands out and checks the ones it gets with HMAC-SHA256, looks
 * the data up and `JSON.stringify`s the answer; over the same data, which the benchmark reads from the sandbox and
 * hands over in the first argument (a JSON file). `GET /__stats` reports its memory. What it does not do, and the
 * sandbox does: validate the query, headers and bodies with the APIs' Schemas, answer the family's error bodies, rate
 * limits, fault injection, idempotency with body fingerprints, the request log.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto"
import { readFileSync } from "node:fs"
import * as http from "node:http"

interface Data {
  readonly plans: ReadonlyArray<unknown>
  readonly payments: Readonly<Record<string, unknown>>
  readonly reasons: ReadonlyArray<unknown>
  /** the fields of each counterparty account or card, by its id */
  readonly fields: Readonly<Record<string, unknown>>
  /** [token, tenant] of every Bearer token */
  readonly tokens: ReadonlyArray<readonly [string, string]>
}

const data = JSON.parse(readFileSync(JSON.parse(process.argv[2] ?? "{}").data as string, "utf8")) as Data
const payments = new Map(Object.entries(data.payments))
const fields = new Map(Object.entries(data.fields))
const tenants = new Map(data.tokens)
const exchanges = new Map<string, unknown>()
const key = Buffer.concat([randomBytes(32), Buffer.alloc(32)]) // a 32-byte key in its 64-byte block

// HMAC-SHA256 of `tenant NUL payload`, with the hash states after the key pads made once per tenant, as the sandbox
// computes it (a `createHmac` per request imports the key every time and would make this baseline slower than it needs
// to be): the comparison is of the servers, not of two ways of computing an HMAC
const macs = new Map<string, (payload: string) => Buffer>()
const macOf = (tenant: string) => {
  let mac = macs.get(tenant)
  if (mac === undefined) {
    const pad = (byte: number) => Buffer.from(key.map((b) => b ^ byte))
    const inner = createHash("sha256").update(pad(0x36)).update(`${tenant}\u0000`)
    const outer = createHash("sha256").update(pad(0x5c))
    mac = (payload) => outer.copy().update(inner.copy().update(payload).digest()).digest()
    macs.set(tenant, mac)
  }
  return mac
}
const mac = (tenant: string, payload: string) => macOf(tenant)(payload)
const writeToken = (tenant: string, offset: number) => {
  const payload = Buffer.from(JSON.stringify({ o: offset })).toString("base64url")
  return `${payload}.${mac(tenant, payload).toString("base64url")}`
}
const readToken = (tenant: string, token: string): number | undefined => {
  const dot = token.indexOf(".")
  if (dot === -1) return undefined
  const payload = token.slice(0, dot)
  const given = Buffer.from(token.slice(dot + 1), "base64url")
  const expected = mac(tenant, payload)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  const { o } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { o: number }
  return o
}

const send = (response: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

const readJson = (request: http.IncomingMessage): Promise<unknown> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    request.on("data", (c: Buffer) => chunks.push(c))
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      } catch {
        resolve(undefined)
      }
    })
  })

const server = http.createServer(async (request, response) => {
  const url = new URL(request.url ?? "/", "http://baseline")
  if (url.pathname === "/__stats") return send(response, 200, { rss: process.memoryUsage().rss })
  const authorization = request.headers.authorization
  const tenant = authorization?.startsWith("Bearer ") ? tenants.get(authorization.slice(7)) : undefined
  if (tenant === undefined) return send(response, 401, { code: 9001 })
  if (request.method === "GET" && url.pathname === "/merchant/api/subscription-plans") {
    const limit = Number(url.searchParams.get("limit") ?? "100")
    const token = url.searchParams.get("page_token")
    const offset = token === null ? 0 : readToken(tenant, token)
    if (offset === undefined) return send(response, 400, { code: "400", timestamp: Date.now() })
    const page = data.plans.slice(offset, offset + limit)
    const next = offset + page.length
    return send(response, 200, {
      subscription_plans: page,
      ...(next < data.plans.length ? { next_page_token: writeToken(tenant, next) } : {})
    })
  }
  if (request.method === "GET" && url.pathname.startsWith("/open-banking/international-payments/")) {
    const payment = payments.get(decodeURIComponent(url.pathname.slice(37)))
    return payment === undefined ? send(response, 400, { Code: "400 Bad Request" }) : send(response, 200, payment)
  }
  if (request.method === "GET" && url.pathname === "/business/exchange-reasons")
    return send(response, 200, data.reasons)
  if (request.method === "POST" && url.pathname === "/business/pay/fields") {
    const body = (await readJson(request)) as { receiver?: { account_id?: string; card_id?: string } } | undefined
    const found = fields.get(body?.receiver?.account_id ?? body?.receiver?.card_id ?? "")
    return found === undefined ? send(response, 404, { code: 3404 }) : send(response, 200, { fields: found })
  }
  if (request.method === "POST" && url.pathname === "/business/exchange") {
    const body = (await readJson(request)) as { request_id?: string } | undefined
    const id = body?.request_id
    if (typeof id !== "string") return send(response, 400, { code: 3000 })
    const known = exchanges.get(id)
    if (known !== undefined) return send(response, 200, known)
    const now = new Date().toISOString()
    const tx = { id: randomUUID(), type: "exchange", state: "completed", created_at: now, completed_at: now }
    exchanges.set(id, tx)
    return send(response, 200, tx)
  }
  return send(response, 404, { code: 3404 })
})

server.listen(0, "127.0.0.1", () => {
  const address = server.address() as { port: number }
  process.on("message", (message) => {
    if (message === "stop") {
      server.closeAllConnections()
      server.close(() => process.exit(0))
    }
  })
  process.send?.({ url: `http://127.0.0.1:${address.port}` })
})
