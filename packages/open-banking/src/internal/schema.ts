/**
 * A Schema that carries a generator of its own, which effect 4 only lets a Declaration do.
 *
 * @internal
 */
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaParser from "effect/SchemaParser"

/**
 * `self` as a Declaration that carries its own generator: decoding, encoding, equivalence, formatting and JSON (and
 * JSON Schema) are those of `self`, and `Arbitrary.schema` draws a value of `source` and builds the result with
 * `build` (then checks it against `self`). For values that no filter finds by chance, such as an account whose
 * `Identification` is valid under its `SchemeName`. Decoding runs `self`'s parser, made once, and nothing else.
 */
export const withArbitrary = <S extends Schema.Top, G extends Schema.Top>(
  self: S,
  source: G,
  build: (generated: G["Type"]) => S["Type"]
): Schema.declareConstructor<S["Type"], S["Encoded"], readonly [S]> =>
  Schema.declareConstructor<S["Type"], S["Encoded"]>()(
    [self],
    ([codec]) => {
      const parse = SchemaParser.decodeUnknownEffect(codec)
      return (input, _ast, options) => parse(input, options)
    },
    {
      toCodecArbitrary: () =>
        Schema.link<S["Type"]>()(source, {
          decode: SchemaGetter.transform(build),
          encode: SchemaGetter.forbiddenEncoding
        }),
      toCodecJson: ([encoded]) =>
        Schema.link<S["Encoded"]>()(encoded, {
          decode: SchemaGetter.passthrough(),
          encode: SchemaGetter.passthrough()
        }),
      toEquivalence: ([equivalence]) => equivalence,
      toFormatter: ([formatter]) => formatter
    }
  )
