import { describe, expect, it } from "@effect/vitest"
import * as SchemeLimits from "@payrules/accounts/SchemeLimits"
import { Option, Result } from "effect"
import fc from "fast-check"

describe("SchemeLimits sets", () => {
  it("hold the documented limits", () => {
    const table = (set: SchemeLimits.LimitSet) => Object.fromEntries(set.limits.map((l) => [l.field, l.maxLength]))
    expect(table(SchemeLimits.FasterPayments)).toEqual({ EndToEndIdentification: 31, Reference: 18 })
    expect(table(SchemeLimits.OpenBanking)).toEqual({
      InstructionIdentification: 35,
      EndToEndIdentification: 35,
      Reference: 35,
      Unstructured: 140
    })
    expect(table(SchemeLimits.Swift)).toEqual({ Reference: 140 })
    for (const set of [SchemeLimits.FasterPayments, SchemeLimits.OpenBanking, SchemeLimits.Swift]) {
      for (const l of set.limits) expect(l.source.length).toBeGreaterThan(10)
    }
  })

  it("maxLength looks a field up, data-first or data-last", () => {
    expect(SchemeLimits.maxLength(SchemeLimits.FasterPayments, "Reference")).toEqual(Option.some(18))
    expect(SchemeLimits.maxLength(SchemeLimits.FasterPayments, "Unstructured")).toEqual(Option.none())
    expect(SchemeLimits.OpenBanking.limits.length).toBe(4)
    expect(SchemeLimits.maxLength("Unstructured")(SchemeLimits.OpenBanking)).toEqual(Option.some(140))
    expect(Option.map(SchemeLimits.limit(SchemeLimits.Swift, "Reference"), (l) => l.source)).toEqual(
      Option.some("SWIFT remittance information (MT103 field 70) is 4 lines of 35 characters")
    )
  })

  it("intersect keeps the smallest maximum of every field", () => {
    const both = SchemeLimits.intersect(SchemeLimits.OpenBanking, SchemeLimits.FasterPayments, SchemeLimits.Swift)
    expect(both.name).toBe("OpenBanking & FasterPayments & Swift")
    expect(SchemeLimits.maxLength(both, "EndToEndIdentification")).toEqual(Option.some(31))
    expect(SchemeLimits.maxLength(both, "Reference")).toEqual(Option.some(18))
    expect(SchemeLimits.maxLength(both, "InstructionIdentification")).toEqual(Option.some(35))
    expect(SchemeLimits.maxLength(both, "Unstructured")).toEqual(Option.some(140))
    expect(Option.map(SchemeLimits.limit(both, "Reference"), (l) => l.source)).toEqual(
      Option.some("Faster Payments accepts only 18 characters of reference")
    )
    expect(SchemeLimits.intersect()).toEqual({ name: "", limits: [] })
  })

  it("intersect is the pointwise minimum, whatever the order", () => {
    const sets = [SchemeLimits.FasterPayments, SchemeLimits.OpenBanking, SchemeLimits.Swift]
    const fields: ReadonlyArray<SchemeLimits.Field> = [
      "InstructionIdentification",
      "EndToEndIdentification",
      "Reference",
      "Unstructured"
    ]
    fc.assert(
      fc.property(fc.subarray(sets), fc.boolean(), (chosen, reverse) => {
        const ordered = reverse ? [...chosen].reverse() : chosen
        const meet = SchemeLimits.intersect(...ordered)
        for (const field of fields) {
          const maxima = chosen.flatMap((s) => Option.toArray(SchemeLimits.maxLength(s, field)))
          expect(SchemeLimits.maxLength(meet, field)).toEqual(
            maxima.length === 0 ? Option.none() : Option.some(Math.min(...maxima))
          )
        }
      })
    )
  })
})

describe("SchemeLimits.check", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(SchemeLimits.codePointLength("")).toBe(0)
    expect(SchemeLimits.codePointLength("abc")).toBe(3)
    expect(SchemeLimits.codePointLength("€1 🎉")).toBe(4)
    expect(SchemeLimits.codePointLength("𝄞".repeat(3))).toBe(3)
    expect(SchemeLimits.codePointLength("\ud800x")).toBe(2)
    expect(SchemeLimits.codePointLength("x\udc00")).toBe(2)
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(SchemeLimits.codePointLength(s)).toBe([...s].length)
      })
    )
    // 18 emoji are 36 UTF-16 units but fit a Faster Payments reference
    const emoji = "🎉".repeat(18)
    expect(emoji.length).toBe(36)
    expect(SchemeLimits.check(SchemeLimits.FasterPayments, "Reference", emoji)).toEqual(Result.succeed(emoji))
    expect(Result.isFailure(SchemeLimits.check(SchemeLimits.FasterPayments, "Reference", `${emoji}x`))).toBe(true)
  })

  it("returns a typed violation with the limit and its source", () => {
    const v = Result.getOrThrow(
      Result.flip(SchemeLimits.check(SchemeLimits.FasterPayments, "EndToEndIdentification", "E".repeat(32)))
    )
    expect(v._tag).toBe("LimitViolation")
    expect(v.reason).toBe("TooLong")
    expect(v.set).toBe("FasterPayments")
    expect(v.field).toBe("EndToEndIdentification")
    expect(v.maxLength).toBe(31)
    expect(v.length).toBe(32)
    expect(v.message).toBe(
      "EndToEndIdentification is 32 characters long; FasterPayments allows at most 31 (Faster Payments carries only 31 characters of the end-to-end identification)"
    )
    expect(SchemeLimits.check(SchemeLimits.FasterPayments, "EndToEndIdentification", "E".repeat(31))).toEqual(
      Result.succeed("E".repeat(31))
    )
  })

  it("passes fields the set does not limit; works data-last", () => {
    const long = "x".repeat(10_000)
    expect(SchemeLimits.check(SchemeLimits.FasterPayments, "Unstructured", long)).toEqual(Result.succeed(long))
    expect(Result.isFailure(SchemeLimits.check("Unstructured", long)(SchemeLimits.OpenBanking))).toBe(true)
  })
})
