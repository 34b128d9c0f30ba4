/**
 * The status of an international payment and its lifecycle in each profile (D8), as one pure table per profile. The
 * specification names the statuses but shows no transitions; Open Banking 3.1.11 points to the ISO 20022
 * PaymentStatusCode lifecycle, from which D8 takes the transitions below.
 *
 * A status read from a server may be one this version does not know (a status Open Banking or the bank adds later):
 * the lenient Schemas ({@link RevolutStatusLenient}, {@link StatusLenient}) read it as `{ _tag: "Unknown", value }`,
 * and the payment's reader reports it as an `UnknownValue` finding (D11, issue 34). The table cannot say anything
 * about such a status: it is neither terminal nor a step of the lifecycle, so no transition into or out of it can be
 * checked. {@link checkObserved} checks what can be checked (the known statuses on either side of it, each run on its
 * own) and reports every unknown status as unchecked; it never fails because of one.
 *
 * @since 0.1.0
 */
import { OpenEnum } from "@payrules/lenient"
import * as Data from "effect/Data"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as StatusTable from "./internal/statusTable.js"
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
export const statuses: { readonly [P in Profile]: ReadonlyArray<StatusOf<P>> } = StatusTable.statuses

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
export const tables: { readonly [P in Profile]: Table<StatusOf<P>> } = StatusTable.tables

/**
 * Every payment starts as `Pending`.
 *
 * @since 0.1.0
 * @category constants
 */
export const initial: RevolutStatus = "Pending"

/**
 * `true` when `u` is a status of the profile (`AcceptedWithoutPosting` is not a `revolut` status).
 *
 * @since 0.1.0
 * @category predicates
 */
export const isStatus = <P extends Profile>(profile: P, u: unknown): u is StatusOf<P> =>
  StatusTable.inProfile(profile, u)

/**
 * The statuses a status moves to in one step; none for a terminal status or one outside the profile.
 *
 * @since 0.1.0
 * @category getters
 */
export const next = <P extends Profile>(profile: P, status: StatusOf<P>): ReadonlyArray<StatusOf<P>> =>
  (StatusTable.inProfile(profile, status) ? StatusTable.rows(profile)[status]! : []) as ReadonlyArray<StatusOf<P>>

/**
 * `true` for a status of the profile that nothing follows: Rejected and AcceptedSettlementCompleted in `revolut`,
 * Rejected and AcceptedCreditSettlementCompleted in `obie-3.1.11`.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isTerminal = <P extends Profile>(profile: P, status: StatusOf<P>): boolean =>
  StatusTable.inProfile(profile, status) && StatusTable.rows(profile)[status]!.length === 0

/**
 * The statuses reachable from `from` in one or more transitions (the transitive closure of the table), in lifecycle
 * order. The tables have no cycles, so `from` is never in it; empty for a status outside the profile.
 *
 * @since 0.1.0
 * @category getters
 */
export const reachable = <P extends Profile>(profile: P, from: StatusOf<P>): ReadonlySet<StatusOf<P>> =>
  (StatusTable.closures[profile].get(from) ?? StatusTable.EMPTY) as ReadonlySet<StatusOf<P>>

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

const illegal = (profile: Profile, from: Status, to: Status): IllegalTransition =>
  new IllegalTransition({ profile, from, to, ...StatusTable.illegal(profile, from, to) })

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
  StatusTable.inProfile(profile, from) &&
  StatusTable.inProfile(profile, to) &&
  StatusTable.rows(profile)[from]!.includes(to)
    ? Result.succeed(to)
    : Result.fail(illegal(profile, from, to))

/**
 * `true` when `from -> to` is one transition of the profile's table.
 *
 * @since 0.1.0
 * @category predicates
 */
export const canTransition = <P extends Profile>(profile: P, from: StatusOf<P>, to: StatusOf<P>): boolean =>
  StatusTable.inProfile(profile, from) &&
  StatusTable.inProfile(profile, to) &&
  StatusTable.rows(profile)[from]!.includes(to)

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
  const problem = StatusTable.historyProblem(profile, observed)
  return problem === undefined ? Result.succeed(observed) : Result.fail(new InvalidHistory({ profile, ...problem }))
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
  for (const from of list) for (const to of StatusTable.rows(profile)[from]!) lines.push(`  ${from} --> ${to}`)
  for (const s of list) if (StatusTable.rows(profile)[s]!.length === 0) lines.push(`  ${s} --> [*]`)
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

const lenientLiteral = <const L extends ReadonlyArray<string>>(profile: Profile, list: L, identifier: string) =>
  OpenEnum.make(list, {
    identifier,
    description: `the status of an international payment in the ${profile} profile: ${list.join(", ")}, or a status added since (kept as { _tag: "Unknown", value })`
  })

/**
 * A status as read from a server: one of the profile's, or one this version does not know, kept as
 * `{ _tag: "Unknown", value }`.
 *
 * @since 0.2.0
 * @category models
 */
export type Observed<P extends Profile> = StatusOf<P> | OpenEnum.Unknown

/**
 * `Data.Status` of the `revolut` profile as read from a server: the four statuses decode as with
 * {@link RevolutStatus}, any other well-formed value (`AcceptedWithoutPosting` too, which is not a `revolut` status)
 * to `{ _tag: "Unknown", value }`. For what you read; {@link RevolutStatus} stays strict.
 *
 * @since 0.2.0
 * @category schemas
 */
export const RevolutStatusLenient: Schema.Codec<Observed<"revolut">, string> = lenientLiteral(
  "revolut",
  statuses.revolut,
  "RevolutPaymentStatusLenient"
)

/**
 * `Data.Status` of the `obie-3.1.11` profile as read from a server: the six statuses, or `{ _tag: "Unknown", value }`.
 *
 * @since 0.2.0
 * @category schemas
 */
export const StatusLenient: Schema.Codec<Observed<"obie-3.1.11">, string> = lenientLiteral(
  "obie-3.1.11",
  statuses["obie-3.1.11"],
  "ObiePaymentStatusLenient"
)

/**
 * The lenient status Schema of a profile.
 *
 * @since 0.2.0
 * @category schemas
 */
export const schemaLenient = <P extends Profile>(profile: P): Schema.Codec<Observed<P>, string> =>
  (profile === "revolut" ? RevolutStatusLenient : StatusLenient) as unknown as Schema.Codec<Observed<P>, string>

/**
 * `true` for a status of the profile; `false` for one this version does not know (and for a status of another
 * profile).
 *
 * @since 0.2.0
 * @category predicates
 */
export const isKnown = <P extends Profile>(profile: P, status: Observed<P>): status is StatusOf<P> =>
  StatusTable.inProfile(profile, status)

/**
 * A status of an observed sequence that the table cannot check: one this version does not know.
 *
 * @since 0.2.0
 * @category models
 */
export interface Unchecked {
  /** its position in the observed sequence */
  readonly index: number
  /** the status as the server sent it */
  readonly value: string
  readonly message: string
}

/**
 * What {@link checkObserved} could check: the sequence as given, and the statuses it could not check.
 *
 * @since 0.2.0
 * @category models
 */
export interface ObservedHistory<P extends Profile> {
  readonly observed: ReadonlyArray<Observed<P>>
  readonly unchecked: ReadonlyArray<Unchecked>
}

/**
 * {@link checkHistory} for statuses read from a server, some of which this version may not know. An unknown status
 * is outside the table: nothing says what may precede or follow it, so the moves into and out of it are not checked,
 * and it is reported in `unchecked` (never a failure). The known statuses between two unknown ones (or the ends of
 * the sequence) are checked as {@link checkHistory} checks them, with their indexes in the whole sequence; a known
 * status is never compared across an unknown one (the unknown status may be a step the table does not have).
 *
 * @example
 * ```ts
 * import { PaymentStatus } from "@payrules/open-banking"
 * import { OpenEnum } from "@payrules/lenient"
 * import { Result } from "effect"
 *
 * const seen = ["Pending", OpenEnum.unknown("AcceptedFundsChecked"), "AcceptedSettlementCompleted"] as const
 * const checked = Result.getOrThrow(PaymentStatus.checkObserved("revolut", seen))
 * console.log(checked.unchecked[0]?.index, checked.unchecked[0]?.value) // 1 AcceptedFundsChecked
 * ```
 *
 * @since 0.2.0
 * @category transitions
 */
export const checkObserved = <P extends Profile>(
  profile: P,
  observed: ReadonlyArray<Observed<P>>
): Result.Result<ObservedHistory<P>, InvalidHistory> => {
  const { problem, unchecked } = StatusTable.observedProblem(profile, observed)
  return problem === undefined
    ? Result.succeed({ observed, unchecked })
    : Result.fail(new InvalidHistory({ profile, ...problem }))
}

/**
 * The status Schema of a profile.
 *
 * @since 0.1.0
 * @category schemas
 */
export const schema = <P extends Profile>(profile: P): Schema.Codec<StatusOf<P>> =>
  (profile === "revolut" ? RevolutStatus : Status) as unknown as Schema.Codec<StatusOf<P>>
