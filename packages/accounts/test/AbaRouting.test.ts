import { describe, expect, it } from "@effect/vitest"
import * as AbaRouting from "@payrules/accounts/AbaRouting"
import { schemaLaws } from "@payrules/vitest"
import { Arbitrary, Effect, Result, Schema } from "effect"
import fc from "fast-check"
import { lazily, lazyArbitrary, schemaArbitrary } from "./support/lazily.js"

const reasonOf = (s: string) => Result.match(AbaRouting.parse(s), { onFailure: (e) => e.reason, onSuccess: () => "ok" })

describe("AbaRouting.parse examples", () => {
  it.each([
    ["021000021", "ok"],
    ["011000015", "ok"],
    ["122105155", "ok"],
    ["322271627", "ok"],
    ["123456789", "Checksum"],
    ["000000000", "AllZeros"],
    ["500000005", "Prefix"],
    ["130000001", "Prefix"],
    ["810000008", "Prefix"],
    ["02100002", "Syntax"],
    ["0210000211", "Syntax"],
    ["02100002a", "Syntax"],
    ["021-000-021", "Syntax"],
    [" 021000021", "Syntax"],
    ["\uff10\uff12\uff11000021", "Syntax"],
    ["", "Syntax"]
  ])("%j -> %s", (input, reason) => {
    expect(reasonOf(input)).toBe(reason)
  })

  it("accepts every valid prefix range and nothing else", () => {
    for (let p = 0; p <= 99; p++) {
      const prefix = String(p).padStart(2, "0")
      const eight = `${prefix}100000`
      const routing = eight + Result.getOrThrow(AbaRouting.checkDigit(eight))
      const expected = p <= 12 || (p >= 21 && p <= 32) || (p >= 61 && p <= 72) || p === 80
      expect(AbaRouting.isValid(routing), routing).toBe(expected)
    }
  })

  it("errors carry the input and a message", () => {
    const e = Result.getOrThrow(Result.flip(AbaRouting.parse("123456789")))
    expect(e._tag).toBe("AbaRoutingError")
    expect(e.input).toBe("123456789")
    expect(e.message).toContain("check digit")
    expect(() => AbaRouting.parseUnsafe("500000005")).toThrow(AbaRouting.AbaRoutingError)
    expect(AbaRouting.unsafeParse).toBe(AbaRouting.parseUnsafe)
    expect(AbaRouting.parseUnsafe("021000021")).toBe("021000021")
    expect(Result.isFailure(AbaRouting.checkDigit("0210000"))).toBe(true)
  })

  it("US account numbers have 6 to 17 digits", () => {
    expect(AbaRouting.parseAccountNumber("123456")).toEqual(Result.succeed("123456"))
    expect(AbaRouting.parseAccountNumber("12345678901234567")).toEqual(Result.succeed("12345678901234567"))
    for (const bad of ["12345", "123456789012345678", "12345a", "", "123 456"]) {
      const r = AbaRouting.parseAccountNumber(bad)
      expect(Result.isFailure(r) && r.failure.reason, bad).toBe("AccountNumberSyntax")
    }
  })
})

/** The ABA formula, written from its definition: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10. */
const formulaHolds = (s: string): boolean => {
  const d = Array.from(s, Number)
  return (3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)) % 10 === 0
}
/** The Federal Reserve routing symbols: 00-12, 21-32, 61-72, 80. */
const PREFIXES = Array.from({ length: 100 }, (_, p) => String(p).padStart(2, "0")).filter((p) => {
  const n = Number(p)
  return n <= 12 || (n >= 21 && n <= 32) || (n >= 61 && n <= 72) || n === 80
})
/** Routing numbers built by the formula: a prefix, seven digits, and the ninth digit that makes the formula hold. */
const formulaRouting: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...PREFIXES), fc.stringMatching(/^[0-9]{6}$/))
  .map(([prefix, body]) => {
    const eight = prefix + body
    return `${eight}${[..."0123456789"].find((d) => formulaHolds(eight + d))}`
  })
  .filter((r) => r !== "000000000")

describe("AbaRouting properties", () => {
  // made when a test first needs it (see `lazily`)
  const routing = lazily(() => Arbitrary.schema(AbaRouting.RoutingNumberFromString))

  it.prop(
    "generated routing numbers pass",
    [lazyArbitrary(routing)],
    ([r]) => {
      expect(AbaRouting.parse(r)).toEqual(Result.succeed(r))
      expect(formulaHolds(r)).toBe(true)
    },
    { arbitrary: { runs: 2000 } }
  )

  it("every single-digit change fails (3, 7 and 1 are prime to 10)", () => {
    fc.assert(
      fc.property(formulaRouting, (r) => {
        expect(AbaRouting.isValid(r)).toBe(true)
        // collected, so that one expect checks the 81 changes (an expect each cost more than the checks)
        const accepted: Array<string> = []
        for (let i = 0; i < 9; i++) {
          for (let d = 0; d <= 9; d++) {
            if (String(d) === r[i]) continue
            const changed = r.slice(0, i) + d + r.slice(i + 1)
            if (AbaRouting.isValid(changed)) accepted.push(`${r} -> ${changed}`)
          }
        }
        expect(accepted).toEqual([])
      }),
      { numRuns: 1000 }
    )
  })

  it("isValid agrees with the ABA formula and the prefix ranges on any string", () => {
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^[0-9]{9}$/), formulaRouting, fc.string({ maxLength: 12 })), (s) => {
        const expected =
          /^[0-9]{9}$/.test(s) && s !== "000000000" && PREFIXES.includes(s.slice(0, 2)) && formulaHolds(s)
        expect(AbaRouting.isValid(s), s).toBe(expected)
      }),
      { numRuns: 2000 }
    )
  })

  it.effect("the arbitrary reaches every prefix range", () =>
    Effect.gen(function* () {
      const sample = yield* Arbitrary.sampleEffect(routing(), { count: 3000, seed: 7 })
      const prefixes = new Set(sample.map((r) => Number(r.slice(0, 2))))
      expect([...prefixes].some((p) => p <= 12)).toBe(true)
      expect([...prefixes].some((p) => p >= 21 && p <= 32)).toBe(true)
      expect([...prefixes].some((p) => p >= 61 && p <= 72)).toBe(true)
      expect(prefixes.has(80)).toBe(true)
    })
  )
})

describe("AbaRouting Schemas", () => {
  // the arbitraries made when the first value is drawn (see `lazily`)
  schemaLaws("RoutingNumberFromString", AbaRouting.RoutingNumberFromString, {
    arbitrary: schemaArbitrary(AbaRouting.RoutingNumberFromString)
  })
  schemaLaws("AccountNumberFromString", AbaRouting.AccountNumberFromString, {
    arbitrary: schemaArbitrary(AbaRouting.AccountNumberFromString)
  })

  it("decode failures carry the reason's message", () => {
    const decode = Schema.decodeUnknownResult(AbaRouting.RoutingNumberFromString)
    expect(decode("021000021")).toEqual(Result.succeed("021000021"))
    expect(Result.getOrThrow(Result.flip(decode("500000005"))).message).toContain("Federal Reserve routing symbol")
    expect(Result.getOrThrow(Result.flip(decode("000000000"))).message).toContain("not a routing number")
  })
})
