import { describe, expect, it } from "@effect/vitest"
import { HttpDate, OffsetDateTime } from "@payrules/iso8601"
import { DateTime, Result, Schema } from "effect"

/** reason and position of a refused date-time, or its instant, offset and text when it is accepted */
const outcome = (s: string) =>
  Result.match(OffsetDateTime.parse(s), {
    onFailure: (e) => [e.reason, e.position] as const,
    onSuccess: (d) => [d.epochMilliseconds, DateTime.zonedOffset(d), OffsetDateTime.format(d)] as const
  })

describe("OffsetDateTime edges (named after the bugs they guard)", () => {
  it("reads expanded years with their sign, and refuses -000000 (bug: -000001 read as year 1)", () => {
    expect(outcome("+002024-03-31T12:00:00Z")).toEqual(outcome("2024-03-31T12:00:00Z"))
    expect(outcome("-000001-01-01T00:00:00Z")).toEqual([-62198755200000, 0, "-000001-01-01T00:00:00Z"])
    expect(outcome("+000000-01-01T00:00:00Z")).toEqual([-62167219200000, 0, "0000-01-01T00:00:00Z"])
    expect(outcome("-000000-01-01T00:00:00Z")).toEqual(["InvalidDate", 0])
    expect(outcome("+02024-03-31T12:00:00Z")).toEqual(["Syntax", 1])
    expect(outcome("+0020x4-03-31T12:00:00Z")).toEqual(["Syntax", 1])
  })

  it("refuses a character that is not a digit where digits go, at its position (bug: '1/' read as month 9, 'AB' as 1)", () => {
    for (const [input, position] of [
      ["20X4-03-31T12:00:00Z", 0],
      ["2024/03-31T12:00:00Z", 4],
      ["2024-1/-01T00:00:00Z", 5],
      ["2024-1A-01T00:00:00Z", 5],
      ["2024-1:-01T00:00:00Z", 5],
      ["2024-AB-01T00:00:00Z", 5],
      ["2024-01/01T00:00:00Z", 5],
      ["2024-01-0xT00:00:00Z", 8],
      ["2024-01-01X00:00:00Z", 10],
      ["2024-01-01T0x:00:00Z", 11],
      ["2024-01-01T00-00:00Z", 11],
      ["2024-01-01T00:0x:00Z", 14],
      ["2024-01-01T00:00:0xZ", 17],
      ["2024-01-01T00:00:00.1234567890Z", 20],
      ["2024-01-01T00:00:00+0x:00", 20],
      ["2024-01-01T00:00:00+01:0x", 23],
      ["2024-01-01T00:00:00+010x", 22],
      ["2024-01-01T00:00:00x", 19],
      ["2024-01-01T00:00:00Zx", 20]
    ] as const) {
      expect(outcome(input), input).toEqual(["Syntax", position])
    }
  })

  it("refuses day 00 and month 00 as dates that do not exist (bug: 2024-01-00 read as 31 December)", () => {
    expect(outcome("2024-01-00T00:00:00Z")).toEqual(["InvalidDate", 0])
    expect(outcome("2024-00-01T00:00:00Z")).toEqual(["InvalidDate", 0])
  })

  it("refuses second 61, and says where the time ends (bug: 00:00:61 read as 00:01:01)", () => {
    expect(outcome("2024-01-01T00:00:61Z")).toEqual(["InvalidTime", 19])
  })

  it("reads a fraction of 1, 2 or up to 9 digits as milliseconds (bug: .12 read as 12 ms)", () => {
    const base = Date.UTC(2024, 0, 1)
    expect(outcome("2024-01-01T00:00:00.1Z")[0]).toBe(base + 100)
    expect(outcome("2024-01-01T00:00:00.12Z")[0]).toBe(base + 120)
    expect(outcome("2024-01-01T00:00:00,123456789Z")[0]).toBe(base + 123)
  })

  it("takes offsets up to ±23:59 and T, t or a space between date and time (bug: +23:59 refused)", () => {
    expect(outcome("2024-01-01T00:00:00+23:59")).toEqual([1703980860000, 86340000, "2024-01-01T00:00:00+23:59"])
    expect(outcome("2024-01-01T00:00:00-23:59")).toEqual([1704153540000, -86340000, "2024-01-01T00:00:00-23:59"])
    expect(outcome("2024-01-01T00:00:00+01")).toEqual([1704063600000, 3600000, "2024-01-01T00:00:00+01:00"])
    expect(outcome("2024-01-01t00:00z")).toEqual(outcome("2024-01-01 00:00:00Z"))
    expect(outcome("2024-01-01T00:00:00+01:60")).toEqual(["InvalidOffset", 19])
    expect(outcome("2024-01-01T00:00")).toEqual(["MissingOffset", 16])
  })

  it("takes the instants a zoned DateTime holds, to the millisecond, and refuses the next (bug: an undefined date-time)", () => {
    expect(outcome("+275760-09-12T10:00:00Z")).toEqual([8639999949600000, 0, "+275760-09-12T10:00:00Z"])
    expect(outcome("+275760-09-12T10:00:00.001Z")).toEqual(["OutOfRange", 0])
    expect(outcome("-271821-04-20T12:00:00Z")).toEqual([-8639999956800000, 0, "-271821-04-20T12:00:00Z"])
    expect(outcome("-271821-04-20T11:59:59.999Z")).toEqual(["OutOfRange", 0])
    expect(outcome("+275760-09-13T00:00:00.001Z")).toEqual(["OutOfRange", 0])
  })

  it("quotes an input of 48 characters whole and a longer one cut to 45 (bug: a 48-character input cut)", () => {
    const at48 = `2024-01-01T00:00:00Z${"x".repeat(28)}`
    expect(Result.getOrThrow(Result.flip(OffsetDateTime.parse(at48))).message).toContain(JSON.stringify(at48))
    const at49 = `${at48}x`
    expect(Result.getOrThrow(Result.flip(OffsetDateTime.parse(at49))).message).toContain(
      JSON.stringify(`${at49.slice(0, 45)}...`)
    )
  })

  it("parseUnsafe throws the parse error itself (bug: callers that read its reason get undefined)", () => {
    expect(() => OffsetDateTime.parseUnsafe("2017-06-05T15:15:13")).toThrow(OffsetDateTime.OffsetDateTimeParseError)
    try {
      OffsetDateTime.parseUnsafe("2017-06-05T15:15:13")
    } catch (e) {
      expect((e as OffsetDateTime.OffsetDateTimeParseError).reason).toBe("MissingOffset")
    }
  })

  it("formats years of any size and milliseconds with three digits (bug: 5 ms written as .5)", () => {
    const fmt = (ms: number, offsetMinutes: number) =>
      OffsetDateTime.format(DateTime.makeZonedUnsafe(ms, { timeZone: offsetMinutes * 60_000 }))
    expect(fmt(Date.UTC(2024, 0, 1, 0, 0, 0, 5), -210)).toBe("2023-12-31T20:30:00.005-03:30")
    expect(fmt(Date.UTC(999, 0, 1), 0)).toBe("0999-01-01T00:00:00Z")
    expect(fmt(Date.UTC(12345, 0, 1), 0)).toBe("+012345-01-01T00:00:00Z")
  })
})

describe("HttpDate edges (named after the bugs they guard)", () => {
  const reasonOf = (s: string) => Result.match(HttpDate.parse(s), { onFailure: (e) => e.reason, onSuccess: () => "ok" })

  it("refuses day 00, minute 60 and second 61 (bug: read as the day before, the next hour, the next minute)", () => {
    expect(reasonOf("Sat, 00 Sep 2017 19:43:31 GMT")).toBe("InvalidDate")
    expect(reasonOf("Sun, 10 Sep 2017 19:60:31 GMT")).toBe("InvalidTime")
    expect(reasonOf("Sun, 10 Sep 2017 19:43:61 GMT")).toBe("InvalidTime")
  })

  it("the wire side of the Schema refuses what parse refuses (bug: Schema.is on the string took any text)", () => {
    const isWire = Schema.is(Schema.toEncoded(HttpDate.HttpDateFromString))
    expect(isWire("Sun, 10 Sep 2017 19:43:31 GMT")).toBe(true)
    expect(isWire("Mon, 10 Sep 2017 19:43:31 GMT")).toBe(false)
    expect(isWire("yesterday")).toBe(false)
  })

  it("encodes every instant of years 0000 to 9999 and nothing outside (bug: year -1 or 10000 written with 4 digits)", () => {
    const encode = Schema.encodeResult(HttpDate.HttpDateFromString)
    const at = (ms: number) => encode(DateTime.makeUnsafe(ms))
    const yearZero = DateTime.makeUnsafe("0000-01-01T00:00:00Z").epochMilliseconds
    const lastMs = DateTime.makeUnsafe("9999-12-31T23:59:59.999Z").epochMilliseconds
    expect(at(yearZero)).toEqual(Result.succeed("Sat, 01 Jan 0000 00:00:00 GMT"))
    expect(Result.isFailure(at(yearZero - 1))).toBe(true)
    expect(at(lastMs)).toEqual(Result.succeed("Fri, 31 Dec 9999 23:59:59 GMT"))
    expect(Result.isFailure(at(lastMs + 1))).toBe(true)
  })

  it("quotes an input of 48 characters whole and a longer one cut to 45 (bug: a 48-character input cut)", () => {
    const at48 = "z".repeat(48)
    expect(Result.getOrThrow(Result.flip(HttpDate.parse(at48))).message).toContain(JSON.stringify(at48))
    expect(Result.getOrThrow(Result.flip(HttpDate.parse(`${at48}z`))).message).toContain(
      JSON.stringify(`${"z".repeat(45)}...`)
    )
  })

  it("parseUnsafe throws the parse error itself (bug: callers that read its reason get undefined)", () => {
    try {
      HttpDate.parseUnsafe("Mon, 10 Sep 2017 19:43:31 GMT")
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(HttpDate.HttpDateParseError)
      expect((e as HttpDate.HttpDateParseError).reason).toBe("WeekdayMismatch")
    }
  })
})
