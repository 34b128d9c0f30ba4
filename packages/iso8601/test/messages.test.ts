import { describe, expect, it } from "@effect/vitest"
import { Calendar, HttpDate, IsoDuration, OffsetDateTime } from "@payrules/iso8601"
import { DateTime, Effect, Result, Schema } from "effect"

describe("iso8601 errors and messages (named after the bugs they guard)", () => {
  it("each way a duration string is refused has its own message (bug: an empty hint, or another rule's)", () => {
    const cases = [
      ["", 0, "a duration cannot be an empty string"],
      ["1P1D", 0, "a duration starts with 'P' (after an optional '+' or '-')"],
      ["P", 1, "a duration needs at least one unit after 'P' or 'T' (e.g. P1D, PT1H)"],
      ["P1DT", 3, "'T' must be followed by at least one time unit (H, M or S)"],
      ["P1D ", 3, "unexpected character"],
      ["P1", 2, "a number must be followed by a unit designator (Y, M, W, D; after T: H, M, S)"],
      ["P1M1Y", 4, "units must appear at most once and in the order Y, M, W, D, T, H, M, S"],
      ["P2H", 2, "hours and seconds belong after 'T' (PT2H, not P2H)"],
      ["PT1D", 3, "years, weeks and days belong before 'T'"],
      [
        "P0.5Y",
        1,
        "ISO 8601 allows a fraction on the smallest date unit (P0.5Y), but Temporal's grammar, which payrules follows, allows fractions only on hours, minutes or seconds"
      ],
      ["PT0.1H0M", 6, "only the last unit of the duration may have a fraction"],
      ["PT1.1234567891S", 13, "a fraction has at most 9 digits (nanosecond precision)"],
      ["PT.1H", 2, "a decimal separator needs digits on both sides (PT0.5H, not PT.5H or PT2.H)"],
      ["P-1Y", 1, "the sign applies to the whole duration and goes before 'P' (-P1Y, not P-1Y)"],
      [
        "P0001-02-03",
        5,
        "the ISO 8601 alternative format (P0001-02-03, PT01:02:03) is valid ISO 8601 but outside Temporal's grammar, which payrules follows: write designators (P1Y2M3D, PT1H2M3S)"
      ],
      [
        "P4294967296Y",
        0,
        "out of Temporal's range: years, months and weeks below 2^32, and days-hours-minutes-seconds below 2^53 seconds"
      ]
    ] as const
    for (const [input, position, why] of cases) {
      const e = Result.getOrThrow(Result.flip(IsoDuration.parse(input)))
      expect(e.message).toBe(`Invalid ISO 8601 duration ${JSON.stringify(input)} at position ${position}: ${why}`)
    }
    const long = Result.getOrThrow(Result.flip(IsoDuration.parse(`P${"1".repeat(60)}`)))
    expect(long.message).toContain(`"P${"1".repeat(44)}..."`)
    const at48 = `P${"1".repeat(47)}`
    expect(Result.getOrThrow(Result.flip(IsoDuration.parse(at48))).message).toContain(JSON.stringify(at48))
  })

  it("make names the rule a field breaks (bug: an out-of-range duration reported without why)", () => {
    const e = Result.getOrThrow(Result.flip(IsoDuration.make({ weeks: 2 ** 32 })))
    expect([e.reason, e.field, e.message]).toEqual([
      "OutOfRange",
      undefined,
      "out of Temporal's range: years, months and weeks below 2^32, and days-hours-minutes-seconds below 2^53 seconds"
    ])
    try {
      IsoDuration.makeUnsafe({ days: 1.5 })
      expect.unreachable()
    } catch (thrown) {
      expect(thrown).toBeInstanceOf(IsoDuration.InvalidIsoDurationFields)
      expect((thrown as IsoDuration.InvalidIsoDurationFields).reason).toBe("NotAnInteger")
    }
  })

  it("accepts durations up to Temporal's range, to the nanosecond, and refuses the next (bug: the last second refused)", () => {
    for (const s of [
      "PT9007199254740991.999999999S",
      "P104249991374DT7H36M31.999999999S",
      "PT9007199254740991S",
      "P4294967295Y4294967295M4294967295W"
    ]) {
      expect(Result.map(IsoDuration.parse(s), IsoDuration.format), s).toEqual(Result.succeed(s))
    }
    for (const s of ["P104249991374DT7H36M32S", "PT9007199254740992S", "P4294967296W", "P4294967296M"]) {
      const r = IsoDuration.parse(s)
      expect(Result.isFailure(r) && r.failure.reason, s).toBe("OutOfRange")
    }
  })

  it("tells the alternative format from a missing unit, in either part (bug: PT12345678 called the alternative format)", () => {
    for (const [input, reason, position] of [
      ["PT,5H", "FractionWithoutDigits", 2],
      ["PT12345678", "MissingUnit", 10],
      ["P00010203T040506", "AlternativeFormat", 9],
      ["P0001:02", "AlternativeFormat", 5],
      ["P1234567T1H", "MissingUnit", 8]
    ] as const) {
      const e = Result.getOrThrow(Result.flip(IsoDuration.parse(input)))
      expect([e.reason, e.position], input).toEqual([reason, position])
    }
  })

  it("a zero fraction on a date unit is refused as any fraction there (bug: P0.0Y read as zero)", () => {
    for (const [input, position] of [
      ["P0.0Y", 1],
      ["P1Y0.0M", 3]
    ] as const) {
      const e = Result.getOrThrow(Result.flip(IsoDuration.parse(input)))
      expect([e.reason, e.position], input).toEqual(["FractionOnDateUnit", position])
    }
  })

  it("the wire side of the duration Schemas refuses what parse refuses (bug: Schema.is on the string took any text)", () => {
    const isDuration = Schema.is(Schema.toEncoded(IsoDuration.IsoDurationFromString))
    expect([isDuration("P1D"), isDuration("P1X"), isDuration("P0.5Y")]).toEqual([true, false, false])
    const isTrial = Schema.is(Schema.toEncoded(IsoDuration.DaysOnlyFromString))
    expect([isTrial("P14D"), isTrial("P1W"), isTrial("P0D")]).toEqual([true, false, false])
  })

  it("writes zero as PT0S, years 9999 and 10000 apart, and 100 or 99 milliseconds with three digits (bug: -PT0S, .0100)", () => {
    expect(IsoDuration.format(IsoDuration.zero)).toBe("PT0S")
    expect(OffsetDateTime.format(DateTime.makeUnsafe("9999-12-31T23:59:59.100Z"))).toBe("9999-12-31T23:59:59.100Z")
    expect(OffsetDateTime.format(DateTime.makeUnsafe(Date.UTC(10000, 0, 1)))).toBe("+010000-01-01T00:00:00Z")
    expect(OffsetDateTime.format(DateTime.makeUnsafe(Date.UTC(2024, 0, 1, 0, 0, 0, 99)))).toBe(
      "2024-01-01T00:00:00.099Z"
    )
  })

  it("an HTTP date or an obsolete form with text around it is a syntax error (bug: 'xSun, ...' read as a date)", () => {
    for (const s of [
      "xSun, 10 Sep 2017 19:43:31 GMT",
      "Sun, 10 Sep 2017 19:43:31 GMTx",
      "xSunday, 10-Sep-17 19:43:31 GMT",
      "Sunday, 10-Sep-17 19:43:31 GMTx",
      "xSun Sep 10 19:43:31 2017",
      "Sun Sep 10 19:43:31 2017x"
    ]) {
      const r = HttpDate.parse(s)
      expect(Result.isFailure(r) && r.failure.reason, s).toBe("Syntax")
    }
    const asctime = HttpDate.parse("Sun Sep 10 19:43:31 2017")
    expect(Result.isFailure(asctime) && asctime.failure.reason).toBe("ObsoleteFormat")
  })

  it.effect("each error is tagged with its own name, so Effect.catchTag tells them apart (bug: a renamed tag)", () =>
    Effect.gen(function* () {
      const errors = [
        Result.getOrThrow(Result.flip(IsoDuration.parse("x"))),
        Result.getOrThrow(Result.flip(IsoDuration.make({ days: 1.5 }))),
        Result.getOrThrow(Result.flip(OffsetDateTime.parse("x"))),
        Result.getOrThrow(Result.flip(HttpDate.parse("x"))),
        Result.getOrThrow(Result.flip(Calendar.addTo(DateTime.makeUnsafe(0), IsoDuration.parseUnsafe("P1D"), 1.5)))
      ]
      expect(errors.map((e) => e._tag)).toEqual([
        "IsoDurationParseError",
        "InvalidIsoDurationFields",
        "OffsetDateTimeParseError",
        "HttpDateParseError",
        "CalendarError"
      ])
      const caught = yield* Effect.fail(errors[4]!).pipe(
        Effect.catchTag("CalendarError", (e) => Effect.succeed(e.reason))
      )
      expect(caught).toBe("InvalidMultiplier")
    })
  )
})
