/**
 * The floor under the sandbox's numbers: the same constant JSON answer served by node:http, by effect's
 * `HttpServer.serve` and by a one-endpoint `HttpApi` (no middleware, no decoding), each in its own process. The first
 * argument is `{ "kind": "node" | "effect-server" | "effect-httpapi" }`.
 */
import { createServer } from "node:http"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, Schema } from "effect"

const { kind } = JSON.parse(process.argv[2] ?? "{}") as { kind: "node" | "effect-server" | "effect-httpapi" }
const body = new TextEncoder().encode(JSON.stringify([{ code: "supplier_payment", name: "Paying a supplier" }]))
const answer = () =>
  HttpServerResponse.uint8Array(body, {
    contentType: "application/json",
    headers: { "content-length": String(body.length) }
  })

class Floor extends HttpApi.make("floor").add(
  HttpApiGroup.make("floor").add(
    HttpApiEndpoint.get("reasons", "/reasons").addSuccess(
      Schema.Array(Schema.Struct({ code: Schema.String, name: Schema.String }))
    )
  )
) {}

const server = createServer()
const listening = new Promise<void>((resolve) => server.once("listening", () => resolve()))
if (kind === "node") {
  server.on("request", (_, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": body.length })
    response.end(body)
  })
  server.listen(0, "127.0.0.1")
} else {
  const app =
    kind === "effect-server"
      ? HttpServer.serve(Effect.succeed(answer()))
      : HttpApiBuilder.serve().pipe(
          Layer.provide(
            HttpApiBuilder.api(Floor).pipe(
              Layer.provide(
                HttpApiBuilder.group(Floor, "floor", (h) => h.handle("reasons", () => Effect.succeed(answer())))
              )
            )
          )
        )
  Effect.runFork(
    Layer.launch(
      app.pipe(
        HttpMiddleware.withTracerDisabledWhen(() => true),
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
