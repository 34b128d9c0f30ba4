/**
 * The live fault rules of a sandbox and the decision for one request.
 *
 * A probability rule decides from a hash of (seed, operation, request key, attempt, rule): the same seed gives the
 * same faults to the same requests however their arrival interleaves. The attempt is how many times that request key
 * has been seen for that operation while a probability rule applied to it (1 for the first). `count` rules apply to
 * the next N matching requests in arrival order: they are order-based by definition.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type * as Fault from "../Fault.js"
import * as Random from "./random.js"

interface Live {
  readonly rule: Fault.FaultRule
  remaining: number | undefined
}

/** attempt counters kept at most (the oldest are forgotten first: their next attempt counts from 1 again) */
const MAX_KEYS = 100_000

/** @internal */
export interface Faults {
  readonly set: (rules: ReadonlyArray<Fault.FaultRule>) => Effect.Effect<void>
  readonly list: Effect.Effect<ReadonlyArray<Fault.FaultRule>>
  /** whether a probability rule applies to this operation: only then is the request key needed */
  readonly keyed: (operation: Fault.Operation) => boolean
  /** whether any rule applies to this operation */
  readonly active: (operation: Fault.Operation) => boolean
  /**
   * The fault to apply to a request of this operation, if any: the first rule (in order) that fires. Consumes one
   * request of a counted rule that fires; counts the attempt of the key when a probability rule applies.
   */
  readonly decide: (operation: Fault.Operation, key: string | undefined) => Effect.Effect<Fault.FaultRule | undefined>
  /** {@link decide}, at once */
  readonly decideUnsafe: (operation: Fault.Operation, key: string | undefined) => Fault.FaultRule | undefined
}

/** @internal */
export const make = (seed: number, initial: ReadonlyArray<Fault.FaultRule>): Effect.Effect<Faults> =>
  Effect.sync(() => {
    let live: Array<Live> = []
    let active = new Set<string>()
    let keyed = new Set<string>()
    const attempts = new Map<string, number>()
    const install = (rules: ReadonlyArray<Fault.FaultRule>) => {
      live = rules.map((rule) => ({ rule, remaining: rule.count }))
      active = new Set(rules.map((r) => r.operation))
      keyed = new Set(rules.filter((r) => r.count === undefined).map((r) => r.operation))
    }
    install(initial)
    const applies = (set: ReadonlySet<string>, operation: Fault.Operation) => set.has(operation) || set.has("*")
    const nextAttempt = (operation: string, key: string): number => {
      const id = `${operation}\u0000${key}`
      const attempt = (attempts.get(id) ?? 0) + 1
      // re-inserted, so the Map's order is the order of last use and the oldest key is the first
      attempts.delete(id)
      attempts.set(id, attempt)
      if (attempts.size > MAX_KEYS) attempts.delete(attempts.keys().next().value!)
      return attempt
    }
    const faults: Faults = {
      set: (rules) => Effect.sync(() => install(rules)),
      list: Effect.sync(() =>
        live
          .filter((x) => x.remaining === undefined || x.remaining > 0)
          .map((x) => (x.remaining === undefined ? x.rule : { ...x.rule, count: x.remaining }))
      ),
      keyed: (operation) => applies(keyed, operation),
      active: (operation) => applies(active, operation),
      decide: (operation, key) => Effect.sync(() => faults.decideUnsafe(operation, key)),
      decideUnsafe: (operation, key) => {
        const attempt = key !== undefined && applies(keyed, operation) ? nextAttempt(operation, key) : 0
        for (let i = 0; i < live.length; i++) {
          const x = live[i]!
          if (x.rule.operation !== "*" && x.rule.operation !== operation) continue
          if (x.remaining !== undefined) {
            if (x.remaining <= 0) continue
            x.remaining--
            return x.rule
          }
          if (key === undefined) continue
          const draw = Random.keyed("fault", seed, operation, key, attempt, i)
          if (draw < (x.rule.probability ?? 1)) return x.rule
        }
        return undefined
      }
    }
    return faults
  })

/**
 * The key of a request for fault decisions: the exchange's `request_id` (its retries share it), otherwise the method,
 * the path, the query (sorted), the Authorization header and the body (as the gate parsed it: `undefined` without
 * one) with its object keys sorted.
 *
 * @internal
 */
export const requestKey = (
  operation: Fault.Operation,
  request: {
    readonly method: string
    readonly path: string
    readonly query: URLSearchParams
    readonly authorization: string | undefined
    readonly body: unknown
  }
): string => {
  const json = request.body
  if (operation === "exchange" && typeof json === "object" && json !== null && "request_id" in json) {
    const id = (json as { readonly request_id: unknown }).request_id
    if (typeof id === "string") return `request_id ${id}`
  }
  const query = [...request.query].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
  return [
    request.method,
    request.path,
    new URLSearchParams(query).toString(),
    request.authorization ?? "",
    json === undefined ? "" : canonical(json)
  ].join("\u0000")
}

/** JSON with object keys sorted: the same value gives the same text whatever the order of its keys */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v
  )
