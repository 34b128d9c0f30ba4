import { describe, expect, it } from "@effect/vitest"
import * as UkAccount from "@payrules/accounts/UkAccount"
import { issuesOf, schemaLaws } from "@payrules/vitest"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { schemaArbitrary } from "./support/lazily.js"

describe("UkAccount parsing", () => {
  it("accepts sort codes written 12-34-56 and 123456", () => {
    expect(UkAccount.parseSortCode("12-34-56")).toEqual(Result.succeed("123456"))
    expect(UkAccount.parseSortCode("123456")).toEqual(Result.succeed("123456"))
    expect(UkAccount.parseSortCodeUnsafe("00-00-00")).toBe("000000")
  })

  it.each([
    "12345",
    "1234567",
    "12-3456",
    "12 34 56",
    "12--34-56",
    "ab-cd-ef",
    "12-34-5",
    "",
    "\uff11\uff12\uff13\uff14\uff15\uff16"
  ])("rejects the sort code %j", (input) => {
    const r = UkAccount.parseSortCode(input)
    expect(Result.isFailure(r) && r.failure.reason).toBe("SortCodeSyntax")
  })

  it("account numbers are eight digits", () => {
    expect(UkAccount.parseAccountNumber("12345678")).toEqual(Result.succeed("12345678"))
    for (const bad of ["1234567", "123456789", "1234567a", ""]) {
      const r = UkAccount.parseAccountNumber(bad)
      expect(Result.isFailure(r) && r.failure.reason, bad).toBe("AccountNumberSyntax")
    }
  })

  it("parse joins both, checking the sort code first", () => {
    expect(UkAccount.parse("12-34-56", "12345678")).toEqual(
      Result.succeed({ sortCode: "123456", accountNumber: "12345678" })
    )
    const both = Result.getOrThrow(Result.flip(UkAccount.parse("1234", "1")))
    expect(both.reason).toBe("SortCodeSyntax")
    expect(both.message).toBe('Invalid sort code "1234": a sort code is six digits, written 123456 or 12-34-56')
    expect(() => UkAccount.parseUnsafe("123456", "1234")).toThrow(UkAccount.UkAccountError)
  })

  it("the 14-digit identifier parses and formats", () => {
    const account = UkAccount.parseIdentifierUnsafe("12345612345678")
    expect(account).toEqual({ sortCode: "123456", accountNumber: "12345678" })
    expect(UkAccount.formatIdentifier(account)).toBe("12345612345678")
    expect(UkAccount.formatSortCode(account.sortCode)).toBe("12-34-56")
    for (const bad of ["1234561234567", "123456123456789", "12-34-5612345678", "123456 12345678"]) {
      const r = UkAccount.parseIdentifier(bad)
      expect(Result.isFailure(r) && r.failure.reason, bad).toBe("IdentifierSyntax")
    }
    expect(() => UkAccount.parseIdentifierUnsafe("1")).toThrow(UkAccount.UkAccountError)
  })

  it("the effect 3 names of the throwing parsers remain, as deprecated aliases", () => {
    expect(UkAccount.unsafeParse).toBe(UkAccount.parseUnsafe)
    expect(UkAccount.unsafeParseSortCode).toBe(UkAccount.parseSortCodeUnsafe)
    expect(UkAccount.unsafeParseIdentifier).toBe(UkAccount.parseIdentifierUnsafe)
    expect(UkAccount.unsafeStandardise).toBe(UkAccount.standardiseUnsafe)
  })
})

describe("UkAccount.standardise: Vocalink's nonstandard account numbers", () => {
  const standard = (sortCode: string, account: string, bank?: UkAccount.NonStandardBank) =>
    Result.map(
      UkAccount.standardise(sortCode, account, bank === undefined ? undefined : { bank }),
      UkAccount.formatIdentifier
    )
  const reasonOf = (sortCode: string, account: string, bank?: UkAccount.NonStandardBank) =>
    Result.match(UkAccount.standardise(sortCode, account, { bank }), {
      onFailure: (e) => e.reason,
      onSuccess: () => "ok"
    })

  // the examples of the specification's table "Nonstandard account numbers"
  it.each([
    ["123456", "123456", undefined, "12345600123456"],
    ["123456", "1234567", undefined, "12345601234567"],
    ["123456", "0123456789", "NatWest", "12345623456789"],
    ["123456", "01-23456789", "NatWest", "12345623456789"],
    ["123456", "1234567890", "CoOperativeBank", "12345612345678"],
    ["123456", "1234567890", "LeedsBuildingSociety", "12345612345678"],
    ["12-34-56", "123456789", "Santander", "12345123456789"]
  ] as const)("%s %s (%s) -> %s", (sortCode, account, bank, expected) => {
    expect(standard(sortCode, account, bank)).toEqual(Result.succeed(expected))
  })

  it("six and seven digits are padded for any bank; eight are kept", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{6}$/),
        fc.stringMatching(/^[0-9]{6,8}$/),
        fc.constantFrom<UkAccount.NonStandardBank | undefined>(
          undefined,
          "NatWest",
          "CoOperativeBank",
          "LeedsBuildingSociety",
          "Santander"
        ),
        (sortCode, account, bank) => {
          const r = Result.getOrThrow(UkAccount.standardise(sortCode, account, { bank }))
          expect(r).toEqual({ sortCode, accountNumber: account.padStart(8, "0") })
        }
      )
    )
  })

  it("nine and ten digits need the issuing bank's rule", () => {
    expect(reasonOf("123456", "123456789")).toBe("NonStandardAccountNumber")
    expect(reasonOf("123456", "123456789", "NatWest")).toBe("NonStandardAccountNumber")
    expect(reasonOf("123456", "1234567890")).toBe("NonStandardAccountNumber")
    expect(reasonOf("123456", "1234567890", "Santander")).toBe("NonStandardAccountNumber")
    expect(reasonOf("123456", "01-23456789", "CoOperativeBank")).toBe("AccountNumberSyntax")
    const e = Result.getOrThrow(Result.flip(UkAccount.standardise("123456", "1234567890")))
    expect(e.message).toContain("{ bank }")
  })

  it.each(["12345", "12345678901", "1234567a", "", "12-3456789"])("refuses %j", (account) => {
    expect(reasonOf("123456", account, "NatWest")).toBe("AccountNumberSyntax")
    expect(Result.getOrThrow(Result.flip(UkAccount.standardise("123456", account))).message).toContain("6 to 10 digits")
  })

  it("checks the sort code first, and standardiseUnsafe throws the typed error", () => {
    expect(reasonOf("12-34-5", "1")).toBe("SortCodeSyntax")
    expect(() => UkAccount.standardiseUnsafe("123456", "123456789")).toThrow(UkAccount.UkAccountError)
    expect(UkAccount.standardiseUnsafe("123456", "123456789", { bank: "Santander" })).toEqual({
      sortCode: "123451",
      accountNumber: "23456789"
    })
  })
})

describe("UkAccount Schemas", () => {
  // the arbitraries made when the first value is drawn (see `lazily`)
  schemaLaws("SortCodeFromSelf", UkAccount.SortCodeFromSelf, { arbitrary: schemaArbitrary(UkAccount.SortCodeFromSelf) })
  schemaLaws("SortCodeFromString", UkAccount.SortCodeFromString, {
    arbitrary: schemaArbitrary(UkAccount.SortCodeFromString)
  })
  schemaLaws("AccountNumberFromString", UkAccount.AccountNumberFromString, {
    arbitrary: schemaArbitrary(UkAccount.AccountNumberFromString)
  })
  schemaLaws("UkAccountFromFields", UkAccount.UkAccountFromFields, {
    arbitrary: schemaArbitrary(UkAccount.UkAccountFromFields)
  })
  schemaLaws("SortCodeAccountNumberFromString", UkAccount.SortCodeAccountNumberFromString, {
    arbitrary: schemaArbitrary(UkAccount.SortCodeAccountNumberFromString)
  })

  it("SortCodeFromString decodes both forms and encodes six digits", () => {
    expect(Schema.decodeUnknownSync(UkAccount.SortCodeFromString)("12-34-56")).toBe("123456")
    expect(Schema.encodeSync(UkAccount.SortCodeFromString)(UkAccount.parseSortCodeUnsafe("12-34-56"))).toBe("123456")
  })

  it("UkAccountFromFields reports the path of the bad field", () => {
    const r = Schema.decodeUnknownResult(UkAccount.UkAccountFromFields)({ sortCode: "12-34-56", accountNumber: "1234" })
    const issues = issuesOf(Result.getOrThrow(Result.flip(r)))
    expect(issues[0]?.path).toEqual(["accountNumber"])
    expect(issues[0]?.message).toContain("eight digits")
  })

  it("SortCodeAccountNumberFromString decodes the identifier to the two parts", () => {
    const decode = Schema.decodeUnknownResult(UkAccount.SortCodeAccountNumberFromString)
    expect(decode("12345612345678")).toEqual(Result.succeed({ sortCode: "123456", accountNumber: "12345678" }))
    const left = Result.getOrThrow(Result.flip(decode("1234561234567")))
    expect(issuesOf(left)[0]?.message).toContain("14 digits")
  })
})
