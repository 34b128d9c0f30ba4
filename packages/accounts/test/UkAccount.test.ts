import { describe, expect, it } from "@effect/vitest"
import { UkAccount } from "@payrules/accounts"
import { issuesOf, schemaLaws } from "@payrules/vitest"
import { Either, Schema } from "effect"

describe("UkAccount parsing", () => {
  it("accepts sort codes written 12-34-56 and 123456", () => {
    expect(UkAccount.parseSortCode("12-34-56")).toEqual(Either.right("123456"))
    expect(UkAccount.parseSortCode("123456")).toEqual(Either.right("123456"))
    expect(UkAccount.unsafeParseSortCode("00-00-00")).toBe("000000")
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
    expect(Either.isLeft(r) && r.left.reason).toBe("SortCodeSyntax")
  })

  it("account numbers are eight digits", () => {
    expect(UkAccount.parseAccountNumber("12345678")).toEqual(Either.right("12345678"))
    for (const bad of ["1234567", "123456789", "1234567a", ""]) {
      const r = UkAccount.parseAccountNumber(bad)
      expect(Either.isLeft(r) && r.left.reason, bad).toBe("AccountNumberSyntax")
    }
  })

  it("parse joins both, checking the sort code first", () => {
    expect(UkAccount.parse("12-34-56", "12345678")).toEqual(
      Either.right({ sortCode: "123456", accountNumber: "12345678" })
    )
    const both = Either.getOrThrow(Either.flip(UkAccount.parse("1234", "1")))
    expect(both.reason).toBe("SortCodeSyntax")
    expect(both.message).toBe('Invalid sort code "1234": a sort code is six digits, written 123456 or 12-34-56')
    expect(() => UkAccount.unsafeParse("123456", "1234")).toThrow(UkAccount.UkAccountError)
  })

  it("the 14-digit identifier parses and formats", () => {
    const account = UkAccount.unsafeParseIdentifier("12345612345678")
    expect(account).toEqual({ sortCode: "123456", accountNumber: "12345678" })
    expect(UkAccount.formatIdentifier(account)).toBe("12345612345678")
    expect(UkAccount.formatSortCode(account.sortCode)).toBe("12-34-56")
    for (const bad of ["1234561234567", "123456123456789", "12-34-5612345678", "123456 12345678"]) {
      const r = UkAccount.parseIdentifier(bad)
      expect(Either.isLeft(r) && r.left.reason, bad).toBe("IdentifierSyntax")
    }
    expect(() => UkAccount.unsafeParseIdentifier("1")).toThrow(UkAccount.UkAccountError)
  })
})

describe("UkAccount Schemas", () => {
  schemaLaws("SortCodeFromSelf", UkAccount.SortCodeFromSelf)
  schemaLaws("SortCodeFromString", UkAccount.SortCodeFromString)
  schemaLaws("AccountNumberFromString", UkAccount.AccountNumberFromString)
  schemaLaws("UkAccountFromFields", UkAccount.UkAccountFromFields)
  schemaLaws("SortCodeAccountNumberFromString", UkAccount.SortCodeAccountNumberFromString)

  it("SortCodeFromString decodes both forms and encodes six digits", () => {
    expect(Schema.decodeUnknownSync(UkAccount.SortCodeFromString)("12-34-56")).toBe("123456")
    expect(Schema.encodeSync(UkAccount.SortCodeFromString)(UkAccount.unsafeParseSortCode("12-34-56"))).toBe("123456")
  })

  it("UkAccountFromFields reports the path of the bad field", () => {
    const r = Schema.decodeUnknownEither(UkAccount.UkAccountFromFields)({ sortCode: "12-34-56", accountNumber: "1234" })
    const issues = issuesOf(Either.getOrThrow(Either.flip(r)))
    expect(issues[0]?.path).toEqual(["accountNumber"])
    expect(issues[0]?.message).toContain("eight digits")
  })

  it("SortCodeAccountNumberFromString decodes the identifier to the two parts", () => {
    const decode = Schema.decodeUnknownEither(UkAccount.SortCodeAccountNumberFromString)
    expect(decode("12345612345678")).toEqual(Either.right({ sortCode: "123456", accountNumber: "12345678" }))
    const left = Either.getOrThrow(Either.flip(decode("1234561234567")))
    expect(issuesOf(left)[0]?.message).toContain("14 digits")
  })
})
