/**
 * How a schedule reads for a person, in every rendering (the SVG timeline, the command line's table, the playground's
 * table): instants on the wall clock of the subscription's zone, amounts formatted by `@payrules/money`, totals per
 * currency.
 *
 * @internal
 */
import { Money } from "@payrules/money"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Schedule from "../../Schedule.js"

const pad2 = (n: number) => String(n).padStart(2, "0")

/** a year as ISO 8601 writes it: four digits in 0000-9999 (`0001`), else a sign and six digits (`+010000`) */
const isoYear = (year: number): string =>
  year >= 0 && year <= 9999
    ? String(year).padStart(4, "0")
    : `${year < 0 ? "-" : "+"}${String(Math.abs(year)).padStart(6, "0")}`

const byParts = (dt: DateTime.DateTime): string => {
  const p = DateTime.toParts(dt)
  return `${isoYear(p.year)}-${pad2(p.month)}-${pad2(p.day)} ${pad2(p.hour)}:${pad2(p.minute)}`
}

/** one formatter per IANA zone: `DateTime.toParts` works out the zone's offset anew for every date-time (13 µs) */
const formatters = new Map<string, Intl.DateTimeFormat>()

const formatterOf = (zone: string): Intl.DateTimeFormat => {
  let f = formatters.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit"
    })
    formatters.set(zone, f)
  }
  return f
}

const fromFormatter = (zone: string, ms: number): string | undefined => {
  let year = ""
  let month = ""
  let day = ""
  let hour = ""
  let minute = ""
  for (const p of formatterOf(zone).formatToParts(ms)) {
    if (p.type === "year") year = p.value
    else if (p.type === "month") month = p.value
    else if (p.type === "day") day = p.value
    else if (p.type === "hour") hour = p.value
    else if (p.type === "minute") minute = p.value
    else if (p.type === "era") return undefined
  }
  return /^\d{4}$/.test(year) ? `${year}-${month}-${day} ${hour}:${minute}` : undefined
}

/**
 * `2024-01-31 09:00` on the wall clock of the date-time's zone. What `DateTime.toParts` gives, read from a formatter
 * kept per zone (the timeline titles a few hundred ticks); years outside 1000-9999 by `DateTime.toParts` itself,
 * written as ISO 8601 writes them (`0001-01-01 00:00`, `+010000-01-01 00:00`, `-000001-...`).
 *
 * @internal
 */
export const wallClock = (dt: DateTime.DateTime): string =>
  (dt._tag === "Zoned" && dt.zone._tag === "Named" ? fromFormatter(dt.zone.id, dt.epochMilliseconds) : undefined) ??
  byParts(dt)

/**
 * {@link wallClock} of an instant in the zone of another date-time, without making a date-time of it.
 *
 * @internal
 */
export const wallClockIn = (like: DateTime.DateTime, ms: number): string =>
  (like._tag === "Zoned" && like.zone._tag === "Named" ? fromFormatter(like.zone.id, ms) : undefined) ??
  byParts(like._tag === "Zoned" ? DateTime.makeZonedUnsafe(ms, { timeZone: like.zone }) : DateTime.makeUnsafe(ms))

/** minor units in a currency as a person reads them (`£9.99`), or the bare number and code when it has no format */
export const minor = (amount: number | bigint, currency: string): string =>
  Result.getOrElse(Money.formatMinor(amount, currency), () => `${amount} ${currency}`)

/** An amount in minor units as a person reads it, or "amount unknown". @internal */
export const price = (amount: Option.Option<number>, currency: Option.Option<string>): string =>
  Option.isSome(amount)
    ? Option.isSome(currency)
      ? minor(amount.value, currency.value)
      : `${amount.value} (no currency)`
    : "amount unknown"

/** `24 cycle(s) billed: £224.76`, with the cycles that had no amount counted apart. @internal */
export const totalsLine = (totals: Schedule.Totals): string => {
  const parts = totals.byCurrency.map(({ amount, currency }) => minor(amount, currency))
  return `${totals.cycles} cycle(s) billed${parts.length > 0 ? `: ${parts.join(" + ")}` : ""}${
    totals.cyclesWithoutAmount > 0 ? `; ${totals.cyclesWithoutAmount} cycle(s) with no amount` : ""
  }`
}
