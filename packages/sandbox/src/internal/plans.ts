/**
 * GET /api/subscription-plans over an index made once at start: the plans sorted by creation, their instants in one
 * array and each plan's JSON text written once. `from` and `to` become a range by binary search, a page is a slice of
 * it, and a page token points into the range of the filters it was issued for. A request costs the same with 100
 * plans as with 10,000.
 *
 * Page tokens are opaque and authenticated: the offset and the filters, and an HMAC-SHA256 of them and the tenant
 * under a key drawn when the sandbox starts. A forged or altered token, one of another tenant, or one issued by
 * another sandbox (another process, or a restart) is refused. The index a token points into never changes while the
 * sandbox runs (the plans are seeded), so a token goes stale only with its key.
 *
 * @internal
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { OffsetDateTime } from "@payrules/iso8601"
import type { SubscriptionPlan } from "@payrules/subscriptions"
import * as Result from "effect/Result"

/** @internal */
export interface Plans {
  readonly count: number
  /** the JSON text of one page, or why the query is refused */
  readonly page: (query: SubscriptionPlan.PlanListQuery) => Result.Result<string, string>
}

interface Token {
  readonly o: number
  readonly f: number | null
  readonly t: number | null
}

/**
 * HMAC-SHA256 (RFC 2104) under `key` of `prefix` followed by a message, with the hash states after the key pads (and
 * the prefix) made once: a message costs two hash copies and two short hashes, not a key import per call (which cost
 * a GET plans request more than the rest of its work).
 */
export const hmacSha256 = (key: Uint8Array, prefix: string): ((message: string) => Buffer) => {
  const block = Buffer.alloc(64)
  Buffer.from(key.length > 64 ? createHash("sha256").update(key).digest() : key).copy(block)
  const pad = (byte: number) => Buffer.from(block.map((b) => b ^ byte))
  const inner = createHash("sha256").update(pad(0x36)).update(prefix)
  const outer = createHash("sha256").update(pad(0x5c))
  return (message) => outer.copy().update(inner.copy().update(message).digest()).digest()
}

/** signs and reads the page tokens of one tenant */
const tokens = (key: Uint8Array, tenant: string) => {
  const mac = hmacSha256(key, `${tenant}\u0000`)
  return {
    write: (token: Token): string => {
      const payload = Buffer.from(JSON.stringify(token)).toString("base64url")
      return `${payload}.${mac(payload).toString("base64url")}`
    },
    read: (text: string): Token | undefined => {
      const dot = text.indexOf(".")
      if (dot === -1 || text.length > 256) return undefined
      const payload = text.slice(0, dot)
      const given = Buffer.from(text.slice(dot + 1), "base64url")
      const expected = mac(payload)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
      try {
        const u: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
        if (typeof u !== "object" || u === null) return undefined
        const { f, o, t } = u as Record<string, unknown>
        const ok =
          Number.isSafeInteger(o) &&
          (o as number) >= 0 &&
          (f === null || typeof f === "number") &&
          (t === null || typeof t === "number")
        return ok ? { o: o as number, f: f as number | null, t: t as number | null } : undefined
      } catch {
        return undefined
      }
    }
  }
}

/** the first index whose instant is >= ms (or > ms with `after`) */
const bound = (instants: Float64Array, ms: number, after: boolean): number => {
  let lo = 0
  let hi = instants.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (instants[mid]! < ms || (after && instants[mid] === ms)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** @internal */
export const make = (
  plans: ReadonlyArray<SubscriptionPlan.SubscriptionPlanEncoded>,
  signing: { readonly key: Uint8Array; readonly tenant: string }
): Plans => {
  const { read, write } = tokens(signing.key, signing.tenant)
  const sorted = plans
    .map((plan) => ({ plan, at: Result.getOrThrow(OffsetDateTime.parse(plan.created_at)).epochMilliseconds }))
    .sort((a, b) => a.at - b.at || (a.plan.id < b.plan.id ? -1 : a.plan.id > b.plan.id ? 1 : 0))
  const instants = Float64Array.from(sorted, (p) => p.at)
  const texts = sorted.map((p) => JSON.stringify(p.plan))
  return {
    count: plans.length,
    page: (query) => {
      const limit = query.limit ?? 100
      if (limit > 500) return Result.fail(`limit is at most 500; got ${limit}`)
      const f = query.from?.epochMilliseconds ?? null
      const t = query.to?.epochMilliseconds ?? null
      let offset = 0
      if (query.page_token !== undefined) {
        const token = read(query.page_token)
        if (token === undefined) return Result.fail("page_token is not a token this API issued to this caller")
        if (token.f !== f || token.t !== t) {
          return Result.fail(
            "page_token was issued for other filters: repeat the from and to of the first request with every page_token"
          )
        }
        offset = token.o
      }
      const lo = f === null ? 0 : bound(instants, f, false)
      const hi = t === null ? instants.length : bound(instants, t, true)
      const start = Math.min(lo + offset, Math.max(lo, hi))
      const end = Math.max(start, Math.min(start + limit, hi))
      const next = end < hi ? `,"next_page_token":${JSON.stringify(write({ o: end - lo, f, t }))}` : ""
      return Result.succeed(`{"subscription_plans":[${texts.slice(start, end).join(",")}]${next}}`)
    }
  }
}
