/**
 * The floor under the sandbox's numbers: the same constant JSON answer served by node:http, by effect's
 * `HttpServer.serve` (one response effect, no router), by an `HttpRouter` with one route, and by a one-endpoint
 * `HttpApi` (no middleware; the answer encoded by the endpoint's success Schema), each in its own process, with no
 * request logger and no server spans (as the sandbox serves). The first argument is
 * `{ "kind": "node" | "effect-server" | "effect-router" | "effect-httpapi" }`.
 */
import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, Schema } from "effect"
import { constTrue } from "effect/Function"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"

export type Kind = "node" | "effect-server" | "effect-router" | "effect-httpapi"

const { kind } = JSON.parse(process.argv[2] ?? "{}") as { kind: Kind }
const reasons = Array.from({ length: Number(process.env.FLOOR_ITEMS ?? 1) }, (_, i) => ({
  code: `supplier_payment_${i}`,
  name: "Paying a supplier"
}))
const body = new TextEncoder().encode(JSON.stringify(reasons))
const answer = () =>
  HttpServerResponse.uint8Array(body, {
    contentType: "application/json",
    headers: { "content-length": String(body.length) }
  })

class Floor extends HttpApi.make("floor").add(
  HttpApiGroup.make("floor").add(
    HttpApiEndpoint.get("reasons", "/reasons", {
      success: Schema.Array(Schema.Struct({ code: Schema.String, name: Schema.String }))
    })
  )
) {}

/** the server as effect runs it, for each kind but node */
const app = (kind: Exclude<Kind, "node">) => {
  switch (kind) {
    case "effect-server":
      return HttpServer.serve(Effect.sync(answer))
    case "effect-router":
      return HttpRouter.serve(HttpRouter.add("GET", "/reasons", Effect.sync(answer)), {
        disableLogger: true,
        disableListenLog: true
      })
    case "effect-httpapi":
      return HttpRouter.serve(
        HttpApiBuilder.layer(Floor).pipe(
          Layer.provide(HttpApiBuilder.group(Floor, "floor", (h) => h.handle("reasons", () => Effect.succeed(reasons))))
        ),
        { disableLogger: true, disableListenLog: true }
      )
  }
}

const server = createServer()
const listening = new Promise<void>((resolve) => server.once("listening", () => resolve()))
if (kind === "node") {
  server.on("request", (_, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": body.length })
    response.end(body)
  })
  server.listen(0, "127.0.0.1")
} else {
  Effect.runFork(
    Layer.launch(
      app(kind).pipe(
        Layer.provide(Layer.succeed(HttpMiddleware.TracerDisabledWhen, constTrue)),
        Layer.provide(NodeHttpServer.layer(() => server, { port: 0, host: "127.0.0.1" }))
      )
    )
  )
}
await listening
process.on("message", (message) => {
  if (message === "stop") process.exit(0)
})
process.send?.({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })
