/**
 * Fixtures made when a test first needs them, not when its file loads.
 *
 * Code that runs while a test file loads (at the top level, in a `describe` body, in the arguments of `it.prop` or
 * `schemaLaws`) or before the tests (`beforeAll`, as in `layer(...)`) reaches no test in particular: mutation testing
 * (`pnpm mutation`) then counts each mutant in it as "static" and runs the whole suite for it. Made inside a test, the
 * same code is covered by the tests that use it, and a mutant in it runs those tests only. The fixtures and the values
 * drawn are the same either way.
 *
 * @since 0.0.0
 */
import { describe, layer, type Vitest } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import type * as Duration from "effect/Duration"
import * as Layer from "effect/Layer"
import type * as Schema from "effect/Schema"

/**
 * A fixture made on its first use, then kept.
 *
 * @since 0.0.0
 */
export const lazily = <A>(make: () => A): (() => A) => {
  let made: { readonly value: A } | undefined
  return () => {
    if (made === undefined) made = { value: make() }
    return made.value
  }
}

/**
 * The arbitrary `make` returns, made when the first value is drawn (inside the test that draws it), then kept: it draws
 * the same values as `make()`.
 *
 * @since 0.0.0
 */
export const lazyArbitrary = <A>(make: () => Arbitrary.Arbitrary<A>): Arbitrary.Arbitrary<A> =>
  Arbitrary.flatMap(Arbitrary.Constant(undefined), lazily(make))

/**
 * `Arbitrary.schema(schema)`, made when the first value is drawn (see {@link lazyArbitrary}).
 *
 * @since 0.0.0
 */
export const schemaArbitrary = <S extends Schema.Top>(schema: S): Arbitrary.Arbitrary<S["Type"]> =>
  lazyArbitrary(() => Arbitrary.schema(schema))

/**
 * `layer(self, options)(name, f)` of `@effect/vitest`, with the layer made and built in the block's first test (the
 * nameless `layer` builds in its `beforeEach`; `Layer.suspend` defers the call that makes it) rather than when the
 * file loads or in a `beforeAll`. The tests of the block still share the one layer.
 *
 * @since 0.0.0
 */
export const layerBlock =
  <R, E>(make: () => Layer.Layer<R, E>, options?: { readonly timeout?: Duration.Input }) =>
  (name: string, f: (it: Vitest.MethodsNonLive<R>) => void): void => {
    describe(name, () => layer(Layer.suspend(make), options)(f))
  }
