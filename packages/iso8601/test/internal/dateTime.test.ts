import { describe, expect, it } from "@effect/vitest"
import { DateTime, Equal, Hash } from "effect"
import { withEpochMillis } from "../../src/internal/dateTime.js"
import { offsetAt, wallToEpoch } from "../../src/internal/zone.js"

const ms = Date.UTC(2024, 2, 31, 0, 30, 15, 250)

describe("DateTime values of calendar arithmetic behave as the ones effect's constructors build", () => {
  // moved from another instant whose caches (parts, offset) are filled, as Calendar.addTo does, and compared with
  // values built at `ms` directly: nothing of the other instant may stay
  const moved = <A extends DateTime.DateTime>(from: A): A => {
    DateTime.toParts(from)
    DateTime.toPartsUtc(from)
    DateTime.formatIso(from)
    return withEpochMillis(from, ms)
  }
  const other = Date.UTC(1999, 11, 31, 23, 59, 59, 999)
  const cases: ReadonlyArray<readonly [string, DateTime.DateTime, DateTime.DateTime]> = [
    ["Utc", moved(DateTime.makeUnsafe(other)), DateTime.makeUnsafe(ms)],
    [
      "Zoned offset",
      moved(DateTime.makeZonedUnsafe(other, { timeZone: DateTime.zoneMakeOffset(19_800_000) })),
      DateTime.makeZonedUnsafe(ms, { timeZone: 19_800_000 })
    ],
    [
      "Zoned named",
      moved(DateTime.makeZonedUnsafe(other, { timeZone: DateTime.zoneMakeNamedUnsafe("Europe/London") })),
      DateTime.makeZonedUnsafe(ms, { timeZone: "Europe/London" })
    ]
  ]

  it.each(cases)("%s", (_, ours, theirs) => {
    expect(DateTime.isDateTime(ours)).toBe(true)
    expect(ours._tag).toBe(theirs._tag)
    expect(Object.keys(ours)).toEqual(Object.keys(theirs))
    expect(ours).toStrictEqual(theirs)
    expect(Equal.equals(ours, theirs)).toBe(true)
    expect(Hash.hash(ours)).toBe(Hash.hash(theirs))
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs))
    expect(String(ours)).toBe(String(theirs))
    expect(DateTime.formatIso(ours)).toBe(DateTime.formatIso(theirs))
    expect(DateTime.toParts(ours)).toEqual(DateTime.toParts(theirs))
    expect(DateTime.toPartsUtc(ours)).toEqual(DateTime.toPartsUtc(theirs))
    // the caches effect fills are own, non-enumerable properties, as on effect's values
    expect(Object.keys(ours)).toEqual(Object.keys(theirs))
    expect(DateTime.add(ours, { days: 1 }).epochMilliseconds).toBe(DateTime.add(theirs, { days: 1 }).epochMilliseconds)
    expect(DateTime.formatIso(DateTime.startOf(ours, "month"))).toBe(
      DateTime.formatIso(DateTime.startOf(theirs, "month"))
    )
    if (ours._tag === "Zoned" && theirs._tag === "Zoned") {
      expect(DateTime.zonedOffset(ours)).toBe(DateTime.zonedOffset(theirs))
      expect(DateTime.formatIsoZoned(ours)).toBe(DateTime.formatIsoZoned(theirs))
    }
    expect(ours).toStrictEqual(theirs)
  })
})

describe("zone offsets", () => {
  it("agree with effect for a range of instants in DST zones", () => {
    for (const zone of ["Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"]) {
      for (let t = Date.UTC(1990, 0, 1); t < Date.UTC(2030, 0, 1); t += 3_600_000 * 37 + 60_000 * 7) {
        const effectOffset = DateTime.zonedOffset(DateTime.makeZonedUnsafe(t, { timeZone: zone }))
        expect(offsetAt(zone, t)).toBe(effectOffset)
      }
    }
  })

  it("keeps seconds in historical offsets", () => {
    // local mean time of London until 1847: -00:01:15
    expect(offsetAt("Europe/London", Date.UTC(1800, 0, 1))).toBe(-75_000)
  })

  it("disambiguates as Temporal's compatible: gap forward, overlap earlier", () => {
    const gapWall = Date.UTC(2024, 2, 31, 1, 30)
    expect(wallToEpoch("Europe/London", gapWall)).toBe(Date.UTC(2024, 2, 31, 1, 30))
    const overlapWall = Date.UTC(2024, 9, 27, 1, 30)
    expect(wallToEpoch("Europe/London", overlapWall)).toBe(Date.UTC(2024, 9, 27, 0, 30))
  })
})
