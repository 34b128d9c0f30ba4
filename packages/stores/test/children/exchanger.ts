/**
 * A child process of the crash and replica tests: a business client over a durable ledger that first settles what
 * the ledger holds pending (`resumePending`), then sends exchanges. Bundled once by the test setup (esbuild), so a
 * child starts in a fraction of the time `tsx` would take.
 *
 * It reads one JSON object from argv[2] and writes one JSON object per line to stdout:
 *
 * - `{"resumed": {...}}` the summary of `resumePending`;
 * - `{"at": point}` it reached `stopAt` (the parent kills it then: the child waits for ever);
 * - `{"done": [...]}` what became of each exchange, when it was not stopped.
 *
 * The stop points of an exchange, in order: `before-send` (registered in the ledger, nothing sent), `after-send`
 * (the server executed it; its answer is held back from the client), `after-answer` (the client has the answer; the
 * ledger has not recorded it), `after-ledger-write` (the ledger recorded it).
 */

import { RequestLedger } from "@payrules/exchange"
import * as LedgerUrl from "@payrules/stores/LedgerUrl"
import { BusinessClient } from "@payrules/transport"
import { BigDecimal, Duration, Effect, Layer, Redacted, Result } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import { keptAliveHttp, main, say, task as taskOf } from "./shared/child.js"

export type Point = "before-send" | "after-send" | "after-answer" | "after-ledger-write"

export interface Task {
  /** `sqlite:<file>` or `postgres://...` */
  readonly ledger: string
  readonly baseUrl: string
  /** the Bearer token of the sandbox's tenant the exchanges are made as */
  readonly token: string
  readonly from: { readonly account_id: string; readonly currency: string }
  readonly to: { readonly account_id: string; readonly currency: string }
  /** the exchanges to send, one request_id each (1 GBP each) */
  readonly requestIds: ReadonlyArray<string>
  /** exchanges sent at once */
  readonly concurrency?: number
  /** the point of the first exchange at which the child stops and waits to be killed */
  readonly stopAt?: Point
  /** skip resumePending before sending */
  readonly noResume?: boolean
  /** the client's timeout of one attempt (default 1,000 ms) */
  readonly timeoutMs?: number
}

const task = taskOf<Task>()
/** the stop points apply to the child's own exchanges, once resumePending is done */
let armed = false
const stop = (point: Point) =>
  armed && point === task.stopAt
    ? Effect.andThen(
        Effect.sync(() => say({ at: point })),
        Effect.never
      )
    : Effect.void

const isExchange = (url: string, method: string) => method === "POST" && url.endsWith("/exchange")

/** node:http, with the two stop points around POST /exchange */
const http = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(
    Effect.service(HttpClient.HttpClient),
    HttpClient.transform((send, request) =>
      isExchange(request.url, request.method) && armed && task.stopAt !== undefined
        ? Effect.andThen(
            stop("before-send"),
            task.stopAt === "after-send"
              ? Effect.flatMap(send, (response) =>
                  // the whole answer is read, so the server has finished with it; the client never sees it
                  Effect.as(Effect.andThen(Effect.ignore(response.arrayBuffer), stop("after-send")), response)
                )
              : send
          )
        : send
    )
  )
).pipe(Layer.provide(keptAliveHttp))

/** the durable ledger, with the two stop points around the recording of an answer */
const ledger = Layer.effect(
  RequestLedger.RequestLedger,
  Effect.map(Effect.service(RequestLedger.RequestLedger), (inner) => ({
    ...inner,
    complete: (requestId: string, outcome: RequestLedger.Outcome) =>
      Effect.andThen(
        stop("after-answer"),
        Effect.tap(inner.complete(requestId, outcome), () => stop("after-ledger-write"))
      )
  }))
).pipe(Layer.provide(LedgerUrl.layer(LedgerUrl.parseUnsafe(task.ledger))))

const fast = {
  maxAttempts: 4,
  baseDelay: Duration.millis(5),
  maxDelay: Duration.millis(40),
  minSpacing: Duration.millis(10)
}

const client = BusinessClient.layer({
  ...BusinessClient.defaults,
  baseUrl: task.baseUrl,
  token: Redacted.make(task.token),
  timeout: Duration.millis(task.timeoutMs ?? 1_000),
  retry: fast,
  exchangeRetry: fast
}).pipe(Layer.provide(Layer.merge(http, ledger)))

const program = Effect.gen(function* () {
  const business = yield* BusinessClient.BusinessClient
  if (task.noResume !== true) {
    const summary = yield* business.resumePending()
    say({ resumed: { ...summary, results: summary.results.map((r) => ({ tag: r._tag, requestId: r.requestId })) } })
  }
  armed = true
  const done = yield* Effect.forEach(
    task.requestIds,
    (requestId) =>
      Effect.map(
        Effect.result(
          business.exchange({
            _tag: "Sell",
            from: task.from,
            to: task.to,
            amount: BigDecimal.fromStringUnsafe("1"),
            request_id: requestId
          } as BusinessClient.ExchangeInput)
        ),
        (result) =>
          Result.isSuccess(result)
            ? { requestId, tag: "Transaction", id: result.success.transaction.id }
            : { requestId, tag: result.failure._tag }
      ),
    { concurrency: task.concurrency ?? 1 }
  )
  say({ done })
})

main(program.pipe(Effect.provide(client)))
