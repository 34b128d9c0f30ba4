/**
 * A strict parser of IP addresses as written in the `x-fapi-customer-ip-address` header: an IPv4 dotted quad
 * (RFC 791 as RFC 6943 section 3.1.1 reads it: four decimal octets, no leading zeros) or an IPv6 address in the text
 * form of RFC 4291 section 2.2 (eight groups of 1 to 4 hex digits, one `::` for a run of zero groups, an optional
 * dotted-quad tail). Zone identifiers (`fe80::1%eth0`), brackets, ports, octal or hex octets and shortened IPv4
 * forms (`127.1`) are refused.
 *
 * @since 0.1.0
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Data from "effect/Data"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { withArbitrary } from "./internal/schema.js"
import { preview } from "./internal/text.js"

/**
 * A parsed address: its version and its bytes in network order (4 for IPv4, 16 for IPv6).
 *
 * @since 0.1.0
 * @category models
 */
export interface IpAddress {
  readonly version: 4 | 6
  readonly bytes: ReadonlyArray<number>
}

/**
 * Why a string is not an IP address:
 *
 * - `Empty`: the empty string;
 * - `Syntax`: a character or a separator out of place (brackets, ports, `:::`, a dangling `:` or `.`);
 * - `LeadingZero`: an IPv4 octet written with a leading zero (`010`), which some parsers read as octal;
 * - `OctetOutOfRange`: an IPv4 octet over 255;
 * - `GroupTooLong`: an IPv6 group of more than 4 hex digits;
 * - `GroupCount`: not four IPv4 octets, or not eight IPv6 groups (counting the tail as two and `::` as at least one);
 * - `MultipleCompressions`: `::` more than once;
 * - `ZoneId`: an IPv6 zone identifier (`%eth0`), which is local to the sender's host.
 *
 * @since 0.1.0
 * @category errors
 */
export type IpAddressParseErrorReason =
  | "Empty"
  | "Syntax"
  | "LeadingZero"
  | "OctetOutOfRange"
  | "GroupTooLong"
  | "GroupCount"
  | "MultipleCompressions"
  | "ZoneId"

/**
 * @since 0.1.0
 * @category errors
 */
export class IpAddressParseError extends Data.TaggedError("IpAddressParseError")<{
  readonly input: string
  readonly reason: IpAddressParseErrorReason
  readonly message: string
}> {}

const reasons: Record<IpAddressParseErrorReason, string> = {
  Empty: "the address is empty",
  Syntax: "expected an IPv4 dotted quad (192.0.2.1) or an IPv6 address (2001:db8::1)",
  LeadingZero: "an IPv4 octet has a leading zero, which some parsers read as octal",
  OctetOutOfRange: "an IPv4 octet is over 255",
  GroupTooLong: "an IPv6 group has more than 4 hex digits",
  GroupCount: "wrong number of parts: IPv4 has 4 octets, IPv6 8 groups (an IPv4 tail counts as 2, :: as at least 1)",
  MultipleCompressions: ":: may appear only once",
  ZoneId: "zone identifiers (%eth0) are local to the sender's host and not accepted"
}

const failure = (input: string, reason: IpAddressParseErrorReason) =>
  new IpAddressParseError({
    input,
    reason,
    message: `Invalid IP address ${JSON.stringify(preview(input))}: ${reasons[reason]}`
  })

type Scan = ReadonlyArray<number> | IpAddressParseErrorReason

const DIGITS = /^[0-9]+$/
const HEX = /^[0-9A-Fa-f]+$/

const scanV4 = (s: string): Scan => {
  const parts = s.split(".")
  if (parts.length !== 4) return parts.every((p) => DIGITS.test(p)) ? "GroupCount" : "Syntax"
  const bytes: Array<number> = []
  for (const p of parts) {
    if (!DIGITS.test(p)) return "Syntax"
    if (p.length > 1 && p.charCodeAt(0) === 48) return "LeadingZero"
    if (p.length > 3) return "OctetOutOfRange"
    const n = Number(p)
    if (n > 255) return "OctetOutOfRange"
    bytes.push(n)
  }
  return bytes
}

/** groups of one side of `::`; the last group of the address may be an IPv4 tail */
const scanGroups = (side: string, last: boolean, out: Array<number>): IpAddressParseErrorReason | undefined => {
  if (side === "") return undefined
  const groups = side.split(":")
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!
    if (last && i === groups.length - 1 && g.includes(".")) {
      const v4 = scanV4(g)
      if (typeof v4 === "string") return v4
      out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
      continue
    }
    if (g === "" || !HEX.test(g)) return "Syntax"
    if (g.length > 4) return "GroupTooLong"
    out.push(Number.parseInt(g, 16))
  }
  return undefined
}

const scanV6 = (s: string): Scan => {
  if (s.includes("%")) return "ZoneId"
  const first = s.indexOf("::")
  if (first >= 0 && s.indexOf("::", first + 1) >= 0) {
    return s.includes(":::") ? "Syntax" : "MultipleCompressions"
  }
  const head: Array<number> = []
  const tail: Array<number> = []
  if (first < 0) {
    const problem = scanGroups(s, true, head)
    if (problem !== undefined) return problem
    if (head.length !== 8) return "GroupCount"
  } else {
    const p1 = scanGroups(s.slice(0, first), false, head)
    if (p1 !== undefined) return p1
    const p2 = scanGroups(s.slice(first + 2), true, tail)
    if (p2 !== undefined) return p2
    if (head.length + tail.length > 7) return "GroupCount"
  }
  const groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail]
  return groups.flatMap((g) => [g >> 8, g & 0xff])
}

const scan = (s: string): IpAddress | IpAddressParseErrorReason => {
  if (s === "") return "Empty"
  if (s.includes(":")) {
    const r = scanV6(s)
    return typeof r === "string" ? r : { version: 6, bytes: r }
  }
  if (s.includes("%")) return "ZoneId"
  const r = scanV4(s)
  return typeof r === "string" ? r : { version: 4, bytes: r }
}

/**
 * Parses an IPv4 or IPv6 address strictly (see the module description).
 *
 * @example
 * ```ts
 * import { IpAddress } from "@payrules/open-banking"
 * import { Result } from "effect"
 *
 * console.log(Result.getOrThrow(IpAddress.parse("::ffff:192.0.2.1")).version) // 6
 * const octal = IpAddress.parse("192.0.2.010")
 * if (Result.isFailure(octal)) console.log(octal.failure.reason) // LeadingZero
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (input: string): Result.Result<IpAddress, IpAddressParseError> => {
  const r = scan(input)
  return typeof r === "string" ? Result.fail(failure(input, r)) : Result.succeed(r)
}

/**
 * @since 0.1.0
 * @category predicates
 */
export const isValid = (input: string): boolean => typeof scan(input) !== "string"

const hex = (n: number, pad: boolean, upper: boolean): string => {
  const h = n.toString(16)
  const padded = pad ? h.padStart(4, "0") : h
  return upper ? padded.toUpperCase() : padded
}

const Int = (maximum: number) => Schema.Int.check(Schema.isBetween({ minimum: 0, maximum }))
const Octet = Int(255)
// a group is 0 about half of the time, so that runs of zeros (and `::`) are common
const Group = Schema.Union([Schema.Literal(0), Int(0xffff)])

/** What the arbitrary draws before writing an address */
const Drawn = Schema.Union([
  Schema.Struct({ version: Schema.Literal(4), octets: Schema.Tuple([Octet, Octet, Octet, Octet]) }),
  Schema.Struct({
    version: Schema.Literal(6),
    groups: Schema.Tuple([Group, Group, Group, Group, Group, Group, Group, Group]),
    zeros: Schema.Tuple([Int(7), Int(8)]),
    compress: Schema.Boolean,
    tail: Schema.Boolean,
    pad: Schema.Boolean,
    upper: Schema.Boolean
  })
])

/** Writes a drawn address: IPv6 with the longest run of zero groups compressed (when `compress`) */
const write = (drawn: typeof Drawn.Type): string => {
  if (drawn.version === 4) return drawn.octets.join(".")
  const {
    compress,
    groups,
    pad,
    tail,
    upper,
    zeros: [start, length]
  } = drawn
  const g = groups.map((x, i) => (i >= start && i < start + length ? 0 : x))
  const n = tail ? 6 : 8
  const parts = g.slice(0, n).map((x) => hex(x, pad, upper))
  const tailText = tail ? [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join(".") : undefined
  let best = -1
  let bestLength = 0
  if (compress) {
    for (let i = 0; i < n; i++) {
      let j = i
      while (j < n && g[j] === 0) j++
      if (j - i > bestLength) {
        best = i
        bestLength = j - i
      }
    }
  }
  if (best < 0) return [...parts, ...(tailText === undefined ? [] : [tailText])].join(":")
  const before = parts.slice(0, best).join(":")
  const after = [...parts.slice(best + bestLength), ...(tailText === undefined ? [] : [tailText])].join(":")
  return `${before}::${after}`
}

/**
 * Written forms of valid addresses (effect's `Arbitrary`): dotted quads, and IPv6 with or without `::`, padded or
 * not, either case, with and without an IPv4 tail. `Arbitrary.schema(IpAddressString)` draws the same.
 *
 * @example
 * ```ts
 * import { IpAddress } from "@payrules/open-banking"
 * import { Arbitrary, Effect } from "effect"
 *
 * const addresses = Effect.runSync(Arbitrary.sampleEffect(IpAddress.arbitrary(), { count: 20, seed: 1 }))
 * console.log(addresses.every(IpAddress.isValid)) // true
 * ```
 *
 * @since 0.1.0
 * @category arbitraries
 */
export const arbitrary = (): Arbitrary.Arbitrary<string> => Arbitrary.map(Arbitrary.schema(Drawn), write)

const ipAddressString = Schema.String.check(
  Schema.makeFilter(
    (s: string) => {
      const r = scan(s)
      return typeof r === "string" ? failure(s, r).message : undefined
    },
    {
      expected: "an IPv4 or IPv6 address",
      toJsonSchema: () => ({ anyOf: [{ format: "ipv4" }, { format: "ipv6" }] })
    }
  )
)

/**
 * An IP address as a string, checked with {@link parse} and kept as written. Its arbitrary
 * (`Arbitrary.schema(IpAddressString)`) is {@link arbitrary}.
 *
 * @since 0.1.0
 * @category schemas
 */
export const IpAddressString: Schema.Codec<string> = withArbitrary(ipAddressString, Drawn, write).annotate({
  identifier: "IpAddressString",
  title: "IPv4 or IPv6 address",
  description: "an IPv4 dotted quad without leading zeros, or an IPv6 address (RFC 4291 section 2.2) without a zone"
})
