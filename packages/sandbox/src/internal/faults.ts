/**
 * The live fault rules of a sandbox and the decision for one request.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import type * as Fault from "../Fault.js"
import * as Random from "./random.js"

interface Live {
  readonly rule: Fault.FaultRule
  readonly remaining: number | undefined
}

/** @internal */
export interface Faults {
  readonly set: (rules: ReadonlyArray<Fault.FaultRule>) => Effect.Effect<void>
  readonly list: Effect.Effect<ReadonlyArray<Fault.FaultRule>>
  /** the fault to apply to a request of this operation, if any (consumes counted rules) */
  readonly decide: (operation: Fault.Operation) => Effect.Effect<Fault.FaultRule | undefined>
}

/** @internal */
export const make = (seed: number, initial: ReadonlyArray<Fault.FaultRule>): Effect.Effect<Faults> =>
  Effect.gen(function* () {
    const random = Random.make(seed ^ 0x5eed)
    const live = (rules: ReadonlyArray<Fault.FaultRule>) => rules.map((rule) => ({ rule, remaining: rule.count }))
    const ref = yield* Ref.make<ReadonlyArray<Live>>(live(initial))
    return {
      set: (rules) => Ref.set(ref, live(rules)),
      list: Effect.map(Ref.get(ref), (xs) =>
        xs
          .map((x) => (x.remaining === undefined ? x.rule : { ...x.rule, count: x.remaining }))
          .filter((r) => r.count === undefined || r.count > 0)
      ),
      decide: (operation) =>
        Ref.modify(ref, (xs): readonly [Fault.FaultRule | undefined, ReadonlyArray<Live>] => {
          for (let i = 0; i < xs.length; i++) {
            const x = xs[i]!
            if (x.rule.operation !== "*" && x.rule.operation !== operation) continue
            if (x.remaining !== undefined) {
              if (x.remaining <= 0) continue
              return [x.rule, xs.map((y, j) => (j === i ? { rule: y.rule, remaining: x.remaining! - 1 } : y))]
            }
            if (random.next() < (x.rule.probability ?? 1)) return [x.rule, xs]
          }
          return [undefined, xs]
        })
    }
  })
