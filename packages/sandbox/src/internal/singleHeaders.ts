/**
 * Headers HTTP allows once in a request (RFC 9110 §5.3: a field whose value is not a comma-separated list must not be
 * repeated; RFC 9112 §3.2: a server answers 400 to more than one `Host`). Node's server hides a repeat: it keeps the
 * first `Authorization`, `Content-Type` or `Host` and drops the others, and joins the others with ", " (two
 * `x-fapi-financial-id` read as `a, a`). A proxy in front of the sandbox may keep another one than Node does, and read
 * the request as another tenant's, so a repeat of any of these is refused (400) before anything reads them.
 *
 * @internal
 */

/** the headers the sandbox reads that HTTP allows once, by their lower-case names @internal */
export const names: ReadonlySet<string> = new Set([
  "host",
  "authorization",
  "content-type",
  "content-length",
  "revolut-api-version",
  "x-fapi-financial-id",
  "x-fapi-interaction-id",
  "x-fapi-auth-date",
  "x-fapi-customer-last-logged-time",
  "x-fapi-customer-ip-address",
  "x-customer-user-agent"
])

/**
 * The first of {@link names} that `rawHeaders` (Node's list: name, value, name, value...) gives more than once, in
 * lower case, with how many times; `undefined` when none is repeated. `distinct` is the number of names in Node's
 * headers object: when the raw list has no more headers than that, no name repeats and the list is not read.
 *
 * @internal
 */
export const repeated = (
  rawHeaders: ReadonlyArray<string>,
  distinct: number
): { readonly name: string; readonly times: number } | undefined => {
  if (rawHeaders.length / 2 <= distinct) return undefined
  const seen = new Map<string, number>()
  let found: string | undefined
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase()
    if (!names.has(name)) continue
    const times = (seen.get(name) ?? 0) + 1
    seen.set(name, times)
    if (times === 2 && found === undefined) found = name
  }
  return found === undefined ? undefined : { name: found, times: seen.get(found)! }
}
