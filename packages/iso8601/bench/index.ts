/**
 * `pnpm bench` for @payrules/iso8601: duration parsing against the peer parsers, and calendar arithmetic against
 * temporal-polyfill, in one process (see tooling/bench).
 */

import { Temporal as JsTemporal } from "@js-temporal/polyfill"
import { run } from "@payrules/bench"
import { Calendar, IsoDuration } from "@payrules/iso8601"
import { DateTime, Result } from "effect"
import * as isoDuration from "iso8601-duration"
import { Duration } from "luxon"
import { Temporal } from "temporal-polyfill"
import * as tinyduration from "tinyduration"

// realistic strings: billing cycles, trials, timeouts, retention periods
const strings = [
  "P1M",
  "P1Y",
  "P15D",
  "P1W",
  "PT2H",
  "P14D",
  "P1Y2M3DT4H5M6.5S",
  "P3M",
  "P6M",
  "P30D",
  "P7D",
  "PT1H",
  "PT30M",
  "PT15M",
  "P1DT12H",
  "P2Y",
  "PT36H",
  "P1M15D",
  "PT0.5S",
  "P90D",
  "P12M",
  "PT24H",
  "P1Y6M",
  "PT45S",
  "P2W"
]
const n = strings.length

const cycle = <A>(f: (s: string) => A) => {
  let i = 0
  return () => f(strings[i++ % n]!)
}

const sameMonthsAndDays = (f: (s: string) => { months?: number | undefined; days?: number | undefined }) => () =>
  strings.every((s) => {
    const ours = IsoDuration.parseUnsafe(s)
    const theirs = f(s)
    return (theirs.months ?? 0) === ours.months && (theirs.days ?? 0) === ours.days
  })

await run("IsoDuration.parse: one string of a mix of 25 realistic durations", [
  {
    name: "parse",
    unit: "one string",
    contenders: [
      {
        name: "IsoDuration.parse",
        ours: true,
        fn: cycle(IsoDuration.parse),
        check: () => strings.every((s) => Result.isSuccess(IsoDuration.parse(s)))
      },
      { name: "tinyduration", fn: cycle(tinyduration.parse), check: sameMonthsAndDays(tinyduration.parse) },
      { name: "iso8601-duration", fn: cycle(isoDuration.parse), check: sameMonthsAndDays(isoDuration.parse) },
      {
        name: "luxon Duration.fromISO",
        fn: cycle((s) => Duration.fromISO(s)),
        check: sameMonthsAndDays((s) => Duration.fromISO(s).toObject())
      },
      {
        name: "temporal-polyfill",
        fn: cycle((s) => Temporal.Duration.from(s)),
        check: sameMonthsAndDays((s) => Temporal.Duration.from(s))
      },
      {
        name: "@js-temporal/polyfill",
        fn: cycle((s) => JsTemporal.Duration.from(s)),
        check: sameMonthsAndDays((s) => JsTemporal.Duration.from(s))
      }
    ]
  }
])

const durations = ["P1M", "P1Y", "P15D", "P1W", "PT2H", "P1M15D", "PT36H", "P3M"].map(IsoDuration.parseUnsafe)
const temporalAdd = (zdt: Temporal.ZonedDateTime, d: IsoDuration.IsoDuration, k: number) =>
  zdt.add({ years: d.years * k, months: d.months * k, weeks: d.weeks * k, days: d.days * k, hours: d.hours * k })
const start = Date.UTC(2024, 0, 31, 9, 30)

const addCase = (label: string, dt: DateTime.DateTime, zone: string) => {
  const zdt = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(zone)
  let i = 0
  let j = 0
  return {
    name: `addTo ${label}`,
    unit: "one addition of k x duration",
    contenders: [
      {
        name: "Calendar.addTo",
        ours: true,
        fn: () => {
          const k = (i++ % 24) + 1
          return Calendar.addTo(dt, durations[k % durations.length]!, k)
        },
        // same results as the peer for every duration and multiple used in the loop
        check: () =>
          durations.every((d) =>
            Array.from({ length: 24 }, (_, k) => k + 1).every(
              (k) =>
                Result.getOrThrow(Calendar.addTo(dt, d, k)).epochMilliseconds ===
                temporalAdd(zdt, d, k).epochMilliseconds
            )
          )
      },
      {
        name: "temporal-polyfill ZonedDateTime.add",
        fn: () => {
          const k = (j++ % 24) + 1
          return temporalAdd(zdt, durations[k % durations.length]!, k)
        }
      }
    ]
  }
}

await run("Calendar.addTo: date-time + k x duration, against temporal-polyfill", [
  addCase("UTC", DateTime.makeUnsafe(start), "UTC"),
  addCase("fixed offset +05:30", DateTime.makeZonedUnsafe(start, { timeZone: 5.5 * 3_600_000 }), "+05:30"),
  addCase("Europe/London", DateTime.makeZonedUnsafe(start, { timeZone: "Europe/London" }), "Europe/London")
])
