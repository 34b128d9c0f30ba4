/**
 * Edge cases of the account identifiers, each named after the bug it guards (issue 33: the mutants that the example
 * and property tests left alive). The failing check is asserted by its reason first; a message is asserted where it
 * is what a user acts on (the position of a bad character, the rule that failed, the limit and its source).
 */
import { describe, expect, it } from "@effect/vitest"
import * as AbaRouting from "@payrules/accounts/AbaRouting"
import * as AccountIdentification from "@payrules/accounts/AccountIdentification"
import * as Iban from "@payrules/accounts/Iban"
import * as SchemeLimits from "@payrules/accounts/SchemeLimits"
import * as UkAccount from "@payrules/accounts/UkAccount"
import { issuesOf } from "@payrules/vitest"
import { Arbitrary, Effect, Option, Result, Schema } from "effect"
import fc from "fast-check"
import { withIbanCheckDigits } from "./support/ibanOracle.js"

const documentOf = (schema: Schema.Top) => {
  const document = Schema.toJsonSchemaDocument(schema)
  return { schema: document.schema, definitions: document.definitions }
}

/** the error of a parse that must fail */
const failure = <E>(r: Result.Result<unknown, E>): E => Result.getOrThrow(Result.flip(r))

const ibanFailure = (input: string, options?: Iban.ParseOptions) => failure(Iban.parse(input, options))

describe("Iban edges (named after the bugs they guard)", () => {
  const VALID = "GB82WEST12345698765432"

  it("every ASCII character but letters, digits and spaces is refused where it stands (bug: a '-' or '.' dropped, or a letter range cut short)", () => {
    for (let code = 0; code < 128; code++) {
      const ch = String.fromCharCode(code)
      const input = `${VALID.slice(0, 12)}${ch}${VALID.slice(12)}`
      const r = Iban.parse(input)
      if (ch === " ") expect(r, JSON.stringify(ch)).toEqual(Result.succeed(VALID))
      else if (/[0-9A-Za-z]/.test(ch)) expect(Result.isFailure(r) && r.failure.reason, ch).toBe("Length")
      else {
        const e = ibanFailure(input)
        expect(e.reason, JSON.stringify(ch)).toBe("Syntax")
        expect(e.message, JSON.stringify(ch)).toContain(`${JSON.stringify(ch)} at position 12 is not allowed`)
      }
    }
    // the position counts the input as written, spaces included
    expect(ibanFailure("GB82 WEST-1234 5698 7654 32").message).toContain('"-" at position 9')
    // a character outside the Basic Multilingual Plane is quoted whole, not as half a surrogate pair
    expect(ibanFailure("GB82WEST🎉12345698765432").message).toContain('"🎉" at position 8')
  })

  it("every lower-case letter is upper-cased, a to z (bug: a or z left out of the range)", () => {
    expect(Iban.parse("gb82 west 1234 5698 7654 32")).toEqual(Result.succeed(VALID))
    // the bank code takes any four letters in a GB IBAN: each letter, written in lower case, reads as upper case
    for (const letter of "abcdefghijklmnopqrstuvwxyz") {
      const iban = withIbanCheckDigits("GB", `${letter.toUpperCase()}EST12345698765432`)
      const lower = `${iban.slice(0, 4)}${letter}${iban.slice(5)}`
      expect(Iban.parse(lower), lower).toEqual(Result.succeed(iban))
    }
  })

  it("the start is checked character by character (bug: a digit taken for the second country letter or a letter for the second check digit)", () => {
    const reasonAndMessage = (input: string) => {
      const e = ibanFailure(input)
      return [e.reason, e.message.slice(e.message.indexOf(": ") + 2)]
    }
    expect(reasonAndMessage("G182WEST12345698765432")).toEqual([
      "Syntax",
      "an IBAN starts with a two-letter country code"
    ])
    expect(reasonAndMessage("1B82WEST12345698765432")).toEqual([
      "Syntax",
      "an IBAN starts with a two-letter country code"
    ])
    expect(reasonAndMessage("GB8XWEST12345698765432")).toEqual([
      "Syntax",
      "the country code must be followed by two check digits"
    ])
    expect(reasonAndMessage("GBX2WEST12345698765432")).toEqual([
      "Syntax",
      "the country code must be followed by two check digits"
    ])
    expect(reasonAndMessage("GB8")).toEqual([
      "Syntax",
      "an IBAN starts with a two-letter country code and two check digits"
    ])
    // four characters are a whole start: what is wrong then is the length
    expect(reasonAndMessage("GB82")).toEqual(["Length", "a GB IBAN has 22 characters, this one has 4"])
    expect(reasonAndMessage("gb 82")).toEqual(["Length", "a GB IBAN has 22 characters, this one has 4"])
    // the article reads the country code letter by letter: an FR, an IT, an NL IBAN; a DE, a GB IBAN
    expect(reasonAndMessage("FR76")).toEqual(["Length", "an FR IBAN has 27 characters, this one has 4"])
    expect(reasonAndMessage("DE89")).toEqual(["Length", "a DE IBAN has 22 characters, this one has 4"])
    expect(reasonAndMessage("XX82WEST12345698765432")).toEqual([
      "UnknownCountry",
      "XX is not a country that issues IBANs"
    ])
  })

  it("the length is the country's exactly, one character less or more is refused (bug: an off-by-one length check)", () => {
    for (const c of Iban.registryCountries) {
      const bban = "0".repeat(c.length - 4)
      expect(ibanFailure(`${c.code}00${bban.slice(1)}`).reason, c.code).toBe("Length")
      expect(ibanFailure(`${c.code}00${bban}0`).reason, c.code).toBe("Length")
      // at the right length the next check runs: the format, or the check digits 00 that are never issued
      expect(["BbanFormat", "Checksum"], c.code).toContain(ibanFailure(`${c.code}00${bban}`).reason)
    }
  })

  it("a country outside the registry is admitted by parse, parseUnsafe and isValid only with the option (bug: the option ignored by one of them)", () => {
    const angola = "AO06004400006729503010102"
    const admit = { allowNonRegistryCountries: true }
    expect(ibanFailure(angola).reason).toBe("NotInRegistry")
    expect(ibanFailure(angola, { allowNonRegistryCountries: false }).reason).toBe("NotInRegistry")
    expect(Iban.parse(angola, admit)).toEqual(Result.succeed(angola))
    expect(Iban.isValid(angola)).toBe(false)
    expect(Iban.isValid(angola, admit)).toBe(true)
    expect(() => Iban.parseUnsafe(angola)).toThrow(Iban.IbanError)
    expect(Iban.parseUnsafe(angola, admit)).toBe(angola)
    expect(Iban.parseUnsafe("gb82 west 1234 5698 7654 32")).toBe(VALID)
    // the option does not relax the checks after it
    expect(ibanFailure("AO0600440000672950301010", admit).reason).toBe("Length")
  })

  it("a BBAN format failure names the 1-based position, the expected kind and the country's format (bug: a wrong position sends the user to the wrong character)", () => {
    // Italy: 1!a10!n12!c, the CIN letter, then ABI and CAB digits, then the account in letters or digits
    expect(Iban.country("IT").pipe(Option.map((c) => c.bbanFormat))).toEqual(Option.some("1!a10!n12!c"))
    const it1 = ibanFailure("IT6010542811101000000123456")
    expect(it1.reason).toBe("BbanFormat")
    expect(it1.message).toContain(
      'character 5 ("1") must be a letter: the account part of an IT IBAN is 1!a10!n12!c (1 letter, then 10 digits, then 12 letters or digits)'
    )
    const it2 = ibanFailure("IT60X0542A11101000000123456")
    expect(it2.message).toContain('character 10 ("A") must be a digit')
    // letters and digits are both right in a c segment: an Italian account number in letters is valid
    const letters = withIbanCheckDigits("IT", "X0542811101ABCDEFGHIJKL")
    expect(Iban.parse(letters)).toEqual(Result.succeed(letters))
  })

  it("check digits 00 and 99 are refused even where MOD 97-10 holds with them (bug: 00 taken for 97, 99 for 02)", () => {
    // 00 ≡ 97 and 99 ≡ 02 (mod 97): a BBAN whose check digits are 97 (or 02) also passes MOD 97-10 with 00 (or 99)
    const bbans = Array.from({ length: 5000 }, (_, n) => `WEST${String(n).padStart(14, "0")}`)
    for (const [issued, never] of [
      ["97", "00"],
      ["02", "99"]
    ] as const) {
      const bban = bbans.find((b) => withIbanCheckDigits("GB", b).slice(2, 4) === issued)
      expect(bban, issued).toBeDefined()
      expect(Iban.isValid(`GB${issued}${bban}`)).toBe(true)
      const e = ibanFailure(`GB${never}${bban}`)
      expect([e.reason, e.message.slice(e.message.indexOf(": ") + 2)]).toEqual([
        "Checksum",
        `check digits ${never} are never issued (ISO 13616 uses 02 to 98)`
      ])
    }
  })

  it("a BBAN format failure spells the format out segment by segment (bug: 'see the registry' instead of what goes where)", () => {
    const detail = (input: string) => {
      const e = ibanFailure(input)
      return [e.reason, e.message.slice(e.message.indexOf(": ") + 2)]
    }
    expect(detail("GB821EST12345698765432")).toEqual([
      "BbanFormat",
      'character 5 ("1") must be a letter: the account part of a GB IBAN is 4!a14!n (4 letters, then 14 digits)'
    ])
    // Brazil ends in one letter (the account type) and one letter or digit (the holder's position)
    expect(detail(`BR00A${"0".repeat(22)}P1`)).toEqual([
      "BbanFormat",
      'character 5 ("A") must be a digit: the account part of a BR IBAN is 23!n1!a1!c (23 digits, then 1 letter, then 1 letter or digit)'
    ])
  })

  it("check digits below 10 are written with their leading zero (bug: a three-character start, '2' for '02')", () => {
    // the generator computes the check digits: every one from 02 to 98 occurs, each valid
    const seen = new Set<string>()
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{14}$/), (digits) => {
        const iban = Iban.parseUnsafe(withIbanCheckDigits("GB", `WEST${digits}`))
        seen.add(Iban.checkDigits(iban))
        expect(iban.length).toBe(22)
      }),
      { numRuns: 2000, seed: 33 }
    )
    expect([...seen].some((c) => c.startsWith("0"))).toBe(true)
  })

  it.effect(
    "arbitrary draws from the registry by default and from the countries named otherwise (bug: a non-registry IBAN in default test data)",
    () =>
      Effect.gen(function* () {
        const registry = new Set(Iban.registryCountries.map((c) => c.code))
        const drawn = yield* Arbitrary.sampleEffect(Iban.arbitrary(), { count: 2000, seed: 3 })
        expect(drawn.every((iban) => registry.has(iban.slice(0, 2)))).toBe(true)
        const angolan = yield* Arbitrary.sampleEffect(Iban.arbitrary({ countries: ["AO"] }), { count: 50, seed: 3 })
        for (const iban of angolan) {
          expect(iban.slice(0, 2)).toBe("AO")
          expect(Iban.parse(iban, { allowNonRegistryCountries: true })).toEqual(Result.succeed(iban))
        }
        // North Macedonia's accounts are digits only although its format allows letters: so are the generated ones
        const macedonian = yield* Arbitrary.sampleEffect(Iban.arbitrary({ countries: ["MK"] }), { count: 200, seed: 3 })
        expect(macedonian.every((iban) => /^[0-9]+$/.test(Iban.bban(iban)))).toBe(true)
      })
  )

  it("each national check is named after its own country (bug: Monaco's IBANs blamed on France's rule, or a rule without a name)", () => {
    const owners: Record<string, string> = {
      BA: "Bosnia and Herzegovina's",
      BE: "Belgium's",
      CZ: "the Czech Republic's",
      EE: "Estonia's",
      ES: "Spain's",
      FR: "France's",
      HR: "Croatia's",
      HU: "Hungary's",
      MC: "Monaco's",
      ME: "Montenegro's",
      MK: "North Macedonia's",
      NO: "Norway's",
      PL: "Poland's",
      PT: "Portugal's",
      RS: "Serbia's",
      SI: "Slovenia's",
      SK: "Slovakia's"
    }
    const rules = Iban.countries.flatMap((c) =>
      Option.toArray(Option.map(c.nationalCheck, (rule) => [c.code, rule] as const))
    )
    expect(rules.map(([code]) => code)).toEqual(Object.keys(owners))
    for (const [code, rule] of rules) {
      expect(rule.startsWith(`${owners[code]} `), code).toBe(true)
      expect(rule.length, code).toBeGreaterThan(owners[code]!.length + 10)
    }
    // the message of a failure quotes the rule whole
    const spain = ibanFailure("ES2433918698306900596263")
    expect(spain.message).toBe(
      'Invalid IBAN "ES2433918698306900596263": the national check digits inside the BBAN are wrong: Spain\'s DC (dígitos de control: MOD 11 over bank and branch, and over the account number)'
    )
  })

  it.effect(
    "generated Hungarian IBANs take both the 16- and the 24-digit account forms (bug: test data that never has the short form)",
    () =>
      Effect.gen(function* () {
        const drawn = yield* Arbitrary.sampleEffect(Iban.arbitrary({ countries: ["HU"] }), { count: 200, seed: 5 })
        const short = drawn.filter((iban) => iban.endsWith("00000000"))
        expect(short.length).toBeGreaterThan(20)
        expect(drawn.length - short.length).toBeGreaterThan(20)
      })
  )

  it("the country lists are ordered by code and the registry is the countries in it (bug: a non-registry country offered as a default)", () => {
    const codes = Iban.countries.map((c) => c.code)
    expect(codes).toEqual([...codes].sort())
    expect(Iban.registryCountries).toEqual(Iban.countries.filter((c) => c.inRegistry))
    expect(Iban.registryCountries.map((c) => c.code)).not.toContain("AO")
    expect(Iban.countries.map((c) => c.code)).toContain("AO")
  })

  it("the Schemas report why an IBAN fails, with the reason's words (bug: 'Expected Iban' and nothing else)", () => {
    const fromString = Schema.decodeUnknownResult(Iban.IbanFromString)
    const fromSelf = Schema.decodeUnknownResult(Iban.IbanFromSelf)
    expect(issuesOf(failure(fromString("AO06004400006729503010102")))[0]?.message).toBe(
      ibanFailure("AO06004400006729503010102").message
    )
    expect(issuesOf(failure(fromSelf("GB83WEST12345698765432")))[0]?.message).toBe(
      ibanFailure("GB83WEST12345698765432").message
    )
    expect(issuesOf(failure(fromSelf("GB82 WEST 1234 5698 7654 32")))[0]?.message).toBe(
      'IBAN "GB82 WEST 1234 5698 7654 32" is not in electronic form (upper case, no spaces)'
    )
    expect(Iban.IbanFromSelf.ast.annotations).toMatchObject({
      identifier: "Iban",
      title: "IBAN",
      description: "an IBAN in electronic form (upper case, no spaces), e.g. GB82WEST12345698765432",
      examples: [VALID]
    })
    expect(documentOf(Iban.IbanFromString)).toEqual({
      schema: { $ref: "#/$defs/IbanFromString" },
      definitions: {
        IbanFromString: {
          type: "string",
          title: "IBAN",
          description: "an IBAN (ISO 13616) in print or electronic form, e.g. GB82 WEST 1234 5698 7654 32"
        }
      }
    })
  })
})

describe("AbaRouting edges (named after the bugs they guard)", () => {
  it("each refusal says which rule the number breaks (bug: a routing number error that names the wrong rule)", () => {
    const cases = [
      ["02100002", "Syntax", 'Invalid ABA routing number "02100002": a routing number is exactly 9 digits'],
      ["000000000", "AllZeros", 'Invalid ABA routing number "000000000": 000000000 is not a routing number'],
      [
        "500000005",
        "Prefix",
        'Invalid ABA routing number "500000005": the first two digits must be a Federal Reserve routing symbol: 00-12, 21-32, 61-72 or 80'
      ],
      [
        "123456789",
        "Checksum",
        'Invalid ABA routing number "123456789": the check digit does not match (weights 3, 7, 1 repeated, modulo 10)'
      ]
    ] as const
    for (const [input, reason, message] of cases) {
      const e = failure(AbaRouting.parse(input))
      expect([e.reason, e.input, e.message]).toEqual([reason, input, message])
    }
    const account = failure(AbaRouting.parseAccountNumber("12345"))
    expect([account.reason, account.message]).toEqual([
      "AccountNumberSyntax",
      'Invalid US account number "12345": a US account number has 6 to 17 digits'
    ])
  })

  it("a long input is shortened in the message and kept whole in the error (bug: a megabyte of input copied into a log line)", () => {
    const at48 = "1".repeat(48)
    const at49 = "1".repeat(49)
    expect(failure(AbaRouting.parse(at48)).message).toContain(JSON.stringify(at48))
    const long = failure(AbaRouting.parse(at49))
    expect(long.message).toContain(JSON.stringify(`${"1".repeat(45)}...`))
    expect(long.message).not.toContain(at48)
    expect(long.input).toBe(at49)
  })

  it("checkDigit takes exactly eight digits and completes them (bug: a check digit of 10, or one computed from nine digits)", () => {
    // a weighted sum that is a multiple of 10 takes the check digit 0, not 10
    expect(AbaRouting.checkDigit("00000000")).toEqual(Result.succeed("0"))
    expect(AbaRouting.checkDigit("02100002")).toEqual(Result.succeed("1"))
    for (const bad of ["0210000", "021000021", "0210000a", " 02100002", "02100002 "]) {
      expect(failure(AbaRouting.checkDigit(bad)).reason, bad).toBe("Syntax")
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{8}$/), (eight) => {
        const digit = Result.getOrThrow(AbaRouting.checkDigit(eight))
        expect(digit).toMatch(/^[0-9]$/)
        // the completed number fails only on its prefix (or as all zeros), never on its checksum
        const reason = Result.match(AbaRouting.parse(eight + digit), {
          onFailure: (e) => e.reason,
          onSuccess: () => "ok"
        })
        expect(["ok", "Prefix", "AllZeros"]).toContain(reason)
      })
    )
  })

  it("an account number with anything around its digits is refused (bug: an unanchored pattern)", () => {
    for (const bad of [" 123456", "123456 ", "a123456", "123456a"]) {
      expect(failure(AbaRouting.parseAccountNumber(bad)).reason, bad).toBe("AccountNumberSyntax")
    }
    expect(issuesOf(failure(Schema.decodeUnknownResult(AbaRouting.AccountNumberFromString)("12345")))[0]?.message).toBe(
      'Invalid US account number "12345": a US account number has 6 to 17 digits'
    )
  })

  it("the Schemas are documented (bug: an API document that says only 'string')", () => {
    expect(AbaRouting.RoutingNumberFromString.ast.annotations).toMatchObject({
      identifier: "AbaRoutingNumber",
      title: "ABA routing number",
      description: "a nine-digit ABA routing transit number with a valid prefix and 3-7-1 check digit, e.g. 021000021",
      examples: ["021000021"]
    })
    expect(documentOf(AbaRouting.AccountNumberFromString)).toEqual({
      schema: { $ref: "#/$defs/UsAccountNumber" },
      definitions: {
        UsAccountNumber: {
          type: "string",
          pattern: "^[0-9]{6,17}$",
          title: "US account number",
          description: "a US bank account number of 6 to 17 digits"
        }
      }
    })
  })
})

describe("UkAccount edges (named after the bugs they guard)", () => {
  it("each refusal names what is wrong and how it is written (bug: an account number error that talks of sort codes)", () => {
    const account = failure(UkAccount.parse("12-34-56", "1234"))
    expect([account.reason, account.input, account.message]).toEqual([
      "AccountNumberSyntax",
      "1234",
      'Invalid account number "1234": a UK account number is eight digits'
    ])
    const identifier = failure(UkAccount.parseIdentifier("1234561234567"))
    expect([identifier.reason, identifier.message]).toEqual([
      "IdentifierSyntax",
      'Invalid sort code and account number "1234561234567": a UK.OBIE.SortCodeAccountNumber identification is 14 digits: the sort code, then the account number'
    ])
    const nonStandard = failure(UkAccount.standardise("123456", "123456789"))
    expect([nonStandard.reason, nonStandard.message]).toEqual([
      "NonStandardAccountNumber",
      "Invalid account number \"123456789\": nine-digit account numbers are converted by Santander's rule and ten-digit ones by their bank's (NatWest: the last eight digits; Co-operative Bank and Leeds Building Society: the first eight): pass the issuing bank as { bank }"
    ])
    expect(() => UkAccount.parseSortCodeUnsafe("12-34-5")).toThrow(UkAccount.UkAccountError)
    const long = failure(UkAccount.parseSortCode("1".repeat(60)))
    expect(long.message).toBe(
      `Invalid sort code "${"1".repeat(45)}...": a sort code is six digits, written 123456 or 12-34-56`
    )
  })

  it("a sort code with anything around it, or with one separator missing, is refused (bug: an unanchored or partial pattern)", () => {
    for (const bad of ["123456 ", " 123456", "12-34-567", "012-34-56", "12-34-56 ", "1234-56", "12-3456"]) {
      expect(failure(UkAccount.parseSortCode(bad)).reason, bad).toBe("SortCodeSyntax")
    }
    const decode = Schema.decodeUnknownResult(UkAccount.SortCodeFromString)
    expect(decode("12-34-56")).toEqual(Result.succeed("123456"))
    expect(issuesOf(failure(decode("12-34-5")))[0]?.message).toBe(
      'Invalid sort code "12-34-5": a sort code is six digits, written 123456 or 12-34-56'
    )
    // the six-digit Schema refuses the printed form, and says so
    expect(issuesOf(failure(Schema.decodeUnknownResult(UkAccount.SortCodeFromSelf)("12-34-56")))[0]?.message).toBe(
      'Invalid sort code "12-34-56": a sort code is six digits, written 123456 or 12-34-56 (here without separators)'
    )
  })

  it("NatWest's hyphen is taken only after the second digit, and only from NatWest (bug: any hyphenated text read as an account)", () => {
    const reasonOf = (account: string, bank?: UkAccount.NonStandardBank) =>
      Result.match(UkAccount.standardise("123456", account, { bank }), {
        onFailure: (e) => e.reason,
        onSuccess: () => "ok"
      })
    expect(reasonOf("01-23456789", "NatWest")).toBe("ok")
    for (const bad of ["x01-23456789", "01-23456789x", "01-2345678", "012-3456789"]) {
      expect(reasonOf(bad, "NatWest"), bad).toBe("AccountNumberSyntax")
    }
    expect(reasonOf("01-23456789")).toBe("AccountNumberSyntax")
    expect(reasonOf("01-23456789", "Santander")).toBe("AccountNumberSyntax")
  })

  it("the Schemas are documented (bug: an API document that says only 'string')", () => {
    expect(documentOf(UkAccount.SortCodeAccountNumberFromString)).toEqual({
      schema: { $ref: "#/$defs/SortCodeAccountNumberFromString" },
      definitions: {
        SortCodeAccountNumberFromString: {
          type: "string",
          pattern: "^[0-9]{14}$",
          title: "UK.OBIE.SortCodeAccountNumber",
          description: "a UK sort code and account number as 14 digits, e.g. 12345612345678"
        }
      }
    })
    expect(documentOf(UkAccount.SortCodeFromSelf).definitions).toEqual({
      SortCode: {
        type: "string",
        pattern: "^[0-9]{6}$",
        title: "sort code",
        description: "a UK sort code as six digits, e.g. 123456"
      }
    })
    expect(documentOf(UkAccount.UkAccountFromFields).definitions).toEqual({
      SortCodeFromString: {
        type: "string",
        title: "sort code",
        description: "a UK sort code, written 123456 or 12-34-56"
      },
      UkAccountNumber: {
        type: "string",
        pattern: "^[0-9]{8}$",
        title: "UK account number",
        description: "a UK account number of eight digits"
      },
      UkAccount: {
        type: "object",
        properties: {
          sortCode: { $ref: "#/$defs/SortCodeFromString" },
          accountNumber: { $ref: "#/$defs/UkAccountNumber" }
        },
        required: ["sortCode", "accountNumber"],
        additionalProperties: true,
        description: "a UK sort code and account number"
      }
    })
  })
})

describe("AccountIdentification edges (named after the bugs they guard)", () => {
  const problemOf = (SchemeName: AccountIdentification.SchemeName, Identification: string) => {
    const r = AccountIdentification.check({ SchemeName, Identification })
    return Result.isFailure(r) ? [r.failure.reason, r.failure.message] : "ok"
  }

  it("256 characters go on to the scheme's own check, 257 are refused as too long (bug: Max256Text off by one)", () => {
    expect(problemOf("US.BranchCodeAccountNumber", "x".repeat(256))).toEqual([
      "Identification",
      `Invalid US.BranchCodeAccountNumber "${"x".repeat(45)}...": expected 1 to 34 letters and digits (under SchemeName US.BranchCodeAccountNumber)`
    ])
    expect(problemOf("US.BranchCodeAccountNumber", "x".repeat(257))).toEqual([
      "Identification",
      "Identification is longer than the 256 characters Open Banking allows (under SchemeName US.BranchCodeAccountNumber)"
    ])
  })

  it("bug: the 256 characters of Identification were counted in UTF-16 units (200 emoji were 'longer than 256')", () => {
    // 200 code points (400 UTF-16 units): within the limit, so the scheme's own check answers
    const [reason, message] = problemOf("US.BranchCodeAccountNumber", "🎉".repeat(200)) as [string, string]
    expect(reason).toBe("Identification")
    expect(message).toContain("expected 1 to 34 letters and digits")
    expect(problemOf("US.BranchCodeAccountNumber", "🎉".repeat(257))).toEqual([
      "Identification",
      "Identification is longer than the 256 characters Open Banking allows (under SchemeName US.BranchCodeAccountNumber)"
    ])
  })

  it("each scheme says what it expects (bug: an Identification refused without a word of why)", () => {
    expect(problemOf("UK.OBIE.SortCodeAccountNumber", "1234561234567")).toEqual([
      "Identification",
      'Invalid sort code and account number "1234561234567": a UK.OBIE.SortCodeAccountNumber identification is 14 digits: the sort code, then the account number (under SchemeName UK.OBIE.SortCodeAccountNumber)'
    ])
    expect(problemOf("US.RoutingNumberAccountNumber", "12")).toEqual([
      "Identification",
      'Invalid US.RoutingNumberAccountNumber "12": expected a 9-digit routing number followed by a 6 to 17 digit account number (15 to 26 digits) (under SchemeName US.RoutingNumberAccountNumber)'
    ])
    expect(problemOf("UK.OBIE.IBAN", "GB83WEST12345698765432")).toEqual([
      "Identification",
      `${ibanFailure("GB83WEST12345698765432").message} (under SchemeName UK.OBIE.IBAN)`
    ])
    // the routing scheme's layout is assumed, so its checksum is not enforced
    expect(problemOf("US.RoutingNumberAccountNumber", "123456789123456")).toBe("ok")
    expect(problemOf("US.BranchCodeAccountNumber", "x".repeat(34))).toBe("ok")
    expect(problemOf("US.BranchCodeAccountNumber", "x".repeat(35))[0]).toBe("Identification")
  })

  it("an unknown SchemeName is named in the error, with the four known ones (bug: 'invalid scheme' without the value)", () => {
    const r = AccountIdentification.check({ SchemeName: "UK.OBIE.BBAN", Identification: "1" })
    expect(Result.isFailure(r) && r.failure.message).toBe(
      'Unknown SchemeName "UK.OBIE.BBAN": expected one of UK.OBIE.IBAN, UK.OBIE.SortCodeAccountNumber, US.RoutingNumberAccountNumber, US.BranchCodeAccountNumber'
    )
  })

  it("the identification Schemas are documented with their patterns (bug: an API document that says only 'string')", () => {
    expect(documentOf(AccountIdentification.SchemeName)).toEqual({
      schema: { $ref: "#/$defs/SchemeName" },
      definitions: {
        SchemeName: {
          type: "string",
          enum: [
            "UK.OBIE.IBAN",
            "UK.OBIE.SortCodeAccountNumber",
            "US.RoutingNumberAccountNumber",
            "US.BranchCodeAccountNumber"
          ],
          description: "the scheme of an account identification"
        }
      }
    })
    const typeDocument = (name: AccountIdentification.SchemeName) =>
      documentOf(Schema.toType(AccountIdentification.forScheme(name)) as Schema.Top).definitions
    expect(typeDocument("UK.OBIE.SortCodeAccountNumber")).toEqual({
      SortCodeAccountNumberIdentification: {
        type: "string",
        pattern: "^[0-9]{14}$",
        description: "a UK sort code and account number as 14 digits, e.g. 12345612345678"
      }
    })
    expect(typeDocument("US.BranchCodeAccountNumber")).toEqual({
      BranchCodeAccountNumberIdentification: {
        type: "string",
        pattern: "^[A-Za-z0-9]{1,34}$",
        description:
          "a US branch code and account number: 1 to 34 letters and digits; a lenient assumption, as the layout is not published"
      }
    })
    expect(typeDocument("US.RoutingNumberAccountNumber")).toEqual({
      RoutingNumberAccountNumberIdentificationEncoded: { type: "string", pattern: "^[0-9]{15,26}$" }
    })
    expect(AccountIdentification.forScheme("US.RoutingNumberAccountNumber").ast.annotations).toMatchObject({
      identifier: "RoutingNumberAccountNumberIdentification",
      description:
        "a US routing number (9 digits) followed by the account number (6 to 17 digits); an assumption, as the layout is not published"
    })
    expect(
      documentOf(Schema.toType(AccountIdentification.SchemeNameLenient)).definitions.SchemeNameLenient
    ).toMatchObject({
      description:
        'the scheme of an account identification: one of the four known values, or a scheme added since (kept as { _tag: "Unknown", value })'
    })
    expect(AccountIdentification.SchemeAndIdentification.ast.annotations).toMatchObject({
      identifier: "SchemeAndIdentification",
      description: "an account's SchemeName and an Identification valid under it"
    })
  })
})

describe("SchemeLimits edges (named after the bugs they guard)", () => {
  const sets = [SchemeLimits.FasterPayments, SchemeLimits.OpenBanking, SchemeLimits.Swift]

  it("every limit takes a value of exactly its length and refuses one more character (bug: < for <=)", () => {
    for (const set of sets) {
      for (const l of set.limits) {
        const fits = "é".repeat(l.maxLength)
        expect(SchemeLimits.check(set, l.field, fits)).toEqual(Result.succeed(fits))
        const v = failure(SchemeLimits.check(l.field, `${fits}x`)(set))
        expect([v.reason, v.set, v.field, v.maxLength, v.length, v.source]).toEqual([
          "TooLong",
          set.name,
          l.field,
          l.maxLength,
          l.maxLength + 1,
          l.source
        ])
      }
    }
  })

  it("a lone surrogate counts as one character, whatever stands beside it (bug: two characters counted as one, so an over-long value passes)", () => {
    // only a high surrogate followed by a low one is a pair
    expect(SchemeLimits.codePointLength("\udc00\udc00")).toBe(2)
    expect(SchemeLimits.codePointLength("\ue000\udc00")).toBe(2)
    expect(SchemeLimits.codePointLength("\ud800\ue000")).toBe(2)
    expect(SchemeLimits.codePointLength("\udbff\udfff")).toBe(1)
    const units = fc.constantFrom("\ud7ff", "\ud800", "\udbff", "\udc00", "\udfff", "\ue000", "a")
    fc.assert(
      fc.property(fc.string({ unit: units, maxLength: 12 }), (s) => {
        expect(SchemeLimits.codePointLength(s)).toBe([...s].length)
      }),
      { numRuns: 2000 }
    )
  })

  it("a set that limits a field twice holds the smaller limit, in either order (bug: the last limit read wins)", () => {
    const loose = { field: "Reference", maxLength: 35, source: "loose" } as const
    const tight = { field: "Reference", maxLength: 18, source: "tight" } as const
    for (const limits of [
      [loose, tight],
      [tight, loose]
    ]) {
      const set: SchemeLimits.LimitSet = { name: "Twice", limits }
      expect(SchemeLimits.limit(set, "Reference")).toEqual(Option.some(tight))
      expect(SchemeLimits.limit("Reference")(set)).toEqual(Option.some(tight))
      expect(Result.isFailure(SchemeLimits.check(set, "Reference", "r".repeat(19)))).toBe(true)
    }
  })

  it("on a tie the limit given first is kept, with its source (bug: the source of a limit changing when sets are repeated)", () => {
    const first = { field: "Reference", maxLength: 18, source: "first" } as const
    const second = { field: "Reference", maxLength: 18, source: "second" } as const
    const set: SchemeLimits.LimitSet = { name: "Tie", limits: [first, second] }
    expect(SchemeLimits.limit(set, "Reference")).toEqual(Option.some(first))
    const meet = SchemeLimits.intersect({ name: "A", limits: [first] }, { name: "B", limits: [second] })
    expect(meet.limits).toEqual([first])
  })
})
