import { describe, expect, it } from "@effect/vitest"
import { OffsetDateTime } from "@payrules/iso8601"
import { schemaLaws } from "@payrules/vitest"
import { DateTime, Result, Schema } from "effect"

const reasonOf = (s: string) =>
  Result.match(OffsetDateTime.parse(s), { onFailure: (e) => e.reason, onSuccess: () => "ok" as const })

describe("OffsetDateTime.parse", () => {
  it.each([
    ["2017-06-05T15:15:13+00:00", Date.UTC(2017, 5, 5, 15, 15, 13), 0],
    ["2017-06-05T15:15:13Z", Date.UTC(2017, 5, 5, 15, 15, 13), 0],
    ["2017-06-05t15:15:13z", Date.UTC(2017, 5, 5, 15, 15, 13), 0],
    ["2017-06-05 15:15:13Z", Date.UTC(2017, 5, 5, 15, 15, 13), 0],
    ["2024-03-31T13:00:00+01:00", Date.UTC(2024, 2, 31, 12), 3_600_000],
    ["2024-03-31T13:00:00+0100", Date.UTC(2024, 2, 31, 12), 3_600_000],
    ["2024-03-31T13:00:00+01", Date.UTC(2024, 2, 31, 12), 3_600_000],
    ["2024-03-31T06:45:00-05:30", Date.UTC(2024, 2, 31, 12, 15), -19_800_000],
    ["2024-03-31T13:00+01:00", Date.UTC(2024, 2, 31, 12), 3_600_000],
    ["2024-02-29T00:00:00.5Z", Date.UTC(2024, 1, 29) + 500, 0],
    ["2024-02-29T00:00:00,123456789Z", Date.UTC(2024, 1, 29) + 123, 0]
  ])("%s", (input, epochMillis, offset) => {
    const dt = Result.getOrThrow(OffsetDateTime.parse(input))
    expect(dt.epochMilliseconds).toBe(epochMillis)
    expect(DateTime.zonedOffset(dt)).toBe(offset)
  })

  it.each([
    ["2017-06-05T15:15:13", "MissingOffset"],
    ["2017-06-05", "MissingOffset"],
    ["2017-06-05T15:15:13[Europe/London]", "MissingOffset"],
    ["2023-02-29T00:00:00Z", "InvalidDate"],
    ["2023-13-01T00:00:00Z", "InvalidDate"],
    ["2023-04-31T00:00:00Z", "InvalidDate"],
    ["2023-01-01T24:00:00Z", "InvalidTime"],
    ["2023-01-01T23:60:00Z", "InvalidTime"],
    ["2016-12-31T23:59:60Z", "LeapSecond"],
    ["2023-01-01T00:00:00+24:00", "InvalidOffset"],
    ["2023-01-01T00:00:00+01:60", "InvalidOffset"],
    ["20230101T000000Z", "Syntax"],
    ["2023-01-01T00:00:00.Z", "Syntax"],
    ["2023-01-01T00:00:00Z ", "Syntax"],
    ["not a date", "Syntax"],
    ["", "Syntax"]
  ])("%j -> %s", (input, reason) => {
    expect(reasonOf(input)).toBe(reason)
  })

  it("says that the timezone is required", () => {
    const e = Result.getOrThrow(Result.flip(OffsetDateTime.parse("2017-06-05T15:15:13")))
    expect(e.message).toContain("must end with Z or an offset")
  })

  it("formats at the written offset", () => {
    const round = (s: string) => OffsetDateTime.format(OffsetDateTime.parseUnsafe(s))
    expect(OffsetDateTime.unsafeParse).toBe(OffsetDateTime.parseUnsafe)
    expect(round("2024-03-31T13:00:00+0100")).toBe("2024-03-31T13:00:00+01:00")
    expect(round("2017-06-05T15:15:13+00:00")).toBe("2017-06-05T15:15:13Z")
    expect(round("2024-02-29T00:00:00.5-03:30")).toBe("2024-02-29T00:00:00.500-03:30")
    expect(OffsetDateTime.format(DateTime.makeUnsafe(0))).toBe("1970-01-01T00:00:00Z")
  })
})

describe("OffsetDateTime Schemas", () => {
  schemaLaws("OffsetDateTimeFromString", OffsetDateTime.OffsetDateTimeFromString)

  it("decodes with a message naming the missing timezone", () => {
    const r = Schema.decodeUnknownResult(OffsetDateTime.OffsetDateTimeFromString)("2017-06-05T15:15:13")
    expect(Result.getOrThrow(Result.flip(r)).message).toContain("has no timezone")
  })
})
