/**
 * The baseline of the load benchmark: a plain `node:http` server doing the same JSON work as the sandbox for the five
 * operations measured (parse the URL and the body, check the token is there, look the data up, `JSON.stringify` the
 * answer), over the same data, which the benchmark reads from the sandbox and hands over in the first argument (a
 * JSON file). `GET /__stats` reports its memory.
 */
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import * as http from "node:http"

interface Data {
  readonly plans: ReadonlyArray<unknown>
  readonly payments: Readonly<Record<string, unknown>>
  readonly reasons: ReadonlyArray<unknown>
  /** the fields of each counterparty account or card, by its id */
  readonly fields: Readonly<Record<string, unknown>>
}

const data = JSON.parse(readFileSync(JSON.parse(process.argv[2] ?? "{}").data as string, "utf8")) as Data
const payments = new Map(Object.entries(data.payments))
const fields = new Map(Object.entries(data.fields))
const exchanges = new Map<string, unknown>()

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
  if (!request.headers.authorization?.startsWith("Bearer ")) return send(response, 401, { code: 9001 })
  if (request.method === "GET" && url.pathname === "/merchant/api/subscription-plans") {
    const limit = Number(url.searchParams.get("limit") ?? "100")
    const token = url.searchParams.get("page_token")
    const offset =
      token === null ? 0 : (JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { o: number }).o
    const page = data.plans.slice(offset, offset + limit)
    const next = offset + page.length
    return send(response, 200, {
      subscription_plans: page,
      ...(next < data.plans.length
        ? { next_page_token: Buffer.from(JSON.stringify({ o: next })).toString("base64url") }
        : {})
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
