/**
 * Reproducible randomness for the sandbox: a small seeded PRNG (mulberry32) for the data it generates in order, and
 * keyed draws (a hash of the parts) for decisions that must not depend on the order in which requests arrive.
 *
 * @internal
 */
import { hash } from "node:crypto"

/** @internal */
export interface Random {
  /** a float in [0, 1) */
  readonly next: () => number
  /** an integer in [min, max] */
  readonly int: (min: number, max: number) => number
  readonly pick: <A>(xs: ReadonlyArray<A>) => A
  /** a UUID-shaped (version 4 layout) identifier */
  readonly uuid: () => string
}

/** @internal */
export const make = (seed: number): Random => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const hex = (n: number) => Array.from({ length: n }, () => int(0, 15).toString(16)).join("")
  return {
    next,
    int,
    pick: (xs) => xs[Math.floor(next() * xs.length)]!,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[int(0, 3)]}${hex(3)}-${hex(12)}`
  }
}

/** the SHA-256 of the parts, in hex (a one-shot hash: no hash object per call) */
const digest = (parts: ReadonlyArray<string | number>): string => hash("sha256", parts.join("\u0000"), "hex")

/**
 * A float in [0, 1) (53 bits) that depends only on the parts: the same parts give the same number in any process,
 * whatever was drawn before.
 *
 * @internal
 */
export const keyed = (...parts: ReadonlyArray<string | number>): number => {
  const d = digest(parts)
  // the first 53 bits: 48 of the first 6 bytes, then the top 5 of the 7th
  return (Number.parseInt(d.slice(0, 12), 16) * 32 + (Number.parseInt(d.slice(12, 14), 16) >>> 3)) / 2 ** 53
}

/**
 * A version 4 UUID whose 122 free bits come from a hash of the parts: unique per parts, and the same for the same
 * parts.
 *
 * @internal
 */
export const keyedUuid = (...parts: ReadonlyArray<string | number>): string => uuidOf(digest(parts))

/**
 * {@link keyedUuid} of `prefix` and one more part: `keyedUuidWith("a", 1)(2)` is `keyedUuid("a", 1, 2)`, for ids drawn
 * per request.
 *
 * @internal
 */
export const keyedUuidWith = (...prefix: ReadonlyArray<string | number>): ((last: string | number) => string) => {
  const head = `${prefix.join("\u0000")}\u0000`
  return (last) => uuidOf(hash("sha256", `${head}${last}`, "hex"))
}

/** the UUID of the first 16 bytes of a digest (in hex), with the version (4) and variant (10) bits set */
const uuidOf = (h: string): string =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[Number.parseInt(h[16]!, 16) & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`
