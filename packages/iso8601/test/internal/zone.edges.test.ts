import { describe, expect, it } from "@effect/vitest"
import { offsetAt, wallToEpoch } from "../../src/internal/zone.js"

const YEAR_1 = -62135596800000

describe("zone offsets at the edges (named after the bugs they guard)", () => {
  it("keeps local mean time before year 1, read through the BC era (bug: years BC taken as AD, a wrong offset)", () => {
    expect(offsetAt("Europe/London", YEAR_1 - 500 * 365 * 86_400_000)).toBe(-75_000)
    expect(offsetAt("America/New_York", YEAR_1 - 500 * 365 * 86_400_000)).toBe(-17_762_000)
    expect(offsetAt("America/New_York", YEAR_1)).toBe(-17_762_000)
  })

  it("changes offset at the transition's very second, also for 30-minute ones (bug: a second early or late)", () => {
    const london = Date.UTC(2024, 2, 31, 1)
    expect([london - 1000, london - 1, london, london + 1].map((t) => offsetAt("Europe/London", t))).toEqual([
      0, 0, 3_600_000, 3_600_000
    ])
    const lordHowe = Date.UTC(2024, 3, 6, 15)
    expect(
      [lordHowe - 1000, lordHowe - 1, lordHowe, lordHowe + 1000].map((t) => offsetAt("Australia/Lord_Howe", t))
    ).toEqual([39_600_000, 39_600_000, 37_800_000, 37_800_000])
  })

  it("disambiguates a 30-minute overlap and gap as Temporal's compatible (bug: the later instant, or no move forward)", () => {
    // 01:45 happens twice on 7 April 2024 (+11:00, then +10:30): the earlier
    expect(wallToEpoch("Australia/Lord_Howe", Date.UTC(2024, 3, 7, 1, 45))).toBe(Date.UTC(2024, 3, 6, 14, 45))
    // 02:15 does not happen on 6 October 2024 (02:00 jumps to 02:30): moved forward by the gap, 02:45 at +11:00
    expect(wallToEpoch("Australia/Lord_Howe", Date.UTC(2024, 9, 6, 2, 15))).toBe(Date.UTC(2024, 9, 5, 15, 45))
    expect(wallToEpoch("America/New_York", Date.UTC(2024, 2, 10, 2, 30))).toBe(Date.UTC(2024, 2, 10, 7, 30))
    expect(wallToEpoch("America/New_York", Date.UTC(2024, 10, 3, 1, 30))).toBe(Date.UTC(2024, 10, 3, 5, 30))
    expect(wallToEpoch("America/New_York", Date.UTC(2024, 6, 1, 12))).toBe(Date.UTC(2024, 6, 1, 16))
  })
})

describe("wall-clock times near a transition (named after the bugs they guard)", () => {
  it("a wall-clock time hours after a transition takes the new offset (bug: the offset of the day before)", () => {
    // London: 12:00 on the day clocks go forward is 11:00Z, on the day they go back 12:00Z; 23:00 the evening before
    expect(wallToEpoch("Europe/London", Date.UTC(2024, 2, 31, 12))).toBe(Date.UTC(2024, 2, 31, 11))
    expect(wallToEpoch("Europe/London", Date.UTC(2024, 9, 27, 12))).toBe(Date.UTC(2024, 9, 27, 12))
    expect(wallToEpoch("Europe/London", Date.UTC(2024, 2, 30, 23))).toBe(Date.UTC(2024, 2, 30, 23))
  })
})
