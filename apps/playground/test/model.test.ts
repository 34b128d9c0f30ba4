/**
 * The playground's work apart from the page: where JSON values are in a text, the URL's state, the plan, fields and
 * identifier panels' results. The page itself is tested in headless Chromium (browser.test.ts).
 */

import { execFileSync } from "node:child_process"
import { describe, expect, it } from "@effect/vitest"
import { Calendar, IsoDuration } from "@payrules/iso8601"
import { Schedule, ScheduleSvg } from "@payrules/subscriptions"
import * as DateTime from "effect/DateTime"
import * as Result from "effect/Result"
import fc from "fast-check"
import * as Fields from "../src/fields/model.js"
import { presetById, presets, pretty } from "../src/fields/presets.js"
import * as Identifiers from "../src/identifiers/model.js"
import { locate, MAX_CHARACTERS, MAX_DEPTH, pathKey, placeOf } from "../src/json/locate.js"
import { defaults } from "../src/plan/inputs.js"
import * as Plan from "../src/plan/model.js"
import { seeded } from "../src/plan/seeded.js"
import { shellWord } from "../src/shell.js"
import { decodeText, encodeText, fromFragment, initial, linkOf, MAX_FRAGMENT, toFragment } from "../src/state.js"
import { MAX_HEIGHT, OVERSCAN, ROW, VIEW, windowOf } from "../src/ui/scroll.js"
import { MAX_LINES, shownLine, shownLines } from "../src/ui/shown.js"

describe("locate", () => {
  /** every path of a JSON value, with the value there */
  const paths = (
    value: unknown,
    path: Array<string | number> = []
  ): Array<readonly [Array<string | number>, unknown]> => [
    [path, value],
    ...(Array.isArray(value)
      ? value.flatMap((v, i) => paths(v, [...path, i]))
      : value !== null && typeof value === "object"
        ? Object.entries(value).flatMap(([k, v]) => paths(v, [...path, k]))
        : [])
  ]

  it("reads what JSON.parse reads, and each path's span holds the value at that path", () => {
    // fast-check: any JSON value, written with any indentation
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 0, 1, 2, "\t"), (value, indent) => {
        const text = JSON.stringify(value, null, indent)
        const located = locate(text)
        if (!located.ok) return false
        expect(located.value).toEqual(JSON.parse(text))
        const all = paths(JSON.parse(text))
        const keys = all.map(([p]) => pathKey(p))
        for (const [path, at] of all) {
          // keys with dots can make two paths read alike (`a.b` and `a`, `b`): those are not compared
          if (keys.filter((k) => k === pathKey(path)).length > 1) continue
          const place = located.places.get(pathKey(path))!
          expect(JSON.parse(text.slice(place.start, place.end))).toEqual(at)
          expect(place.line).toBeLessThanOrEqual(text.slice(0, place.start).split("\n").length - 1)
        }
        return true
      }),
      { numRuns: 200 }
    )
  })

  it("refuses what JSON.parse refuses, with the line of the fault", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        let parses = true
        try {
          JSON.parse(text)
        } catch {
          parses = false
        }
        return locate(text).ok === parses
      }),
      { numRuns: 500 }
    )
    const broken = locate('{\n  "a": 1,\n  "b": tru\n}')
    expect(broken.ok).toBe(false)
    if (!broken.ok) expect(broken.line).toBe(2)
  })

  it("bug: a deeply nested text is a finding, never a thrown RangeError", () => {
    // JSON.parse reads 20,000 levels; a reader with a call per level overflowed the stack and threw into the render
    for (const deep of [
      "[".repeat(20_000) + "]".repeat(20_000),
      `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`,
      "[".repeat(200_000)
    ]) {
      const located = locate(deep)
      // at the bracket one level too deep
      expect(located).toMatchObject({ ok: false, reason: "TooDeep", line: 0 })
      if (!located.ok) expect(located.offset).toBe(deep[0] === "[" ? MAX_DEPTH : '{"a":'.length * MAX_DEPTH)
      if (!located.ok)
        expect(located.message).toBe(
          `more than ${MAX_DEPTH} arrays and objects inside one another: the playground reads up to ${MAX_DEPTH}`
        )
    }
    // up to the limit (64 arrays and objects), read as JSON.parse reads it, every level placed
    const deepest = `${"[".repeat(MAX_DEPTH - 2)}{"x": [1, 2]}${"]".repeat(MAX_DEPTH - 2)}`
    const located = locate(deepest)
    if (!located.ok) throw new Error(located.message)
    expect(located.value).toEqual(JSON.parse(deepest))
    const path = [...Array.from({ length: MAX_DEPTH - 2 }, () => 0), "x", 1]
    expect(located.places.get(pathKey(path))).toEqual({
      line: 0,
      start: deepest.indexOf("2"),
      end: deepest.indexOf("2") + 1
    })
    // a text that is not JSON before it is too deep says so
    expect(locate(`${"[".repeat(10)}x${"[".repeat(MAX_DEPTH)}`)).toMatchObject({
      ok: false,
      reason: "NotJson",
      offset: 10
    })
  })

  it("bug: a text over the size limit is refused by its size, before it is read", () => {
    const large = `"${"y".repeat(MAX_CHARACTERS)}"`
    expect(large.length).toBe(MAX_CHARACTERS + 2)
    expect(locate(large)).toEqual({
      ok: false,
      reason: "TooLarge",
      message: "the text has 524,290 characters: the playground reads texts of up to 524,288",
      line: 0,
      offset: 0
    })
    expect(locate(large.slice(2)).ok).toBe(false)
    expect(locate(`"${"y".repeat(MAX_CHARACTERS - 2)}"`).ok).toBe(true)
  })

  it("places a missing member at the object that should hold it", () => {
    const located = locate('{\n  "phases": [\n    { "id": "x" }\n  ]\n}')
    if (!located.ok) throw new Error("not located")
    expect(placeOf(located.places, ["phases", 0, "amount"])?.line).toBe(2)
    expect(pathKey(["phases", 0, "id"])).toBe("phases.0.id")
  })
})

describe("the URL's state", () => {
  it("texts round-trip through base64url, whatever their characters", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (s) => decodeText(encodeText(s)) === s))
  })

  it("a fragment restores the state it was made from", () => {
    const edited = {
      ...initial,
      panel: "fields" as const,
      plan: { ...initial.plan, json: `${seeded[3]!.json} `, seed: undefined, months: "120", zone: "Asia/Tokyo" },
      fields: { ...initial.fields, body: '{"amount": 1}', schemes: ["Swift" as const] },
      identifier: "P1D"
    }
    expect(fromFragment(toFragment(edited))).toEqual(edited)
    expect(fromFragment(toFragment(initial))).toEqual(initial)
    // an unedited seeded plan and preset travel by name
    expect(toFragment(initial)).toBe("panel=plan&seed=0&preset=GB-GBP-FPS&schemes=FasterPayments")
  })

  it("bug: the trial's mode is kept apart from its length, in the state and in the link", () => {
    for (const [trialMode, trial] of [
      ["days", ""],
      ["days", "none"],
      ["days", "P30D"],
      ["none", "P30D"],
      ["plan", "P30D"],
      ["none", ""]
    ] as const) {
      const state = { ...initial, plan: { ...initial.plan, trialMode, trial } }
      expect(fromFragment(toFragment(state)), `${trialMode} ${trial}`).toEqual(state)
    }
    // links made before the mode had a parameter of its own
    expect(fromFragment("trial=none").plan).toMatchObject({ trialMode: "none", trial: "" })
    expect(fromFragment("trial=P30D").plan).toMatchObject({ trialMode: "days", trial: "P30D" })
    expect(fromFragment("trial=").plan).toMatchObject({ trialMode: "plan", trial: "" })
    // another length, left empty or typed "none", is a length to correct, never the plan's trial or no trial
    for (const trial of ["", "none"]) {
      const r = Plan.compute({ ...defaults, json: seeded[0]!.json, trialMode: "days", trial })
      expect(r.inputErrors).toEqual([{ input: "trial", message: "a trial is whole days: P14D, P30D" }])
      expect(Plan.commandLine({ ...defaults, json: "", trialMode: "days", trial })).toContain(
        `--trial ${trial === "" ? "''" : "none"} `
      )
    }
    expect(Plan.commandLine({ ...defaults, json: "", trialMode: "plan", trial: "P30D" })).not.toContain("trial")
  })

  it("a fragment that says nothing, or nonsense, gives the initial state", () => {
    expect(fromFragment("")).toEqual(initial)
    expect(fromFragment("#panel=nope&seed=99&anchor=sideways&plan=%%%")).toEqual(initial)
  })
})

describe("the plan panel", () => {
  it("every seeded plan reads without errors and simulates, over 24 months and 10 years", () => {
    expect(seeded).toHaveLength(15)
    for (const s of seeded) {
      for (const months of ["24", "120"]) {
        const r = Plan.compute({ ...defaults, json: s.json, months })
        expect(r.reading?._tag, s.name).toBe("Read")
        expect(r.simulated?.svg, s.name).toMatch(/^<svg /)
        expect(r.simulated!.rows.at(0)?.number ?? 1).toBe(1)
      }
    }
  })

  it("a duplicate ordinal is a finding at the ordinal, and no schedule", () => {
    const json = seeded[0]!.json.replace('"ordinal": 2', '"ordinal": 1')
    const r = Plan.compute({ ...defaults, json })
    expect(r.reading?._tag).toBe("Read")
    if (r.reading?._tag !== "Read") return
    expect(r.reading.findings.map((f) => [f.rule, f.path.join(".")])).toContainEqual([
      "DuplicateOrdinal",
      "variations.0.phases.1.ordinal"
    ])
    expect(r.simulated).toBeUndefined()
    expect(r.scheduleError).toMatch(/ordinal/)
  })

  it("a plan that is not a plan lists every fault with its path", () => {
    const r = Plan.compute({
      ...defaults,
      json: '{"id": "x", "variations": [{"id": "v", "phases": [{"ordinal": "one"}]}]}'
    })
    expect(r.reading?._tag).toBe("Malformed")
    if (r.reading?._tag !== "Malformed") return
    const paths = r.reading.issues.map((i) => i.path.join("."))
    expect(paths).toContain("name")
    expect(paths).toContain("variations.0.phases.0.ordinal")
  })

  it("the inputs are checked as the command line checks its options, and the command says the same", () => {
    const r = Plan.compute({
      ...defaults,
      json: seeded[0]!.json,
      zone: "Nowhere",
      months: "0",
      trialMode: "days",
      trial: "P1W"
    })
    expect(r.inputErrors.map((e) => e.input).sort()).toEqual(["trial", "zone"])
    const until = Plan.compute({ ...defaults, json: seeded[0]!.json, horizon: "until", until: "2020-01-01T00:00:00Z" })
    expect(until.inputErrors).toEqual([{ input: "until", message: "must be after the start, 2025-01-31T09:00:00Z" }])
    expect(
      Plan.commandLine({
        ...defaults,
        json: "",
        trialMode: "none",
        anchor: "subscription-start",
        horizon: "until",
        variation: "v2"
      })
    ).toBe(
      "pnpm payrules simulate --plan plan.json --start 2025-01-31T09:00:00Z --zone Europe/London --until 2027-01-31T09:00:00Z --no-trial --anchor subscription-start --variation v2 --format svg"
    )
  })

  it("the table reads only the rows it is asked for", () => {
    const metered = seeded.find((s) => s.name.startsWith("Metered"))!
    const r = Plan.compute({ ...defaults, json: metered.json, months: "120" })
    expect(r.simulated!.rows.count).toBe(43_824)
    expect(r.simulated!.rows.at(43_823)).toMatchObject({ number: 43_824, phase: "metered", amount: "€0.25" })
    expect(r.simulated!.rows.at(43_824)).toBeUndefined()
  })
})

describe("the command line", () => {
  it("bug: every value is one word for a POSIX shell, whatever its characters", () => {
    expect(shellWord("2025-01-31T09:00:00Z")).toBe("2025-01-31T09:00:00Z")
    expect(shellWord("Europe/London")).toBe("Europe/London")
    expect(shellWord("var_1;touch /tmp/pwned;#")).toBe("'var_1;touch /tmp/pwned;#'")
    expect(shellWord("UTC $(id>x)")).toBe("'UTC $(id>x)'")
    expect(shellWord("it's")).toBe("'it'\\''s'")
    expect(shellWord("")).toBe("''")
    // sh reads each back as the value itself (sh cannot carry NUL)
    const words = fc.sample(
      fc.string({ unit: "binary", maxLength: 12 }).filter((v) => !v.includes("\0")),
      150
    )
    const values = [...words, "'", "''", "a'b", "$HOME", "`id`", "\\", "\n", "!x", "*", "~", "a b", "-n"]
    const script = values.map((v) => `printf '%s\\0' ${shellWord(v)}`).join("\n")
    expect(execFileSync("sh", ["-c", script], { encoding: "utf8" }).split("\0").slice(0, -1)).toEqual(values)
  })

  it("bug: the command of the plan panel quotes what the URL brought, and an unknown variation is an error", () => {
    const i = { ...defaults, json: seeded[0]!.json, variation: "var_1;touch /tmp/pwned;#", zone: "UTC $(id>x)" }
    expect(Plan.commandLine(i)).toBe(
      "pnpm payrules simulate --plan plan.json --start 2025-01-31T09:00:00Z --zone 'UTC $(id>x)' --months 24 --variation 'var_1;touch /tmp/pwned;#' --format svg"
    )
    const r = Plan.compute({ ...i, zone: "UTC" })
    expect(r.inputErrors).toEqual([
      {
        input: "variation",
        message: "plan pln_pro-trial-intro-then-mon has no variation var_1;touch /tmp/pwned;#: pick one of var_1"
      }
    ])
    expect(r.simulated).toBeUndefined()
    expect(Plan.compute({ ...defaults, json: seeded[9]!.json, variation: "var_10_2" }).simulated?.totalsLine).toMatch(
      /cycle\(s\)/
    )
  })
})

describe("totals and links", () => {
  it("bug: a total past 2^53 minor units is formatted exactly", () => {
    expect(Plan.formatTotal(18_014_398_509_481_982n, "GBP")).toBe("£180,143,985,094,819.82")
    expect(Plan.formatTotal(18_014_398_509_481_983n, "JPY")).toBe("JP¥18,014,398,509,481,983")
    expect(Plan.formatTotal(1_500n, "KWD")).toMatch(/^KWD\s1\.500$/)
    expect(Plan.formatTotal(999n, "XAU")).toBe("999 (minor units)")
    // from a schedule: two cycles of the largest safe amount
    const plan = JSON.parse(seeded[1]!.json)
    plan.variations[0].phases[0].amount = Number.MAX_SAFE_INTEGER
    const r = Plan.compute({ ...defaults, json: JSON.stringify(plan), months: "24" })
    const total = r.simulated?.totals.byCurrency[0]
    expect(total?.amount).toBe(2n * BigInt(Number.MAX_SAFE_INTEGER))
    expect(Plan.formatTotal(total!.amount, total!.currency)).toBe("£180,143,985,094,819.82")
  })

  it("bug: a state too large for a link is not written into the address", () => {
    expect(linkOf(initial)).toEqual({ fragment: toFragment(initial) })
    const large = { ...initial, plan: { ...initial.plan, json: "y".repeat(800_000), seed: undefined } }
    const link = linkOf(large)
    expect(link).toEqual({ tooLong: toFragment(large).length })
    expect("tooLong" in link && link.tooLong).toBeGreaterThan(MAX_FRAGMENT)
    const fits = { ...initial, plan: { ...initial.plan, json: "y".repeat(700_000), seed: undefined } }
    expect("fragment" in linkOf(fits)).toBe(true)
  })
})

describe("the fields panel", () => {
  it("every preset's body passes its rules, except where the rules are refused", () => {
    for (const p of presets) {
      const r = Fields.compute({ fields: pretty(p.fields), body: pretty(p.body), schemes: p.schemes })
      if (p.id === "refused") {
        expect(r.compiled?._tag).toBe("Refused")
        if (r.compiled?._tag === "Refused") {
          expect(r.compiled.errors.map((e) => e.reason)).toEqual([
            "UnsupportedPattern",
            "InvalidName",
            "EmptyIntersection"
          ])
        }
      } else expect([p.id, r.checked]).toEqual([p.id, { _tag: "Valid" }])
    }
    const twenty = presetById("twenty")!.fields as { fields: ReadonlyArray<unknown> }
    expect(twenty.fields).toHaveLength(20)
  })

  it("a 41-character reference under Faster Payments breaks the 18-character limit", () => {
    const p = presetById("GB-GBP-FPS")!
    const body = pretty(p.body).replace("RENT MARCH FLAT 2", "X".repeat(41))
    const r = Fields.compute({ fields: pretty(p.fields), body, schemes: ["FasterPayments"] })
    expect(r.checked?._tag === "Invalid" ? r.checked.issues.map((i) => [i.path.join("."), i.rule]) : []).toEqual([
      ["reference", "MaxLength"]
    ])
    expect(Fields.commandLine({ fields: "", body: "", schemes: ["FasterPayments", "Swift"] })).toBe(
      "pnpm payrules validate-payment --fields fields.json --body body.json --scheme FasterPayments --scheme Swift"
    )
  })
})

describe("the identifiers panel", () => {
  it("reads each kind by its shape, or says what it accepts", () => {
    expect(Identifiers.kindOf("GB82 WEST 1234 5698 7654 32")).toBe("iban")
    expect(Identifiers.kindOf("12-34-56 12345678")).toBe("uk")
    expect(Identifiers.kindOf("12345612345678")).toBe("uk")
    expect(Identifiers.kindOf("011000015")).toBe("aba")
    expect(Identifiers.kindOf("-P1D")).toBe("duration")
    expect(Identifiers.read("???")._tag).toBe("Unrecognised")
    expect(Identifiers.read("  ")._tag).toBe("Empty")
  })

  it("a refusal carries the typed error's reason", () => {
    expect(Identifiers.read("GB82 WEST 1234 5698 7654 33")).toMatchObject({
      _tag: "Refused",
      error: "IbanError",
      reason: "Checksum"
    })
    expect(Identifiers.read("011000016")).toMatchObject({
      _tag: "Refused",
      error: "AbaRoutingError",
      reason: "Checksum"
    })
    expect(Identifiers.read("12-34-5 12345678")).toMatchObject({ _tag: "Refused", kind: "uk", error: "UkAccountError" })
    expect(Identifiers.read("P0.5Y")).toMatchObject({
      _tag: "Refused",
      error: "IsoDurationParseError",
      reason: "FractionOnDateUnit"
    })
  })

  it("what an IBAN holds: country, bank, check digits, national check", () => {
    const r = Identifiers.read("ES91 2100 0418 4502 0005 1332")
    const facts = r._tag === "Parsed" ? Object.fromEntries(r.facts.map((f) => [f.name, f.value])) : {}
    expect(facts).toMatchObject({ bank: "2100", branch: "0418", BBAN: "21000418450200051332", SEPA: "yes" })
    expect(facts["check digits"]).toMatch(/^91/)
    expect(facts["national check"]).toMatch(/^Spain's DC .*: valid$/)
  })
})

describe("the annotated view", () => {
  it("bug: a text of 500,000 lines renders its first 2,000 lines and the lines with notes, with gaps between", () => {
    const items = shownLines(500_000, [3, 2500, 2500, 499_999, 700_000])
    expect(items).toHaveLength(MAX_LINES + 4)
    expect(items.slice(0, MAX_LINES).every((item, i) => item._tag === "Line" && item.line === i)).toBe(true)
    expect(items.slice(MAX_LINES)).toEqual([
      { _tag: "Gap", from: 2000, to: 2499 },
      { _tag: "Line", line: 2500 },
      { _tag: "Gap", from: 2501, to: 499_998 },
      { _tag: "Line", line: 499_999 }
    ])
    expect(shownLines(3, [1])).toEqual([0, 1, 2].map((line) => ({ _tag: "Line", line })))
    expect(shownLines(2001, [])).toEqual([
      ...Array.from({ length: MAX_LINES }, (_, line) => ({ _tag: "Line", line })),
      { _tag: "Gap", from: 2000, to: 2000 }
    ])
    expect(shownLine("y".repeat(2500))).toBe(`${"y".repeat(2000)} … (500 more characters)`)
    expect(shownLine("short")).toBe("short")
  })
})

describe("the cycles table", () => {
  it("bug: every row of every seeded plan, read by its index, is the cycle the events yield", () => {
    for (const s of seeded) {
      for (const options of [
        { months: "24", anchor: "phase-start" as const, trialMode: "plan" as const, trial: "" },
        { months: "120", anchor: "subscription-start" as const, trialMode: "days" as const, trial: "P45D" },
        { months: "36", anchor: "phase-start" as const, trialMode: "none" as const, trial: "" }
      ]) {
        const r = Plan.compute({ ...defaults, json: s.json, ...options })
        for (const variation of r.variations) {
          const v = Plan.compute({ ...defaults, json: s.json, ...options, variation })
          const rows = v.simulated!.rows
          // the rows from the lazy events, as the table read them before
          const plan = (v.reading as { plan: Parameters<typeof Schedule.forPlan>[0] }).plan
          const start = DateTime.makeZonedUnsafe(DateTime.makeUnsafe(defaults.start), { timeZone: defaults.zone })
          const until = Result.getOrThrow(
            Calendar.addTo(start, IsoDuration.makeUnsafe({ months: Number(options.months) }))
          )
          const placed = Result.getOrThrow(
            Schedule.forPlan(plan, {
              start,
              until,
              anchor: options.anchor,
              variation,
              trial:
                options.trialMode === "none"
                  ? "none"
                  : options.trialMode === "plan"
                    ? undefined
                    : IsoDuration.parseUnsafe(options.trial)
            })
          )
          const billed = [...Result.getOrThrow(Schedule.simulate(placed.variation, placed.options))].filter(
            Schedule.Event.$is("CycleBilled")
          )
          expect(rows.count, `${s.name} ${variation}`).toBe(billed.length)
          // every row of a short schedule; the first, last and some between of a long one
          const indices =
            billed.length <= 2000
              ? billed.map((_, i) => i)
              : [
                  0,
                  1,
                  2,
                  1000,
                  billed.length - 2,
                  billed.length - 1,
                  ...Array.from({ length: 50 }, (_, k) => (k * 7919) % billed.length)
                ]
          for (const i of indices) {
            const e = billed[i]!
            expect(rows.at(i), `${s.name} ${variation} row ${i}`).toEqual({
              number: i + 1,
              phase: e.phaseId,
              cycle: e.cycleIndex + 1,
              start: ScheduleSvg.wallClock(e.start),
              end: ScheduleSvg.wallClock(e.end),
              amount: ScheduleSvg.price(e.amount, e.currency)
            })
          }
          expect(rows.at(billed.length)).toBeUndefined()
          expect(rows.at(-1)).toBeUndefined()
        }
      }
    }
  })

  it("bug: the last of 315 million rows is read at once, and the scroll space reaches it", () => {
    const metered = seeded.find((s) => s.name.startsWith("Metered"))!
    const r = Plan.compute({ ...defaults, json: metered.json.replace('"PT2H"', '"PT1S"'), months: "120" })
    const count = r.simulated!.rows.count
    expect(count).toBe(315_532_800)
    expect(r.simulated!.rows.at(count - 1)).toMatchObject({ number: 315_532_800, cycle: 315_532_800 })
    // the scroll space is capped; its top shows the first rows, its end the last ones
    expect(windowOf(count, 0)).toMatchObject({ first: 0, top: 0, scaled: true, height: MAX_HEIGHT })
    const range = MAX_HEIGHT - VIEW * ROW
    const end = windowOf(count, range, range)
    expect(end).toMatchObject({ first: count - VIEW, last: count, top: range, bottom: 0 })
    // measured by the page (a scrollbar or a border can take a few pixels): the end is still the last row
    expect(windowOf(count, range + 17, range + 17)).toMatchObject({ last: count, bottom: 0 })
    // between, in proportion, and every window as tall as the scroll space
    const half = windowOf(count, range / 2, range)
    expect(half.first).toBe(Math.floor((count - VIEW) / 2))
    for (const top of [0, 1, 13, 5_000_000, range - 1, range]) {
      const w = windowOf(count, top, range)
      expect(w.top + (w.last - w.first) * ROW + w.bottom).toBe(MAX_HEIGHT)
      expect(w.top).toBeGreaterThanOrEqual(0)
      expect(w.bottom).toBeGreaterThanOrEqual(0)
    }
    // a table that fits keeps a pixel a pixel, as before
    expect(windowOf(43_824, 26 * 1000)).toMatchObject({
      first: 1000 - OVERSCAN,
      top: (1000 - OVERSCAN) * ROW,
      scaled: false
    })
  })

  it("bug: a position left from a longer table is read as the end of the shorter one", () => {
    // 43,824 rows scrolled to the end, then 336: the window holds the last rows, never none
    const w = windowOf(336, 43_824 * ROW)
    expect(w).toMatchObject({ last: 336, bottom: 0, scaled: false })
    expect(w.first).toBe(336 - VIEW - OVERSCAN)
    expect(windowOf(3, 10_000)).toMatchObject({ first: 0, last: 3, top: 0, bottom: 0 })
    expect(windowOf(0, 10_000)).toMatchObject({ first: 0, last: 0, height: 0 })
  })
})
