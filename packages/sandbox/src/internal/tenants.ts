/**
 * The sandbox's tenants (D12): who calls it, with which Bearer tokens, and which data each one sees. Every tenant has
 * its own accounts, counterparties, exchanges, request_id ledger, plans and payments; a request is authenticated in
 * the middleware (`Authorization: Bearer <token68>`, the scheme in any case) and runs with its tenant (see
 * `call.ts`).
 *
 * The tokens are derived from the seed (a hash of the seed, the tenant and the token's number): the same seed gives
 * the same tokens, so that scripts and tests can call a sandbox they start. A sandbox is not a secret store.
 *
 * @internal
 */
import * as Result from "effect/Result"
import * as Random from "./random.js"

/** A tenant as the sandbox is seeded with it. @internal */
export interface Tenant {
  readonly id: string
  readonly name: string
  /** its Bearer tokens (the first is the one to use; a tenant may have several, counted together by rate limits) */
  readonly tokens: ReadonlyArray<string>
  /** the seed of its data (the first tenant's is the sandbox's seed: its data is what a one-tenant sandbox served) */
  readonly dataSeed: number
  /** how many subscription plans it has */
  readonly plans: number
}

const definitions = [
  { id: "northwind", name: "Northwind Trading Ltd", tokens: 2 },
  { id: "globex", name: "Globex Retail GmbH", tokens: 1 },
  { id: "initech", name: "Initech Merchant Services", tokens: 1 }
] as const

/** the plans of the tenants after the first: enough to page through, few enough to start fast */
const otherPlans = 60

/**
 * The tenants of a seed: the first one with the seed's data (and `plans` plans), the others with data from seeds
 * derived from it.
 *
 * @internal
 */
export const seeded = (seed: number, plans: number): ReadonlyArray<Tenant> =>
  definitions.map((d, i) => ({
    id: d.id,
    name: d.name,
    tokens: Array.from(
      { length: d.tokens },
      (_, n) => `sbx_${d.id}_${Random.keyedUuid("token", seed, d.id, n).replaceAll("-", "")}`
    ),
    dataSeed: i === 0 ? seed : Math.floor(Random.keyed("tenant-seed", seed, d.id) * 2 ** 32),
    plans: i === 0 ? plans : Math.min(plans, otherPlans)
  }))

/** `token68` of RFC 7235 */
const token68 = /^[A-Za-z0-9\-._~+/]+=*$/

/**
 * The token of an `Authorization` header: the `Bearer` scheme (in any case), one or more spaces, one token68; or why
 * the header is refused (the message quotes no part of it).
 *
 * @internal
 */
export const bearerOf = (header: string | undefined): Result.Result<string, string> => {
  if (header === undefined || header.trim() === "") return Result.fail("Authorization: Bearer <token> is required")
  const space = header.indexOf(" ")
  const scheme = space === -1 ? header : header.slice(0, space)
  if (scheme.toLowerCase() !== "bearer") return Result.fail("only the Bearer authorization scheme is accepted")
  // the scheme alone: a header without credentials (not the token "Bearer")
  if (space === -1) return Result.fail("the Bearer scheme has no token: write Authorization: Bearer <token>")
  const token = header.slice(space + 1).trim()
  return token68.test(token)
    ? Result.succeed(token)
    : Result.fail("the Bearer credentials must be one token (RFC 7235 token68)")
}

/** Whether a host name or address is this machine only. @internal */
export const isLoopback = (host: string): boolean => {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "")
  return h === "localhost" || h === "::1" || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h)
}
