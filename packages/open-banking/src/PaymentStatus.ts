/**
 * The status of an international payment and its lifecycle in each profile (D8), as one pure table per profile. The
 * specification names the statuses but shows no transitions; Open Banking 3.1.11 points to the ISO 20022
 * PaymentStatusCode lifecycle, from which D8 takes the transitions below.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { Profile } from "./Profile.js"

/**
 * The four statuses of the `revolut` profile.
 *
 * @since 0.1.0
 * @category models
 */
export type RevolutStatus = "Pending" | "Rejected" | "AcceptedSettlementInProcess" | "AcceptedSettlementCompleted"

/**
 * The six statuses of `obie-3.1.11` (OBTransactionIndividualStatus1Code), a superset of {@link RevolutStatus}.
 *
 * @since 0.1.0
 * @category models
 */
export type Status = RevolutStatus | "AcceptedWithoutPosting" | "AcceptedCreditSettlementCompleted"

/**
 * The statuses of a profile.
 *
 * @since 0.1.0
 * @category models
 */
export type StatusOf<P extends Profile> = P extends "revolut" ? RevolutStatus : Status

/**
 * A transition table: for each status, the statuses it may move to in one step.
 *
 * @since 0.1.0
 * @category models
 */
export type Table<S extends string> = { readonly [K in S]: ReadonlyArray<S> }

/**
 * The statuses of each profile, in lifecycle order (the order of Open Banking's status table).
 *
 * @since 0.1.0
 * @category constants
 */
export const statuses: { readonly [P in Profile]: ReadonlyArray<StatusOf<P>> } = {
  revolut: ["Pending", "Rejected", "AcceptedSettlementInProcess", "AcceptedSettlementCompleted"],
  "obie-3.1.11": [
    "Pending",
    "Rejected",
    "AcceptedSettlementInProcess",
    "AcceptedSettlementCompleted",
    "AcceptedWithoutPosting",
    "AcceptedCreditSettlementCompleted"
  ]
}

/**
 * The lifecycle of D8 per profile. `revolut`: Pending -> Rejected | AcceptedSettlementInProcess,
 * AcceptedSettlementInProcess -> AcceptedSettlementCompleted; Rejected and AcceptedSettlementCompleted are terminal.
 * `obie-3.1.11` adds AcceptedSettlementCompleted -> AcceptedWithoutPosting | AcceptedCreditSettlementCompleted and
 * AcceptedWithoutPosting -> Rejected | AcceptedCreditSettlementCompleted; Rejected and
 * AcceptedCreditSettlementCompleted are terminal.
 *
 * @since 0.1.0
 * @category constants
 */
export const tables: { readonly [P in Profile]: Table<StatusOf<P>> } = {
  revolut: {
    Pending: ["Rejected", "AcceptedSettlementInProcess"],
    Rejected: [],
    AcceptedSettlementInProcess: ["AcceptedSettlementCompleted"],
    AcceptedSettlementCompleted: []
  },
  "obie-3.1.11": {
    Pending: ["Rejected", "AcceptedSettlementInProcess"],
    Rejected: [],
    AcceptedSettlementInProcess: ["AcceptedSettlementCompleted"],
    AcceptedSettlementCompleted: ["AcceptedWithoutPosting", "AcceptedCreditSettlementCompleted"],
    AcceptedWithoutPosting: ["Rejected", "AcceptedCreditSettlementCompleted"],
    AcceptedCreditSettlementCompleted: []
  }
}

/**
 * Every payment starts as `Pending`.
 *
 * @since 0.1.0
 * @category constants
 */
export const initial: RevolutStatus = "Pending"

const rows = (profile: Profile): { readonly [K in string]?: ReadonlyArray<Status> } => tables[profile]

const inProfile = (profile: Profile, s: unknown): s is Status =>
  typeof s === "string" && Object.hasOwn(rows(profile), s)

/**
 * `true` when `u` is a status of the profile (`AcceptedWithoutPosting` is not a `revolut` status).
 *
 * @since 0.1.0
 * @category predicates
 */
export const isStatus = <P extends Profile>(profile: P, u: unknown): u is StatusOf<P> => inProfile(profile, u)

/**
 * The statuses a status moves to in one step; none for a terminal status or one outside the profile.
 *
 * @since 0.1.0
 * @category getters
 */
export const next = <P extends Profile>(profile: P, status: StatusOf<P>): ReadonlyArray<StatusOf<P>> =>
  (inProfile(profile, status) ? rows(profile)[status]! : []) as ReadonlyArray<StatusOf<P>>

/**
 * `true` for a status of the profile that nothing follows: Rejected and AcceptedSettlementCompleted in `revolut`,
 * Rejected and AcceptedCreditSettlementCompleted in `obie-3.1.11`.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isTerminal = <P extends Profile>(profile: P, status: StatusOf<P>): boolean =>
  inProfile(profile, status) && rows(profile)[status]!.length === 0

const closure = (profile: Profile, from: Status): ReadonlySet<Status> => {
  const seen = new Set<Status>()
  const stack = [...(rows(profile)[from] ?? [])]
  while (stack.length > 0) {
    const s = stack.pop()!
    if (!seen.has(s)) {
      seen.add(s)
      stack.push(...(rows(profile)[s] ?? []))
    }
  }
  return new Set(statuses[profile].filter((s) => seen.has(s)))
}

const closures: { readonly [P in Profile]: ReadonlyMap<Status, ReadonlySet<Status>> } = {
  revolut: new Map(statuses.revolut.map((s) => [s, closure("revolut", s)])),
  "obie-3.1.11": new Map(statuses["obie-3.1.11"].map((s) => [s, closure("obie-3.1.11", s)]))
}

const EMPTY: ReadonlySet<never> = new Set()

/**
 * The statuses reachable from `from` in one or more transitions (the transitive closure of the table), in lifecycle
 * order. The tables have no cycles, so `from` is never in it; empty for a status outside the profile.
 *
 * @since 0.1.0
 * @category getters
 */
export const reachable = <P extends Profile>(profile: P, from: StatusOf<P>): ReadonlySet<StatusOf<P>> =>
  (closures[profile].get(from) ?? EMPTY) as ReadonlySet<StatusOf<P>>

/**
 * Why a transition is illegal:
 *
 * - `NotInProfile`: `from` or `to` is not a status of the profile (AcceptedWithoutPosting in `revolut`);
 * - `Terminal`: nothing follows `from`;
 * - `Unchanged`: a status does not move to itself (a poll that sees the same status again is not a transition);
 * - `Indirect`: the target is reachable, but only through another status (Pending to AcceptedSettlementCompleted);
 * - `Unreachable`: the target never follows (AcceptedSettlementCompleted to Pending).
 *
 * @since 0.1.0
 * @category errors
 */
export type TransitionFailure = "NotInProfile" | "Terminal" | "Unchanged" | "Indirect" | "Unreachable"

/**
 * @since 0.1.0
 * @category errors
 */
export class IllegalTransition extends Data.TaggedError("PaymentStatusIllegalTransition")<{
  readonly profile: Profile
  readonly from: Status
  readonly to: Status
  readonly reason: TransitionFailure
  readonly message: string
}> {}

const notInProfile = (profile: Profile, s: string): string =>
  `${s} is not a ${profile} payment status (the ${profile} statuses are ${statuses[profile].join(", ")})`

const illegal = (profile: Profile, from: Status, to: Status): IllegalTransition => {
  const make = (reason: TransitionFailure, message: string) =>
    new IllegalTransition({ profile, from, to, reason, message })
  if (!inProfile(profile, from)) return make("NotInProfile", notInProfile(profile, from))
  if (!inProfile(profile, to)) return make("NotInProfile", notInProfile(profile, to))
  const row = rows(profile)[from]!
  if (row.length === 0) {
    return make("Terminal", `${from} is terminal: in ${profile} a payment does not move from ${from} to ${to}`)
  }
  if (from === to) return make("Unchanged", `${from} to ${from} is not a transition: the status did not change`)
  if (closures[profile].get(from)!.has(to)) {
    const via = row.filter((s) => s === to || closures[profile].get(s)!.has(to))
    return make("Indirect", `${from} to ${to} is not one transition: it passes through ${via.join(" or ")}`)
  }
  return make(
    "Unreachable",
    `${to} never follows ${from} (in ${profile} a payment moves from ${from} to ${row.join(" or ")})`
  )
}

/**
 * One step of the profile's table: `Success(to)` when `from -> to` is a transition, otherwise an `IllegalTransition`
 * that says why.
 *
 * @example
 * ```ts
 * import { PaymentStatus } from "@payrules/open-banking"
 * import { Result } from "effect"
 *
 * console.log(Result.isSuccess(PaymentStatus.transition("revolut", "Pending", "AcceptedSettlementInProcess"))) // true
 * const late = PaymentStatus.transition("revolut", "AcceptedSettlementCompleted", "AcceptedCreditSettlementCompleted")
 * if (Result.isFailure(late)) console.log(late.failure.reason) // NotInProfile
 * ```
 *
 * @since 0.1.0
 * @category transitions
 */
export const transition = <P extends Profile>(
  profile: P,
  from: StatusOf<P>,
  to: StatusOf<P>
): Result.Result<StatusOf<P>, IllegalTransition> =>
  inProfile(profile, from) && inProfile(profile, to) && rows(profile)[from]!.includes(to)
    ? Result.succeed(to)
    : Result.fail(illegal(profile, from, to))

/**
 * `true` when `from -> to` is one transition of the profile's table.
 *
 * @since 0.1.0
 * @category predicates
 */
export const canTransition = <P extends Profile>(profile: P, from: StatusOf<P>, to: StatusOf<P>): boolean =>
  inProfile(profile, from) && inProfile(profile, to) && rows(profile)[from]!.includes(to)

/**
 * Why a sequence of observed statuses cannot be the history of one payment: `NotInProfile` when a status is not one
 * of the profile, `Terminal` when something follows a terminal status, `Unreachable` when a status follows one it
 * can never follow.
 *
 * @since 0.1.0
 * @category errors
 */
export type HistoryFailure = "NotInProfile" | "Terminal" | "Unreachable"

/**
 * @since 0.1.0
 * @category errors
 */
export class InvalidHistory extends Data.TaggedError("PaymentStatusInvalidHistory")<{
  readonly profile: Profile
  /**
   * the position of `from` in the observed sequence, `to` being at `index + 1`; for `NotInProfile`, the position of
   * the status outside the profile, which is then both `from` and `to`
   */
  readonly index: number
  readonly from: Status
  readonly to: Status
  readonly reason: HistoryFailure
  readonly message: string
}> {}

/**
 * Checks the statuses seen while polling one payment, oldest first. Polling can miss statuses, so each consecutive
 * pair must be a repeat (the same status seen twice) or a move to a status reachable from the earlier one: `Pending`
 * then `AcceptedSettlementCompleted` is fine (AcceptedSettlementInProcess was missed), `AcceptedSettlementCompleted`
 * then `Pending` is not. Returns the sequence, or the first offending pair with its index.
 *
 * @since 0.1.0
 * @category transitions
 */
export const checkHistory = <P extends Profile>(
  profile: P,
  observed: ReadonlyArray<StatusOf<P>>
): Result.Result<ReadonlyArray<StatusOf<P>>, InvalidHistory> => {
  for (let i = 0; i < observed.length; i++) {
    const s = observed[i]!
    if (!inProfile(profile, s)) {
      return Result.fail(
        new InvalidHistory({
          profile,
          index: i,
          from: s,
          to: s,
          reason: "NotInProfile",
          message: `observed ${s} at index ${i}, but ${notInProfile(profile, s)}`
        })
      )
    }
  }
  for (let i = 0; i + 1 < observed.length; i++) {
    const from = observed[i]!
    const to = observed[i + 1]!
    if (from === to || closures[profile].get(from)!.has(to)) continue
    const terminal = rows(profile)[from]!.length === 0
    return Result.fail(
      new InvalidHistory({
        profile,
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
 * The profile's table as a Mermaid state diagram (`stateDiagram-v2`): a payment starts as `Pending`, and the
 * terminal statuses end it. The README shows exactly this text, and a test keeps the two equal.
 *
 * @since 0.1.0
 * @category formatting
 */
export const toMermaid = (profile: Profile): string => {
  const lines = ["stateDiagram-v2", `  [*] --> ${initial}`]
  const list: ReadonlyArray<Status> = statuses[profile]
  for (const from of list) for (const to of rows(profile)[from]!) lines.push(`  ${from} --> ${to}`)
  for (const s of list) if (rows(profile)[s]!.length === 0) lines.push(`  ${s} --> [*]`)
  return lines.join("\n")
}

const literal = <S extends string>(profile: Profile, list: ReadonlyArray<S>, identifier: string): Schema.Codec<S> =>
  Schema.Literals(list).annotate({
    identifier,
    description: `the status of an international payment in the ${profile} profile`,
    message: `expected a ${profile} payment status: ${list.slice(0, -1).join(", ")} or ${list[list.length - 1]}`
  })

/**
 * `Data.Status` in the `revolut` profile: one of the four statuses of the specification.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RevolutStatus: Schema.Codec<RevolutStatus> = literal("revolut", statuses.revolut, "RevolutPaymentStatus")

/**
 * `Data.Status` in the `obie-3.1.11` profile: one of the six statuses.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Status: Schema.Codec<Status> = literal("obie-3.1.11", statuses["obie-3.1.11"], "ObiePaymentStatus")

/**
 * The status Schema of a profile.
 *
 * @since 0.1.0
 * @category schemas
 */
export const schema = <P extends Profile>(profile: P): Schema.Codec<StatusOf<P>> =>
  (profile === "revolut" ? RevolutStatus : Status) as unknown as Schema.Codec<StatusOf<P>>
