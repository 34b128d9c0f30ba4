/**
 * Two Schema wrappers that effect 4 only lets a Declaration express: a generator of its own, and a struct that
 * refuses the keys it does not declare.
 *
 * @internal
 */
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaParser from "effect/SchemaParser"

// JSON (and JSON Schema), equivalence and formatting of the Declaration: those of the Schema it wraps
const inherited = {
  toCodecJson: <E>([encoded]: readonly [Schema.Codec<E>]) =>
    Schema.link<E>()(encoded, { decode: SchemaGetter.passthrough(), encode: SchemaGetter.passthrough() }),
  toEquivalence: <Q>([equivalence]: readonly [Q]): Q => equivalence,
  toFormatter: <F>([formatter]: readonly [F]): F => formatter
}

/**
 * `self` as a Declaration that carries its own generator: decoding, encoding, equivalence, formatting and JSON (and
 * JSON Schema) are those of `self`, and `Arbitrary.schema` draws a value of `source` and builds the result with
 * `build` (then checks it against `self`). For values that no filter finds by chance, such as an exchange whose amount
 * fits the currency it is in.
 *
 * @internal
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
      ...inherited,
      toCodecArbitrary: () =>
        Schema.link<S["Type"]>()(source, {
          decode: SchemaGetter.transform(build),
          encode: SchemaGetter.forbiddenEncoding
        })
    }
  )

/**
 * Whether `input` has no key that a struct of `ast` does not declare, at any level, as far as can be told without
 * parsing: `true` only when every level is a struct without index signatures whose values are structs (checked the
 * same way) or values without keys of their own to check (text, numbers, literals). Anything else is `false`: not
 * known to be free of undeclared keys.
 */
const declaredKeysOnly = (ast: SchemaAST.AST, input: unknown): boolean => {
  if (!SchemaAST.isObjects(ast) || ast.indexSignatures.length > 0 || ast.encoding !== undefined) return false
  if (typeof input !== "object" || input === null || Array.isArray(input)) return true
  const record = input as Record<PropertyKey, unknown>
  const properties = ast.propertySignatures
  const keys = Reflect.ownKeys(record)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (!properties.some((p) => p.name === key)) return false
  }
  for (let i = 0; i < properties.length; i++) {
    const property = properties[i]!
    const type = property.type
    if (SchemaAST.isObjects(type)) {
      if (!declaredKeysOnly(type, record[property.name])) return false
    } else if (
      type.encoding !== undefined ||
      !(SchemaAST.isString(type) || SchemaAST.isNumber(type) || SchemaAST.isBoolean(type) || SchemaAST.isLiteral(type))
    ) {
      return false
    }
  }
  return true
}

/**
 * `self` (a struct) refusing the keys it does not declare, at every level, whatever the caller's parse options say:
 * effect 4 has no per-Schema parse options, so the Declaration parses `self` again with `onExcessProperty: "error"`.
 * A key that is not declared fails with an `UnexpectedKey` issue at its path. An input that has only declared keys
 * (what a well-formed body has) is parsed under the caller's options: the same result, on effect's fast path for
 * structs, which `onExcessProperty` turns off.
 *
 * @internal
 */
export const exactKeys = <S extends Schema.Top>(
  self: S
): Schema.declareConstructor<S["Type"], S["Encoded"], readonly [S]> =>
  Schema.declareConstructor<S["Type"], S["Encoded"]>()(
    [self],
    ([codec]) => {
      const parse = SchemaParser.decodeUnknownEffect(codec)
      return (input, _ast, options) =>
        declaredKeysOnly(codec.ast, input)
          ? parse(input, options)
          : parse(input, { ...options, onExcessProperty: "error" })
    },
    inherited
  )
