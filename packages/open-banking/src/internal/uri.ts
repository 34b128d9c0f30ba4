/**
 * Absolute URIs (RFC 3986 section 3: a scheme, then the hierarchical part, an optional query and fragment), checked
 * character by character, as the `Links` of an Open Banking response must be.
 *
 * @internal
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as IpAddress from "../IpAddress.js"
import { alternatives, ID_CHARACTERS, preview } from "./text.js"

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/
// pchar = unreserved / pct-encoded / sub-delims / ":" / "@" (RFC 3986 section 3.3)
const PATH = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/
const QUERY = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/
const USERINFO = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*$/
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/
const IP_FUTURE = /^[vV][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/
const PORT = /^[0-9]*$/

const hostProblem = (host: string): string | undefined => {
  if (host.startsWith("[")) {
    if (!host.endsWith("]")) return "an IP literal host must end with ]"
    const inner = host.slice(1, -1)
    // an IP literal is IPv6 or IPvFuture (RFC 3986 section 3.2.2): an IPv4 address is written without brackets
    const ip = IpAddress.parse(inner)
    return IP_FUTURE.test(inner) || (Result.isSuccess(ip) && ip.success.version === 6)
      ? undefined
      : "the IP literal host is not an IPv6 address"
  }
  return REG_NAME.test(host) ? undefined : "the host has a character that a URI does not allow there"
}

const authorityProblem = (authority: string, scheme: string): string | undefined => {
  const at = authority.lastIndexOf("@")
  const userinfo = at < 0 ? "" : authority.slice(0, at)
  const hostPort = at < 0 ? authority : authority.slice(at + 1)
  if (!USERINFO.test(userinfo)) return "the user information has a character that a URI does not allow there"
  let host = hostPort
  let port = ""
  const close = hostPort.lastIndexOf("]")
  const colon = hostPort.lastIndexOf(":")
  if (colon > close) {
    host = hostPort.slice(0, colon)
    port = hostPort.slice(colon + 1)
  }
  if (!PORT.test(port)) return "the port is not a number"
  if (host === "" && (scheme === "http" || scheme === "https")) return `an ${scheme} URI needs a host`
  return hostProblem(host)
}

/**
 * The common form of the `Links` of a response, in one expression: `http(s)://` a host name (letters, digits, `.`
 * and `-`), an optional port, and a path and query of unreserved characters and sub-delimiters (no `%`, `[`, `@` or
 * fragment). Every string it matches is an absolute URI; the others are checked part by part.
 */
const COMMON =
  /^https?:\/\/[A-Za-z0-9.-]+(?::[0-9]+)?(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:/]*)?(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:/?]*)?$/

/** Why `s` is not an absolute URI, or `undefined` when it is one. */
export const uriProblem = (s: string): string | undefined => {
  if (COMMON.test(s)) return undefined
  const m = SCHEME.exec(s)
  if (m === null) return "expected an absolute URI that starts with a scheme, e.g. https://api.example.com/..."
  const scheme = m[1]!.toLowerCase()
  let rest = s.slice(m[0].length)
  const hash = rest.indexOf("#")
  if (hash >= 0) {
    if (!QUERY.test(rest.slice(hash + 1))) return "the fragment has a character that a URI does not allow"
    rest = rest.slice(0, hash)
  }
  const question = rest.indexOf("?")
  if (question >= 0) {
    if (!QUERY.test(rest.slice(question + 1))) return "the query has a character that a URI does not allow"
    rest = rest.slice(0, question)
  }
  let path = rest
  if (rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2)
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash)
    path = slash < 0 ? "" : rest.slice(slash)
    const problem = authorityProblem(authority, scheme)
    if (problem !== undefined) return problem
  } else if (scheme === "http" || scheme === "https") {
    return `an ${scheme} URI needs //host after the scheme`
  }
  return PATH.test(path) ? undefined : "the path has a character that a URI does not allow (spaces must be %20)"
}

const HOSTS = ["oba.revolut.com", "api.alphabank.com", "ob.example.co.uk", "sandbox-oba.revolut.com"]
const BASES = ["/international-payments/", "/open-banking/v3.1/pisp/international-payments/"]

/** what the arbitrary draws: links of a payment on one of a few hosts, with an id and sometimes a page */
const URI_PATTERN = `^https://${alternatives(HOSTS)}${alternatives(BASES)}${ID_CHARACTERS}{1,40}(?:\\?page=[1-9])?$`

/** An absolute URI string, kept as written. */
export const AbsoluteUri: Schema.Codec<string> = Schema.String.check(
  Schema.makeFilter(
    (s: string) => {
      const problem = uriProblem(s)
      return problem === undefined ? undefined : `Invalid URI ${JSON.stringify(preview(s))}: ${problem}`
    },
    {
      expected: "an absolute URI",
      toJsonSchema: () => ({ format: "uri" }),
      arbitraryConstraint: { patterns: [{ source: URI_PATTERN, flags: "" }] }
    }
  )
).annotate({
  identifier: "AbsoluteUri",
  description: "an absolute URI (RFC 3986), e.g. https://oba.revolut.com/international-payments/1234"
})
