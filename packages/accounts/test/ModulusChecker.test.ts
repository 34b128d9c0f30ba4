import { describe, expect, it } from "@effect/vitest"
import { ModulusChecker, UkAccount } from "@payrules/accounts"
import { DateTime, Effect, Either, Exit, Option } from "effect"

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

const table = ModulusChecker.unsafeParseTable(ROWS, { validFrom: "2024-06-03", substitutions: SUBSTITUTIONS })

/** The published test cases: sort code, account number, expected validity, what the case exercises. */
const VECTORS: ReadonlyArray<readonly [string, string, boolean, string]> = [
  ["089999", "66374958", true, "passes modulus 10"],
  ["107999", "88837491", true, "passes modulus 11"],
  ["202959", "63748472", true, "passes modulus 11 and double alternate"],
  ["871427", "46238510", true, "exceptions 10 & 11: first check passes, second fails"],
  ["872427", "46238510", true, "exceptions 10 & 11: first check fails, second passes"],
  ["871427", "09123496", true, "exception 10: ab = 09 and g = 9"],
  ["871427", "99123496", true, "exception 10: ab = 99 and g = 9"],
  ["820000", "73688637", true, "exception 3: c = 6, the double alternate check is skipped"],
  ["827999", "73988638", true, "exception 3: c = 9, the double alternate check is skipped"],
  ["827101", "28748352", true, "exception 3: c is neither 6 nor 9, both checks run"],
  ["134020", "63849203", true, "exception 4: the remainder equals gh"],
  ["118765", "64371389", true, "exception 1: 27 added to the total"],
  ["200915", "41011166", true, "exception 6: a foreign currency account"],
  ["938611", "07806039", true, "exception 5: both check digits right"],
  ["938600", "42368003", true, "exception 5: passes after sort code substitution"],
  ["938063", "55065200", true, "exception 5: both remainders 0 with g = h = 0"],
  ["772798", "99345694", true, "exception 7: g = 9, passes with u-b zeroised"],
  ["086090", "06774744", true, "exception 8: sort code 090126 used"],
  ["309070", "02355688", true, "exceptions 2 & 9: the first check passes"],
  ["309070", "12345668", true, "exceptions 2 & 9: first fails, second passes with sort code 309634"],
  ["309070", "12345677", true, "exceptions 2 & 9: a ≠ 0 and g ≠ 9"],
  ["309070", "99345694", true, "exceptions 2 & 9: a ≠ 0 and g = 9"],
  ["938063", "15764273", false, "exception 5: first check digit right, second wrong"],
  ["938063", "15764264", false, "exception 5: first check digit wrong, second right"],
  ["938063", "15763217", false, "exception 5: first check with remainder 1"],
  ["118765", "64371388", false, "exception 1: fails the double alternate check"],
  ["203099", "66831036", false, "passes modulus 11, fails double alternate"],
  ["203099", "58716970", false, "fails modulus 11, passes double alternate"],
  ["089999", "66374959", false, "fails modulus 10"],
  ["107999", "88837493", false, "fails modulus 11"],
  ["074456", "12345112", true, "exceptions 12 & 13: passes modulus 11"],
  ["070116", "34012583", true, "exceptions 12 & 13: passes modulus 11"],
  ["074456", "11104102", true, "exceptions 12 & 13: fails modulus 11, passes modulus 10"],
  ["180002", "00000190", true, "exception 14: first check fails, the shifted account passes"]
]

describe("ModulusChecker.layerFromTable: Vocalink's worked examples", () => {
  for (const [sortCode, account, valid, why] of VECTORS) {
    it.effect(`${sortCode} ${account}: ${why}`, () =>
      Effect.gen(function* () {
        const result = yield* ModulusChecker.check(sortCode, account)
        expect(result._tag).toBe(valid ? "Valid" : "Invalid")
      }).pipe(Effect.provide(ModulusChecker.layerFromTable(table)))
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
    }).pipe(Effect.provide(ModulusChecker.layerFromTable(table)))
  )

  it.effect("a sort code outside the table is unchecked (Vocalink presumes it valid)", () =>
    Effect.gen(function* () {
      const result = yield* ModulusChecker.check("000000", "12345678")
      expect(result._tag).toBe("Unchecked")
      expect(result._tag === "Unchecked" && result.reason).toBe("SortCodeNotInTable")
    }).pipe(Effect.provide(ModulusChecker.layerFromTable(table)))
  )

  it.effect("malformed input fails with the UkAccountError", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(ModulusChecker.check("12-34-5", "12345678"))
      expect(Exit.isFailure(exit)).toBe(true)
      const error = yield* Effect.flip(ModulusChecker.check("123456", "1234567"))
      expect(error).toBeInstanceOf(UkAccount.UkAccountError)
      expect(error.reason).toBe("AccountNumberSyntax")
    }).pipe(Effect.provide(ModulusChecker.layerFromTable(table)))
  )

  it("exception 5 without the substitution table uses the original sort code", () => {
    const plain = ModulusChecker.unsafeParseTable(ROWS, { validFrom: "2024-06-03" })
    const account = UkAccount.unsafeParse("938600", "42368003")
    expect(ModulusChecker.checkWithTable(plain, account)._tag).toBe("Invalid")
    expect(ModulusChecker.checkWithTable(table, account)._tag).toBe("Valid")
  })
})

describe("ModulusChecker.layerFormatOnly", () => {
  it.effect("checks the format and answers Unchecked", () =>
    Effect.gen(function* () {
      const result = yield* ModulusChecker.check("12-34-56", "12345678")
      expect(result).toEqual(
        ModulusChecker.ModulusResult.Unchecked({
          reason: "FormatOnly",
          message: "Only the format was checked: provide ModulusChecker.layerFromTable(table) to run the modulus checks"
        })
      )
      const error = yield* Effect.flip(ModulusChecker.check("12345", "12345678"))
      expect(error.reason).toBe("SortCodeSyntax")
      const checker = yield* ModulusChecker.ModulusChecker
      expect(Option.isNone(checker.tableValidFrom)).toBe(true)
    }).pipe(Effect.provide(ModulusChecker.layerFormatOnly))
  )
})

describe("ModulusChecker.parseTable", () => {
  const row = "089999 089999 MOD10    0    0    0    0    0    0    7    1    3    7    1    3    7    1"
  const failure = (text: string, options: ModulusChecker.TableOptions = { validFrom: "2024-06-03" }) =>
    Either.getOrThrow(Either.flip(ModulusChecker.parseTable(text, options)))

  it("keeps rows in order, with weights, method and exception", () => {
    const t = ModulusChecker.unsafeParseTable(`${row}\n\n${row.replace("MOD10", "DBLAL")}  3\n`, {
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

  it("unsafeParseTable throws the typed error", () => {
    expect(() => ModulusChecker.unsafeParseTable("x", { validFrom: "2024-06-03" })).toThrow(
      ModulusChecker.ModulusTableError
    )
  })
})
