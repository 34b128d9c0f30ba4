/**
 * A small seeded PRNG (mulberry32): the sandbox's data and its probabilistic faults are reproducible from a seed.
 *
 * @internal
 */
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
