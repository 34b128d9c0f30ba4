import { describe, expect, it } from "@effect/vitest"
import { Calendar, IsoDuration } from "@payrules/iso8601"
import { DateTime, Result } from "effect"
import fc from "fast-check"

const MAX = 8_640_000_000_000_000
const d = IsoDuration.parseUnsafe
const at = (ms: number) => DateTime.makeUnsafe(ms)

/** the epoch milliseconds of `anchor + k × duration` (time units only), exactly, rounded toward the past */
const exactly = (anchor: number, duration: IsoDuration.IsoDuration, k: bigint): number | "OutOfRange" => {
  const total = IsoDuration.timeNanoseconds(duration) * k
  const q = total / 1_000_000n
  const ms = total % 1_000_000n !== 0n && total < 0n ? q - 1n : q
  const result = BigInt(anchor) + ms
  return result >= -BigInt(MAX) && result <= BigInt(MAX) ? Number(result) : "OutOfRange"
}

const added = (anchor: number, duration: IsoDuration.IsoDuration, k: number) =>
  Result.match(Calendar.addToEpochMillis(at(anchor), duration, k), {
    onFailure: (e) => e.reason,
    onSuccess: (ms) => ms
  })

describe("Calendar edges (named after the bugs they guard)", () => {
  it("multiplies time units exactly beyond 2^53 nanoseconds, rounding toward the past (bug: a millisecond off, or wrapped)", () => {
    const durations = [
      "PT0.000999999S",
      "-PT0.000999999S",
      "PT0.000001S",
      "PT1M0.000999999S",
      "PT1H0.000999999S",
      "PT1H1M1.001001001S",
      "-PT1H1M1.001001001S",
      "PT25H",
      "PT1.000999999S",
      "PT1M1.001999999S",
      "-PT1M1.001999999S"
    ].map(d)
    const multipliers = [
      1,
      7,
      -7,
      10_000_000_001,
      -10_000_000_001,
      10_000_000_000_000,
      -10_000_000_000_000,
      4_800_000_000,
      9_007_199_254,
      Number.MAX_SAFE_INTEGER,
      // 999,999 ns x (2e10 + 1) ends in ...999,999 ns, which a double (4 apart there) rounds up to the next millisecond
      20_000_000_001,
      -20_000_000_001
    ]
    for (const anchor of [0, -MAX, MAX]) {
      for (const duration of durations) {
        for (const k of multipliers) {
          expect(added(anchor, duration, k), `${anchor} + ${k} × ${IsoDuration.format(duration)}`).toBe(
            exactly(anchor, duration, BigInt(k))
          )
        }
      }
    }
  })

  it("reaches the first and the last instant and refuses a millisecond beyond (bug: 275760-09-13T00:00:00.001Z)", () => {
    expect(added(MAX - 1000, d("PT1S"), 1)).toBe(MAX)
    expect(added(MAX, d("PT0.001S"), 1)).toBe("OutOfRange")
    expect(added(-MAX + 1000, d("PT1S"), -1)).toBe(-MAX)
    expect(added(-MAX, d("PT0.001S"), -1)).toBe("OutOfRange")
    expect(added(MAX - 86_400_000, d("P1D"), 1)).toBe(MAX)
    expect(added(MAX - 86_400_000 + 1, d("P1D"), 1)).toBe("OutOfRange")
  })

  it("bug: in a zone near either end of the range, addTo threw Intl's RangeError or returned a date-time effect cannot format", () => {
    const H = 3_600_000
    const zoned = (ms: number, timeZone: string) => DateTime.makeZonedUnsafe(ms, { timeZone })
    const shown = (r: Result.Result<DateTime.Zoned, Calendar.CalendarError>) =>
      Result.match(r, { onFailure: (e) => e.reason, onSuccess: DateTime.formatIsoZoned })
    // threw "Invalid time value": the zone's offsets were read for a week that ends beyond the last instant
    expect(shown(Calendar.addTo(zoned(Date.UTC(275760, 7, 12), "Europe/London"), d("P1M")))).toBe(
      "+275760-09-12T01:00:00.000+01:00[Europe/London]"
    )
    expect(shown(Calendar.addTo(zoned(-MAX + 30 * H, "America/New_York"), d("-P1D")))).toBe(
      "-271821-04-20T01:03:58.000-04:56[America/New_York]"
    )
    // an instant in range whose wall clock is not (10:30 ahead of UTC, an hour before the last instant): refused, where
    // it was a value that effect's own constructor refuses and its formatters throw on
    expect(shown(Calendar.addTo(zoned(MAX - 30 * H, "Australia/Lord_Howe"), d("P1D")))).toBe("OutOfRange")
    expect(shown(Calendar.addTo(zoned(MAX - 30 * H, "Asia/Kolkata"), d("PT29H")))).toBe("OutOfRange")
    expect(shown(Calendar.addTo(zoned(MAX - 30 * H, "Asia/Kolkata"), d("PT24H")))).toBe(
      "+275760-09-12T23:30:00.000+05:30[Asia/Calcutta]"
    )
    const zones = ["Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Kiritimati"]
    const near = fc.oneof(
      fc.integer({ min: MAX - 3 * 86_400_000, max: MAX - 15 * H }),
      fc.integer({ min: -MAX + 15 * H, max: -MAX + 3 * 86_400_000 })
    )
    const durations = fc.constantFrom("P1D", "-P1D", "P1M", "-P1M", "PT1H", "-PT1H", "PT29H", "-PT29H", "P1W", "P1Y")
    fc.assert(
      fc.property(near, fc.constantFrom(...zones), durations, (ms, zone, duration) => {
        const r = Calendar.addTo(zoned(ms, zone), d(duration))
        if (Result.isFailure(r)) return r.failure.reason === "OutOfRange"
        DateTime.formatIsoZoned(r.success)
        return Math.abs(r.success.epochMilliseconds) <= MAX
      })
    )
  })

  it("refuses a calendar part too large for any date instead of wrapping around (bug: P4294967295Y lands in range)", () => {
    const start = at(Date.UTC(2024, 0, 1))
    for (const [duration, k] of [
      ["P4294967295Y", 1],
      ["P4294967295Y", -1],
      ["P4294967295M", 1],
      ["P4294967295M", -1],
      ["P4294967295W", 1],
      ["P4294967295W", -1],
      ["P104249991374D", 1],
      ["P1Y", 2_000_000_000],
      ["P1M", -(2 ** 40)],
      ["P1D", Number.MAX_SAFE_INTEGER],
      ["P1Y", Number.MAX_SAFE_INTEGER],
      ["P1M", -Number.MAX_SAFE_INTEGER]
    ] as const) {
      const r = Calendar.addTo(start, d(duration), k)
      expect(Result.isFailure(r) && r.failure.reason, `${duration} × ${k}`).toBe("OutOfRange")
    }
  })

  it("moves by years up to the last and the first year of the range (bug: year 275760 refused, or -271822 taken)", () => {
    const start = at(Date.UTC(2024, 0, 1))
    const year = (r: Result.Result<DateTime.Utc, Calendar.CalendarError>) =>
      Result.match(r, { onFailure: (e) => e.reason, onSuccess: (v) => DateTime.toPartsUtc(v).year })
    expect(year(Calendar.addTo(start, d("P273736Y")))).toBe(275760)
    expect(year(Calendar.addTo(start, d("P273737Y")))).toBe("OutOfRange")
    expect(year(Calendar.addTo(at(Date.UTC(2024, 5, 1)), d("-P273845Y")))).toBe(-271821)
    expect(year(Calendar.addTo(start, d("-P273846Y")))).toBe("OutOfRange")
  })

  it("stepsUntil finds the largest k also for steps far from their estimate (bug: a nanosecond step counted wrong)", () => {
    const near = [
      [0, 1_000],
      [1_000, 0],
      [0, 86_400_000],
      [86_400_000, -1]
    ] as const
    const far = [
      [Date.UTC(2024, 0, 31), Date.UTC(2030, 6, 15, 12)],
      [Date.UTC(2030, 6, 15, 12), Date.UTC(2024, 0, 31)]
    ] as const
    // a sub-millisecond step fits k in a safe integer over a day, not over years
    const cases = [
      ...["PT0.000000001S", "PT0.000001S", "PT0.000999999S"].flatMap((step) => near.map((p) => [step, ...p] as const)),
      ...["PT0.001S", "PT1H", "P1M", "P1Y", "P1M1D"].flatMap((step) =>
        [...near, ...far].map((p) => [step, ...p] as const)
      )
    ]
    for (const [step, anchor, target] of cases) {
      const k = Result.getOrThrow(Calendar.stepsUntil(at(anchor), d(step), at(target)))
      const before = Result.getOrThrow(Calendar.addToEpochMillis(at(anchor), d(step), k))
      const after = Result.getOrThrow(Calendar.addToEpochMillis(at(anchor), d(step), k + 1))
      expect(before <= target && target < after, `${step} from ${anchor} to ${target}: k = ${k}`).toBe(true)
    }
  })

  it("stepsUntil agrees with exact arithmetic over the whole range of instants, and refuses counts beyond 2^53 - 2 (bug: an unsafe integer returned, or a hang going back)", () => {
    const LIMIT = 2n ** 53n - 2n
    // floor(k × ns / 10^6) <= target - anchor  <=>  k × ns < (target - anchor + 1) × 10^6
    const expected = (anchor: number, ns: bigint, target: number): bigint | "TooManySteps" => {
      const bound = (BigInt(target) - BigInt(anchor) + 1n) * 1_000_000n
      const k = bound / ns + (bound % ns !== 0n && bound > 0n ? 1n : 0n) - 1n
      return k > LIMIT || k < -LIMIT ? "TooManySteps" : k
    }
    const instantMs = fc.oneof(
      fc.bigInt({ min: -BigInt(MAX), max: BigInt(MAX) }).map(Number),
      fc.constantFrom(-MAX, -MAX + 1, -1, 0, 1, MAX - 1, MAX)
    )
    // a nanosecond to about 11 days, most of them under a millisecond
    const stepNs = fc.oneof(
      fc.bigInt({ min: 1n, max: 999n }),
      fc.bigInt({ min: 1n, max: 999_999n }),
      fc.bigInt({ min: 1n, max: 999_999_999_999_999n })
    )
    fc.assert(
      fc.property(instantMs, stepNs, instantMs, (anchor, ns, target) => {
        const seconds = ns / 1_000_000_000n
        const fraction = String(ns % 1_000_000_000n).padStart(9, "0")
        const step = d(`PT${seconds}.${fraction}S`)
        const k = Result.match(Calendar.stepsUntil(at(anchor), step, at(target)), {
          onFailure: (e) => e.reason,
          onSuccess: (k) => BigInt(k)
        })
        expect(k, `PT${seconds}.${fraction}S from ${anchor} to ${target}`).toBe(expected(anchor, ns, target))
      }),
      { numRuns: 2000 }
    )
    // at the limit: a millisecond step from the first instant, and back from the last
    const ms = d("PT0.001S")
    const limit = Number(LIMIT)
    const steps = (anchor: number, target: number) =>
      Result.match(Calendar.stepsUntil(at(anchor), ms, at(target)), { onFailure: (e) => e.reason, onSuccess: (k) => k })
    expect(steps(-MAX, -MAX + limit)).toBe(limit)
    expect(steps(-MAX, -MAX + limit + 1)).toBe("TooManySteps")
    expect(steps(MAX, MAX - limit)).toBe(-limit)
    expect(steps(MAX, MAX - limit - 1)).toBe("TooManySteps")
    expect(steps(-MAX, MAX)).toBe("TooManySteps")
    expect(steps(MAX, -MAX)).toBe("TooManySteps")
    // and galloping from an estimate far below (a 444 ns step: about 2,252 of them a millisecond) up to the last count
    const ns444 = (target: number) =>
      Result.match(Calendar.stepsUntil(at(0), d("PT0.000000444S"), at(target)), {
        onFailure: (e) => e.reason,
        onSuccess: (k) => k
      })
    expect(ns444(3_999_196_469_104)).toBe(limit)
    expect(ns444(3_999_196_469_105)).toBe("TooManySteps")
    // k + 1 is a safe integer: the next boundary can be computed
    expect(Calendar.addToEpochMillis(at(-MAX), ms, limit + 1)).toEqual(Result.succeed(-MAX + limit + 1))
    const failure = Result.getOrThrow(Result.flip(Calendar.stepsUntil(at(0), d("PT0.000000001S"), at(MAX))))
    expect(failure.message).toBe(
      "the instant is more than 2^53 - 2 steps from the anchor (the count and the next must be safe integers)"
    )
  })

  it("addToUnsafe throws the CalendarError itself, and a non-integer multiplier is refused (bug: a thrown undefined)", () => {
    try {
      Calendar.addToUnsafe(at(0), d("P1D"), 1.5)
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(Calendar.CalendarError)
      expect((e as Calendar.CalendarError).reason).toBe("InvalidMultiplier")
    }
    for (const k of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      const r = Calendar.addToEpochMillis(at(0), d("P1D"), k)
      expect(Result.isFailure(r) && [r.failure.reason, r.failure.message]).toEqual([
        "InvalidMultiplier",
        "times must be a safe integer"
      ])
    }
    expect(Calendar.addToEpochMillis(at(0), d("P1D"))).toEqual(Result.succeed(86_400_000))
  })
})
