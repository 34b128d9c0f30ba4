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
 * A test, made once from a struct's AST, of whether an input has no key the struct does not declare, at any level, as
 * far as can be told without parsing; `undefined` when that cannot be told for this struct: only structs without index
 * signatures whose values are structs (tested the same way) or values without keys of their own (text, numbers,
 * booleans, literals) can be. An input that is not an object passes: parsing refuses it anyway.
 */
const declaredKeysTest = (ast: SchemaAST.AST): ((input: unknown) => boolean) | undefined => {
  if (!SchemaAST.isObjects(ast) || ast.indexSignatures.length > 0 || ast.encoding !== undefined) return undefined
  const names = new Set<PropertyKey>()
  const nested: Array<readonly [PropertyKey, (input: unknown) => boolean]> = []
  for (const property of ast.propertySignatures) {
    names.add(property.name)
    const type = property.type
    if (SchemaAST.isObjects(type)) {
      const test = declaredKeysTest(type)
      if (test === undefined) return undefined
      nested.push([property.name, test])
    } else if (
      type.encoding !== undefined ||
      !(SchemaAST.isString(type) || SchemaAST.isNumber(type) || SchemaAST.isBoolean(type) || SchemaAST.isLiteral(type))
    ) {
      return undefined
    }
  }
  return (input) => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return true
    const record = input as Record<PropertyKey, unknown>
    for (const key of Reflect.ownKeys(record)) if (!names.has(key)) return false
    for (const [name, test] of nested) if (!test(record[name])) return false
    return true
  }
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
      const declaredKeysOnly = declaredKeysTest(codec.ast)
      return (input, _ast, options) =>
        declaredKeysOnly?.(input) === true
          ? parse(input, options)
          : parse(input, { ...options, onExcessProperty: "error" })
    },
    inherited
  )
