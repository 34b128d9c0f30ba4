import { isIPv6 } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { issuesOf } from "@payrules/vitest"
import { Arbitrary, Effect, Result, Schema } from "effect"
import fc from "fast-check"
import { AbsoluteUri, uriProblem } from "../src/internal/uri.js"

const decodeUri = Schema.decodeUnknownResult(AbsoluteUri)

/** the message of a refused link, as a caller reads it */
const refusal = (s: string): string | undefined =>
  Result.match(decodeUri(s), { onFailure: (e) => issuesOf(e)[0]?.message, onSuccess: () => undefined })

// RFC 3986 appendix A (collected ABNF), written out as regular expressions: an oracle independent of the
// part-by-part checks of uri.ts
const UNRESERVED = "A-Za-z0-9\\-._~"
const SUB_DELIMS = "!$&'()*+,;="
const PCT = "%[0-9A-Fa-f]{2}"
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`
const SEGMENTS = `(?:/${PCHAR}*)*`
const ABNF = new RegExp(
  `^([A-Za-z][A-Za-z0-9+.-]*):` +
    // hier-part: "//" authority path-abempty / path-absolute / path-rootless / path-empty
    `(?:(//)(?:(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*@)?(?:\\[([^\\]]*)\\]|((?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*))(?::[0-9]*)?${SEGMENTS}` +
    `|/(?:${PCHAR}+${SEGMENTS})?|${PCHAR}+${SEGMENTS}|)` +
    `(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`
)
const IP_FUTURE = new RegExp(`^[vV][0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`)

/**
 * RFC 3986's absolute URI (with a fragment, as `Links` may carry one), an IP literal being an IPv6 address without a
 * zone or an IPvFuture, and RFC 9110 section 4.2's rule that an http(s) URI has an authority with a non-empty host.
 */
const isAbsoluteUri = (s: string): boolean => {
  const m = ABNF.exec(s)
  if (m === null) return false
  const [, scheme, slashes, literal, regName] = m
  if (literal !== undefined && !(IP_FUTURE.test(literal) || (isIPv6(literal) && !literal.includes("%")))) return false
  const web = /^https?$/i.test(scheme!)
  return !web || (slashes !== undefined && (literal !== undefined || regName !== ""))
}

describe("AbsoluteUri (the Links of a response)", () => {
  it.each([
    "https://oba.revolut.com/international-payments/1?page=2",
    "HTTPS://OBA.REVOLUT.COM/International-Payments/1",
    "https://u:p%40ss@oba.revolut.com:8443/a/b;c=d?q=1/2?3#frag/x?y",
    "https://oba.revolut.com:/x",
    "https://[2001:db8::1]:8443/ip/1",
    "https://[v1.fe:80]/ip",
    "http://192.0.2.1/ip",
    "https://h#",
    "https://h?",
    "urn:uuid:93bac548-d2de-4546-b106-880a5018460d",
    "mailto:ops@example.com",
    "file:///etc/payments",
    "tel:+44-20-7946-0000",
    "about:",
    "a+b.c-d:/x"
  ])("%s is an absolute URI", (s) => {
    expect(uriProblem(s)).toBeUndefined()
    expect(Result.getOrThrow(decodeUri(s))).toBe(s)
  })

  // (bug: each refusal said only "Invalid URI", not which part is wrong)
  it.each([
    ["relative/path", "expected an absolute URI that starts with a scheme, e.g. https://api.example.com/..."],
    [
      "/international-payments/1",
      "expected an absolute URI that starts with a scheme, e.g. https://api.example.com/..."
    ],
    ["1https://h/", "expected an absolute URI that starts with a scheme, e.g. https://api.example.com/..."],
    ["https://h/p#frag ment", "the fragment has a character that a URI does not allow"],
    ["https://h/p#a#b", "the fragment has a character that a URI does not allow"],
    ["https://h/p?x y#f", "the query has a character that a URI does not allow"],
    ["https://h/p?%zz", "the query has a character that a URI does not allow"],
    ["https://us er@h/", "the user information has a character that a URI does not allow there"],
    ["https://h:80a/x", "the port is not a number"],
    ["https://h:-1", "the port is not a number"],
    ["https://:80/x", "an https URI needs a host"],
    ["http://user@/x", "an http URI needs a host"],
    ["https://", "an https URI needs a host"],
    ["https://[::1/x", "an IP literal host must end with ]"],
    ["https://[1.2.3.4]/", "the IP literal host is not an IPv6 address"],
    ["https://[fe80::1%25eth0]/", "the IP literal host is not an IPv6 address"],
    ["https://[v1.]/", "the IP literal host is not an IPv6 address"],
    ["https://ho st/", "the host has a character that a URI does not allow there"],
    ["https://h[1]/", "the host has a character that a URI does not allow there"],
    ["https:/oba.revolut.com", "an https URI needs //host after the scheme"],
    ["http:oba.revolut.com", "an http URI needs //host after the scheme"],
    ["https://oba.revolut.com/a b", "the path has a character that a URI does not allow (spaces must be %20)"],
    ["urn:a b", "the path has a character that a URI does not allow (spaces must be %20)"],
    ["urn:%2", "the path has a character that a URI does not allow (spaces must be %20)"]
  ])("%j is refused: %s", (s, problem) => {
    expect(uriProblem(s)).toBe(problem)
    expect(refusal(s)).toBe(`Invalid URI ${JSON.stringify(s)}: ${problem}`)
  })

  it("a long link is shortened in the message to its first 45 characters (bug: a huge payload made a huge message)", () => {
    const at48 = `https://h/${"a".repeat(37)} `
    expect(at48).toHaveLength(48)
    expect(refusal(at48)).toBe(`Invalid URI ${JSON.stringify(at48)}: ${uriProblem(at48)}`)
    const at49 = `${at48}b`
    expect(refusal(at49)).toBe(`Invalid URI ${JSON.stringify(`${at49.slice(0, 45)}...`)}: ${uriProblem(at49)}`)
  })

  it.effect(
    "the arbitrary draws links of a payment on each of a few hosts, under both base paths, sometimes paged",
    () =>
      Effect.gen(function* () {
        // the shortest link is 48 characters: effect's generator reaches the longer ones at a larger size
        const links = yield* Arbitrary.sampleEffect(Arbitrary.schema(AbsoluteUri), { count: 300, seed: 5, size: 120 })
        const parts = links.map((link) => {
          const m = /^https:\/\/([^/]+)(\/.*\/)([A-Za-z0-9-]{1,40})(\?page=[1-9])?$/.exec(link)
          expect(m, link).not.toBeNull()
          expect(uriProblem(link)).toBeUndefined()
          return m!
        })
        expect(new Set(parts.map((m) => m[1]))).toEqual(
          new Set(["oba.revolut.com", "api.alphabank.com", "ob.example.co.uk", "sandbox-oba.revolut.com"])
        )
        expect(new Set(parts.map((m) => m[2]))).toEqual(
          new Set(["/international-payments/", "/open-banking/v3.1/pisp/international-payments/"])
        )
        expect(parts.some((m) => m[4] !== undefined)).toBe(true)
      })
  )

  // strings made of the pieces of URIs, good and bad, put where a scheme, an authority, a path, a query and a
  // fragment go: most are near misses
  const piece = (units: ReadonlyArray<string>, maxLength: number) =>
    fc.array(fc.constantFrom(...units), { maxLength }).map((parts) => parts.join(""))
  // mostly characters a URI allows, now and then one it does not (or not there)
  const unit = fc.oneof(
    { arbitrary: fc.constantFrom(..."aZ09-._~!$&'()*+,;=:@/", "%20", "?", "#"), weight: 12 },
    { arbitrary: fc.constantFrom(...'[]% ^{"<', "%zz", "%4"), weight: 1 }
  )
  const candidates = fc
    .tuple(
      fc.oneof(fc.constantFrom("https", "http", "HTTP", "urn", "file", "a+b"), piece([..."hA1+.-:"], 5)),
      fc.constantFrom(":", "://", ":/", ""),
      fc.option(piece([..."uA1:;%@", "%41"], 4)),
      fc.oneof(
        fc.constantFrom("oba.revolut.com", "192.0.2.1", "[::1]", "[2001:db8::1", "[v7.a:b]", "[1.2.3.4]", "", "h%41"),
        fc.array(unit, { maxLength: 6 }).map((parts) => parts.join(""))
      ),
      fc.option(piece([..."0189a:"], 4)),
      fc.array(unit, { maxLength: 10 }).map((parts) => parts.join(""))
    )
    .map(([scheme, sep, user, host, port, rest]) =>
      [scheme, sep, user === null ? "" : `${user}@`, host, port === null ? "" : `:${port}`, rest].join("")
    )

  it("property: a link is accepted exactly when it is an absolute URI of RFC 3986 (an http one with a host)", () => {
    let valid = 0
    fc.assert(
      fc.property(candidates, (s) => {
        const accepted = uriProblem(s) === undefined
        if (accepted) valid++
        expect(accepted, s).toBe(isAbsoluteUri(s))
        expect(Result.isSuccess(decodeUri(s))).toBe(accepted)
      }),
      { numRuns: 3000 }
    )
    expect(valid).toBeGreaterThan(200)
  })
})
