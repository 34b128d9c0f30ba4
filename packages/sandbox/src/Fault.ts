/**
 * Fault injection: rules that make the sandbox fail the way real networks and services do, for one operation, with a
 * probability or for the next N requests.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * The operations of the three APIs, by the names of their HttpApi endpoints.
 *
 * @since 0.1.0
 * @category models
 */
export const Operation = Schema.Literals([
  "getInternationalPayment",
  "listSubscriptionPlans",
  "exchange",
  "exchangeReasons",
  "findTransactions",
  "transferFieldRequirements"
])

/**
 * @since 0.1.0
 * @category models
 */
export type Operation = typeof Operation.Type

/**
 * - `fail-before`: answer 503 (or `status`: 500, 502, 504) without processing the request;
 * - `drop-after`: process the request, then drop the connection without answering (the client cannot know whether
 *   it was processed);
 * - `delay-after`: process the request, then wait `delayMs` before answering (past the client's timeout);
 * - `rate-limit`: answer 429 with `Retry-After: retryAfterSeconds` without processing;
 * - `fail-during`: an exchange passes its checks, then fails in execution: no transaction, a 500 that is stored as
 *   the answer of its request_id (identical repeats get it again, marked as a replay); for other operations, a 500.
 *
 * @since 0.1.0
 * @category models
 */
export const Kind = Schema.Literals(["fail-before", "drop-after", "delay-after", "rate-limit", "fail-during"])

/**
 * @since 0.1.0
 * @category models
 */
export type Kind = typeof Kind.Type

/**
 * A fault rule. With `count`, it applies to the next `count` matching requests in the order they arrive; otherwise to
 * each matching request with `probability`, decided from a hash of (seed, operation, request key, attempt, position of
 * the rule): the same seed gives the same faults to the same requests however concurrent requests interleave. The
 * request key of an exchange is its `request_id`; of the other operations, the method, path, sorted query,
 * Authorization header and body (keys sorted). The attempt counts how many times that key was seen for that
 * operation (1, 2, ...), so the retries of one request draw afresh, in the same way on every run.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FaultRule = Schema.Struct({
  operation: Schema.Union([Operation, Schema.Literal("*")]),
  kind: Kind,
  probability: Schema.optionalKey(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
  count: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThan(0))),
  delayMs: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  retryAfterSeconds: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  /** the status of a `fail-before` answer (default 503) */
  status: Schema.optionalKey(Schema.Literals([500, 502, 503, 504]))
}).annotate({ identifier: "FaultRule" })

/**
 * @since 0.1.0
 * @category models
 */
export interface FaultRule extends Schema.Schema.Type<typeof FaultRule> {}

/**
 * Each of the given kinds of fault with the same probability on one operation: `mixed("exchange", 0.3)` makes 30%
 * of exchanges fail in one of four ways (`fail-before`, `drop-after`, `delay-after`, `rate-limit`; `fail-during`,
 * which uses up its request_id, only when asked for).
 *
 * @since 0.1.0
 * @category constructors
 */
export const mixed = (
  operation: Operation | "*",
  probability: number,
  kinds: ReadonlyArray<Kind> = ["fail-before", "drop-after", "delay-after", "rate-limit"],
  options: { readonly delayMs?: number; readonly retryAfterSeconds?: number } = {}
): ReadonlyArray<FaultRule> => {
  // rules are tried in order, each on the requests the earlier ones left: split the probability so the total holds
  const rules: Array<FaultRule> = []
  let left = 1
  const share = probability / kinds.length
  for (const kind of kinds) {
    rules.push({
      operation,
      kind,
      probability: Math.min(1, share / left),
      ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }),
      ...(options.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: options.retryAfterSeconds })
    })
    left -= share
  }
  return rules
}
