/**
 * What a recipient reads (RFC 9110 section 5.6.7: it MUST accept all three HTTP-date formats): `parseReceived` takes
 * the IMF-fixdate and the obsolete RFC 850 and asctime forms, each checked as `parse` checks the IMF-fixdate, with
 * RFC 850's two-digit year in the century that puts it at most 50 years after the instant it is read at. `parse`
 * itself still refuses the obsolete forms (a sender must not generate them).
 */
import { describe, expect, it } from "@effect/vitest"
import { HttpDate } from "@payrules/iso8601"
import { DateTime, Result } from "effect"
import fc from "fast-check"

const now = Date.UTC(2026, 10, 27, 12, 0, 0)
const received = (s: string, at: number | DateTime.DateTime = now) =>
  Result.match(HttpDate.parseReceived(s, at), {
    onFailure: (e) => e.reason,
    onSuccess: (d) => d.epochMilliseconds
  })

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const pad2 = (n: number) => String(n).padStart(2, "0")

/** an instant in the RFC 850 form, written from `Date`'s own calendar (an oracle apart from the module's) */
const rfc850 = (ms: number) => {
  const d = new Date(ms)
  return `${DAYS[d.getUTCDay()]}, ${pad2(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${pad2(d.getUTCFullYear() % 100)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} GMT`
}

/** and in the asctime form: a one-digit day after a space */
const asctime = (ms: number) => {
  const d = new Date(ms)
  const day = d.getUTCDate()
  return `${DAYS[d.getUTCDay()]!.slice(0, 3)} ${MONTHS[d.getUTCMonth()]} ${day < 10 ? ` ${day}` : day} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} ${d.getUTCFullYear()}`
}

describe("HttpDate.parseReceived", () => {
  it("reads RFC 9110's example in each of the three forms as one instant (bug: a Retry-After date in an obsolete form ignored)", () => {
    const instant = Date.UTC(1994, 10, 6, 8, 49, 37)
    for (const text of [
      "Sun, 06 Nov 1994 08:49:37 GMT",
      "Sunday, 06-Nov-94 08:49:37 GMT",
      "Sun Nov  6 08:49:37 1994"
    ]) {
      expect([text, received(text)]).toEqual([text, instant])
    }
    // asctime's day may also be two digits
    expect(received("Sun Nov 06 08:49:37 1994")).toBe(instant)
    expect(HttpDate.parseReceivedUnsafe("Sunday, 06-Nov-94 08:49:37 GMT", now).epochMilliseconds).toBe(instant)
    let thrown: unknown
    try {
      HttpDate.parseReceivedUnsafe("Sun Nov 6 08:49:37 1994", now)
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(HttpDate.HttpDateParseError)
    expect((thrown as HttpDate.HttpDateParseError).reason).toBe("Syntax")
    // parse, for what a sender writes, still refuses them
    expect(Result.isFailure(HttpDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"))).toBe(true)
  })

  it("reads RFC 850's two-digit year at most 50 years ahead of now, otherwise in the century before", () => {
    // read in 2026: 76 is 2076 (50 years ahead), 77 is 1977
    expect(received("Wednesday, 01-Jan-76 00:00:00 GMT")).toBe(Date.UTC(2076, 0, 1))
    // 1 Jan 1976 was a Thursday: read in 2026, 76 is not 1976
    expect(received("Thursday, 01-Jan-76 00:00:00 GMT")).toBe("WeekdayMismatch")
    expect(received("Saturday, 01-Jan-77 00:00:00 GMT")).toBe(Date.UTC(1977, 0, 1))
    expect(received("Sunday, 01-Jan-17 00:00:00 GMT")).toBe(Date.UTC(2017, 0, 1))
    // now as a DateTime, in another century
    expect(received("Thursday, 06-Nov-94 08:49:37 GMT", DateTime.makeUnsafe(Date.UTC(2150, 0, 1)))).toBe(
      Date.UTC(2194, 10, 6, 8, 49, 37)
    )
    expect(received("Sunday, 06-Nov-94 08:49:37 GMT", Date.UTC(1960, 0, 1))).toBe(Date.UTC(1994, 10, 6, 8, 49, 37))
  })

  it.each([
    ["Monday, 06-Nov-94 08:49:37 GMT", "WeekdayMismatch"],
    ["Sunday, 31-Nov-94 08:49:37 GMT", "InvalidDate"],
    ["Sunday, 06-Nov-94 24:00:00 GMT", "InvalidTime"],
    ["Sunday, 06-Nov-94 23:59:60 GMT", "LeapSecond"],
    ["Mon Nov  6 08:49:37 1994", "WeekdayMismatch"],
    ["Sun Feb 30 08:49:37 1994", "InvalidDate"],
    ["Sun Nov  6 08:60:37 1994", "InvalidTime"],
    // the spellings are exact: full weekday names in RFC 850, abbreviated in asctime, GMT only where it belongs
    ["Sun, 06-Nov-94 08:49:37 GMT", "Syntax"],
    ["Tueday, 06-Nov-94 08:49:37 GMT", "Syntax"],
    ["sunday, 06-Nov-94 08:49:37 GMT", "Syntax"],
    ["Sunday, 06-nov-94 08:49:37 GMT", "Syntax"],
    ["Sunday, 6-Nov-94 08:49:37 GMT", "Syntax"],
    ["Sunday, 06-Nov-1994 08:49:37 GMT", "Syntax"],
    ["Sunday, 06-Nov-94 08:49:37 UTC", "Syntax"],
    ["Sunday Nov  6 08:49:37 1994", "Syntax"],
    ["Sun Nov 6 08:49:37 1994", "Syntax"],
    ["Sun Nov  6 08:49:37 1994 GMT", "Syntax"],
    ["Sun Nov  6 8:49:37 1994", "Syntax"],
    // nothing before or after a form
    ["Sunday, 06-Nov-94 08:49:37 GMTx", "Syntax"],
    ["xSunday, 06-Nov-94 08:49:37 GMT", "Syntax"],
    ["Sun Nov  6 08:49:37 1994x", "Syntax"],
    ["xSun Nov  6 08:49:37 1994", "Syntax"],
    [`Sunday, 06-Nov-94 08:49:37 GMT${" ".repeat(20)}`, "Syntax"],
    ["", "Syntax"]
  ])("%j -> %s", (input, reason) => {
    expect(received(input)).toBe(reason)
  })

  it("reads every instant in each form as the IMF-fixdate of it (oracle: Date's calendar)", () => {
    // whole seconds within 50 years of now either side: where RFC 850's two-digit year is not ambiguous
    const seconds = fc.integer({
      min: Math.ceil((now - 49 * 365.25 * 86_400_000) / 1000),
      max: Math.floor((now + 49 * 365.25 * 86_400_000) / 1000)
    })
    fc.assert(
      fc.property(seconds, (s) => {
        const ms = s * 1000
        expect(received(new Date(ms).toUTCString())).toBe(ms)
        expect(received(rfc850(ms))).toBe(ms)
        expect(received(asctime(ms))).toBe(ms)
      }),
      { numRuns: 1000 }
    )
  })
})
