/**
 * What the SVG timeline draws, read from a `Timeline` without walking its cycles: the span of the picture, a band per
 * trial or phase, and for each phase its cycles by index (cycle j starts at `anchor + (offset + j) × duration`, as
 * `Schedule.events` computes it, in one step from the anchor). Counting the cycles of a bucket (a day, a quarter)
 * costs two binary searches (`Calendar.stepsUntil`), so a picture of 43,800 two-hour cycles costs what a picture of
 * 24 monthly ones does: the drawing is bounded by its pixels and labels, not by the cycles.
 *
 * It says what `Schedule.events(timeline, until)` says: the test checks every count and instant against the events.
 *
 * @internal
 */
import { Calendar } from "@payrules/iso8601"
import * as DateTime from "effect/DateTime"
import * as Result from "effect/Result"
import type * as Schedule from "../../Schedule.js"
import type * as ScheduleSvg from "../../ScheduleSvg.js"
import * as internalTotals from "../totals.js"

/** A trial or a phase, clipped to the picture (`ScheduleSvg.Band`), with its placed phase. @internal */
export interface Band extends ScheduleSvg.Band {
  /** the phase, for a phase band */
  readonly placed: Schedule.PlacedPhase | undefined
}

/** @internal */
export interface Picture {
  readonly bands: ReadonlyArray<Band>
  /** the first instant drawn: the subscription's start */
  readonly start: DateTime.DateTime
  /** the last instant drawn: where the subscription stops, or the horizon */
  readonly end: DateTime.DateTime
  readonly stopped: boolean
  readonly totals: Schedule.Totals
}

/** the largest instant (the end of time of `Date` and `DateTime`) */
const MAX_EPOCH_MILLIS = 8.64e15

const min = (a: DateTime.DateTime, b: DateTime.DateTime) => (a.epochMilliseconds <= b.epochMilliseconds ? a : b)

/**
 * The picture of a timeline up to an instant: the trial and the phases that start before it, each ending where
 * it ends or at the horizon; stopped when the last phase ends at or before the horizon (as the events end with
 * `SubscriptionStopped` then).
 *
 * @internal
 */
export const picture = (t: Schedule.Timeline, until: DateTime.DateTime): Picture => {
  const horizon = until.epochMilliseconds
  const totals = internalTotals.totals(t, until)
  const bands: Array<Band> = []
  const done = (end: DateTime.DateTime, stopped: boolean): Picture => ({
    bands,
    start: t.start.epochMilliseconds < horizon ? t.start : until,
    end,
    stopped,
    totals
  })
  if (!(t.start.epochMilliseconds < horizon)) return done(until, false)
  if (t.trialEnd !== undefined) {
    const to = min(t.trialEnd, until)
    bands.push({
      label: "trial",
      kind: "trial",
      start: t.start.epochMilliseconds,
      end: to.epochMilliseconds,
      from: t.start,
      to,
      cycles: 0,
      placed: undefined
    })
    if (t.trialEnd.epochMilliseconds > horizon) return done(until, false)
  }
  for (const [i, p] of t.phases.entries()) {
    if (!(p.start.epochMilliseconds < horizon)) return done(until, false)
    const to = p.end === undefined ? until : min(p.end, until)
    bands.push({
      label: p.phase.id,
      kind: "phase",
      start: p.start.epochMilliseconds,
      end: to.epochMilliseconds,
      from: p.start,
      to,
      cycles: totals.byPhase[i]?.cycles ?? 0,
      placed: p
    })
    if (p.end === undefined || p.end.epochMilliseconds > horizon) return done(until, false)
  }
  return done(t.phases[t.phases.length - 1]?.end ?? until, true)
}

/** the instant of boundary k of a phase (cycle k starts there, cycle k - 1 ends there), or NaN out of range */
const boundary = (p: Schedule.PlacedPhase, k: number): number =>
  k === 0
    ? p.start.epochMilliseconds
    : Result.getOrElse(Calendar.addToEpochMillis(p.anchor, p.duration, p.offset + k), () => Number.NaN)

/** The epoch milliseconds at which cycle j of a phase starts. @internal */
export const cycleStart = (p: Schedule.PlacedPhase, j: number): number => boundary(p, j)

/** The epoch milliseconds at which cycle j of a phase ends. @internal */
export const cycleEnd = (p: Schedule.PlacedPhase, j: number): number => boundary(p, j + 1)

/** Cycle j's start as a date-time in the subscription's zone. @internal */
export const cycleStartAt = (p: Schedule.PlacedPhase, j: number): DateTime.DateTime =>
  j === 0 ? p.start : Result.getOrElse(Calendar.addTo(p.anchor, p.duration, p.offset + j), () => p.start)

/**
 * The first cycle of a band that starts at or after an instant (`band.cycles` when none does).
 *
 * @internal
 */
export const firstAtOrAfter = (band: Band, ms: number): number => {
  const p = band.placed
  if (p === undefined || band.cycles === 0 || ms <= p.start.epochMilliseconds) return 0
  if (ms - 1 > MAX_EPOCH_MILLIS) return band.cycles
  // the largest k with anchor + k × duration <= ms - 1, so boundary k - offset is the last start before ms
  const steps = Calendar.stepsUntil(p.anchor, p.duration, DateTime.makeUnsafe(ms - 1))
  if (Result.isFailure(steps)) return band.cycles
  return Math.min(Math.max(steps.success - p.offset + 1, 1), band.cycles)
}
