import { isIPv4, isIPv6 } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { IpAddress } from "@payrules/open-banking"
import { schemaLaws } from "@payrules/vitest"
import { Arbitrary, Effect, Result } from "effect"
import fc from "fast-check"

const reason = (s: string) => Result.match(IpAddress.parse(s), { onFailure: (e) => e.reason, onSuccess: () => "valid" })

describe("IpAddress.parse", () => {
  it.each([
    ["0.0.0.0", [0, 0, 0, 0]],
    ["104.25.212.99", [104, 25, 212, 99]],
    ["255.255.255.255", [255, 255, 255, 255]],
    ["10.0.10.1", [10, 0, 10, 1]]
  ])("IPv4 %s", (s, bytes) => {
    expect(IpAddress.parse(s)).toEqual(Result.succeed({ version: 4, bytes }))
  })

  it.each([
    ["::", "00000000000000000000000000000000"],
    ["::1", "00000000000000000000000000000001"],
    ["1::", "00010000000000000000000000000000"],
    ["2001:db8::ff00:42:8329", "20010db8000000000000ff0000428329"],
    ["2001:0DB8:0000:0000:0000:FF00:0042:8329", "20010db8000000000000ff0000428329"],
    ["::ffff:192.0.2.128", "00000000000000000000ffffc0000280"],
    ["64:ff9b::192.0.2.33", "0064ff9b0000000000000000c0000221"],
    ["1:2:3:4:5:6:7:8", "00010002000300040005000600070008"],
    ["1:2:3:4:5:6:1.2.3.4", "00010002000300040005000601020304"],
    ["1::2:3:4:5:6:7", "00010000000200030004000500060007"],
    ["fe80::1", "fe800000000000000000000000000001"]
  ])("IPv6 %s", (s, hex) => {
    const ip = Result.getOrThrow(IpAddress.parse(s))
    expect(ip.version).toBe(6)
    expect(ip.bytes.map((b) => b.toString(16).padStart(2, "0")).join("")).toBe(hex)
  })

  it.each([
    ["", "Empty"],
    ["192.0.2.010", "LeadingZero"],
    ["00.1.2.3", "LeadingZero"],
    ["256.1.1.1", "OctetOutOfRange"],
    ["1.2.3.1000", "OctetOutOfRange"],
    ["1.2.3", "GroupCount"],
    ["127.1", "GroupCount"],
    ["1.2.3.4.5", "GroupCount"],
    ["1..2.3", "Syntax"],
    ["0x7f.0.0.1", "Syntax"],
    [" 1.2.3.4", "Syntax"],
    ["1.2.3.4 ", "Syntax"],
    ["1.2.3.-4", "Syntax"],
    ["١.٢.٣.٤", "Syntax"],
    ["fe80::1%eth0", "ZoneId"],
    ["fe80::1%25eth0", "ZoneId"],
    ["1.2.3.4%0", "ZoneId"],
    ["[::1]", "Syntax"],
    ["::1:8080]", "Syntax"],
    ["1::2::3", "MultipleCompressions"],
    [":::", "Syntax"],
    ["1:::2", "Syntax"],
    [":1::2", "Syntax"],
    ["1::2:", "Syntax"],
    ["1:2:3:4:5:6:7", "GroupCount"],
    ["1:2:3:4:5:6:7:8:9", "GroupCount"],
    ["1:2:3:4:5:6:7::8", "GroupCount"],
    ["1::2:3:4:5:6:7:8", "GroupCount"],
    ["1:2:3:4:5:6:7:1.2.3.4", "GroupCount"],
    ["12345::1", "GroupTooLong"],
    ["g::1", "Syntax"],
    ["1.2.3.4::", "Syntax"],
    ["::1.2.3", "GroupCount"],
    ["::1.2.3.04", "LeadingZero"],
    ["::256.2.3.4", "OctetOutOfRange"]
  ])("%j: %s", (s, expected) => {
    expect(reason(s)).toBe(expected)
    expect(IpAddress.isValid(s)).toBe(false)
  })

  it("messages name the address and the rule", () => {
    const e = Result.getOrThrow(Result.flip(IpAddress.parse("192.0.2.010")))
    expect(e._tag).toBe("IpAddressParseError")
    expect(e.message).toBe(
      'Invalid IP address "192.0.2.010": an IPv4 octet has a leading zero, which some parsers read as octal'
    )
  })
})

describe("IpAddress: properties", () => {
  schemaLaws("IpAddress.IpAddressString", IpAddress.IpAddressString)

  it.prop(
    "every generated address is valid for us and for node:net",
    [IpAddress.arbitrary()],
    ([s]) => {
      expect(IpAddress.isValid(s)).toBe(true)
      expect(s.includes(":") ? isIPv6(s) : isIPv4(s)).toBe(true)
    },
    { arbitrary: { runs: 2000 } }
  )

  it.prop(
    "every address that Arbitrary.schema(IpAddressString) draws parses, to the same bytes in either case",
    [IpAddress.IpAddressString],
    ([s]) => {
      const ip = Result.getOrThrow(IpAddress.parse(s))
      expect(ip.bytes).toHaveLength(ip.version === 4 ? 4 : 16)
      expect(Result.getOrThrow(IpAddress.parse(s.toUpperCase()))).toEqual(ip)
      expect(Result.getOrThrow(IpAddress.parse(s.toLowerCase()))).toEqual(ip)
    },
    { arbitrary: { runs: 500 } }
  )

  // strings made of the characters of addresses, most of them near misses: valid addresses from our arbitrary
  // (effect's engine), the mutations and the other strings from fast-check
  it.effect("agrees with node:net on near misses, except for what we refuse on purpose (zone ids)", () =>
    Effect.gen(function* () {
      const addresses = yield* Arbitrary.sampleEffect(IpAddress.arbitrary(), { count: 1000, seed: 31 })
      const candidates = fc.oneof(
        fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF:.:."), maxLength: 45 }),
        fc
          .constantFrom(...addresses)
          .chain((s) =>
            fc
              .tuple(fc.nat(s.length), fc.constantFrom("", ":", ".", "0", "::", "f", "%1", "1"))
              .map(([i, c]) => s.slice(0, i) + c + s.slice(i + 1))
          )
      )
      let valid = 0
      fc.assert(
        fc.property(candidates, (s) => {
          const ours = IpAddress.isValid(s)
          const node = isIPv4(s) || (isIPv6(s) && !s.includes("%"))
          if (ours) valid++
          expect(ours).toBe(node)
        }),
        { numRuns: 5000 }
      )
      expect(valid).toBeGreaterThan(500)
    })
  )
})
