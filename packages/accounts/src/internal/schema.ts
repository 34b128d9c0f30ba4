import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaParser from "effect/SchemaParser"

/**
 * `self` as a Declaration that carries its own generator, which effect 4 only lets a Declaration do: decoding,
 * encoding, equivalence, formatting and JSON are those of `self`, and `Arbitrary.schema` draws a value of `source`
 * and builds the result with `build` (then checks it against `self`). For values no filter can find by chance: a
 * valid IBAN, an ABA routing number, a `{ SchemeName, Identification }` pair that belong together.
 */
export const withArbitrary = <S extends Schema.Top, G extends Schema.Top>(
  self: S,
  source: G,
  build: (generated: G["Type"]) => S["Type"]
): Schema.declareConstructor<S["Type"], S["Encoded"], readonly [S]> =>
  Schema.declareConstructor<S["Type"], S["Encoded"]>()(
    [self],
    ([codec]) =>
      (input, _ast, options) =>
        SchemaParser.decodeUnknownEffect(codec)(input, options),
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

/**
 * A string check by a regular expression whose failure message is ours (it may quote the input), with the pattern
 * as the JSON Schema `pattern` and as the arbitrary's hint, so that generated strings match it.
 */
export const matching = (pattern: RegExp, message: (input: string) => string, expected: string) =>
  Schema.makeFilter<string>((s) => pattern.test(s) || message(s), {
    expected,
    toJsonSchema: () => ({ pattern: pattern.source }),
    arbitraryConstraint: { patterns: [{ source: pattern.source, flags: pattern.flags }] }
  })

/** Strings of ASCII digits with a length in `min..max`, as a Schema to generate from. */
export const digits = (min: number, max: number): Schema.Codec<string> =>
  Schema.String.check(Schema.isPattern(new RegExp(min === max ? `^[0-9]{${min}}$` : `^[0-9]{${min},${max}}$`)))
