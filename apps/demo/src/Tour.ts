/**
 * `payrules tour`: a short, real walk through the packages, printed for a person.
 */
import { Calendar, IsoDuration } from "@payrules/iso8601"
import * as Console from "effect/Console"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"

const heading = (title: string) => Console.log(`\n== ${title} ==`)

const describeDuration = (input: string): string =>
  Either.match(IsoDuration.parse(input), {
    onLeft: (e) => `  ${input.padEnd(22)} rejected: ${e.reason} (${e.message.split(": ").at(-1)})`,
    onRight: (d) =>
      `  ${input.padEnd(22)} -> ${IsoDuration.format(d).padEnd(22)} ${
        IsoDuration.fieldNames
          .filter((f) => d[f] !== 0)
          .map((f) => `${f} ${d[f]}`)
          .join(", ") || "zero"
      }`
  })

/**
 * The ISO 8601 part of the tour: parsing, canonical formatting and calendar arithmetic.
 */
export const durationsTour = Effect.gen(function* () {
  yield* heading("ISO 8601 durations (Temporal's grammar)")
  for (const input of ["P1M", "P14D", "PT2H", "P1Y2M3DT4H5M6.5S", "PT1.5H", "p1w", "-P1D", "P0.5Y", "P1DT", "PT36H"]) {
    yield* Console.log(describeDuration(input))
  }

  yield* heading("Billing boundaries: anchor + k x P1M, computed in one step")
  const jan31 = DateTime.unsafeMakeZoned("2024-01-31T09:00:00Z", { timeZone: "Europe/London" })
  const month = IsoDuration.unsafeParse("P1M")
  let drifting = jan31
  for (let k = 1; k <= 4; k++) {
    const anchored = Calendar.unsafeAddTo(jan31, month, k)
    drifting = Calendar.unsafeAddTo(drifting, month)
    yield* Console.log(
      `  k=${k}  anchored ${DateTime.formatIsoZoned(anchored).slice(0, 16)}   chained ${DateTime.formatIsoZoned(
        drifting
      ).slice(0, 16)}`
    )
  }

  yield* heading("Across the London spring-forward (2024-03-31)")
  const noon = DateTime.unsafeMakeZoned("2024-03-30T12:00:00Z", { timeZone: "Europe/London" })
  for (const d of ["P1D", "PT24H"]) {
    const result = Calendar.unsafeAddTo(noon, IsoDuration.unsafeParse(d))
    yield* Console.log(`  ${DateTime.formatIsoOffset(noon)} + ${d.padEnd(5)} = ${DateTime.formatIsoZoned(result)}`)
  }
  return { durations: 10 }
})

/**
 * The whole tour.
 */
export const tour = Effect.gen(function* () {
  yield* Console.log("payrules tour: validation and simulation for payment API traffic")
  const summary = yield* durationsTour
  yield* Console.log(`\nDone: ${summary.durations} durations parsed, billing boundaries and DST arithmetic shown.`)
})
