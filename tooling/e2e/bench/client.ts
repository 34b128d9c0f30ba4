/**
 * `pnpm bench` for the transport: requests per second through BusinessClient.transferFieldRequirements against plain
 * fetch to the same sandbox, in the same process. The sandbox's per-token limit and the client's limiter are raised
 * far above what the machine can send, so what is measured is the client's own cost (limiter included).
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { run } from "@payrules/bench"
import { RequestLedger } from "@payrules/exchange"
import { Sandbox } from "@payrules/sandbox"
import { BusinessClient } from "@payrules/transport"
import { Duration, Layer, ManagedRuntime, Redacted } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import type * as HttpClient from "effect/http/HttpClient"

const sandbox = await Sandbox.start({ seed: 91, plans: 15, payFieldsLimit: { limit: 1e9, windowMs: 60_000 } })
const seed = (await fetch(`${sandbox.urls.control}/seed`).then((r) => r.json())) as {
  accounts: ReadonlyArray<{ id: string }>
  counterparties: ReadonlyArray<{ id: string; accounts: ReadonlyArray<{ id: string; corridor: string }> }>
}
const swift = seed.counterparties.find((c) => c.accounts[0]?.corridor === "US-USD-SWIFT")!
const request = {
  account_id: seed.accounts[0]!.id,
  receiver: { counterparty_id: swift.id, account_id: swift.accounts[0]!.id }
}
const body = JSON.stringify(request)
const token = sandbox.tenants[0]!.token

const clientOver = (http: Layer.Layer<HttpClient.HttpClient>) => {
  const runtime = ManagedRuntime.make(
    BusinessClient.layer({
      ...BusinessClient.defaults,
      baseUrl: sandbox.urls.business,
      token: Redacted.make(token),
      payFieldsLimit: { limit: 1e9, window: Duration.minutes(1) }
    }).pipe(Layer.provide([http, RequestLedger.layer]))
  )
  return { runtime, client: runtime.runPromise(BusinessClient.BusinessClient) }
}
const overUndici = clientOver(NodeHttpClient.layerUndici)
const overFetch = clientOver(FetchHttpClient.layer)
const undiciClient = await overUndici.client
const fetchClient = await overFetch.client
const viaFetch = async () => {
  const r = await fetch(`${sandbox.urls.business}/pay/fields`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
    body
  })
  return r.json()
}

await run("BusinessClient.transferFieldRequirements against plain fetch, same sandbox, same process", [
  {
    name: "POST /pay/fields",
    contenders: [
      {
        name: "BusinessClient over NodeHttpClient (undici)",
        ours: true,
        fn: () => overUndici.runtime.runPromise(undiciClient.transferFieldRequirements(request))
      },
      { name: "plain fetch + JSON.parse", fn: viaFetch },
      {
        name: "BusinessClient over FetchHttpClient",
        fn: () => overFetch.runtime.runPromise(fetchClient.transferFieldRequirements(request))
      }
    ]
  }
])

await overUndici.runtime.dispose()
await overFetch.runtime.dispose()
await sandbox.stop()
