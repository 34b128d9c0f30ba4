/**
 * The status tables of D8 and what is computed from them (closures, why a move is illegal, the first fault of an
 * observed sequence), as plain data; `PaymentStatus` names them and wraps the faults into its tagged errors.
 *
 * @internal
 */
import type { OpenEnum } from "@payrules/lenient"
import type {
  HistoryFailure,
  Observed,
  Status,
  StatusOf,
  Table,
  TransitionFailure,
  Unchecked
} from "../PaymentStatus.js"
import type { Profile } from "../Profile.js"

/** @internal */
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

/** @internal */
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

/** @internal */
export const rows = (profile: Profile): { readonly [K in string]?: ReadonlyArray<Status> } => tables[profile]

/** @internal */
export const inProfile = (profile: Profile, s: unknown): s is Status =>
  typeof s === "string" && Object.hasOwn(rows(profile), s)

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

/** the statuses reachable from each status, in lifecycle order @internal */
export const closures: { readonly [P in Profile]: ReadonlyMap<Status, ReadonlySet<Status>> } = {
  revolut: new Map(statuses.revolut.map((s) => [s, closure("revolut", s)])),
  "obie-3.1.11": new Map(statuses["obie-3.1.11"].map((s) => [s, closure("obie-3.1.11", s)]))
}

/** @internal */
export const EMPTY: ReadonlySet<never> = new Set()

const notInProfile = (profile: Profile, s: string): string =>
  `${s} is not a ${profile} payment status (the ${profile} statuses are ${statuses[profile].join(", ")})`

/** why `from -> to` is not a transition of the profile's table @internal */
export const illegal = (
  profile: Profile,
  from: Status,
  to: Status
): { readonly reason: TransitionFailure; readonly message: string } => {
  if (!inProfile(profile, from)) return { reason: "NotInProfile", message: notInProfile(profile, from) }
  if (!inProfile(profile, to)) return { reason: "NotInProfile", message: notInProfile(profile, to) }
  const row = rows(profile)[from]!
  if (row.length === 0) {
    return {
      reason: "Terminal",
      message: `${from} is terminal: in ${profile} a payment does not move from ${from} to ${to}`
    }
  }
  if (from === to) {
    return { reason: "Unchanged", message: `${from} to ${from} is not a transition: the status did not change` }
  }
  if (closures[profile].get(from)!.has(to)) {
    const via = row.filter((s) => s === to || closures[profile].get(s)!.has(to))
    return {
      reason: "Indirect",
      message: `${from} to ${to} is not one transition: it passes through ${via.join(" or ")}`
    }
  }
  return {
    reason: "Unreachable",
    message: `${to} never follows ${from} (in ${profile} a payment moves from ${from} to ${row.join(" or ")})`
  }
}

/** the first fault of an observed sequence: what `InvalidHistory` carries besides the profile @internal */
export interface HistoryProblem {
  readonly index: number
  readonly from: Status
  readonly to: Status
  readonly reason: HistoryFailure
  readonly message: string
}

/**
 * The first fault of a sequence of known statuses, with indexes shifted by `offset` (the position of the sequence in
 * a longer one), or undefined when it can be the history of one payment. @internal
 */
export const historyProblem = (
  profile: Profile,
  observed: ReadonlyArray<Status>,
  offset = 0
): HistoryProblem | undefined => {
  for (let i = 0; i < observed.length; i++) {
    const s = observed[i]!
    if (!inProfile(profile, s)) {
      return {
        index: i + offset,
        from: s,
        to: s,
        reason: "NotInProfile",
        message: `observed ${s} at index ${i + offset}, but ${notInProfile(profile, s)}`
      }
    }
  }
  for (let i = 0; i + 1 < observed.length; i++) {
    const from = observed[i]!
    const to = observed[i + 1]!
    if (from === to || closures[profile].get(from)!.has(to)) continue
    const terminal = rows(profile)[from]!.length === 0
    return {
      index: i + offset,
      from,
      to,
      reason: terminal ? "Terminal" : "Unreachable",
      message: terminal
        ? `observed ${to} after ${from} at index ${i + offset + 1}, but ${from} is terminal`
        : `observed ${to} after ${from} at index ${i + offset + 1}, but ${to} never follows ${from}`
    }
  }
  return undefined
}

const isUnknown = (s: Status | OpenEnum.Unknown): s is OpenEnum.Unknown => typeof s !== "string"

/**
 * The first fault of an observed sequence with statuses this version may not know: each run of known statuses
 * between unknown ones is checked on its own (with its indexes in the whole sequence); each unknown status is
 * unchecked. @internal
 */
export const observedProblem = <P extends Profile>(
  profile: P,
  observed: ReadonlyArray<Observed<P>>
): { readonly problem: HistoryProblem | undefined; readonly unchecked: ReadonlyArray<Unchecked> } => {
  const unchecked: Array<Unchecked> = []
  let start = 0
  const run = (end: number) => historyProblem(profile, observed.slice(start, end) as ReadonlyArray<Status>, start)
  for (let i = 0; i < observed.length; i++) {
    const s = observed[i]!
    if (!isUnknown(s)) continue
    const problem = run(i)
    if (problem !== undefined) return { problem, unchecked }
    unchecked.push({
      index: i,
      value: s.value,
      message: `${JSON.stringify(s.value)} at index ${i} is not a ${profile} status this version knows: the moves into and out of it are not checked`
    })
    start = i + 1
  }
  return { problem: run(observed.length), unchecked }
}
