/**
 * A child process of the shared-limit test: a business client whose /pay/fields calls take their permits from the
 * Redis limiter (`RedisPayFieldsLimiter`), as every replica of a service would. Bundled once by the test setup
 * (esbuild), like the exchanger.
 *
 * It reads one JSON object from argv[2] and writes one line to stdout: `{"done": {"ok": n, "failed": [...]}}`, the
 * messages of the calls that failed.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { RequestLedger } from "@payrules/exchange"
import { RedisPayFieldsLimiter } from "@payrules/stores"
import { BusinessClient } from "@payrules/transport"
import { type Context, Duration, Effect, Either, Layer, Redacted } from "effect"

export interface Task {
  readonly baseUrl: string
  readonly token: string
  readonly redisUrl: string
  /** the key the replicas share */
  readonly key: string
  readonly limit: number
  readonly windowMs: number
  readonly marginMs: number
  /** the body of every call */
  readonly request: Parameters<
    Context.Tag.Service<typeof BusinessClient.BusinessClient>["transferFieldRequirements"]
  >[0]
  readonly calls: number
  /** calls made at once */
  readonly concurrency: number
}

const task = JSON.parse(process.argv[2] ?? "{}") as Task

/** node:http with connections kept alive (a new Agent does not keep them by default: one TCP connection per call) */
const http1 = NodeHttpClient.layerWithoutAgent.pipe(Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: true })))

const client = BusinessClient.layer({
  ...BusinessClient.defaults,
  baseUrl: task.baseUrl,
  token: Redacted.make(task.token),
  timeout: Duration.seconds(10),
  // one attempt: a 429 would be retried, and the server's log must show every one
  retry: { maxAttempts: 1, baseDelay: 5, maxDelay: 5, minSpacing: 0 }
}).pipe(
  Layer.provide(
    Layer.mergeAll(
      RequestLedger.layer,
      http1,
      RedisPayFieldsLimiter.layer({
        url: task.redisUrl,
        key: task.key,
        limit: { limit: task.limit, window: Duration.millis(task.windowMs) },
        margin: Duration.millis(task.marginMs)
      })
    )
  )
)

const program = Effect.gen(function* () {
  const business = yield* BusinessClient.BusinessClient
  const results = yield* Effect.forEach(
    Array.from({ length: task.calls }),
    () => Effect.either(business.transferFieldRequirements(task.request)),
    { concurrency: task.concurrency }
  )
  process.stdout.write(
    `${JSON.stringify({
      done: {
        ok: results.filter(Either.isRight).length,
        failed: results.flatMap((r) => (Either.isLeft(r) ? [r.left.message] : []))
      }
    })}\n`
  )
})

Effect.runPromise(program.pipe(Effect.provide(client))).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${String(error)}\n`)
    process.exit(1)
  }
)
