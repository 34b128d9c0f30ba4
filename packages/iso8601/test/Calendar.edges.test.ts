import { describe, expect, it } from "@effect/vitest"
import { Calendar, IsoDuration } from "@payrules/iso8601"
import { DateTime, Result } from "effect"

const MAX = 8_640_000_000_000_000
const d = IsoDuration.parseUnsafe
const at = (ms: number) => DateTime.makeUnsafe(ms)

/** the epoch milliseconds of `anchor + k × duration` (time units only), exactly, rounded toward the past */
const exactly = (anchor: number, duration: IsoDuration.IsoDuration, k: bigint): number | "OutOfRange" => {
  const ns =
    ((((BigInt(duration.hours) * 60n + BigInt(duration.minutes)) * 60n + BigInt(duration.seconds)) * 1000n +
      BigInt(duration.milliseconds)) *
      1000n +
      BigInt(duration.microseconds)) *
      1000n +
    BigInt(duration.nanoseconds)
  const total = ns * k
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
