/**
 * The inputs of the plan panel and their defaults: what the URL carries. Kept apart from the panel's work so that
 * the first load (which reads the URL) does not bring the simulator with it.
 */

/** as `Schedule.Anchor` */
export type Anchor = "phase-start" | "subscription-start"

export type TrialMode = "plan" | "none" | "days"

export const trialModes: ReadonlyArray<TrialMode> = ["plan", "none", "days"]

export interface PlanInputs {
  /** the plan, as JSON text */
  readonly json: string
  /** when the subscription starts: ISO 8601 with an offset */
  readonly start: string
  /** the IANA zone of the wall clock */
  readonly zone: string
  /** how the end is given */
  readonly horizon: "months" | "until"
  readonly months: string
  /** ISO 8601 with an offset */
  readonly until: string
  /** whose trial: the plan's own, none, or one of the length in `trial` */
  readonly trialMode: TrialMode
  /** the trial's length when `trialMode` is `"days"`: a days-only duration (`P14D`); kept as typed otherwise */
  readonly trial: string
  readonly anchor: Anchor
  /** `""`: the first variation */
  readonly variation: string
}

export const defaults: Omit<PlanInputs, "json"> = {
  start: "2025-01-31T09:00:00Z",
  zone: "Europe/London",
  horizon: "months",
  months: "24",
  until: "2027-01-31T09:00:00Z",
  trialMode: "plan",
  trial: "",
  anchor: "phase-start",
  variation: ""
}
