import { describe, expect, it } from "@effect/vitest"
import { IsoDuration } from "@payrules/iso8601"
import { readFixture, schemaLaws } from "@payrules/vitest"
import { Equal, Result, Schema } from "effect"
import fc from "fast-check"
import { Temporal } from "temporal-polyfill"

type FieldName = (typeof IsoDuration.fieldNames)[number]

interface ValidRecord extends Record<FieldName, number> {
  readonly input: string
}

interface Corpus {
  readonly valid: ReadonlyArray<ValidRecord>
  readonly invalid: ReadonlyArray<{ readonly input: string; readonly category: string }>
  readonly supplementaryInvalid: ReadonlyArray<{ readonly input: string }>
}

const corpus = readFixture<Corpus>(import.meta.url, "fixtures/test262-durations.json")

const fieldsOf = (d: IsoDuration.Fields): Record<FieldName, number> =>
  Object.fromEntries(IsoDuration.fieldNames.map((f) => [f, d[f] ?? 0])) as Record<FieldName, number>

const signed = (negative: boolean, d: IsoDuration.IsoDuration) => (negative ? IsoDuration.negate(d) : d)

/** 0 three times out of four, else 1..max */
const mostlyZero = (max: number) => fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max }))

/** Durations of realistic sizes, with every combination of units and both signs, drawn by fast-check */
const realisticDuration: fc.Arbitrary<IsoDuration.IsoDuration> = fc
  .record({
    negative: fc.boolean(),
    years: mostlyZero(200),
    months: mostlyZero(36),
    weeks: mostlyZero(60),
    days: mostlyZero(400),
    hours: mostlyZero(100),
    minutes: mostlyZero(200),
    seconds: mostlyZero(100_000),
    milliseconds: mostlyZero(999),
    microseconds: mostlyZero(999),
    nanoseconds: mostlyZero(999)
  })
  .map(({ negative, ...f }) => signed(negative, IsoDuration.makeUnsafe(f)))

/**
 * Durations up to Temporal's range limits: years, months and weeks up to 2^32 - 1, days to seconds up to 2^53 s in
 * total (draws beyond the limit are discarded).
 */
const extremeDuration: fc.Arbitrary<IsoDuration.IsoDuration> = fc
  .record({
    negative: fc.boolean(),
    years: mostlyZero(2 ** 32 - 1),
    months: mostlyZero(2 ** 32 - 1),
    weeks: mostlyZero(2 ** 32 - 1),
    days: mostlyZero(104_249_991_374),
    hours: mostlyZero(2_501_999_792_983),
    minutes: mostlyZero(150_119_987_579_016),
    seconds: mostlyZero(Number.MAX_SAFE_INTEGER),
    milliseconds: mostlyZero(999),
    microseconds: mostlyZero(999),
    nanoseconds: mostlyZero(999)
  })
  .map(({ negative, ...f }) => Result.map(IsoDuration.make(f), (d) => signed(negative, d)))
  .filter(Result.isSuccess)
  .map((r) => r.success)

describe("IsoDuration corpus (tc39/test262)", () => {
  it("has the recorded number of cases", () => {
    expect(corpus.valid).toHaveLength(73)
    expect(corpus.invalid).toHaveLength(67)
    expect(corpus.supplementaryInvalid).toHaveLength(7)
  })

  it.each(corpus.valid.map((r) => [r.input, r] as const))("accepts %s with Temporal's fields", (input, record) => {
    const parsed = IsoDuration.parse(input)
    expect(Result.isSuccess(parsed)).toBe(true)
    const d = Result.getOrThrow(parsed)
    expect(fieldsOf(d)).toEqual(fieldsOf(record))
  })

  it.each(corpus.invalid.map((r) => [r.input.slice(0, 40), r] as const))("rejects %s", (_, record) => {
    const parsed = IsoDuration.parse(record.input)
    expect(Result.isFailure(parsed)).toBe(true)
    if (Result.isFailure(parsed) && record.category === "range") {
      expect(parsed.failure.reason).toBe("OutOfRange")
    }
  })

  it.each(corpus.supplementaryInvalid.map((r) => [r.input] as const))("rejects %j (parser bug reports)", (input) => {
    expect(Result.isFailure(IsoDuration.parse(input))).toBe(true)
  })
})

describe("IsoDuration.parse reasons", () => {
  const reasonOf = (s: string) =>
    Result.match(IsoDuration.parse(s), { onFailure: (e) => e.reason, onSuccess: () => "ok" })

  it.each([
    ["", "Empty"],
    ["1P1D", "MissingDesignator"],
    ["xxP1Dxx", "MissingDesignator"],
    ["P", "EmptyDuration"],
    ["PT", "EmptyDuration"],
    ["-P", "EmptyDuration"],
    ["P1DT", "DanglingTimeDesignator"],
    ["P05DT", "DanglingTimeDesignator"],
    ["P1D ", "UnexpectedCharacter"],
    ["P1DP2D", "UnexpectedCharacter"],
    ["P1", "MissingUnit"],
    ["PT1.5", "MissingUnit"],
    ["P1M1Y", "UnitOrder"],
    ["P1D1D", "UnitOrder"],
    ["PT1S1H", "UnitOrder"],
    ["P2H", "TimeUnitInDatePart"],
    ["P2S", "TimeUnitInDatePart"],
    ["PT1D", "DateUnitInTimePart"],
    ["PT1W", "DateUnitInTimePart"],
    ["P0.5Y", "FractionOnDateUnit"],
    ["P1Y0,5M", "FractionOnDateUnit"],
    ["PT0.1H0M", "FractionNotLast"],
    ["PT1.1234567891S", "FractionTooLong"],
    ["PT.1H", "FractionWithoutDigits"],
    ["PT2.H3M", "FractionWithoutDigits"],
    ["P-1Y", "SignInside"],
    ["P0001-02-03", "AlternativeFormat"],
    ["P00010203", "AlternativeFormat"],
    ["PT01:02:03", "AlternativeFormat"],
    ["P4294967296Y", "OutOfRange"],
    ["PT9007199254740992S", "OutOfRange"]
  ])("%j -> %s", (input, reason) => {
    expect(reasonOf(input)).toBe(reason)
  })

  it("reports the position and a message that names the rule", () => {
    const e = Result.flip(IsoDuration.parse("P1Y2.5M"))
    expect(Result.isSuccess(e)).toBe(true)
    const error = Result.getOrThrow(e)
    expect(error._tag).toBe("IsoDurationParseError")
    expect(error.position).toBe(3)
    expect(error.message).toContain("Temporal")
    expect(error.input).toBe("P1Y2.5M")
  })

  it("keeps messages short for huge inputs", () => {
    const huge = `P${"9".repeat(100_000)}Y`
    const error = Result.getOrThrow(Result.flip(IsoDuration.parse(huge)))
    expect(error.reason).toBe("OutOfRange")
    expect(error.message.length).toBeLessThan(400)
  })

  it("parseUnsafe throws the typed error (unsafeParse is its deprecated alias)", () => {
    expect(() => IsoDuration.parseUnsafe("P")).toThrow(IsoDuration.IsoDurationParseError)
    expect(IsoDuration.parseUnsafe("P1M").months).toBe(1)
    expect(IsoDuration.unsafeParse).toBe(IsoDuration.parseUnsafe)
  })
})

describe("IsoDuration.format", () => {
  it.each([
    ["P1M", "P1M"],
    ["p1y1m1dt1h1m1s", "P1Y1M1DT1H1M1S"],
    ["PT1.5H", "PT1H30M"],
    ["PT36H", "PT36H"],
    ["-P1D", "-P1D"],
    ["+P1D", "P1D"],
    ["P0D", "PT0S"],
    ["-PT0S", "PT0S"],
    ["PT0.000000011S", "PT0.000000011S"],
    ["PT1,50S", "PT1.5S"],
    ["P1Y2M3W4DT5H6M7.987654321S", "P1Y2M3W4DT5H6M7.987654321S"],
    ["PT9007199254740991.999999999S", "PT9007199254740991.999999999S"]
  ])("%s -> %s", (input, expected) => {
    expect(IsoDuration.format(IsoDuration.parseUnsafe(input))).toBe(expected)
  })

  it("agrees with Temporal.Duration.prototype.toString on generated durations", () => {
    fc.assert(
      fc.property(realisticDuration, (d) => {
        const t = Temporal.Duration.from(fieldsOf(d))
        expect(IsoDuration.format(d)).toBe(t.toString())
      }),
      { numRuns: 500 }
    )
  })

  it("agrees with Temporal.Duration.prototype.toString at Temporal's range limits", () => {
    fc.assert(
      fc.property(extremeDuration, (d) => {
        const t = Temporal.Duration.from(fieldsOf(d))
        expect(IsoDuration.format(d)).toBe(t.toString())
      }),
      { numRuns: 500 }
    )
  })

  it.prop(
    "agrees with Temporal.Duration.prototype.toString on the Schema's arbitrary",
    [IsoDuration.IsoDurationFromSelf],
    ([d]) => {
      const t = Temporal.Duration.from(fieldsOf(d))
      expect(IsoDuration.format(d)).toBe(t.toString())
    },
    { arbitrary: { runs: 500 } }
  )

  it.prop(
    "parse(format(d)) equals d",
    [IsoDuration.IsoDurationFromSelf],
    ([d]) => {
      const back = Result.getOrThrow(IsoDuration.parse(IsoDuration.format(d)))
      expect(Equal.equals(back, d)).toBe(true)
    },
    { arbitrary: { runs: 1000 } }
  )

  it("parse(format(d)) equals d at Temporal's range limits", () => {
    fc.assert(
      fc.property(extremeDuration, (d) => {
        const back = Result.getOrThrow(IsoDuration.parse(IsoDuration.format(d)))
        expect(Equal.equals(back, d)).toBe(true)
      }),
      { numRuns: 1000 }
    )
  })
})

/** Strings near the grammar: well-formed pieces, shuffled and mutated. */
const durationLike: fc.Arbitrary<string> = (() => {
  const num = fc.oneof(
    fc.nat({ max: 99 }).map(String),
    fc.stringMatching(/^[0-9]{1,18}$/),
    fc.constantFrom("0", "00", "4294967295", "4294967296", "104249991374", "9007199254740991")
  )
  const frac = fc.oneof(
    { weight: 3, arbitrary: fc.constant("") },
    fc.tuple(fc.constantFrom(".", ","), fc.stringMatching(/^[0-9]{0,11}$/)).map(([s, d]) => s + d)
  )
  const part = (units: ReadonlyArray<string>) =>
    fc.tuple(num, frac, fc.constantFrom(...units)).map(([n, f, u]) => n + f + u)
  const wellFormed = fc
    .tuple(
      fc.constantFrom("", "", "+", "-", "\u2212"),
      fc.constantFrom("P", "p"),
      fc.subarray(["Y", "M", "W", "D"]).chain((us) => fc.tuple(...us.map((u) => part([u, u.toLowerCase()])))),
      fc.constantFrom("", "T", "t"),
      fc.subarray(["H", "M", "S"]).chain((us) => fc.tuple(...us.map((u) => part([u, u.toLowerCase()]))))
    )
    .map(
      ([sign, p, date, t, time]) => sign + p + date.join("") + (time.length > 0 || t !== "" ? t : "") + time.join("")
    )
  const alphabet = fc.constantFrom(..."PpTtYyMmWwDdHhSs0123456789.,+-: ".split(""))
  const mutate = fc
    .tuple(wellFormed, fc.nat(), alphabet, fc.constantFrom("insert", "delete", "replace", "swap"))
    .map(([s, at, ch, op]) => {
      const i = s.length === 0 ? 0 : at % s.length
      switch (op) {
        case "insert":
          return s.slice(0, i) + ch + s.slice(i)
        case "delete":
          return s.slice(0, i) + s.slice(i + 1)
        case "replace":
          return s.slice(0, i) + ch + s.slice(i + 1)
        default:
          return i + 1 < s.length ? s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2) : s
      }
    })
  return fc.oneof(wellFormed, mutate, fc.string({ unit: alphabet, maxLength: 16 }))
})()

describe("IsoDuration.parse agrees with temporal-polyfill", () => {
  it("on generated valid and near-miss strings", () => {
    let accepted = 0
    let rejected = 0
    fc.assert(
      fc.property(durationLike, (s) => {
        let expected: Temporal.Duration | undefined
        try {
          expected = Temporal.Duration.from(s)
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError)
        }
        const ours = IsoDuration.parse(s)
        if (expected === undefined) {
          rejected++
          expect(Result.isFailure(ours), `${s} should be rejected`).toBe(true)
        } else {
          accepted++
          expect(Result.isSuccess(ours), `${s} should be accepted`).toBe(true)
          expect(fieldsOf(Result.getOrThrow(ours))).toEqual(fieldsOf(expected))
        }
      }),
      { numRuns: 5000 }
    )
    // the generator must exercise both sides
    expect(accepted).toBeGreaterThan(300)
    expect(rejected).toBeGreaterThan(300)
  })
})

describe("IsoDuration helpers", () => {
  const d = IsoDuration.parseUnsafe("P1Y2M3W4DT5H6M7.008009010S")

  it("split into calendar and time parts", () => {
    const { calendar, time } = IsoDuration.split(d)
    expect(IsoDuration.format(calendar)).toBe("P1Y2M3W4D")
    expect(IsoDuration.format(time)).toBe("PT5H6M7.00800901S")
    expect(IsoDuration.hasTimePart(calendar)).toBe(false)
    expect(IsoDuration.hasCalendarPart(time)).toBe(false)
    expect(IsoDuration.hasTimePart(time)).toBe(true)
  })

  it("negate, isZero, equals", () => {
    expect(IsoDuration.format(IsoDuration.negate(d))).toBe("-P1Y2M3W4DT5H6M7.00800901S")
    expect(IsoDuration.equals(IsoDuration.negate(IsoDuration.negate(d)), d)).toBe(true)
    expect(IsoDuration.isZero(IsoDuration.parseUnsafe("PT0S"))).toBe(true)
    expect(IsoDuration.isZero(d)).toBe(false)
    expect(IsoDuration.negate(IsoDuration.zero)).toBe(IsoDuration.zero)
    expect(Object.is(IsoDuration.negate(IsoDuration.parseUnsafe("P1D")).hours, 0)).toBe(true)
  })

  it("timeNanoseconds is exact", () => {
    expect(IsoDuration.timeNanoseconds(IsoDuration.parseUnsafe("PT9007199254740991.999999999S"))).toBe(
      9_007_199_254_740_991_999_999_999n
    )
    expect(IsoDuration.timeNanoseconds(IsoDuration.parseUnsafe("-PT1H"))).toBe(-3_600_000_000_000n)
  })

  it("make validates fields", () => {
    expect(IsoDuration.format(IsoDuration.makeUnsafe({ months: 1, days: 15 }))).toBe("P1M15D")
    expect(IsoDuration.unsafeMake).toBe(IsoDuration.makeUnsafe)
    const reason = (f: IsoDuration.Fields) =>
      Result.match(IsoDuration.make(f), { onFailure: (e) => e.reason, onSuccess: () => "ok" })
    expect(reason({ years: 1, days: -1 })).toBe("MixedSigns")
    expect(reason({ days: 1.5 })).toBe("NotAnInteger")
    expect(reason({ milliseconds: 1000 })).toBe("SubsecondOverflow")
    expect(reason({ weeks: 2 ** 32 })).toBe("OutOfRange")
    expect(reason({ days: -104249991374, hours: -7 })).toBe("ok")
  })

  it("is an Equal value with a stable hash", () => {
    const a = IsoDuration.parseUnsafe("P1M")
    const b = IsoDuration.parseUnsafe("p1m")
    expect(Equal.equals(a, b)).toBe(true)
    expect(Equal.equals(a, IsoDuration.parseUnsafe("P30D"))).toBe(false)
    expect(String(a)).toBe("P1M")
    expect(JSON.stringify(a)).toBe('{"_id":"IsoDuration","iso":"P1M"}')
  })
})

describe("IsoDuration Schemas", () => {
  schemaLaws("IsoDurationFromString", IsoDuration.IsoDurationFromString)
  schemaLaws("DaysOnlyFromString", IsoDuration.DaysOnlyFromString)

  it("IsoDurationFromString decodes and reports the reason", () => {
    const decode = Schema.decodeUnknownResult(IsoDuration.IsoDurationFromString)
    expect(Result.map(decode("PT36H"), (d) => d.hours)).toEqual(Result.succeed(36))
    const left = Result.getOrThrow(Result.flip(decode("P0.5Y")))
    expect(left.message).toContain("fractions only on hours, minutes or seconds")
  })

  it("DaysOnlyFromString takes P<n>D with n >= 1 only", () => {
    const decode = Schema.decodeUnknownResult(IsoDuration.DaysOnlyFromString)
    expect(Result.map(decode("P14D"), (d) => d.days)).toEqual(Result.succeed(14))
    expect(Result.map(decode("P014D"), (d) => d.days)).toEqual(Result.succeed(14))
    for (const bad of ["P0D", "P1W", "PT24H", "P1DT1H", "p14d", "-P14D", "P1.5D", "14", "P1M"]) {
      expect(Result.isFailure(decode(bad)), bad).toBe(true)
    }
    const message = Result.getOrThrow(Result.flip(decode("P1W"))).message
    expect(message).toContain("days only")
    expect(Result.getOrThrow(Result.flip(decode("P0D"))).message).toContain("at least one day")
  })

  it.prop("DaysOnlyFromString arbitrary yields days-only durations", [IsoDuration.DaysOnlyFromString], ([d]) => {
    expect(d.days).toBeGreaterThanOrEqual(1)
    expect(IsoDuration.format(d)).toMatch(/^P[0-9]+D$/)
  })

  it("IsoDurationFromSelf's JSON codec is the duration string", () => {
    const json = Schema.toCodecJson(IsoDuration.IsoDurationFromSelf)
    expect(Schema.encodeSync(json)(IsoDuration.parseUnsafe("PT1.5H"))).toBe("PT1H30M")
    expect(Result.map(Schema.decodeUnknownResult(json)("p1m"), IsoDuration.format)).toEqual(Result.succeed("P1M"))
    const failure = Result.getOrThrow(Result.flip(Schema.decodeUnknownResult(json)("P0.5Y")))
    expect(failure.message).toContain("fractions only on hours, minutes or seconds")
  })

  it("JSON Schemas of the strings carry the grammar's pattern", () => {
    const patternOf = (schema: Schema.Codec<IsoDuration.IsoDuration, string>) => {
      const document = Schema.toJsonSchemaDocument(schema)
      return JSON.stringify(document).match(/"pattern":"((?:[^"\\]|\\.)*)"/)?.[1]
    }
    const duration = new RegExp(JSON.parse(`"${patternOf(IsoDuration.IsoDurationFromString)}"`))
    for (const s of ["P1M", "p1y1m1dt1h1m1s", "-PT1,5H", "P3Y4W"]) expect(duration.test(s), s).toBe(true)
    for (const s of ["P", "PT", "P1DT", "P0.5Y", "PT01:02:03"]) expect(duration.test(s), s).toBe(false)
    expect(patternOf(IsoDuration.DaysOnlyFromString)).toBe("^P[0-9]+D$")
  })
})
