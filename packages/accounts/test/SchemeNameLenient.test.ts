/**
 * Issue 34: a SchemeName added since is read (as `{ _tag: "Unknown", value }`) by the lenient Schemas, its
 * Identification kept as read; the strict Schemas and `check` still refuse it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as AccountIdentification from "@payrules/accounts/AccountIdentification"
import { OpenEnum } from "@payrules/lenient"
import { schemaLaws } from "@payrules/vitest"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { lazily, schemaArbitrary } from "./support/lazily.js"

// made when a test first needs them (see `lazily`)
const decodeLenient = lazily(() =>
  Schema.decodeUnknownResult(
    Schema.Struct({
      SchemeName: AccountIdentification.SchemeNameLenient,
      Identification: Schema.String
    }).pipe(AccountIdentification.checkIdentificationLenient)
  )
)
const decodeStrict = lazily(() =>
  Schema.decodeUnknownResult(
    Schema.Struct({
      SchemeName: AccountIdentification.SchemeName,
      Identification: Schema.String
    }).pipe(AccountIdentification.checkIdentification)
  )
)

describe("AccountIdentification.SchemeNameLenient", () => {
  // the arbitrary made when the first value is drawn (see `lazily`)
  schemaLaws("AccountIdentification.SchemeNameLenient", AccountIdentification.SchemeNameLenient, {
    arbitrary: schemaArbitrary(AccountIdentification.SchemeNameLenient)
  })

  it("the four names decode exactly as with the strict SchemeName", () => {
    for (const name of AccountIdentification.schemeNames) {
      expect(Schema.decodeUnknownResult(AccountIdentification.SchemeNameLenient)(name)).toStrictEqual(
        Schema.decodeUnknownResult(AccountIdentification.SchemeName)(name)
      )
    }
  })

  it.prop(
    "a scheme added since is read as unknown, not refused; the strict Schema still refuses it",
    [OpenEnum.UnknownFromString(AccountIdentification.schemeNames)],
    ([u]) => {
      expect(Schema.decodeUnknownSync(AccountIdentification.SchemeNameLenient)(u.value)).toEqual(
        OpenEnum.unknown(u.value)
      )
      expect(Result.isFailure(Schema.decodeUnknownResult(AccountIdentification.SchemeName)(u.value))).toBe(true)
    }
  )

  it("a malformed name is still an error", () => {
    for (const name of ["", "UK OBIE IBAN", 3, null, "x".repeat(129)]) {
      expect(Result.isFailure(Schema.decodeUnknownResult(AccountIdentification.SchemeNameLenient)(name))).toBe(true)
    }
  })
})

describe("AccountIdentification.checkIdentificationLenient", () => {
  it.prop(
    "a valid pair of a known scheme reads as with checkIdentification",
    [schemaArbitrary(AccountIdentification.SchemeAndIdentification)],
    ([pair]) => {
      expect(decodeLenient()(pair)).toStrictEqual(decodeStrict()(pair))
    }
  )

  it("an invalid Identification under a known scheme is refused at the same path as by the strict check", () => {
    const pair = { SchemeName: "UK.OBIE.SortCodeAccountNumber", Identification: "1234561234567" }
    const lenient = decodeLenient()(pair)
    const strict = decodeStrict()(pair)
    expect(Result.isFailure(lenient) && lenient.failure.message).toBe(
      Result.isFailure(strict) && strict.failure.message
    )
  })

  it("under a scheme added since, any Identification is kept as read (it cannot be checked)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.constantFrom("SE.BANKGIRO", "UK.OBIE.BBAN", "UK.OBIE.PAN"),
        (identification, scheme) => {
          const read = Result.getOrThrow(decodeLenient()({ SchemeName: scheme, Identification: identification }))
          expect(read).toEqual({ SchemeName: OpenEnum.unknown(scheme), Identification: identification })
          expect(Result.isFailure(decodeStrict()({ SchemeName: scheme, Identification: identification }))).toBe(true)
        }
      ),
      { seed: 34 }
    )
  })

  it("check of a pair read with an unknown scheme fails with UnknownSchemeName, naming the raw value", () => {
    const checked = AccountIdentification.check({ SchemeName: OpenEnum.unknown("SE.BANKGIRO"), Identification: "1" })
    expect(Result.isFailure(checked) && [checked.failure.reason, checked.failure.message]).toEqual([
      "UnknownSchemeName",
      'Unknown SchemeName "SE.BANKGIRO": expected one of UK.OBIE.IBAN, UK.OBIE.SortCodeAccountNumber, US.RoutingNumberAccountNumber, US.BranchCodeAccountNumber'
    ])
  })
})
