import { describe, expect, it } from "@effect/vitest"
import { AbaRouting } from "@payrules/accounts"
import { schemaLaws } from "@payrules/vitest"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"

const reasonOf = (s: string) => Either.match(AbaRouting.parse(s), { onLeft: (e) => e.reason, onRight: () => "ok" })

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
      const routing = eight + Either.getOrThrow(AbaRouting.checkDigit(eight))
      const expected = p <= 12 || (p >= 21 && p <= 32) || (p >= 61 && p <= 72) || p === 80
      expect(AbaRouting.isValid(routing), routing).toBe(expected)
    }
  })

  it("errors carry the input and a message", () => {
    const e = Either.getOrThrow(Either.flip(AbaRouting.parse("123456789")))
    expect(e._tag).toBe("AbaRoutingError")
    expect(e.input).toBe("123456789")
    expect(e.message).toContain("check digit")
    expect(() => AbaRouting.unsafeParse("500000005")).toThrow(AbaRouting.AbaRoutingError)
    expect(AbaRouting.unsafeParse("021000021")).toBe("021000021")
    expect(Either.isLeft(AbaRouting.checkDigit("0210000"))).toBe(true)
  })

  it("US account numbers have 6 to 17 digits", () => {
    expect(AbaRouting.parseAccountNumber("123456")).toEqual(Either.right("123456"))
    expect(AbaRouting.parseAccountNumber("12345678901234567")).toEqual(Either.right("12345678901234567"))
    for (const bad of ["12345", "123456789012345678", "12345a", "", "123 456"]) {
      const r = AbaRouting.parseAccountNumber(bad)
      expect(Either.isLeft(r) && r.left.reason, bad).toBe("AccountNumberSyntax")
    }
  })
})

describe("AbaRouting properties", () => {
  const routing = Arbitrary.make(AbaRouting.RoutingNumberFromString)

  it("generated routing numbers pass", () => {
    fc.assert(
      fc.property(routing, (r) => {
        expect(AbaRouting.parse(r)).toEqual(Either.right(r))
      }),
      { numRuns: 2000 }
    )
  })

  it("every single-digit change fails (3, 7 and 1 are prime to 10)", () => {
    fc.assert(
      fc.property(routing, (r) => {
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

  it("the arbitrary reaches every prefix range", () => {
    const prefixes = new Set(fc.sample(routing, { numRuns: 3000, seed: 7 }).map((r) => Number(r.slice(0, 2))))
    expect([...prefixes].some((p) => p <= 12)).toBe(true)
    expect([...prefixes].some((p) => p >= 21 && p <= 32)).toBe(true)
    expect([...prefixes].some((p) => p >= 61 && p <= 72)).toBe(true)
    expect(prefixes.has(80)).toBe(true)
  })
})

describe("AbaRouting Schemas", () => {
  schemaLaws("RoutingNumberFromString", AbaRouting.RoutingNumberFromString)
  schemaLaws("AccountNumberFromString", AbaRouting.AccountNumberFromString)

  it("decode failures carry the reason's message", () => {
    const decode = Schema.decodeUnknownEither(AbaRouting.RoutingNumberFromString)
    expect(decode("021000021")).toEqual(Either.right("021000021"))
    expect(Either.getOrThrow(Either.flip(decode("500000005"))).message).toContain("Federal Reserve routing symbol")
    expect(Either.getOrThrow(Either.flip(decode("000000000"))).message).toContain("not a routing number")
  })
})
