/**
 * The schedule of a subscription drawn for a person: the SVG timeline that `payrules simulate --format svg` prints
 * and the playground shows, and the wording every rendering of a schedule shares (wall-clock instants, prices,
 * totals).
 *
 * The timeline has one band per phase (the trial hatched), a tick per billed cycle (one every 3 pixels where cycles
 * are denser), the amounts under each band at the finest level whose labels do not overlap (each cycle, then sums
 * per day, week, month, quarter, year, phase), the stop or the horizon marked, a date axis whose step follows the
 * zoom, and the totals per currency. Every text is monospaced and declares its width (`textLength`), so no two texts
 * overlap in any renderer.
 *
 * It is drawn from a `Schedule.Timeline` without walking its cycles: ten years of two-hour cycles (43,800 of them)
 * cost what two years of monthly ones do.
 *
 * @since 0.1.0
 */
import type * as DateTime from "effect/DateTime"
import { dual } from "effect/Function"
import type * as Option from "effect/Option"
import * as internalPicture from "./internal/render/picture.js"
import * as svg from "./internal/render/svg.js"
import * as text from "./internal/render/text.js"
import type * as Schedule from "./Schedule.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** the horizon: cycles that start at or after it are not drawn (as `Schedule.events` does not bill them) */
  readonly until: DateTime.DateTime
  /** the title above the timeline */
  readonly title: string
}

/**
 * How the amounts under a band are grouped, from the finest level to the coarsest.
 *
 * @since 0.1.0
 * @category models
 */
export type Level = svg.Level

/**
 * The font of every text: monospaced, so that the width of a text follows from its length (0.6 font sizes per
 * character).
 *
 * @since 0.1.0
 * @category constants
 */
export const fontFamily: string = svg.fontFamily

/**
 * The SVG timeline of a timeline up to a horizon, 1000 pixels wide.
 *
 * @example
 * ```ts
 * import { Schedule, ScheduleSvg, SubscriptionPlan } from "@payrules/subscriptions"
 * import { DateTime, Result, Schema } from "effect"
 *
 * const monthly = Schema.decodeUnknownSync(SubscriptionPlan.Variation)({
 *   id: "monthly",
 *   phases: [{ id: "standard", ordinal: 1, cycle_duration: "P1M", amount: 999, currency: "GBP" }]
 * })
 * const start = DateTime.makeZonedUnsafe("2024-01-31T09:00:00Z", { timeZone: "Europe/London" })
 * const timeline = Result.getOrThrow(Schedule.compile(monthly, { start }))
 * const svg = ScheduleSvg.render(timeline, { until: DateTime.add(start, { months: 3 }), title: "Monthly" })
 * console.log(svg.match(/class="cycle"/g)?.length) // 3
 * ```
 *
 * @since 0.1.0
 * @category renderings
 */
export const render: {
  (options: Options): (timeline: Schedule.Timeline) => string
  (timeline: Schedule.Timeline, options: Options): string
} = dual(2, svg.render)

/**
 * The span of the trial or of one phase in a picture, clipped to the horizon, with the cycles it bills there.
 *
 * @since 0.1.0
 * @category models
 */
export interface Band {
  readonly label: string
  readonly kind: "trial" | "phase"
  /** epoch milliseconds */
  readonly start: number
  /** epoch milliseconds */
  readonly end: number
  readonly from: DateTime.DateTime
  readonly to: DateTime.DateTime
  readonly cycles: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Layout {
  readonly bands: ReadonlyArray<Band>
  /** the first instant drawn: the subscription's start */
  readonly start: DateTime.DateTime
  /** the last: where the subscription stops, or the horizon */
  readonly end: DateTime.DateTime
  /** whether the subscription stops at `end` (its last phase ends), rather than the horizon cutting it */
  readonly stopped: boolean
}

/**
 * What the timeline lays out, for other drawings of it (the command line's text timeline): a band per trial or
 * phase up to the horizon, the span, and whether the subscription stops. Read in closed form, as `render` reads it.
 *
 * @since 0.1.0
 * @category renderings
 */
export const layout = (timeline: Schedule.Timeline, until: DateTime.DateTime): Layout => {
  const { bands, end, start, stopped } = internalPicture.picture(timeline, until)
  return {
    bands: bands.map(({ cycles, end, from, kind, label, start, to }) => ({
      label,
      kind,
      start,
      end,
      from,
      to,
      cycles
    })),
    start,
    end,
    stopped
  }
}

/**
 * An instant on the wall clock of its zone, to the minute: `2024-01-31 09:00`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const wallClock: (dt: DateTime.DateTime) => string = text.wallClock

/**
 * An amount in minor units as a person reads it (`£9.99`, `¥1,500`), formatted by `@payrules/money`; the number and
 * the code when the currency is not on the list, `999 (no currency)` without a currency, `amount unknown` without an
 * amount.
 *
 * @since 0.1.0
 * @category formatting
 */
export const price: (amount: Option.Option<number>, currency: Option.Option<string>) => string = text.price

/**
 * The totals of a schedule in one line: `24 cycle(s) billed: £224.76`, a sum per currency joined by `+`, and the
 * cycles without an amount counted apart.
 *
 * @since 0.1.0
 * @category formatting
 */
export const totalsLine: (totals: Schedule.Totals) => string = text.totalsLine
