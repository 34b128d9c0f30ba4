import { describe, expect, it } from "@effect/vitest"
import * as AbaRouting from "@payrules/accounts/AbaRouting"
import * as AccountIdentification from "@payrules/accounts/AccountIdentification"
import { issuesOf, schemaLaws } from "@payrules/vitest"
import { Arbitrary, Effect, Result, Schema } from "effect"
import fc from "fast-check"
import { schemaArbitrary } from "./support/lazily.js"

describe("AccountIdentification.forScheme", () => {
  // the arbitraries made when the first value is drawn (see `lazily`)
  for (const name of AccountIdentification.schemeNames) {
    const schema = AccountIdentification.forScheme(name)
    schemaLaws(`forScheme(${name})`, schema, { arbitrary: schemaArbitrary(schema) })
  }

  const decode = <S extends AccountIdentification.SchemeName>(name: S, u: unknown) =>
    Schema.decodeUnknownResult(AccountIdentification.forScheme(name))(u)

  it("UK.OBIE.IBAN normalises to the electronic form", () => {
    expect(decode("UK.OBIE.IBAN", "gb82 west 1234 5698 7654 32")).toEqual(Result.succeed("GB82WEST12345698765432"))
    expect(Result.isFailure(decode("UK.OBIE.IBAN", "GB83WEST12345698765432"))).toBe(true)
  })

  it("UK.OBIE.SortCodeAccountNumber is 14 digits", () => {
    expect(decode("UK.OBIE.SortCodeAccountNumber", "12345612345678")).toEqual(Result.succeed("12345612345678"))
    for (const bad of ["1234561234567", "12-34-5612345678", "GB82WEST12345698765432"]) {
      expect(Result.isFailure(decode("UK.OBIE.SortCodeAccountNumber", bad)), bad).toBe(true)
    }
  })

  it("US.RoutingNumberAccountNumber is assumed to be 9 + 6..17 digits", () => {
    expect(Result.isSuccess(decode("US.RoutingNumberAccountNumber", "021000021123456"))).toBe(true)
    expect(Result.isSuccess(decode("US.RoutingNumberAccountNumber", "02100002112345678901234567"))).toBe(true)
    for (const bad of ["02100002112345", "021000021123456789012345678", "021000021-123456", "abc"]) {
      expect(Result.isFailure(decode("US.RoutingNumberAccountNumber", bad)), bad).toBe(true)
    }
  })

  // the generated values are a valid routing number followed by an account number
  it.prop(
    "US.RoutingNumberAccountNumber generates a valid routing number followed by an account number",
    [schemaArbitrary(AccountIdentification.forScheme("US.RoutingNumberAccountNumber"))],
    ([id]) => {
      expect(AbaRouting.isValid(id.slice(0, 9))).toBe(true)
      expect(Result.isSuccess(AbaRouting.parseAccountNumber(id.slice(9)))).toBe(true)
    }
  )

  it("US.BranchCodeAccountNumber is leniently 1 to 34 letters and digits", () => {
    expect(Result.isSuccess(decode("US.BranchCodeAccountNumber", "BR01Acc12345"))).toBe(true)
    for (const bad of ["", "x".repeat(35), "BR01 12345", "BR-01"]) {
      expect(Result.isFailure(decode("US.BranchCodeAccountNumber", bad)), bad).toBe(true)
    }
  })

  it("every scheme rejects identifications over 256 characters", () => {
    for (const name of AccountIdentification.schemeNames) {
      const left = Result.getOrThrow(Result.flip(decode(name, "1".repeat(257))))
      expect(issuesOf(left)[0]?.message).toContain("256")
    }
    expect(AccountIdentification.maxIdentificationLength).toBe(256)
  })
})

describe("AccountIdentification pairs", () => {
  // the arbitraries made when the first value is drawn (see `lazily`)
  schemaLaws("SchemeName", AccountIdentification.SchemeName, {
    arbitrary: schemaArbitrary(AccountIdentification.SchemeName)
  })
  schemaLaws("SchemeAndIdentification", AccountIdentification.SchemeAndIdentification, {
    arbitrary: schemaArbitrary(AccountIdentification.SchemeAndIdentification)
  })

  it("check accepts a valid pair", () => {
    expect(
      AccountIdentification.check({ SchemeName: "UK.OBIE.SortCodeAccountNumber", Identification: "12345612345678" })
    ).toEqual(Result.succeed({ SchemeName: "UK.OBIE.SortCodeAccountNumber", Identification: "12345612345678" }))
  })

  it("check names the field at fault", () => {
    const wrong = Result.getOrThrow(
      Result.flip(AccountIdentification.check({ SchemeName: "UK.OBIE.IBAN", Identification: "12345612345678" }))
    )
    expect(wrong._tag).toBe("AccountIdentificationError")
    expect(wrong.reason).toBe("Identification")
    expect(wrong.path).toEqual(["Identification"])
    expect(wrong.message).toContain("under SchemeName UK.OBIE.IBAN")
    const unknown = Result.getOrThrow(
      Result.flip(AccountIdentification.check({ SchemeName: "UK.OBIE.BBAN", Identification: "1" }))
    )
    expect(unknown.reason).toBe("UnknownSchemeName")
    expect(unknown.path).toEqual(["SchemeName"])
  })

  it('the Schema reports the path ["Identification"]', () => {
    const r = Schema.decodeUnknownResult(AccountIdentification.SchemeAndIdentification)({
      SchemeName: "UK.OBIE.IBAN",
      Identification: "GB83WEST12345698765432"
    })
    const issues = issuesOf(Result.getOrThrow(Result.flip(r)))
    expect(issues).toHaveLength(1)
    expect(issues[0]?.path).toEqual(["Identification"])
    expect(issues[0]?.message).toContain("MOD 97-10")
  })

  it("checkIdentification works on a wider struct and keeps the identification as written", () => {
    const CreditorAccount = Schema.Struct({
      SchemeName: AccountIdentification.SchemeName,
      Identification: Schema.String,
      Name: Schema.String
    }).pipe(AccountIdentification.checkIdentification)
    const decode = Schema.decodeUnknownResult(CreditorAccount)
    expect(decode({ SchemeName: "UK.OBIE.IBAN", Identification: "gb82 west 1234 5698 7654 32", Name: "A" })).toEqual(
      Result.succeed({ SchemeName: "UK.OBIE.IBAN", Identification: "gb82 west 1234 5698 7654 32", Name: "A" })
    )
    const bad = decode({ SchemeName: "US.RoutingNumberAccountNumber", Identification: "12", Name: "A" })
    expect(issuesOf(Result.getOrThrow(Result.flip(bad)))[0]?.path).toEqual(["Identification"])
    const badScheme = decode({ SchemeName: "UK.OBIE.PAN", Identification: "12", Name: "A" })
    expect(issuesOf(Result.getOrThrow(Result.flip(badScheme)))[0]?.path).toEqual(["SchemeName"])
  })

  it.effect("the pair arbitrary draws every scheme", () =>
    Effect.gen(function* () {
      const sample = yield* Arbitrary.sampleEffect(Arbitrary.schema(AccountIdentification.SchemeAndIdentification), {
        count: 400,
        seed: 1
      })
      expect(new Set(sample.map((p) => p.SchemeName)).size).toBe(4)
    })
  )

  it.prop(
    "check accepts every generated pair, and forScheme decodes its identification",
    [schemaArbitrary(AccountIdentification.SchemeAndIdentification)],
    ([pair]) => {
      expect(AccountIdentification.check(pair)).toEqual(Result.succeed(pair))
      const decoded = Schema.decodeUnknownResult(AccountIdentification.forScheme(pair.SchemeName))(pair.Identification)
      expect(Result.isSuccess(decoded)).toBe(true)
    }
  )

  it("check and checkIdentification give the Schema's verdict for every scheme, on valid, nearly valid and random identifications (their direct checks must not drift from forScheme)", () => {
    const schemes = AccountIdentification.SchemeName.literals
    const valid = fc.constantFrom(...schemes).chain((scheme) =>
      fc.constantFrom(
        ...{
          "UK.OBIE.IBAN": ["GB82WEST12345698765432", "gb82 west 1234 5698 7654 32", "DE89370400440532013000"],
          "UK.OBIE.SortCodeAccountNumber": ["12345612345678", "04290953215338"],
          "US.RoutingNumberAccountNumber": ["021000021123456", "02100002112345678901234567"],
          "US.BranchCodeAccountNumber": ["A1", "Z".repeat(34)]
        }[scheme]
      )
    )
    // one character changed, dropped or added, a space or a lower-case letter: what a typo makes of a valid one
    const nearly = fc
      .tuple(valid, fc.nat(40), fc.constantFrom("0", "9", "a", "Z", " ", "-", "é", ""), fc.boolean())
      .map(([s, at, c, insert]) => {
        const i = at % (s.length + 1)
        return s.slice(0, i) + c + s.slice(insert ? i : i + 1)
      })
    const identification = fc.oneof(
      valid,
      nearly,
      fc.string({ maxLength: 40 }),
      // digits or letters and digits at each scheme's length limits (14; 15 and 26; 34; 256)
      fc
        .tuple(fc.constantFrom(0, 1, 13, 14, 15, 16, 25, 26, 27, 33, 34, 35, 255, 256, 257), fc.boolean())
        .chain(([length, letters]) =>
          fc.string({
            unit: fc.constantFrom(...(letters ? "0123456789aZ" : "0123456789")),
            minLength: length,
            maxLength: length
          })
        )
    )
    const struct = Schema.decodeUnknownResult(
      Schema.Struct({ SchemeName: AccountIdentification.SchemeName, Identification: Schema.String }).pipe(
        AccountIdentification.checkIdentification
      )
    )
    fc.assert(
      fc.property(fc.constantFrom(...schemes), identification, (scheme, id) => {
        const bySchema = Schema.decodeUnknownResult(AccountIdentification.forScheme(scheme))(id)
        const checked = AccountIdentification.check({ SchemeName: scheme, Identification: id })
        expect(Result.isSuccess(checked)).toBe(Result.isSuccess(bySchema))
        expect(Result.isSuccess(struct({ SchemeName: scheme, Identification: id }))).toBe(Result.isSuccess(bySchema))
        if (Result.isFailure(bySchema) && Result.isFailure(checked)) {
          // a refusal says what the Schema says
          expect(checked.failure.message).toContain(issuesOf(bySchema.failure)[0]!.message)
        }
      }),
      { numRuns: 1_000, seed: 33 }
    )
  })
})
