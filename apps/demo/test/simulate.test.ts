import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { payrules } from "./cli.js"

const plan = "test/fixtures/pro-plan.json"
const common = ["--plan", plan, "--start", "2024-01-17T09:00:00Z", "--zone", "Europe/London"]

describe("payrules simulate (as a process)", () => {
  it("prints a table, a timeline and the totals", async () => {
    const r = await payrules("simulate", ...common, "--months", "8")
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("2024-02-29 09:00  CycleBilled         intro #2  £4.99  until 2024-03-31 09:00")
    expect(r.stdout).toMatch(/intro +│ *█+ *│ 3 cycle\(s\)/)
    expect(r.stdout).toContain("8 cycle(s) billed: £64.92")
  })

  it("prints JSON events", async () => {
    const r = await payrules("simulate", ...common, "--months", "24", "--format", "json")
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout) as { events: ReadonlyArray<{ type: string; phase?: string; amount?: number }> }
    const billed = doc.events.filter((e) => e.type === "CycleBilled")
    expect(billed.filter((e) => e.phase === "intro")).toHaveLength(3)
    expect(billed.filter((e) => e.phase === "standard")).toHaveLength(12)
    expect(doc.events.at(-1)?.type).toBe("HorizonReached")
  })

  it("writes an SVG that parses as XML, with one band per phase", async () => {
    const dir = mkdtempSync(join(tmpdir(), "payrules-"))
    const out = join(dir, "plan.svg")
    const r = await payrules("simulate", ...common, "--months", "24", "--format", "svg", "--out", out)
    expect(r.code).toBe(0)
    const text = readFileSync(out, "utf8")
    expect(XMLValidator.validate(text)).toBe(true)
    const svg = new XMLParser({ ignoreAttributes: false }).parse(text).svg as {
      g: ReadonlyArray<Record<string, string>>
    }
    const bands = svg.g.filter((g) => g["@_class"] === "phase-band").map((g) => g["@_data-phase"])
    expect(bands).toEqual(["intro", "standard", "loyal"])
    expect(svg.g.filter((g) => g["@_class"] === "trial")).toHaveLength(1)
  })

  it("--no-trial and --anchor are applied", async () => {
    const r = await payrules("simulate", ...common, "--months", "3", "--no-trial", "--format", "json")
    const doc = JSON.parse(r.stdout) as { events: ReadonlyArray<{ type: string }> }
    expect(doc.events[0]?.type).toBe("PhaseEntered")
  })

  it.each([
    ["a bad plan file", "test/fixtures/not-json.json", "not JSON"],
    ["a missing file", "test/fixtures/nope.json", "no such file"],
    ["a bad duration", "test/fixtures/bad-duration.json", "variations.0.phases.0.cycle_duration"]
  ])("%s exits non-zero with a one-line message", async (_, file, text) => {
    const r = await payrules("simulate", "--plan", file, "--start", "2024-01-01T00:00:00Z")
    expect(r.code).not.toBe(0)
    const lines = r.stderr.trim().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^error: /)
    expect(lines[0]).toContain(text)
    expect(r.stderr).not.toMatch(/\s+at .+:\d+:\d+/)
  })

  it("a bad trial override is one line too", async () => {
    const r = await payrules("simulate", "--plan", plan, "--trial", "PT12H")
    expect(r.code).not.toBe(0)
    expect(r.stderr.trim()).toMatch(/^error: --trial: .*days only/)
  })

  it("--help describes the options", async () => {
    const r = await payrules("simulate", "--help")
    expect(r.code).toBe(0)
    for (const option of [
      "--plan",
      "--variation",
      "--start",
      "--zone",
      "--months",
      "--until",
      "--trial",
      "--no-trial",
      "--anchor",
      "--format",
      "--out",
      "--base-url"
    ]) {
      expect(r.stdout).toContain(option)
    }
  })
})
