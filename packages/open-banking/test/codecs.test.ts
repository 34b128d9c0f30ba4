/**
 * The Schemas with a generator of their own (the accounts, IpAddressString) are Declarations: these tests guard that
 * they still answer effect's other derivations as the Schemas they wrap do (the JSON codec an HttpApi uses, the
 * formatter, the equivalence).
 */
import { describe, expect, it } from "@effect/vitest"
import { InternationalPayment, IpAddress } from "@payrules/open-banking"
import { Result, Schema } from "effect"
import { full, profiles, setIn } from "./helpers.js"

describe("effect's derivations of the payment Schemas", () => {
  for (const profile of profiles) {
    const schema = InternationalPayment.schema(profile)
    const json = Schema.toCodecJson(schema)

    it.prop(
      `${profile}: the JSON codec (Schema.toCodecJson) writes the wire form encode writes, and reads it back (bug: the accounts left out of the JSON codec)`,
      [schema],
      ([payment]) => {
        const wire = Result.getOrThrow(InternationalPayment.encode(profile, payment))
        expect(Schema.encodeSync(json)(payment)).toStrictEqual(wire)
        expect(Schema.toEquivalence(schema)(Schema.decodeUnknownSync(json)(wire), payment)).toBe(true)
      },
      { arbitrary: { runs: 50 } }
    )

    it(`${profile}: the JSON codec checks an account's Identification under its SchemeName, as decode does`, () => {
      const at = ["Data", "Initiation", "CreditorAccount", "Identification"]
      const r = Schema.decodeUnknownResult(json)(setIn(full(profile), at, "GB00WEST12345698765432"))
      expect(Result.isFailure(r)).toBe(true)
    })

    it(`${profile}: the formatter shows the accounts, and equivalence tells two accounts apart`, () => {
      const payment = Result.getOrThrow(InternationalPayment.decode(profile, full(profile)))
      const text = Schema.toFormatter(schema)(payment)
      const account = payment.Data.Initiation.CreditorAccount
      expect(text).toContain(`"CreditorAccount": { "SchemeName": "${account.SchemeName as string}"`)
      expect(text).toContain(`"Identification": "${account.Identification}"`)
      const other = Result.getOrThrow(
        InternationalPayment.decode(
          profile,
          setIn(full(profile), ["Data", "Initiation", "CreditorAccount", "Name"], "Someone else")
        )
      )
      expect(Schema.toEquivalence(schema)(payment, other)).toBe(false)
      expect(
        Schema.toEquivalence(schema)(payment, Result.getOrThrow(InternationalPayment.decode(profile, full(profile))))
      ).toBe(true)
    })
  }

  it("IpAddressString: formatted as written, equal only to itself, the same in its JSON codec", () => {
    expect(Schema.toFormatter(IpAddress.IpAddressString)("2001:db8::1")).toBe('"2001:db8::1"')
    expect(Schema.toEquivalence(IpAddress.IpAddressString)("::1", "::1")).toBe(true)
    expect(Schema.toEquivalence(IpAddress.IpAddressString)("::1", "::2")).toBe(false)
    const json = Schema.toCodecJson(IpAddress.IpAddressString)
    expect(Schema.encodeSync(json)("192.0.2.1")).toBe("192.0.2.1")
    expect(Result.isFailure(Schema.decodeUnknownResult(json)("192.0.2.01"))).toBe(true)
  })
})
