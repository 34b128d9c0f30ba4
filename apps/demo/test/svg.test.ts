import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { XMLValidator } from "fast-xml-parser"
import * as Labels from "../src/render/Labels.js"
import { payrules } from "./Harness.js"
import { overlapping, renderPng, size, textBoxes } from "./Picture.js"

const svgOf = (args: ReadonlyArray<string>) =>
  Effect.map(payrules(["simulate", ...args, "--format", "svg"]), (r) => {
    expect([r.code, r.stderr]).toEqual([0, ""])
    return r.stdout
  })

/** Every text box inside the picture, declared as wide as its characters, and no two overlapping. */
const expectReadable = (svg: string) => {
  expect(XMLValidator.validate(svg)).toBe(true)
  const { height, width } = size(svg)
  const boxes = textBoxes(svg)
  expect(boxes.length).toBeGreaterThan(3)
  for (const b of boxes) {
    expect(b.length).toBeCloseTo([...b.text].length * b.fontSize * Labels.CHARACTER_WIDTH, 1)
    expect(b.left, b.text).toBeGreaterThanOrEqual(0)
    expect(b.right, b.text).toBeLessThanOrEqual(width)
    expect(b.top, b.text).toBeGreaterThanOrEqual(0)
    expect(b.bottom, b.text).toBeLessThanOrEqual(height)
  }
  expect(overlapping(boxes)).toEqual([])
  return boxes
}

const start = ["--start", "2024-01-17T09:00:00Z", "--zone", "Europe/London"]

describe("the SVG timeline", () => {
  it.live("the 2-hour plan over 24 months: amounts summed where cycles are too dense, drawn to PNG", () =>
    Effect.gen(function* () {
      const svg = yield* svgOf(["--plan", "test/fixtures/compute-plan.json", ...start, "--months", "24"])
      const boxes = expectReadable(svg)
      const amounts = [...svg.matchAll(/class="amount" data-level="(\w+)"/g)].map((m) => m[1])
      expect(new Set(amounts)).toEqual(new Set(["quarter"]))
      expect(boxes.map((b) => b.text)).toContain("sum per quarter")
      expect(boxes.filter((b) => b.text === "€0.25")).toHaveLength(0)
      const png = renderPng(svg)
      expect([png.width, png.height]).toEqual([size(svg).width, size(svg).height])
      expect(png.png.subarray(1, 4).toString()).toBe("PNG")
    })
  )

  it.live("the 3-phase plans: one amount per cycle where there is room, drawn to PNG", () =>
    Effect.gen(function* () {
      const pro = yield* svgOf(["--plan", "test/fixtures/pro-plan.json", ...start, "--months", "24"])
      const boxes = expectReadable(pro)
      expect(boxes.filter((b) => b.text === "£9.99")).toHaveLength(12)
      expect(boxes.filter((b) => b.text === "£4.99")).toHaveLength(3)
      expect(renderPng(pro).width).toBe(1000)
      const three = yield* svgOf(["--plan", "test/fixtures/three-phase-plan.json", ...start])
      expectReadable(three)
      expect(three).toContain('class="stop"')
      expect(renderPng(three).height).toBe(size(three).height)
    })
  )

  it.live("at every zoom, for every plan of the sandbox, no text overlaps", () =>
    Effect.gen(function* () {
      // the sandbox's plans show every phase shape: each is drawn from a file, without a sandbox per drawing
      const listed = yield* payrules(["plans", "--format", "json"])
      const plans = JSON.parse(listed.stdout) as ReadonlyArray<{ id: string }>
      expect(plans).toHaveLength(15)
      const dir = mkdtempSync(join(tmpdir(), "payrules-plans-"))
      for (const plan of plans) {
        const file = join(dir, `${plan.id}.json`)
        writeFileSync(file, JSON.stringify(plan))
        expectReadable(yield* svgOf(["--plan", file, ...start, "--months", "24"]))
      }
      for (const span of [
        ["--months", "1"],
        ["--months", "6"],
        ["--months", "120"],
        ["--until", "2024-01-18T09:00:00Z"]
      ]) {
        expectReadable(yield* svgOf(["--plan", "test/fixtures/compute-plan.json", ...start, ...span]))
        expectReadable(yield* svgOf(["--plan", "test/fixtures/three-phase-plan.json", ...start, ...span]))
      }
    })
  )
})

describe("label layout", () => {
  const line: Labels.Line = { min: 100, max: 900, fontSize: 9, gap: 6 }
  // fast-check: the layout's invariants over any labels, a grammar of inputs rather than a Schema
  const candidates = fc.array(
    fc.record({
      x: fc.double({ min: -100, max: 1100, noNaN: true }),
      text: fc.string({ minLength: 1, maxLength: 12 }),
      optional: fc.boolean()
    }),
    { maxLength: 60 }
  )
  const apart = (placed: ReadonlyArray<Labels.Placed>) =>
    placed.every((p, i) => {
      const next = placed[i + 1]
      return (
        p.x - p.width / 2 >= line.min - 1e-9 &&
        p.x + p.width / 2 <= line.max + 1e-9 &&
        (next === undefined || next.x - next.width / 2 - (p.x + p.width / 2) >= line.gap - 1e-9)
      )
    })

  it("thin keeps labels inside the line and apart, whatever the input", () => {
    fc.assert(fc.property(candidates, (cs) => apart(Labels.thin(line, cs))))
  })

  it("fitAll places every required label, apart and inside, or refuses", () => {
    fc.assert(
      fc.property(candidates, (cs) => {
        const placed = Labels.fitAll(line, cs)
        if (placed === undefined) return true
        return apart(placed) && placed.length >= cs.filter((c) => c.optional !== true).length
      })
    )
  })

  it("byZoom takes the finest level that fits", () => {
    fc.assert(
      fc.property(candidates, candidates, (fine, coarse) => {
        const chosen = Labels.byZoom(line, [
          ["fine", fine],
          ["coarse", coarse]
        ])
        if (chosen === undefined) return false
        if (Labels.fitAll(line, fine) !== undefined) return chosen.level === "fine"
        return chosen.level === "coarse" && apart(chosen.labels)
      })
    )
  })
})
