/**
 * Fixtures made when a test first needs them rather than when a test file loads. Code run while a file loads (at the
 * top level, in a `describe` body, in the arguments of `it.prop` or `schemaLaws`) or before the tests (`beforeAll`, as
 * in `layer(...)`) reaches no test in particular, so mutation testing runs the whole suite for each mutant in it (a
 * "static" mutant); made inside a test, the code is covered by the tests that use it, and a mutant in it runs those
 * tests only.
 */
import { Arbitrary } from "effect"
import type * as Schema from "effect/Schema"

/**
 * A fixture made on its first use, then kept. Made inside a test rather than when the file loads, so that mutation
 * testing knows which tests reach the code it runs: code run while a file loads reaches no test in particular, and each
 * mutant in it runs the whole suite (a "static" mutant).
 */
export const lazily = <A>(make: () => A): (() => A) => {
  let made: { readonly value: A } | undefined
  return () => {
    if (made === undefined) made = { value: make() }
    return made.value
  }
}

/**
 * The arbitrary `make` returns, made when the first value is drawn (inside the test that draws it), then kept: the
 * same values as `make()` itself, for `it.prop` and `schemaLaws`, whose arbitraries are otherwise made when the file
 * loads.
 */
export const lazyArbitrary = <A>(make: () => Arbitrary.Arbitrary<A>): Arbitrary.Arbitrary<A> =>
  Arbitrary.flatMap(Arbitrary.Constant(undefined), lazily(make))

/** `Arbitrary.schema(schema)`, made when the first value is drawn (see {@link lazyArbitrary}). */
export const schemaArbitrary = <S extends Schema.Constraint>(schema: S): Arbitrary.Arbitrary<S["Type"]> =>
  lazyArbitrary(() => Arbitrary.schema(schema))
