import { describe, expect, it } from "@effect/vitest"
import * as Iban from "@payrules/accounts/Iban"
import { schemaLaws } from "@payrules/vitest"
import { Arbitrary, Effect, Option, Result, Schema } from "effect"
import { getCountrySpecifications } from "ibantools"
import { classesOf } from "./support/ibanMutations.js"
import { ibantoolsNationalCountries, oracleValid, withIbanCheckDigits } from "./support/ibanOracle.js"
import { schemaArbitrary } from "./support/lazily.js"

describe("Iban.parse examples", () => {
  it("accepts GB82WEST12345698765432", () => {
    expect(Iban.parse("GB82WEST12345698765432")).toEqual(Result.succeed("GB82WEST12345698765432"))
  })

  it("normalises case and spaces", () => {
    expect(Iban.parse("gb82 west 1234 5698 7654 32")).toEqual(Result.succeed("GB82WEST12345698765432"))
    expect(Iban.parse("  GB82WEST 12345698765432 ")).toEqual(Result.succeed("GB82WEST12345698765432"))
    expect(Iban.parseUnsafe("de89 3704 0044 0532 0130 00")).toBe("DE89370400440532013000")
  })

  const reasonOf = (s: string, options?: Iban.ParseOptions) =>
    Result.match(Iban.parse(s, options), { onFailure: (e) => e.reason, onSuccess: () => "ok" })

  it.each([
    ["", "Syntax"],
    ["GB8", "Syntax"],
    ["GB82-WEST-1234-5698-7654-32", "Syntax"],
    ["GB82WEST1234569876543\u00e9", "Syntax"],
    ["1B82WEST12345698765432", "Syntax"],
    ["GBX2WEST12345698765432", "Syntax"],
    ["XX82WEST12345698765432", "UnknownCountry"],
    ["US82WEST12345698765432", "UnknownCountry"],
    ["AO06004400006729503010102", "NotInRegistry"],
    ["GB82WEST1234569876543", "Length"],
    ["GB82WEST123456987654321", "Length"],
    ["GB821EST12345698765432", "BbanFormat"],
    ["GB82WESTA2345698765432", "BbanFormat"],
    ["GB83WEST12345698765432", "Checksum"],
    ["GB28WEST12345698765432", "Checksum"],
    ["GB82WEST12345698765423", "Checksum"],
    // MOD 97-10 holds in these, the national check digits do not (found by comparing with ibantools)
    ["ES2433918698306900596263", "NationalCheckDigits"],
    ["FR290167011129WHFYHOYRL5599", "NationalCheckDigits"],
    ["HU31627635665689410798970054", "NationalCheckDigits"],
    ["ES9121000418450200051332", "ok"],
    ["FR1420041010050500013M02606", "ok"],
    ["HU42117730161111101800000000", "ok"]
  ])("%j -> %s", (input, reason) => {
    expect(reasonOf(input)).toBe(reason)
  })

  it("admits a country outside the registry only with the option", () => {
    expect(Iban.parse("AO06004400006729503010102", { allowNonRegistryCountries: true })).toEqual(
      Result.succeed("AO06004400006729503010102")
    )
    expect(reasonOf("AO06004400006729503010103", { allowNonRegistryCountries: true })).toBe("Checksum")
    expect(Option.map(Iban.country("AO"), (c) => c.inRegistry)).toEqual(Option.some(false))
  })

  it("rejects the check digits 00, 01 and 99 even when MOD 97 is satisfied", () => {
    // 01 ≡ 98 and 99 ≡ 02 (mod 97): the same BBAN with 98 or 02 would be valid
    const bban = "WEST12345698765432"
    const valid = Iban.parseUnsafe(`GB82${bban}`)
    expect(oracleValid(valid)).toBe(true)
    for (let check = 0; check <= 99; check++) {
      const cd = String(check).padStart(2, "0")
      const candidate = `GB${cd}${bban}`
      const expected = oracleValid(candidate) && cd !== "00" && cd !== "01" && cd !== "99"
      expect(Iban.isValid(candidate), candidate).toBe(expected)
    }
    // a BBAN whose check digits are 98 also satisfies MOD 97 with 01, which ISO 13616 never issues
    const bban98 = Array.from({ length: 2000 }, (_, n) => `ABNA${String(n).padStart(10, "0")}`).find((b) =>
      oracleValid(`NL98${b}`)
    )
    expect(bban98).toBeDefined()
    expect(Iban.isValid(`NL98${bban98}`)).toBe(true)
    expect(oracleValid(`NL01${bban98}`)).toBe(true)
    expect(Result.getOrThrow(Result.flip(Iban.parse(`NL01${bban98}`))).reason).toBe("Checksum")
  })

  it("a national check digit failure names the country's rule", () => {
    const spain = Result.getOrThrow(Result.flip(Iban.parse("ES2433918698306900596263")))
    expect(oracleValid("ES2433918698306900596263")).toBe(true)
    expect(spain.reason).toBe("NationalCheckDigits")
    expect(spain.message).toContain("Spain's DC")
    const france = Result.getOrThrow(Result.flip(Iban.parse("fr29 0167 0111 29WH FYHO YRL5 599")))
    expect(france.message).toContain("RIB key")
    // one wrong digit of Spain's DC, with the IBAN check digits made right again
    const bban = "21000418450200051332"
    for (let d = 0; d <= 9; d++) {
      const changed = withIbanCheckDigits("ES", `${bban.slice(0, 8)}${d}${bban.slice(9)}`)
      expect(Iban.isValid(changed), changed).toBe(d === 4)
    }
  })

  it("errors name the failed check in the message and keep the input", () => {
    const e = Result.getOrThrow(Result.flip(Iban.parse("GB821EST12345698765432")))
    expect(e._tag).toBe("IbanError")
    expect(e.input).toBe("GB821EST12345698765432")
    expect(e.message).toContain("must be a letter")
    expect(e.message).toContain("4!a14!n")
    expect(Result.getOrThrow(Result.flip(Iban.parse("GB82WEST1234569876543"))).message).toContain("22 characters")
    expect(Result.getOrThrow(Result.flip(Iban.parse("GB83WEST12345698765432"))).message).toContain("MOD 97-10")
    expect(Result.getOrThrow(Result.flip(Iban.parse("AO06004400006729503010102"))).message).toContain(
      "allowNonRegistryCountries"
    )
  })

  it("keeps messages short for huge inputs and stays linear", () => {
    const huge = `GB82${"1".repeat(200_000)}`
    const e = Result.getOrThrow(Result.flip(Iban.parse(huge)))
    expect(e.reason).toBe("Length")
    expect(e.message.length).toBeLessThan(300)
  })

  it("parseUnsafe throws the typed error (unsafeParse is its deprecated alias)", () => {
    expect(() => Iban.parseUnsafe("GB83WEST12345698765432")).toThrow(Iban.IbanError)
    expect(Iban.unsafeParse).toBe(Iban.parseUnsafe)
  })

  it("format prints groups of four; getters split the parts", () => {
    const iban = Iban.parseUnsafe("GB82WEST12345698765432")
    expect(Iban.format(iban)).toBe("GB82 WEST 1234 5698 7654 32")
    expect(Iban.format(Iban.parseUnsafe("NO9386011117947"))).toBe("NO93 8601 1117 947")
    expect(Iban.format(Iban.parseUnsafe("BE68539007547034"))).toBe("BE68 5390 0754 7034")
    expect(Iban.countryCode(iban)).toBe("GB")
    expect(Iban.checkDigits(iban)).toBe("82")
    expect(Iban.bban(iban)).toBe("WEST12345698765432")
  })
})

describe("Iban countries", () => {
  it("lists every registry country with its length and SWIFT-notation format", () => {
    expect(Iban.registryCountries.length).toBe(97)
    expect(Iban.countries.length).toBeGreaterThan(Iban.registryCountries.length)
    // every country of ibantools is read (a BBAN pattern we could not read would drop a country)
    const specs = Object.values(getCountrySpecifications())
    expect(Iban.countries.length).toBe(specs.filter((s) => s.chars !== null).length)
    expect(Iban.registryCountries.length).toBe(specs.filter((s) => s.chars !== null && s.IBANRegistry).length)
    for (const c of Iban.countries) {
      expect(c.bbanFormat, c.code).toMatch(/^([0-9]+![nac])+$/)
      expect(classesOf(c.code).length + 4, c.code).toBe(c.length)
    }
    expect(Iban.country("GB")).toEqual(
      Option.some({
        code: "GB",
        length: 22,
        bbanFormat: "4!a14!n",
        inRegistry: true,
        sepa: true,
        nationalCheck: Option.none()
      })
    )
    expect(Iban.country("US")).toEqual(Option.none())
  })

  it("checks the national check digits of every country for which ibantools has them, and no others", () => {
    const withCheck = Iban.countries.filter((c) => Option.isSome(c.nationalCheck)).map((c) => c.code)
    expect(withCheck).toEqual(ibantoolsNationalCountries)
    expect(withCheck).toEqual(
      ["BA", "BE", "CZ", "EE", "ES", "FR", "HR", "HU", "MC", "ME", "MK", "NO", "PL", "PT", "RS", "SI", "SK"].sort()
    )
    expect(Option.flatMap(Iban.country("ES"), (c) => c.nationalCheck)).toEqual(
      Option.some("Spain's DC (dígitos de control: MOD 11 over bank and branch, and over the account number)")
    )
  })

  it("arbitrary rejects unknown country codes", () => {
    expect(() => Iban.arbitrary({ countries: ["US"] })).toThrow("not a country with IBANs")
    expect(() => Iban.arbitrary({ countries: [] })).toThrow("no countries")
  })
})

describe("Iban Schemas", () => {
  // the arbitraries made when the first value is drawn (see `lazily`)
  schemaLaws("IbanFromString", Iban.IbanFromString, { arbitrary: schemaArbitrary(Iban.IbanFromString) })
  schemaLaws("IbanFromSelf", Iban.IbanFromSelf, { arbitrary: schemaArbitrary(Iban.IbanFromSelf) })

  it("IbanFromString normalises and reports the failed check", () => {
    const decode = Schema.decodeUnknownResult(Iban.IbanFromString)
    expect(decode("gb82 west 1234 5698 7654 32")).toEqual(Result.succeed("GB82WEST12345698765432"))
    const left = Result.getOrThrow(Result.flip(decode("GB83WEST12345698765432")))
    expect(left.message).toContain("MOD 97-10")
    expect(Result.isFailure(decode("AO06004400006729503010102"))).toBe(true)
    expect(Result.isFailure(decode(42))).toBe(true)
  })

  it("IbanFromSelf takes the electronic form only", () => {
    const decode = Schema.decodeUnknownResult(Iban.IbanFromSelf)
    expect(decode("GB82WEST12345698765432")).toEqual(Result.succeed("GB82WEST12345698765432"))
    expect(Result.getOrThrow(Result.flip(decode("gb82west12345698765432"))).message).toContain("electronic form")
    expect(Result.isSuccess(decode("AO06004400006729503010102"))).toBe(true)
  })

  it.effect("the arbitrary covers every registry country", () =>
    Effect.gen(function* () {
      const sample = yield* Arbitrary.sampleEffect(Arbitrary.schema(Iban.IbanFromString), { count: 5000, seed: 42 })
      const seen = new Set(sample.map((s) => s.slice(0, 2)))
      expect(seen.size).toBe(Iban.registryCountries.length)
    })
  )
})
