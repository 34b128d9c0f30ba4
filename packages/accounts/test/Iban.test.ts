import { describe, expect, it } from "@effect/vitest"
import { Iban } from "@payrules/accounts"
import { schemaLaws } from "@payrules/vitest"
import { Arbitrary, Either, FastCheck as fc, Option, Schema } from "effect"
import { getCountrySpecifications, isValidIBAN } from "ibantools"
import {
  ALPHABET,
  expand,
  ibantoolsNationalCountries,
  isDigit,
  mod97,
  nationalOracle,
  oracleValid,
  value,
  withIbanCheckDigits
} from "./support/ibanOracle.js"

/*
 * The property tests check against independent oracles (test/support/ibanOracle.ts): MOD 97-10 with BigInt, the
 * BBAN character classes read from the SWIFT notation ("4!a14!n") that `Iban.country` reports, and the national check
 * digits as ibantools checks them (with the two departures the README documents).
 */
type CharClass = "n" | "a" | "c"
const classesOf = (code: string): ReadonlyArray<CharClass> => {
  const country = Option.getOrThrow(Iban.country(code))
  const out: Array<CharClass> = []
  for (const m of country.bbanFormat.matchAll(/(\d+)!([nac])/g)) {
    for (let i = 0; i < Number(m[1]); i++) out.push(m[2] as CharClass)
  }
  return out
}

const substitute = (s: string, i: number, c: string): string => s.slice(0, i) + c + s.slice(i + 1)
const swap = (s: string, i: number): string => s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2)

/**
 * A substitution at BBAN index k of a character of value v (width w: 1 for a digit, 2 for a letter) by one of value
 * v' (width w') changes the expanded number N, whose remainder is taken, by 10^L · (P · (10^w' − 10^w) + v' − v),
 * with P the expanded BBAN prefix before k and L the expanded length after k. 10 is invertible mod 97, so the change
 * is invisible exactly when P · (10^w' − 10^w) + v' − v ≡ 0 (mod 97). With w = w' that needs v ≡ v' (impossible for
 * a different character, |v' − v| ≤ 35); with w ≠ w' it is 90·P·(w' − w) + v' − v ≡ 0, which does happen (about one
 * digit↔letter substitution in 97) and can only occur where the format admits both letters and digits ("c").
 */
const substitutionInvisible = (bban: string, k: number, replacement: string): boolean => {
  const v = value(bban[k]!)
  const v2 = value(replacement)
  const dw = (isDigit(replacement) ? 1 : 2) - (isDigit(bban[k]!) ? 1 : 2)
  if (dw === 0) return false
  const p = mod97(bban.slice(0, k))
  return (((90n * p * BigInt(dw) + BigInt(v2 - v)) % 97n) + 97n) % 97n === 0n
}

/**
 * Swapping adjacent BBAN characters a digit d and a letter of value l changes N by ±10^L · 9 · (11d − l): invisible
 * exactly when l = 11d, that is B (11) with 1, M (22) with 2, X (33) with 3 ("B1" and "1B" both expand to "111").
 */
const isUndetectableSwap = (x: string, y: string): boolean => {
  const [d, l] = isDigit(x) ? [x, y] : [y, x]
  return isDigit(d) && !isDigit(l) && value(l) === 11 * value(d)
}

describe("Iban.parse examples", () => {
  it("accepts GB82WEST12345698765432", () => {
    expect(Iban.parse("GB82WEST12345698765432")).toEqual(Either.right("GB82WEST12345698765432"))
  })

  it("normalises case and spaces", () => {
    expect(Iban.parse("gb82 west 1234 5698 7654 32")).toEqual(Either.right("GB82WEST12345698765432"))
    expect(Iban.parse("  GB82WEST 12345698765432 ")).toEqual(Either.right("GB82WEST12345698765432"))
    expect(Iban.unsafeParse("de89 3704 0044 0532 0130 00")).toBe("DE89370400440532013000")
  })

  const reasonOf = (s: string, options?: Iban.ParseOptions) =>
    Either.match(Iban.parse(s, options), { onLeft: (e) => e.reason, onRight: () => "ok" })

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
      Either.right("AO06004400006729503010102")
    )
    expect(reasonOf("AO06004400006729503010103", { allowNonRegistryCountries: true })).toBe("Checksum")
    expect(Option.map(Iban.country("AO"), (c) => c.inRegistry)).toEqual(Option.some(false))
  })

  it("rejects the check digits 00, 01 and 99 even when MOD 97 is satisfied", () => {
    // 01 ≡ 98 and 99 ≡ 02 (mod 97): the same BBAN with 98 or 02 would be valid
    const bban = "WEST12345698765432"
    const valid = Iban.unsafeParse(`GB82${bban}`)
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
    expect(Either.getOrThrow(Either.flip(Iban.parse(`NL01${bban98}`))).reason).toBe("Checksum")
  })

  it("a national check digit failure names the country's rule", () => {
    const spain = Either.getOrThrow(Either.flip(Iban.parse("ES2433918698306900596263")))
    expect(oracleValid("ES2433918698306900596263")).toBe(true)
    expect(spain.reason).toBe("NationalCheckDigits")
    expect(spain.message).toContain("Spain's DC")
    const france = Either.getOrThrow(Either.flip(Iban.parse("fr29 0167 0111 29WH FYHO YRL5 599")))
    expect(france.message).toContain("RIB key")
    // one wrong digit of Spain's DC, with the IBAN check digits made right again
    const bban = "21000418450200051332"
    for (let d = 0; d <= 9; d++) {
      const changed = withIbanCheckDigits("ES", `${bban.slice(0, 8)}${d}${bban.slice(9)}`)
      expect(Iban.isValid(changed), changed).toBe(d === 4)
    }
  })

  it("errors name the failed check in the message and keep the input", () => {
    const e = Either.getOrThrow(Either.flip(Iban.parse("GB821EST12345698765432")))
    expect(e._tag).toBe("IbanError")
    expect(e.input).toBe("GB821EST12345698765432")
    expect(e.message).toContain("must be a letter")
    expect(e.message).toContain("4!a14!n")
    expect(Either.getOrThrow(Either.flip(Iban.parse("GB82WEST1234569876543"))).message).toContain("22 characters")
    expect(Either.getOrThrow(Either.flip(Iban.parse("GB83WEST12345698765432"))).message).toContain("MOD 97-10")
    expect(Either.getOrThrow(Either.flip(Iban.parse("AO06004400006729503010102"))).message).toContain(
      "allowNonRegistryCountries"
    )
  })

  it("keeps messages short for huge inputs and stays linear", () => {
    const huge = `GB82${"1".repeat(200_000)}`
    const e = Either.getOrThrow(Either.flip(Iban.parse(huge)))
    expect(e.reason).toBe("Length")
    expect(e.message.length).toBeLessThan(300)
  })

  it("unsafeParse throws the typed error", () => {
    expect(() => Iban.unsafeParse("GB83WEST12345698765432")).toThrow(Iban.IbanError)
  })

  it("format prints groups of four; getters split the parts", () => {
    const iban = Iban.unsafeParse("GB82WEST12345698765432")
    expect(Iban.format(iban)).toBe("GB82 WEST 1234 5698 7654 32")
    expect(Iban.format(Iban.unsafeParse("NO9386011117947"))).toBe("NO93 8601 1117 947")
    expect(Iban.format(Iban.unsafeParse("BE68539007547034"))).toBe("BE68 5390 0754 7034")
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

describe.each(Iban.registryCountries.map((c) => [c.code] as const))("Iban properties for %s", (code) => {
  const arb = Iban.arbitrary({ countries: [code] })(fc)
  const classes = classesOf(code)

  it("generated IBANs pass ours and ibantools' validation, agree with the oracles and round-trip through the print form", () => {
    fc.assert(
      fc.property(arb, (iban) => {
        expect(iban.slice(0, 2)).toBe(code)
        expect(oracleValid(iban)).toBe(true)
        expect(nationalOracle(iban)).toBe(true)
        expect(isValidIBAN(iban)).toBe(true)
        expect(Iban.parse(iban)).toEqual(Either.right(iban))
        expect(Iban.parse(Iban.format(iban).toLowerCase())).toEqual(Either.right(iban))
      }),
      { numRuns: 50 }
    )
  })

  // Each run tries all 35 replacements at every position of one IBAN; mismatches are collected so that one expect
  // checks them all (an expect per substitution used to cost more than the checks themselves).
  it("every single-character substitution fails, except digit<->letter ones MOD 97-10 cannot see and the national check passes", () => {
    fc.assert(
      fc.property(arb, (iban) => {
        const mismatches: Array<string> = []
        for (let i = 0; i < iban.length; i++) {
          for (const c of ALPHABET) {
            if (c === iban[i]) continue
            const changed = substitute(iban, i, c)
            const k = i - 4
            const invisible =
              k >= 0 &&
              classes[k] === "c" &&
              isDigit(c) !== isDigit(iban[i]!) &&
              substitutionInvisible(iban.slice(4), k, c)
            // the oracle agrees that exactly these keep the remainder at 1
            if (k >= 0 && classes[k] === "c" && oracleValid(changed) !== invisible) mismatches.push(`oracle ${changed}`)
            if (Iban.isValid(changed) !== (invisible && nationalOracle(changed)))
              mismatches.push(`${iban} -> ${changed}`)
          }
        }
        expect(mismatches).toEqual([])
      }),
      { numRuns: 8 }
    )
  })

  it("every adjacent transposition fails, except a digit d beside the letter worth 11·d in an alphanumeric field", () => {
    fc.assert(
      fc.property(arb, (iban) => {
        const mismatches: Array<string> = []
        for (let i = 0; i + 1 < iban.length; i++) {
          if (iban[i] === iban[i + 1]) continue
          const swapped = swap(iban, i)
          const k = i - 4
          const undetectable =
            k >= 0 && classes[k] === "c" && classes[k + 1] === "c" && isUndetectableSwap(iban[i]!, iban[i + 1]!)
          if (Iban.isValid(swapped) !== (undetectable && nationalOracle(swapped)))
            mismatches.push(`${iban} -> ${swapped}`)
        }
        expect(mismatches).toEqual([])
      }),
      { numRuns: 20 }
    )
  })
})

describe("the transpositions MOD 97-10 cannot detect", () => {
  // countries without national check digits, where MOD 97-10 is the only check (FR, MC and MK have alphanumeric pairs
  // too: there the national check decides, as the per-country properties assert)
  const withAlphanumericPair = Iban.registryCountries
    .filter((c) => Option.isNone(c.nationalCheck))
    .map((c) => ({ code: c.code, classes: classesOf(c.code) }))
    .flatMap(({ code, classes }) => {
      const starts = classes.flatMap((k, i) => (k === "c" && classes[i + 1] === "c" ? [i] : []))
      return starts.length === 0 ? [] : [{ code, classes, starts }]
    })

  it("some registry countries have adjacent alphanumeric BBAN positions", () => {
    expect(withAlphanumericPair.map((c) => c.code)).toEqual(expect.arrayContaining(["GT", "KW", "LC", "QA", "IT"]))
  })

  const fill = (classes: ReadonlyArray<CharClass>, picks: ReadonlyArray<number>): string =>
    classes
      .map((k, i) => {
        const pool = k === "n" ? ALPHABET.slice(26) : k === "a" ? ALPHABET.slice(0, 26) : ALPHABET
        return pool[picks[i]! % pool.length]!
      })
      .join("")

  it("B1/1B, M2/2M and X3/3X swaps inside alphanumeric fields always pass", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...withAlphanumericPair),
        fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
        fc.nat(),
        fc.constantFrom(["1", "B"], ["2", "M"], ["3", "X"], ["B", "1"], ["M", "2"], ["X", "3"]),
        ({ code, classes, starts }, picks, at, [first, second]) => {
          const k = starts[at % starts.length]!
          const bban = fill(classes, picks)
          const planted = bban.slice(0, k) + first + second + bban.slice(k + 2)
          const iban = withIbanCheckDigits(code, planted)
          const swapped = swap(iban, k + 4)
          expect(Iban.isValid(iban), iban).toBe(true)
          expect(Iban.isValid(swapped), `${iban} -> ${swapped}`).toBe(true)
          expect(expand(iban.slice(k + 4, k + 6))).toBe(expand(swapped.slice(k + 4, k + 6)))
        }
      ),
      { numRuns: 300 }
    )
  })

  it("are exactly the passing transpositions: every other digit-letter pair is caught", () => {
    const pairs = ALPHABET.flatMap((x) => ALPHABET.map((y) => [x, y] as const)).filter(([x, y]) => x !== y)
    fc.assert(
      fc.property(
        fc.constantFrom(...withAlphanumericPair),
        fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
        fc.nat(),
        ({ code, classes, starts }, picks, at) => {
          const k = starts[at % starts.length]!
          const bban = fill(classes, picks)
          const mismatches: Array<string> = []
          for (const [x, y] of pairs) {
            const iban = withIbanCheckDigits(code, bban.slice(0, k) + x + y + bban.slice(k + 2))
            if (Iban.isValid(swap(iban, k + 4)) !== isUndetectableSwap(x, y)) mismatches.push(`${x}${y} in ${iban}`)
          }
          expect(mismatches).toEqual([])
        }
      ),
      { numRuns: 40 }
    )
    // exactly six ordered pairs out of 1260 are invisible
    expect(pairs.filter(([x, y]) => isUndetectableSwap(x, y)).map(([x, y]) => x + y)).toEqual([
      "B1",
      "M2",
      "X3",
      "1B",
      "2M",
      "3X"
    ])
  })

  it("a concrete invisible substitution: a digit replaced by a letter in a Guatemalan IBAN", () => {
    // found by the algebra above: P ≡ prefix of the BBAN, 90·P + v' − v ≡ 0 (mod 97)
    const iban = "GT19ZLLLBHMAR3ZU9GHFFN2WRZZD"
    expect(Iban.isValid(iban)).toBe(true)
    const changed = substitute(iban, 23, "3")
    expect(substitutionInvisible(iban.slice(4), 19, "3")).toBe(true)
    expect(Iban.isValid(changed)).toBe(true)
  })
})

describe("Iban Schemas", () => {
  schemaLaws("IbanFromString", Iban.IbanFromString)
  schemaLaws("IbanFromSelf", Iban.IbanFromSelf)

  it("IbanFromString normalises and reports the failed check", () => {
    const decode = Schema.decodeUnknownEither(Iban.IbanFromString)
    expect(decode("gb82 west 1234 5698 7654 32")).toEqual(Either.right("GB82WEST12345698765432"))
    const left = Either.getOrThrow(Either.flip(decode("GB83WEST12345698765432")))
    expect(left.message).toContain("MOD 97-10")
    expect(Either.isLeft(decode("AO06004400006729503010102"))).toBe(true)
    expect(Either.isLeft(decode(42))).toBe(true)
  })

  it("IbanFromSelf takes the electronic form only", () => {
    const decode = Schema.decodeUnknownEither(Iban.IbanFromSelf)
    expect(decode("GB82WEST12345698765432")).toEqual(Either.right("GB82WEST12345698765432"))
    expect(Either.getOrThrow(Either.flip(decode("gb82west12345698765432"))).message).toContain("electronic form")
    expect(Either.isRight(decode("AO06004400006729503010102"))).toBe(true)
  })

  it("the arbitrary covers every registry country", () => {
    const seen = new Set(
      fc.sample(Arbitrary.make(Iban.IbanFromString), { numRuns: 5000, seed: 42 }).map((s) => s.slice(0, 2))
    )
    expect(seen.size).toBe(Iban.registryCountries.length)
  })
})
