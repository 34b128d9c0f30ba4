import { inspect } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { Calendar, IsoDuration } from "@payrules/iso8601"
import { Equal, Hash, Result } from "effect"

const d = IsoDuration.parseUnsafe
const fmt = IsoDuration.format

describe("IsoDuration helpers (named after the bugs they guard)", () => {
  it("hasCalendarPart and hasTimePart see each unit alone (bug: a duration of weeks or nanoseconds taken as empty)", () => {
    for (const s of ["P1Y", "P1M", "P1W", "P1D", "-P1D"]) {
      expect([IsoDuration.hasCalendarPart(d(s)), IsoDuration.hasTimePart(d(s))], s).toEqual([true, false])
    }
    for (const s of ["PT1H", "PT1M", "PT1S", "PT0.001S", "PT0.000001S", "PT0.000000001S", "-PT1H"]) {
      expect([IsoDuration.hasCalendarPart(d(s)), IsoDuration.hasTimePart(d(s))], s).toEqual([false, true])
    }
    expect([IsoDuration.hasCalendarPart(IsoDuration.zero), IsoDuration.hasTimePart(IsoDuration.zero)]).toEqual([
      false,
      false
    ])
  })

  it("calendarPart, timePart and split keep the sign and every unit of their part (bug: -P1DT1H split into P1D and PT1H)", () => {
    const full = d("-P1Y2M3W4DT5H6M7.008009010S")
    expect(fmt(IsoDuration.calendarPart(full))).toBe("-P1Y2M3W4D")
    expect(fmt(IsoDuration.timePart(full))).toBe("-PT5H6M7.00800901S")
    expect(IsoDuration.split(full)).toEqual({
      calendar: IsoDuration.calendarPart(full),
      time: IsoDuration.timePart(full)
    })
    expect(fmt(IsoDuration.timePart(d("P1Y2M")))).toBe("PT0S")
    expect(IsoDuration.timePart(d("P1Y2M")).sign).toBe(0)
    expect(fmt(IsoDuration.calendarPart(d("PT36H")))).toBe("PT0S")
  })

  it("negate turns every unit and the sign, and leaves zero as it is (bug: -P0D, or only some units negated)", () => {
    expect(fmt(IsoDuration.negate(d("P1Y2M3W4DT5H6M7.008009010S")))).toBe("-P1Y2M3W4DT5H6M7.00800901S")
    expect(fmt(IsoDuration.negate(d("-PT1H")))).toBe("PT1H")
    expect(IsoDuration.negate(d("-PT1H")).sign).toBe(1)
    expect(IsoDuration.negate(IsoDuration.zero)).toBe(IsoDuration.zero)
  })

  it("timeNanoseconds counts every time unit, signed (bug: microseconds counted as milliseconds)", () => {
    expect(IsoDuration.timeNanoseconds(d("PT1H1M1.001001001S"))).toBe(3_661_001_001_001n)
    expect(IsoDuration.timeNanoseconds(d("-PT1H1M1.001001001S"))).toBe(-3_661_001_001_001n)
    expect(IsoDuration.timeNanoseconds(d("P1Y1D"))).toBe(0n)
  })

  it("isIsoDuration tells a duration from its look-alikes (bug: a plain object with the fields accepted)", () => {
    expect(IsoDuration.isIsoDuration(d("P1D"))).toBe(true)
    expect(IsoDuration.isIsoDuration({ ...d("P1D") })).toBe(false)
    for (const u of [null, undefined, "P1D", 1, {}]) expect(IsoDuration.isIsoDuration(u)).toBe(false)
  })
})

describe("Calendar helpers (named after the bugs they guard)", () => {
  it("isLeapYear follows the Gregorian century rule (bug: 1900 and 2100 leap years, 2000 not)", () => {
    for (const [year, leap] of [
      [2024, true],
      [2023, false],
      [2000, true],
      [1900, false],
      [2100, false],
      [2400, true],
      [0, true],
      [-4, true],
      [-100, false]
    ] as const) {
      expect(Calendar.isLeapYear(year), String(year)).toBe(leap)
    }
  })

  it("daysInMonth knows every month, February by leap year (bug: 31 days in April, 29 in February 1900)", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => Calendar.daysInMonth(2023, m))).toEqual([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
    ])
    expect(Calendar.daysInMonth(2024, 2)).toBe(29)
    expect(Calendar.daysInMonth(2000, 2)).toBe(29)
    expect(Calendar.daysInMonth(1900, 2)).toBe(28)
  })
})

describe("IsoDuration.parse positions (named after the bugs they guard)", () => {
  it("reports each refusal at the character that breaks the rule (bug: a position one off, or at the start)", () => {
    for (const [input, reason, position] of [
      ["", "Empty", 0],
      ["+", "EmptyDuration", 1],
      ["-", "EmptyDuration", 1],
      ["1P1D", "MissingDesignator", 0],
      ["xxP1Dxx", "MissingDesignator", 0],
      ["P", "EmptyDuration", 1],
      ["PT", "EmptyDuration", 2],
      ["-P", "EmptyDuration", 2],
      ["P1DT", "DanglingTimeDesignator", 3],
      ["P05DT", "DanglingTimeDesignator", 4],
      ["P1D ", "UnexpectedCharacter", 3],
      ["P1DP2D", "UnexpectedCharacter", 3],
      ["PT1HT1M", "UnexpectedCharacter", 4],
      ["P1", "MissingUnit", 2],
      ["PT1.5", "MissingUnit", 5],
      ["PT1.5x", "MissingUnit", 5],
      ["P1M1Y", "UnitOrder", 4],
      ["P1D1D", "UnitOrder", 4],
      ["PT1S1H", "UnitOrder", 5],
      ["P2H", "TimeUnitInDatePart", 2],
      ["P2S", "TimeUnitInDatePart", 2],
      ["PT1D", "DateUnitInTimePart", 3],
      ["PT1W", "DateUnitInTimePart", 3],
      ["PT1Y", "DateUnitInTimePart", 3],
      ["P0.5Y", "FractionOnDateUnit", 1],
      ["P1Y0,5M", "FractionOnDateUnit", 3],
      ["PT0.1H0M", "FractionNotLast", 6],
      ["PT1.1234567891S", "FractionTooLong", 13],
      ["PT.1H", "FractionWithoutDigits", 2],
      ["PT2.H3M", "FractionWithoutDigits", 4],
      ["P-1Y", "SignInside", 1],
      ["P+1Y", "SignInside", 1],
      ["P1YP", "UnexpectedCharacter", 3],
      ["P0001-02-03", "AlternativeFormat", 5],
      ["P00010203", "AlternativeFormat", 9],
      ["P0001T", "MissingUnit", 5],
      ["PT01:02:03", "AlternativeFormat", 4],
      ["PT1-02", "AlternativeFormat", 3],
      ["P1X", "MissingUnit", 2],
      ["PT1X", "MissingUnit", 3],
      ["P4294967296Y", "OutOfRange", 0],
      ["PT9007199254740992S", "OutOfRange", 0],
      ["P1D1.5", "MissingUnit", 6]
    ] as const) {
      const e = Result.getOrThrow(Result.flip(IsoDuration.parse(input)))
      expect([e.reason, e.position], JSON.stringify(input)).toEqual([reason, position])
    }
  })
})

describe("IsoDuration values (named after the bugs they guard)", () => {
  const units = [
    "years",
    "months",
    "weeks",
    "days",
    "hours",
    "minutes",
    "seconds",
    "milliseconds",
    "microseconds",
    "nanoseconds"
  ] as const

  it("two durations that differ in one unit only are not equal, nor hashed alike (bug: a unit left out of equals)", () => {
    const base = IsoDuration.makeUnsafe({})
    for (const unit of units) {
      const one = IsoDuration.makeUnsafe({ [unit]: 1 })
      const two = IsoDuration.makeUnsafe({ [unit]: 2 })
      expect(Equal.equals(one, two), unit).toBe(false)
      expect(IsoDuration.equals(one, two), unit).toBe(false)
      expect(Hash.hash(one) === Hash.hash(two), unit).toBe(false)
      expect(Equal.equals(one, IsoDuration.makeUnsafe({ [unit]: 1 })), unit).toBe(true)
      expect(Hash.hash(one), unit).toBe(Hash.hash(IsoDuration.makeUnsafe({ [unit]: 1 })))
      expect(Equal.equals(one, base), unit).toBe(false)
    }
    expect(Equal.equals(IsoDuration.parseUnsafe("P1D"), { days: 1 })).toBe(false)
  })

  it("make keeps each field's sign and writes zero fields of a negative duration as 0, not -0 (bug: -0 hours)", () => {
    const d = IsoDuration.makeUnsafe({ days: -1, nanoseconds: -5 })
    expect(d.sign).toBe(-1)
    expect([d.days, d.nanoseconds]).toEqual([-1, -5])
    expect(Object.is(d.hours, 0)).toBe(true)
    expect(Object.is(IsoDuration.parseUnsafe("-P1D").years, 0)).toBe(true)
    expect(IsoDuration.makeUnsafe({ days: 0 })).toBe(IsoDuration.zero)
  })

  it("make refuses each sub-second unit above 999 and names it (bug: 1000 ms kept, or another field named)", () => {
    for (const unit of ["milliseconds", "microseconds", "nanoseconds"] as const) {
      for (const v of [1000, -1000]) {
        const e = Result.getOrThrow(Result.flip(IsoDuration.make({ [unit]: v })))
        expect([e.reason, e.field, e.message]).toEqual([
          "SubsecondOverflow",
          unit,
          `${unit} must be within -999..999; carry the excess into the next larger unit`
        ])
      }
      expect(IsoDuration.make({ [unit]: 999 })._tag).toBe("Success")
    }
    expect(IsoDuration.make({ seconds: 1000, hours: 1000 })._tag).toBe("Success")
    const e = Result.getOrThrow(Result.flip(IsoDuration.make({ hours: 0.5 })))
    expect([e.reason, e.field, e.message]).toEqual(["NotAnInteger", "hours", "hours must be an integer"])
    const mixed = Result.getOrThrow(Result.flip(IsoDuration.make({ years: 1, days: -1 })))
    expect([mixed.field, mixed.message]).toEqual([undefined, "all fields of a duration must have the same sign"])
  })

  it("shows as IsoDuration(<text>) in Node's inspector and as its text in JSON (bug: an object dump in logs)", () => {
    const d = IsoDuration.parseUnsafe("PT1.5H")
    expect(inspect(d)).toBe("IsoDuration(PT1H30M)")
    expect(JSON.stringify({ d })).toBe('{"d":{"_id":"IsoDuration","iso":"PT1H30M"}}')
    expect(`${d}`).toBe("PT1H30M")
  })
})
