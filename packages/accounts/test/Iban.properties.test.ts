import { describe, expect, it } from "@effect/vitest"
import * as Iban from "@payrules/accounts/Iban"
import { Option, Result } from "effect"
import fc from "fast-check"
import { isValidIBAN } from "ibantools"
import {
  type CharClass,
  classesOf,
  isUndetectableSwap,
  substitute,
  substitutionInvisible,
  swap
} from "./support/ibanMutations.js"
import { ALPHABET, expand, isDigit, nationalOracle, oracleValid, withIbanCheckDigits } from "./support/ibanOracle.js"
import { lazily, lazyArbitrary } from "./support/lazily.js"

/*
 * The property tests check against independent oracles (test/support/ibanOracle.ts): MOD 97-10 with BigInt, the
 * BBAN character classes read from the SWIFT notation ("4!a14!n") that `Iban.country` reports, and the national check
 * digits as ibantools checks them (with the two departures the README documents).
 *
 * Two generators: our own, `Iban.arbitrary` (effect's `Arbitrary`, run by @effect/vitest), whose IBANs must satisfy the
 * oracles; and one made of the oracles alone (fast-check): a BBAN drawn from the country's character classes, kept
 * when ibantools' national check accepts it, with the check digits from the BigInt MOD 97-10. The mutation properties
 * run on the second, so that what they assert of `Iban.isValid` owes nothing to our generator.
 */
// (The examples, the country table and the Schemas are in Iban.test.ts; these properties run per registry country, a
// file of their own so that each file stays short on a busy machine.)

/** Valid IBANs of a country, as the oracles alone define them. */
const oracleIbans = (code: string, classes: ReadonlyArray<CharClass>): fc.Arbitrary<string> =>
  fc
    .tuple(
      ...classes.map((k) =>
        fc.constantFrom(...(k === "n" ? ALPHABET.slice(26) : k === "a" ? ALPHABET.slice(0, 26) : ALPHABET))
      )
    )
    .map((chars) => withIbanCheckDigits(code, chars.join("")))
    .filter(nationalOracle)

describe.each(Iban.registryCountries.map((c) => [c.code] as const))("Iban properties for %s", (code) => {
  // made when a test first needs them (see `lazily`)
  const classes = lazily(() => classesOf(code))
  const oracle = lazily(() => oracleIbans(code, classes()))

  it.prop(
    "generated IBANs pass ours and ibantools' validation, agree with the oracles and round-trip through the print form",
    [lazyArbitrary(() => Iban.arbitrary({ countries: [code] }))],
    ([iban]) => {
      expect(iban.slice(0, 2)).toBe(code)
      expect(oracleValid(iban)).toBe(true)
      expect(nationalOracle(iban)).toBe(true)
      expect(isValidIBAN(iban)).toBe(true)
      expect(Iban.parse(iban)).toEqual(Result.succeed(iban))
      expect(Iban.parse(Iban.format(iban).toLowerCase())).toEqual(Result.succeed(iban))
    },
    { arbitrary: { runs: 50 } }
  )

  it("IBANs built by the oracles are accepted, in electronic and in print form", () => {
    fc.assert(
      fc.property(oracle(), (iban) => {
        expect(oracleValid(iban)).toBe(true)
        expect(Iban.parse(iban)).toEqual(Result.succeed(iban))
        expect(Iban.parse(Iban.format(iban as Iban.Iban).toLowerCase())).toEqual(Result.succeed(iban))
        expect([Iban.countryCode(iban as Iban.Iban), Iban.bban(iban as Iban.Iban)]).toEqual([code, iban.slice(4)])
      }),
      { numRuns: 50 }
    )
  })

  // Each run tries all 35 replacements at every position of one IBAN; mismatches are collected so that one expect
  // checks them all (an expect per substitution used to cost more than the checks themselves).
  it("every single-character substitution fails, except digit<->letter ones MOD 97-10 cannot see and the national check passes", () => {
    fc.assert(
      fc.property(oracle(), (iban) => {
        const mismatches: Array<string> = []
        for (let i = 0; i < iban.length; i++) {
          for (const c of ALPHABET) {
            if (c === iban[i]) continue
            const changed = substitute(iban, i, c)
            const k = i - 4
            const invisible =
              k >= 0 &&
              classes()[k] === "c" &&
              isDigit(c) !== isDigit(iban[i]!) &&
              substitutionInvisible(iban.slice(4), k, c)
            // the oracle agrees that exactly these keep the remainder at 1
            if (k >= 0 && classes()[k] === "c" && oracleValid(changed) !== invisible)
              mismatches.push(`oracle ${changed}`)
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
      fc.property(oracle(), (iban) => {
        const mismatches: Array<string> = []
        for (let i = 0; i + 1 < iban.length; i++) {
          if (iban[i] === iban[i + 1]) continue
          const swapped = swap(iban, i)
          const k = i - 4
          const undetectable =
            k >= 0 && classes()[k] === "c" && classes()[k + 1] === "c" && isUndetectableSwap(iban[i]!, iban[i + 1]!)
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
  const withAlphanumericPair = lazily(() =>
    Iban.registryCountries
      .filter((c) => Option.isNone(c.nationalCheck))
      .map((c) => ({ code: c.code, classes: classesOf(c.code) }))
      .flatMap(({ code, classes }) => {
        const starts = classes.flatMap((k, i) => (k === "c" && classes[i + 1] === "c" ? [i] : []))
        return starts.length === 0 ? [] : [{ code, classes, starts }]
      })
  )

  it("some registry countries have adjacent alphanumeric BBAN positions", () => {
    expect(withAlphanumericPair().map((c) => c.code)).toEqual(expect.arrayContaining(["GT", "KW", "LC", "QA", "IT"]))
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
        fc.constantFrom(...withAlphanumericPair()),
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
        fc.constantFrom(...withAlphanumericPair()),
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
