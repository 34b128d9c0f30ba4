/**
 * The states of an exchange transaction and the transitions between them (D5), as one pure table. The specification
 * names the states but shows no transitions; the table below is the inferred one that payrules, the sandbox and the
 * docs share.
 *
 * A server may answer with a state added since this version ({@link StateLenient}, issue 34): it reads as
 * `{ _tag: "Unknown", value }`. What an unknown state means: the transaction exists (the server created it), so the
 * request_id that created it is settled and is never sent again; what became of the money is not known to this
 * version, so the state is reported to the caller as unknown, with its raw value. The table below stays over the
 * known states: nothing is inferred about an unknown one (it is neither terminal nor pending here).
 *
 * @since 0.1.0
 */
import { OpenEnum } from "@payrules/lenient"
import * as Data from "effect/Data"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"

/**
 * @since 0.1.0
 * @category models
 */
export type State = "created" | "pending" | "completed" | "declined" | "failed" | "reverted"

/**
 * Every state, in the order of the specification.
 *
 * @since 0.1.0
 * @category constants
 */
export const states: ReadonlyArray<State> = ["created", "pending", "completed", "declined", "failed", "reverted"]

/**
 * The `state` field of an exchange transaction.
 *
 * @since 0.1.0
 * @category schemas
 */
export const State: Schema.Codec<State> = Schema.Literals(states).annotate({
  identifier: "ExchangeState",
  description: "the state of an exchange transaction: created, pending, completed, declined, failed or reverted"
})

/**
 * A state as read from a server: a known {@link State}, or one added since, kept as `{ _tag: "Unknown", value }`.
 * An unknown state still says that the transaction exists: its request_id is settled (see the module's doc).
 *
 * @since 0.2.0
 * @category models
 */
export type StateLenient = OpenEnum.OpenEnum<State>

/**
 * The `state` field as the lenient readers decode it: each known state decodes to itself (exactly as {@link State});
 * any other well-formed value (1 to 128 visible ASCII characters), such as `"held"`, to `{ _tag: "Unknown", value }`,
 * which encodes back to the same text. A malformed value (not a string, empty, with spaces) is still an error.
 *
 * @example
 * ```ts
 * import { ExchangeState } from "@payrules/exchange"
 * import { Schema } from "effect"
 *
 * console.log(Schema.decodeUnknownSync(ExchangeState.StateLenient)("pending")) // pending
 * console.log(Schema.decodeUnknownSync(ExchangeState.StateLenient)("held")) // { _tag: 'Unknown', value: 'held' }
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const StateLenient: Schema.Codec<StateLenient, string> = OpenEnum.make(states, {
  identifier: "ExchangeStateLenient",
  description:
    'the state of an exchange transaction: created, pending, completed, declined, failed, reverted, or a state added since (kept as { _tag: "Unknown", value })'
})

/**
 * `true` for a state this version knows; `false` for `{ _tag: "Unknown", value }`.
 *
 * @since 0.2.0
 * @category predicates
 */
export const isKnown = (state: StateLenient): state is State => typeof state === "string"

/**
 * `true` for a state added since this version (`{ _tag: "Unknown", value }`). The transaction exists all the same:
 * its request_id is settled.
 *
 * @since 0.2.0
 * @category predicates
 */
export const isUnknown = (state: StateLenient): state is OpenEnum.Unknown => typeof state !== "string"

/**
 * The state as the server sent it: the known state itself, or the raw value of an unknown one.
 *
 * @since 0.2.0
 * @category getters
 */
export const valueOf = (state: StateLenient): string => OpenEnum.valueOf(state)

/**
 * The transition table (D5): for each state, the states it may move to in one step. `declined`, `failed` and
 * `reverted` are terminal.
 *
 * @since 0.1.0
 * @category constants
 */
export const table: { readonly [S in State]: ReadonlyArray<State> } = {
  created: ["pending", "completed", "declined", "failed"],
  pending: ["completed", "declined", "failed", "reverted"],
  completed: ["reverted"],
  declined: [],
  failed: [],
  reverted: []
}

/**
 * @since 0.1.0
 * @category predicates
 */
export const isState = (u: unknown): u is State => typeof u === "string" && Object.hasOwn(table, u)

/**
 * `true` for `declined`, `failed` and `reverted`: nothing follows them.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isTerminal = (state: State): boolean => table[state].length === 0

const closure = (from: State): ReadonlySet<State> => {
  const seen = new Set<State>()
  const stack = [...table[from]]
  while (stack.length > 0) {
    const s = stack.pop()!
    if (!seen.has(s)) {
      seen.add(s)
      stack.push(...table[s])
    }
  }
  return new Set(states.filter((s) => seen.has(s)))
}

const closures = new Map<State, ReadonlySet<State>>(states.map((s) => [s, closure(s)]))

/**
 * The states reachable from `from` in one or more transitions (the transitive closure of the table), in the order of
 * {@link states}. The table has no cycles, so `from` itself is never in it.
 *
 * @since 0.1.0
 * @category getters
 */
export const reachable = (from: State): ReadonlySet<State> => closures.get(from)!

/**
 * Why a transition is illegal:
 *
 * - `Terminal`: the transaction is declined, failed or reverted, and nothing follows;
 * - `Unchanged`: a state does not move to itself (a poll that sees the same state again is not a transition);
 * - `Indirect`: the target is reachable, but only through another state (created to reverted);
 * - `Unreachable`: the target can never follow (completed to pending).
 *
 * @since 0.1.0
 * @category errors
 */
export type TransitionFailure = "Terminal" | "Unchanged" | "Indirect" | "Unreachable"

/**
 * @since 0.1.0
 * @category errors
 */
export class IllegalTransition extends Data.TaggedError("ExchangeIllegalTransition")<{
  readonly from: State
  readonly to: State
  readonly reason: TransitionFailure
  readonly message: string
}> {}

const via = (from: State, to: State): ReadonlyArray<State> =>
  table[from].filter((s) => s === to || reachable(s).has(to))

const illegal = (from: State, to: State): IllegalTransition => {
  if (isTerminal(from)) {
    return new IllegalTransition({
      from,
      to,
      reason: "Terminal",
      message: `${from} is terminal: an exchange transaction does not move from ${from} to ${to}`
    })
  }
  if (from === to) {
    return new IllegalTransition({
      from,
      to,
      reason: "Unchanged",
      message: `${from} to ${from} is not a transition: the state did not change`
    })
  }
  if (reachable(from).has(to)) {
    return new IllegalTransition({
      from,
      to,
      reason: "Indirect",
      message: `${from} to ${to} is not one transition: it passes through ${via(from, to).join(" or ")}`
    })
  }
  return new IllegalTransition({
    from,
    to,
    reason: "Unreachable",
    message: `${to} never follows ${from} (from ${from} an exchange moves to ${table[from].join(", ")})`
  })
}

/**
 * One step of the table: `Success(to)` when `from -> to` is a transition of D5, otherwise a `Failure` with an
 * `IllegalTransition` that says why.
 *
 * @example
 * ```ts
 * import { ExchangeState } from "@payrules/exchange"
 * import { Result } from "effect"
 *
 * console.log(Result.isSuccess(ExchangeState.transition("created", "pending"))) // true
 * const back = ExchangeState.transition("completed", "pending")
 * if (Result.isFailure(back)) console.log(back.failure.reason) // Unreachable
 * ```
 *
 * @since 0.1.0
 * @category transitions
 */
export const transition = (from: State, to: State): Result.Result<State, IllegalTransition> =>
  table[from].includes(to) ? Result.succeed(to) : Result.fail(illegal(from, to))

/**
 * `true` when `from -> to` is one transition of the table.
 *
 * @since 0.1.0
 * @category predicates
 */
export const canTransition = (from: State, to: State): boolean => table[from].includes(to)

/**
 * Why a sequence of observed states cannot be the history of one transaction: `Terminal` when something follows a
 * terminal state, `Unreachable` when a state follows one it can never follow.
 *
 * @since 0.1.0
 * @category errors
 */
export type HistoryFailure = "Terminal" | "Unreachable"

/**
 * @since 0.1.0
 * @category errors
 */
export class InvalidHistory extends Data.TaggedError("ExchangeInvalidHistory")<{
  /** the position of `from` in the observed sequence; `to` is at `index + 1` */
  readonly index: number
  readonly from: State
  readonly to: State
  readonly reason: HistoryFailure
  readonly message: string
}> {}

/**
 * Checks the states seen while polling one transaction, oldest first. Polling can miss states, so each consecutive
 * pair must be a repeat (the same state seen twice) or a move to a state reachable from the earlier one: `created`
 * then `reverted` is fine (pending or completed was missed), `completed` then `pending` is not. Returns the
 * sequence, or the first offending pair with its index.
 *
 * @since 0.1.0
 * @category transitions
 */
export const checkHistory = (observed: ReadonlyArray<State>): Result.Result<ReadonlyArray<State>, InvalidHistory> => {
  for (let i = 0; i + 1 < observed.length; i++) {
    const from = observed[i]!
    const to = observed[i + 1]!
    if (from === to || reachable(from).has(to)) continue
    const terminal = isTerminal(from)
    return Result.fail(
      new InvalidHistory({
        index: i,
        from,
        to,
        reason: terminal ? "Terminal" : "Unreachable",
        message: terminal
          ? `observed ${to} after ${from} at index ${i + 1}, but ${from} is terminal`
          : `observed ${to} after ${from} at index ${i + 1}, but ${to} never follows ${from}`
      })
    )
  }
  return Result.succeed(observed)
}

/**
 * The table as a Mermaid state diagram (`stateDiagram-v2`): a transaction starts as `created`, and the terminal states
 * end it. The README shows exactly this text, and a test keeps the two equal.
 *
 * @since 0.1.0
 * @category formatting
 */
export const toMermaid = (): string => {
  const lines = ["stateDiagram-v2", "  [*] --> created"]
  for (const from of states) for (const to of table[from]) lines.push(`  ${from} --> ${to}`)
  for (const s of states) if (isTerminal(s)) lines.push(`  ${s} --> [*]`)
  return lines.join("\n")
}
