import type { LazyArbitrary } from "effect/Arbitrary"

/** The fast-check module as effect's `Arbitrary` passes it to annotations (effect's own copy). */
export type FastCheckModule = Parameters<LazyArbitrary<unknown>>[0]

/** A fast-check arbitrary of effect's copy of fast-check. */
export type Arb<A> = ReturnType<LazyArbitrary<A>>

const DIGITS = "0123456789".split("")

/** Strings of ASCII digits with a length in `min..max`. */
export const digits = (fc: FastCheckModule, min: number, max: number): Arb<string> =>
  fc.string({ unit: fc.constantFrom(...DIGITS), minLength: min, maxLength: max })
