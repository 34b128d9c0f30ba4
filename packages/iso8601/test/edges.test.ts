import { describe, expect, it } from "@effect/vitest"
import { Calendar, IsoDuration } from "@payrules/iso8601"

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
