import { mkdtempSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Text from "../src/Text.js"
import { payrules } from "./Harness.js"

// Text from outside (plan names and ids from the API or a --plan file, field rule names, values quoted in errors)
// reached a terminal as it was: an escape sequence in a plan's name changed the colours, set the window's title or
// moved the cursor (colour is on for a TTY, so Output does not strip anything there), and a line break in it broke
// the line of `payrules plans`.

/** names that a terminal would obey: SGR colour, a title (OSC 0 ... BEL), a hyperlink (OSC 8), a line feed, C1 CSI */
const hostile = {
  colour: "Pro\u001b[31mPlan",
  title: "a\u001b]0;pwned\u0007b",
  link: "\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\",
  lineFeed: "x\ny",
  c1: "\u009b31m",
  clear: "in\u001b[2J\u001b[Htro",
  del: "tab\there\u007f"
}

/** a control character anywhere (C0, DEL, C1); the outputs below have no colours of their own, so none is expected */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const anyControl = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/

const plan = (id: string, name: string) => ({
  id,
  name,
  state: "active",
  created_at: "2026-04-01T00:00:00Z",
  updated_at: "2026-04-01T00:00:00Z",
  variations: [
    { id: `${id}-v`, phases: [{ id: hostile.clear, ordinal: 1, cycle_duration: "P1M", amount: 500, currency: "GBP" }] }
  ]
})

const plans = [
  plan("p1", hostile.colour),
  plan("p2", hostile.title),
  plan("p3", hostile.link),
  plan("p4", hostile.lineFeed),
  plan("p5", hostile.c1),
  plan("p6", hostile.del)
]

/** a merchant API on 127.0.0.1 answering one page of those plans, for the length of the scope */
const hostileApi = Effect.acquireRelease(
  Effect.callback<Server>((resume) => {
    const server = createServer((_, response) => {
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify({ subscription_plans: plans }))
    })
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
)

const env = { PAYRULES_TOKEN: "t" }

const planFile = (name: string, variation: string, phase: string): string => {
  const dir = mkdtempSync(join(tmpdir(), "payrules-outside-"))
  const file = join(dir, "plan.json")
  writeFileSync(
    file,
    JSON.stringify({
      ...plan("pln_x", name),
      variations: [
        { id: variation, phases: [{ id: phase, ordinal: 1, cycle_duration: "P1M", amount: 500, currency: "GBP" }] }
      ]
    })
  )
  return file
}

describe("text from outside is shown, not obeyed", () => {
  it("visible: control characters as escapes, everything else as it is, and twice is once", () => {
    expect(Text.visible(hostile.colour)).toBe("Pro\\u001b[31mPlan")
    expect(Text.visible(hostile.title)).toBe("a\\u001b]0;pwned\\u0007b")
    expect(Text.visible(hostile.lineFeed)).toBe("x\\u000ay")
    expect(Text.visible(hostile.c1)).toBe("\\u009b31m")
    expect(Text.visible(hostile.del)).toBe("tab\\u0009here\\u007f")
    expect(Text.visible("\u0000\r")).toBe("\\u0000\\u000d")
    expect(Text.visible("Café · £4.99 → 😀 \u00a0")).toBe("Café · £4.99 → 😀 \u00a0")
    expect(Text.visible(Text.visible(hostile.link))).toBe(Text.visible(hostile.link))
  })

  it("json: the same value once parsed, with DEL and C1 escaped too", () => {
    const value = { name: `${hostile.c1}${hostile.del}${hostile.title}` }
    const text = Text.json(value)
    expect(text).not.toMatch(anyControl)
    expect(JSON.parse(text)).toEqual(value)
  })

  it.live("bug: payrules plans on a terminal shows the escapes in names and phase ids, one line per plan", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* hostileApi
        const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        const r = yield* payrules(["plans", "--base-url", baseUrl], { env, color: true })
        expect(r.code).toBe(0)
        expect(r.stdout).not.toMatch(anyControl)
        const lines = r.stdout.trimEnd().split("\n")
        // the count, then a blank line, the plan's line and its variation's line per plan
        expect(lines).toHaveLength(1 + 3 * plans.length)
        expect(lines).toContain("p1  Pro\\u001b[31mPlan (active)")
        expect(lines).toContain("p2  a\\u001b]0;pwned\\u0007b (active)")
        expect(lines).toContain("p4  x\\u000ay (active)")
        expect(lines).toContain("p5  \\u009b31m (active)")
        expect(lines).toContain("p6  tab\\u0009here\\u007f (active)")
        expect(lines).toContain("  p1-v: in\\u001b[2J\\u001b[Htro P1M £5.00, no end")
        // in a pipe the same text: the escapes are the data's, shown, not taken out
        const piped = yield* payrules(["plans", "--base-url", baseUrl], { env })
        expect(piped.stdout).toBe(r.stdout)
        // the JSON carries the names exactly as sent, and no control character either
        const json = yield* payrules(["plans", "--base-url", baseUrl, "--format", "json"], { env, color: true })
        expect(json.stdout).not.toMatch(anyControl)
        const read = JSON.parse(json.stdout) as ReadonlyArray<{
          name: string
          variations: ReadonlyArray<{ phases: ReadonlyArray<{ id: string }> }>
        }>
        expect(read.map((p) => p.name)).toEqual(plans.map((p) => p.name))
        expect(read[0]!.variations[0]!.phases[0]!.id).toBe(hostile.clear)
      })
    )
  )

  it.live("bug: simulate --plan shows the escapes of the plan's name, variation and phase ids in its table", () =>
    Effect.gen(function* () {
      const file = planFile(hostile.lineFeed, hostile.c1, hostile.colour)
      const args = ["simulate", "--plan", file, "--start", "2024-01-01T00:00:00Z", "--months", "2"]
      const r = yield* payrules(args, { color: true })
      expect(r.code).toBe(0)
      expect(r.stdout).not.toMatch(anyControl)
      const lines = r.stdout.split("\n")
      expect(lines[0]).toBe("x\\u000ay (pln_x), UTC")
      expect(r.stdout).toContain("PhaseEntered        phase Pro\\u001b[31mPlan (ordinal 1)")
      expect(r.stdout).toContain("CycleBilled         Pro\\u001b[31mPlan #1  £5.00  until 2024-02-01 00:00")
      expect(r.stdout).toMatch(/^ {2}Pro\\u001b\[31mPlan │█+│ 2 cycle\(s\)$/m)
      // the JSON: the ids exactly
      const json = yield* payrules([...args, "--format", "json"], { color: true })
      expect(json.stdout).not.toMatch(anyControl)
      const events = (JSON.parse(json.stdout) as { events: ReadonlyArray<{ phase?: string }> }).events
      expect(events.filter((e) => e.phase !== undefined).every((e) => e.phase === hostile.colour)).toBe(true)
      // an error line quoting a value: one line, the escapes shown
      const wrong = yield* payrules([...args, "--variation", hostile.title], { color: true })
      expect(wrong.code).toBe(1)
      expect(wrong.stderr).not.toMatch(anyControl)
      expect(wrong.stderr.split("\n")).toHaveLength(2)
      expect(wrong.stderr).toMatch(/^error: --variation a\\u001b\]0;pwned\\u0007b: /)
    })
  )

  it.live("validate-payment: a value quoted in an issue is quoted as JSON writes it (escapes shown)", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "payrules-outside-"))
      const rules = { fields: [{ name: "charge_bearer", required: true, options: [{ value: hostile.colour }] }] }
      writeFileSync(join(dir, "fields.json"), JSON.stringify(rules))
      writeFileSync(join(dir, "body.json"), JSON.stringify({ charge_bearer: hostile.title }))
      const r = yield* payrules(["validate-payment", "--fields", "fields.json", "--body", "body.json"], {
        cwd: dir,
        color: true
      })
      expect(r.code).toBe(1)
      expect(r.stdout + r.stderr).not.toMatch(anyControl)
      expect(r.stdout.split("\n")[0]).toBe('charge_bearer: OneOf: charge_bearer must be one of "Pro\\u001b[31mPlan"')
    })
  )
})
