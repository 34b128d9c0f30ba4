import { describe, expect, it } from "@effect/vitest"
import { formatOps, run } from "@payrules/bench"

describe("bench harness", () => {
  it("measures every contender in rounds and reports ratios against ours", async () => {
    const lines: Array<string> = []
    let calls = 0
    const rows = await run(
      "smoke",
      [
        {
          name: "sum",
          contenders: [
            {
              name: "loop",
              ours: true,
              fn: () => {
                calls++
                let s = 0
                for (let i = 0; i < 10; i++) s += i
                return s
              }
            },
            { name: "reduce", fn: () => Array.from({ length: 10 }, (_, i) => i).reduce((a, b) => a + b, 0) }
          ]
        }
      ],
      { rounds: 2, sliceMs: 5, print: (l) => lines.push(l) }
    )
    expect(calls).toBeGreaterThan(0)
    expect(rows.map((r) => r.contender)).toEqual(["loop", "reduce"])
    expect(rows[0]!.ratio).toBe(1)
    expect(rows[1]!.ratio).toBeCloseTo(rows[0]!.opsPerSecond / rows[1]!.opsPerSecond)
    expect(lines.some((l) => l.startsWith("| sum | **loop** (ours) |"))).toBe(true)
  })

  it("refuses a case without exactly one contender of ours, or whose check fails", async () => {
    const opts = { rounds: 1, sliceMs: 1, print: () => {} }
    await expect(run("x", [{ name: "c", contenders: [{ name: "a", fn: () => 1 }] }], opts)).rejects.toThrow("ours")
    await expect(
      run("x", [{ name: "c", contenders: [{ name: "a", ours: true, fn: () => 1, check: () => false }] }], opts)
    ).rejects.toThrow("expected result")
  })

  it("formats rates", () => {
    expect(formatOps(2_410_000)).toBe("2.41 M/s")
    expect(formatOps(812_300)).toBe("812.3 k/s")
    expect(formatOps(95.24)).toBe("95.2 /s")
  })
})
