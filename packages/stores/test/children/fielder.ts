/**
 * A child process of the shared-limit test: a business client whose /pay/fields calls take their permits from the
 * Redis limiter (`RedisPayFieldsLimiter`), as every replica of a service would. Bundled once by the test setup
 * (esbuild), like the exchanger.
 *
 * It reads one JSON object from argv[2] and writes one line to stdout: `{"done": {"ok": n, "failed": [...]}}`, the
 * messages of the calls that failed.
 */
import { RequestLedger } from "@payrules/exchange"
import * as RedisPayFieldsLimiter from "@payrules/stores/RedisPayFieldsLimiter"
import { BusinessClient } from "@payrules/transport"
import { Duration, Effect, Layer, Redacted, Result } from "effect"
import { keptAliveHttp, main, say, task as taskOf } from "./shared/child.js"

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
  readonly request: Parameters<BusinessClient.BusinessClientService["transferFieldRequirements"]>[0]
  readonly calls: number
  /** calls made at once */
  readonly concurrency: number
}

const task = taskOf<Task>()

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
      keptAliveHttp,
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
    () => Effect.result(business.transferFieldRequirements(task.request)),
    { concurrency: task.concurrency }
  )
  say({
    done: {
      ok: results.filter(Result.isSuccess).length,
      failed: results.flatMap((r) => (Result.isFailure(r) ? [r.failure.message] : []))
    }
  })
})

main(program.pipe(Effect.provide(client)))
