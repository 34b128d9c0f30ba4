import { describe, expect, it } from "@effect/vitest"
import { Calendar, HttpDate, IsoDuration, OffsetDateTime } from "@payrules/iso8601"
import { Arbitrary, DateTime, Effect, Result, Schema, SchemaAST } from "effect"

const DURATION_PATTERN =
  "^[+-]?[Pp](?=[0-9Tt])(?:[0-9]+[Yy])?(?:[0-9]+[Mm])?(?:[0-9]+[Ww])?(?:[0-9]+[Dd])?(?:[Tt](?=[0-9])(?:[0-9]+(?:[.,][0-9]{1,9})?[Hh])?(?:[0-9]+(?:[.,][0-9]{1,9})?[Mm])?(?:[0-9]+(?:[.,][0-9]{1,9})?[Ss])?)?$"

const documentOf = (schema: Schema.Top) => {
  const document = Schema.toJsonSchemaDocument(schema)
  return { schema: document.schema, definitions: document.definitions }
}

describe("iso8601 annotations and messages users see (named after the bugs they guard)", () => {
  // -------------------------------------------------------------------------
  // the exported JSON Schemas
  // -------------------------------------------------------------------------

  it("the JSON Schemas of the duration strings have their pattern, title, description and examples (bug: docs that say only 'string')", () => {
    expect(documentOf(IsoDuration.IsoDurationFromString)).toEqual({
      schema: { $ref: "#/$defs/IsoDurationFromString" },
      definitions: {
        IsoDurationFromString: {
          type: "string",
          pattern: DURATION_PATTERN,
          title: "ISO 8601 duration",
          description: "an ISO 8601 duration in Temporal's grammar, e.g. P1M, P1Y2M3DT4H5M6.5S, PT36H",
          examples: ["P1M", "PT2H"]
        }
      }
    })
    expect(documentOf(IsoDuration.DaysOnlyFromString)).toEqual({
      schema: { $ref: "#/$defs/DaysOnlyFromString" },
      definitions: {
        DaysOnlyFromString: {
          type: "string",
          pattern: "^P[0-9]+D$",
          title: "days-only ISO 8601 duration",
          description: "a number of days, at least 1, as P<n>D (e.g. P14D)",
          examples: ["P14D"]
        }
      }
    })
    // the value Schema's JSON form is the duration string
    expect(documentOf(IsoDuration.IsoDurationFromSelf)).toEqual({
      schema: { $ref: "#/$defs/IsoDurationEncoded" },
      definitions: { IsoDurationEncoded: { type: "string", pattern: DURATION_PATTERN } }
    })
  })

  it("the JSON Schemas of the date-time strings say what they take (bug: an offset date-time documented as any string)", () => {
    expect(documentOf(OffsetDateTime.OffsetDateTimeFromString)).toEqual({
      schema: { $ref: "#/$defs/OffsetDateTimeFromString" },
      definitions: {
        OffsetDateTimeFromString: {
          type: "string",
          title: "ISO 8601 date-time with timezone",
          description: "an ISO 8601 date-time that carries Z or an offset, e.g. 2017-06-05T15:15:13+00:00",
          format: "date-time"
        }
      }
    })
    expect(documentOf(HttpDate.HttpDateFromString)).toEqual({
      schema: { $ref: "#/$defs/HttpDateFromString" },
      definitions: {
        HttpDateFromString: {
          type: "string",
          pattern:
            "^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$",
          title: "RFC 7231 HTTP date",
          description: "an IMF-fixdate, e.g. Sun, 10 Sep 2017 19:43:31 GMT"
        }
      }
    })
  })

  it("the decoded values are named and described (bug: an issue about 'Declaration' instead of the duration)", () => {
    const days = Schema.toType(IsoDuration.DaysOnlyFromString)
    expect([
      SchemaAST.resolveIdentifier(IsoDuration.IsoDurationFromSelf.ast),
      SchemaAST.resolveDescription(IsoDuration.IsoDurationFromSelf.ast)
    ]).toEqual(["IsoDuration", "an ISO 8601 duration"])
    expect([SchemaAST.resolveIdentifier(days.ast), SchemaAST.resolveDescription(days.ast)]).toEqual([
      "DaysOnlyDuration",
      "a positive ISO 8601 duration of days only"
    ])
    expect(SchemaAST.resolveIdentifier(OffsetDateTime.OffsetDateTimeFromSelf.ast)).toBe("OffsetDateTime")
  })

  it("a trial string is refused with what is wrong with it (bug: 'P1W' told it is not a duration, P0D accepted)", () => {
    const decode = Schema.decodeUnknownResult(IsoDuration.DaysOnlyFromString)
    const message = (u: unknown) => Result.getOrThrow(Result.flip(decode(u))).message
    for (const s of ["P1W", "p14d", "-P14D", "P14DT1H"]) {
      expect(message(s)).toBe(`${JSON.stringify(s)} is a duration, but a trial allows days only, as P<n>D (e.g. P14D)`)
    }
    expect(message("P0D")).toBe("a trial lasts at least one day (P1D)")
    expect(message("xyz")).toBe(
      "Invalid ISO 8601 duration \"xyz\" at position 0: a duration starts with 'P' (after an optional '+' or '-')"
    )
    expect(message("P99999999999999999999D")).toContain("at position 0: out of Temporal's range")
    expect(Schema.encodeSync(IsoDuration.DaysOnlyFromString)(IsoDuration.parseUnsafe("P014D"))).toBe("P14D")
  })

  it("a days-only value has days and nothing else, and is positive (bug: P14DT1H or -P14D taken as a trial)", () => {
    const isDaysOnly = Schema.is(Schema.toType(IsoDuration.DaysOnlyFromString))
    expect(isDaysOnly(IsoDuration.parseUnsafe("P14D"))).toBe(true)
    for (const s of [
      "P1Y14D",
      "P1M14D",
      "P1W14D",
      "P14DT1H",
      "P14DT1M",
      "P14DT1S",
      "P14DT0.001S",
      "P14DT0.000001S",
      "P14DT0.000000001S",
      "-P14D",
      "PT0S"
    ]) {
      expect(isDaysOnly(IsoDuration.parseUnsafe(s)), s).toBe(false)
    }
    expect(isDaysOnly("P14D")).toBe(false)
    const decode = Schema.decodeUnknownResult(Schema.toType(IsoDuration.DaysOnlyFromString))
    expect(Result.getOrThrow(Result.flip(decode(IsoDuration.parseUnsafe("P1W")))).message).toBe(
      "P1W is not a days-only duration"
    )
  })

  // -------------------------------------------------------------------------
  // formatters and equivalences
  // -------------------------------------------------------------------------

  it("a duration is shown as IsoDuration(<its canonical text>) (bug: shown as an object in messages)", () => {
    const d = IsoDuration.parseUnsafe("PT1.5H")
    expect(Schema.toFormatter(IsoDuration.IsoDurationFromSelf)(d)).toBe("IsoDuration(PT1H30M)")
    expect(Schema.toFormatter(Schema.toType(IsoDuration.DaysOnlyFromString))(IsoDuration.parseUnsafe("P014D"))).toBe(
      "IsoDuration(P14D)"
    )
  })

  it("two durations are equivalent when they are the same duration, units as written (bug: P1M equal to P30D, or p1m not to P1M)", () => {
    for (const schema of [IsoDuration.IsoDurationFromSelf, Schema.toType(IsoDuration.DaysOnlyFromString)]) {
      const eq = Schema.toEquivalence(schema as Schema.Schema<IsoDuration.IsoDuration>)
      expect(eq(IsoDuration.parseUnsafe("P14D"), IsoDuration.parseUnsafe("p14d"))).toBe(true)
      expect(eq(IsoDuration.parseUnsafe("P14D"), IsoDuration.parseUnsafe("P2W"))).toBe(false)
      expect(eq(IsoDuration.parseUnsafe("P1M"), IsoDuration.parseUnsafe("P30D"))).toBe(false)
    }
  })

  it("two offset date-times are equivalent when they are the same instant at the same offset (bug: 13:00+01:00 equal to 12:00Z)", () => {
    const eq = Schema.toEquivalence(OffsetDateTime.OffsetDateTimeFromSelf)
    const a = OffsetDateTime.parseUnsafe("2024-03-31T13:00:00+01:00")
    expect(eq(a, OffsetDateTime.parseUnsafe("2024-03-31T13:00:00+0100"))).toBe(true)
    expect(eq(a, OffsetDateTime.parseUnsafe("2024-03-31T12:00:00Z"))).toBe(false)
    expect(eq(a, OffsetDateTime.parseUnsafe("2024-03-31T13:00:01+01:00"))).toBe(false)
  })

  // -------------------------------------------------------------------------
  // arbitraries
  // -------------------------------------------------------------------------

  it.effect(
    "the duration arbitrary draws every unit, zero or not, both signs, within realistic sizes (bug: some units never drawn)",
    () =>
      Effect.gen(function* () {
        const drawn = yield* Arbitrary.sampleEffect(Arbitrary.schema(IsoDuration.IsoDurationFromSelf), {
          count: 500,
          seed: 3
        })
        const bounds = {
          years: 200,
          months: 36,
          weeks: 60,
          days: 400,
          hours: 100,
          minutes: 200,
          seconds: 100_000,
          milliseconds: 999,
          microseconds: 999,
          nanoseconds: 999
        } as const
        for (const [unit, maximum] of Object.entries(bounds) as Array<[keyof typeof bounds, number]>) {
          const values = drawn.map((d) => Math.abs(d[unit]))
          expect(Math.max(...values), unit).toBeLessThanOrEqual(maximum)
          expect(
            values.some((v) => v === 0),
            unit
          ).toBe(true)
          expect(values.filter((v) => v > 0).length, unit).toBeGreaterThan(100)
        }
        expect(drawn.some((d) => d.sign < 0)).toBe(true)
        expect(drawn.some((d) => d.sign > 0)).toBe(true)
      })
  )

  it.effect("the days-only arbitrary draws 1 to 3660 days (bug: P0D, or only a few days)", () =>
    Effect.gen(function* () {
      const drawn = yield* Arbitrary.sampleEffect(Arbitrary.schema(IsoDuration.DaysOnlyFromString), {
        count: 500,
        seed: 3
      })
      const days = drawn.map((d) => d.days)
      expect(Math.min(...days)).toBeGreaterThanOrEqual(1)
      expect(Math.max(...days)).toBeLessThanOrEqual(3660)
      expect(Math.max(...days)).toBeGreaterThan(1000)
      for (const d of drawn) expect(IsoDuration.format(d)).toBe(`P${d.days}D`)
    })
  )

  it.effect(
    "the offset date-time arbitrary draws 1900 to 2200 at real-world offsets, India's and Nepal's too (bug: UTC only)",
    () =>
      Effect.gen(function* () {
        const drawn = yield* Arbitrary.sampleEffect(Arbitrary.schema(OffsetDateTime.OffsetDateTimeFromSelf), {
          count: 1000,
          seed: 3
        })
        const offsets = new Set(drawn.map((d) => DateTime.zonedOffset(d) / 60_000))
        for (const minutes of [0, 330, 345, -210]) expect(offsets.has(minutes), String(minutes)).toBe(true)
        for (const d of drawn) {
          expect(d.epochMilliseconds).toBeGreaterThanOrEqual(Date.UTC(1900, 0, 1))
          expect(d.epochMilliseconds).toBeLessThanOrEqual(Date.UTC(2200, 0, 1))
        }
      })
  )

  it.effect(
    "the HTTP date arbitrary draws whole seconds from 1900 to 2200 (bug: milliseconds an HTTP date cannot keep)",
    () =>
      Effect.gen(function* () {
        const drawn = yield* Arbitrary.sampleEffect(Arbitrary.schema(HttpDate.HttpDateFromString), {
          count: 500,
          seed: 3
        })
        for (const d of drawn) {
          expect(d.epochMilliseconds % 1000 === 0).toBe(true)
          expect(d.epochMilliseconds).toBeGreaterThanOrEqual(Date.UTC(1900, 0, 1))
          expect(d.epochMilliseconds).toBeLessThanOrEqual(Date.UTC(2200, 0, 1))
        }
        expect(new Set(drawn.map((d) => new Date(d.epochMilliseconds).getUTCFullYear())).size).toBeGreaterThan(100)
      })
  )

  // -------------------------------------------------------------------------
  // messages
  // -------------------------------------------------------------------------

  it("each reason an offset date-time is refused has its own message, with the input (bug: an empty or wrong hint)", () => {
    const cases = [
      ["2017-06-05T15:15:13", "the date-time has no timezone: it must end with Z or an offset such as +01:00"],
      ["2023-02-29T00:00:00Z", "the date does not exist"],
      ["2023-01-01T24:00:00Z", "the time of day is out of range"],
      ["2016-12-31T23:59:60Z", "leap seconds (:60) cannot be represented"],
      ["2023-01-01T00:00:00+24:00", "the offset is out of range (at most 23:59)"],
      ["not a date", "expected an ISO 8601 date-time such as 2024-03-31T12:00:00Z or 2024-03-31T13:00:00+01:00"],
      ["+275761-01-01T00:00:00Z", "the instant is outside the supported range"]
    ] as const
    for (const [input, why] of cases) {
      const e = Result.getOrThrow(Result.flip(OffsetDateTime.parse(input)))
      expect(e.message).toBe(`Invalid date-time ${JSON.stringify(input)}: ${why}`)
    }
    const long = Result.getOrThrow(Result.flip(OffsetDateTime.parse("x".repeat(1000))))
    expect(long.message).toContain(`"${"x".repeat(45)}..."`)
  })

  it("each reason an HTTP date is refused has its own message, with the input (bug: an empty or wrong hint)", () => {
    const cases = [
      ["Mon, 31 Feb 2017 19:43:31 GMT", "Feb 2017 has no day 31"],
      ["Mon, 10 Sep 2017 19:43:31 GMT", "10 Sep 2017 is a Sun, not a Mon"],
      ["Sun, 10 Sep 2017 24:00:00 GMT", "the time of day is out of range"],
      ["Sun, 10 Sep 2017 23:59:60 GMT", "leap seconds (:60) cannot be represented"],
      [
        "Sunday, 10-Sep-17 19:43:31 GMT",
        "the RFC 850 and asctime forms are obsolete; send an IMF-fixdate such as Sun, 10 Sep 2017 19:43:31 GMT"
      ],
      ["", "expected an IMF-fixdate such as Sun, 10 Sep 2017 19:43:31 GMT"]
    ] as const
    for (const [input, why] of cases) {
      const e = Result.getOrThrow(Result.flip(HttpDate.parse(input)))
      expect(e.message).toBe(`Invalid HTTP date ${JSON.stringify(input)}: ${why}`)
    }
    const long = Result.getOrThrow(Result.flip(HttpDate.parse("y".repeat(1000))))
    expect(long.message).toContain(`"${"y".repeat(45)}..."`)
    const encoded = Schema.encodeResult(HttpDate.HttpDateFromString)(DateTime.makeUnsafe(Date.UTC(10_000, 0, 1)))
    expect(Result.getOrThrow(Result.flip(encoded)).message).toContain("an HTTP date needs a four-digit year")
  })

  it("each reason calendar arithmetic fails has its own message (bug: an empty message, or another reason's)", () => {
    const start = DateTime.makeUnsafe("2024-01-31T00:00:00Z")
    const message = (r: Result.Result<unknown, Calendar.CalendarError>) => {
      const e = Result.getOrThrow(Result.flip(r))
      return [e.reason, e.message]
    }
    expect(message(Calendar.addTo(start, IsoDuration.parseUnsafe("P1M"), 1, { overflow: "reject" }))).toEqual([
      "Overflow",
      'the day does not exist in the resulting month (overflow: "reject")'
    ])
    expect(message(Calendar.addTo(start, IsoDuration.parseUnsafe("P1D"), 1.5))).toEqual([
      "InvalidMultiplier",
      "times must be a safe integer"
    ])
    expect(message(Calendar.addTo(start, IsoDuration.parseUnsafe("P1000000Y")))).toEqual([
      "OutOfRange",
      "the result is outside the range of instants (about 271,821 BCE to 275,760 CE)"
    ])
    expect(message(Calendar.stepsUntil(start, IsoDuration.parseUnsafe("P0D"), start))).toEqual([
      "NonPositiveStep",
      "the step must be a positive duration"
    ])
  })
})
