import { describe, expect, it } from "@effect/vitest"
import { HttpDate } from "@payrules/iso8601"
import { schemaLaws } from "@payrules/vitest"
import { DateTime, Result, Schema } from "effect"

const reasonOf = (s: string) => Result.match(HttpDate.parse(s), { onFailure: (e) => e.reason, onSuccess: () => "ok" })

describe("HttpDate", () => {
  it("parses an IMF-fixdate", () => {
    const d = Result.getOrThrow(HttpDate.parse("Sun, 10 Sep 2017 19:43:31 GMT"))
    expect(d.epochMilliseconds).toBe(Date.UTC(2017, 8, 10, 19, 43, 31))
    expect(HttpDate.format(d)).toBe("Sun, 10 Sep 2017 19:43:31 GMT")
    expect(HttpDate.parseUnsafe("Sun, 10 Sep 2017 19:43:31 GMT").epochMilliseconds).toBe(d.epochMilliseconds)
    expect(HttpDate.unsafeParse).toBe(HttpDate.parseUnsafe)
    expect(HttpDate.format(DateTime.makeUnsafe(Date.UTC(2024, 1, 29, 0, 0, 0, 999)))).toBe(
      "Thu, 29 Feb 2024 00:00:00 GMT"
    )
  })

  it("agrees with Date.prototype.toUTCString for the format", () => {
    for (let ms = -2_208_988_800_000; ms < 7_258_118_400_000; ms += 86_400_000 * 97 + 3_599_999) {
      expect(HttpDate.format(DateTime.makeUnsafe(ms))).toBe(new Date(ms).toUTCString())
    }
  })

  it.each([
    ["Mon, 31 Feb 2017 19:43:31 GMT", "InvalidDate"],
    ["Mon, 29 Feb 2023 00:00:00 GMT", "InvalidDate"],
    ["Mon, 10 Sep 2017 19:43:31 GMT", "WeekdayMismatch"],
    ["Sun, 10 Sep 2017 24:00:00 GMT", "InvalidTime"],
    ["Sun, 10 Sep 2017 23:59:60 GMT", "LeapSecond"],
    ["Sunday, 10-Sep-17 19:43:31 GMT", "ObsoleteFormat"],
    ["Sun Sep 10 19:43:31 2017", "ObsoleteFormat"],
    ["Sun, 10 Sep 2017 19:43:31 UTC", "Syntax"],
    ["sun, 10 sep 2017 19:43:31 GMT", "Syntax"],
    ["Sun, 10 Sep 2017 19:43:31 GMT ", "Syntax"],
    ["2017-09-10T19:43:31Z", "Syntax"],
    ["", "Syntax"]
  ])("%j -> %s", (input, reason) => {
    expect(reasonOf(input)).toBe(reason)
  })

  it("names the actual weekday", () => {
    const e = Result.getOrThrow(Result.flip(HttpDate.parse("Mon, 10 Sep 2017 19:43:31 GMT")))
    expect(e.message).toContain("is a Sun")
  })

  schemaLaws("HttpDateFromString", HttpDate.HttpDateFromString)

  it("refuses to encode years that need more than four digits", () => {
    const r = Schema.encodeResult(HttpDate.HttpDateFromString)(DateTime.makeUnsafe(Date.UTC(10_000, 0, 1)))
    expect(Result.isFailure(r)).toBe(true)
  })
})
