/**
 * The compiled rules as an Effect Schema of the whole /pay body, for composition, JSON Schema and arbitraries. Each
 * string field is checked by the very function `validate` uses (a field with options by the list of its options), so
 * both accept the same bodies and report issues at the same paths.
 */
import { Currency } from "@payrules/money"
import * as Schema from "effect/Schema"
import type * as PayBody from "../PayBody.js"
import * as Names from "./names.js"
import type { Leaf, Node, Obj, Strictness, Tree } from "./rules.js"
import { amountProblem, explain, ONE_OF, receiverBothMessage } from "./rules.js"

/** text without control characters (lone surrogates are not drawn in `u` mode) */
const TEXT = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"

/** the currency codes of the list that pass the field's own rules too (a pattern, a length), one alternation */
const listedCurrencies = (l: Leaf): string =>
  `^(?:${Currency.all
    .map((c) => c.code)
    .filter((code) => l.problem(code) === undefined)
    .join("|")})$`

const describe = (l: Leaf): string | undefined => {
  const parts: Array<string> = []
  for (const p of l.patterns) {
    if (p.description !== undefined) parts.push(p.description)
    if (p.pattern.ecma === undefined) parts.push(`matches the RE2 pattern ${p.pattern.re2}`)
  }
  for (const source of l.limits) parts.push(source)
  return parts.length === 0 ? undefined : parts.join("; ")
}

const jsonSchemaOf = (l: Leaf): Record<string, unknown> => {
  const js: Record<string, unknown> = {}
  if (l.minLength > 0) js.minLength = l.minLength
  if (l.maxLength !== Infinity) js.maxLength = l.maxLength
  // only patterns proven linear go into the JSON Schema: its consumers run them on their own (backtracking) engines
  const patterns = l.patterns.flatMap((p) => (p.pattern.ecma === undefined ? [] : [p.pattern.ecma]))
  if (l.kind === "currency") patterns.unshift("^[A-Z]{3}$")
  // lone surrogates are refused too, which a JSON Schema pattern cannot say
  if (l.text) patterns.unshift(TEXT)
  if (patterns.length === 1) js.pattern = patterns[0]
  else if (patterns.length > 1) js.allOf = patterns.map((pattern) => ({ pattern }))
  return js
}

/** what `Arbitrary.schema` draws a string of the field from (values that fail the field's check are discarded) */
const arbitraryOf = (l: Leaf): Schema.Annotations.ToArbitrary.FilterConstraint<string> => {
  // a currency is drawn from the codes that pass every rule of the field: drawn from the server's pattern, or from
  // either at random, it would almost never be both a listed code and a match
  const patterns =
    l.kind === "currency"
      ? [{ source: listedCurrencies(l), flags: "" }]
      : l.patterns.flatMap((p) =>
          p.pattern.generator === undefined ? [] : [{ source: p.pattern.generator, flags: "u" }]
        )
  if (l.text && patterns.length === 0) patterns.push({ source: TEXT, flags: "u" })
  return {
    ...(l.minLength > 0 ? { minCodePoints: l.minLength } : {}),
    ...(l.maxLength === Infinity ? {} : { maxCodePoints: l.maxLength }),
    ...(patterns.length === 0 ? {} : { patterns: [patterns[0]!, ...patterns.slice(1)] })
  }
}

const documentation = (l: Leaf): { readonly title: string; readonly description?: string } => {
  const title = Names.label(l.path[l.path.length - 1]!)
  const description = describe(l)
  return description === undefined ? { title } : { title, description }
}

const leafSchema = (l: Leaf): Schema.Top => {
  if (l.kind === "amount") {
    // `isFinite` keeps the JSON Schema a plain number; the amount's own check runs first and says what is wrong
    return Schema.Number.check(
      Schema.makeFilter(
        (n: number) => amountProblem(n)?.message,
        {
          title: Names.label("amount"),
          description: "the amount, a finite number greater than 0",
          toJsonSchema: () => ({ exclusiveMinimum: 0 }),
          arbitraryConstraint: { minimum: 0, exclusiveMinimum: true }
        },
        true
      ),
      Schema.isFinite()
    )
  }
  const options = l.options
  const checked: Schema.Top =
    options !== undefined
      ? // the options as literals, so that the JSON Schema is an `enum`; the message is the one `validate` gives
        Schema.Literals(options.map((o) => o.value)).annotate({
          ...documentation(l),
          message: explain(l, ONE_OF, "").message
        })
      : Schema.String.check(
          Schema.makeFilter((s: string) => l.problem(s)?.message, {
            ...documentation(l),
            toJsonSchema: () => jsonSchemaOf(l),
            arbitraryConstraint: arbitraryOf(l)
          })
        )
  return l.kind === "currency" ? checked.pipe(Schema.brand("CurrencyCode")) : checked
}

/** what an unknown field of an object is told, at its own path */
const notAField = (where: string) => Schema.Never.annotate({ message: `is not a field of ${where}` })

const objectSchema = (o: Obj, strictness: Strictness): Schema.Top => {
  const fields: Record<string, Schema.Top> = {}
  for (const [key, child] of o.children) {
    const s = nodeSchema(child, strictness)
    // keys come from checked names (never __proto__ or another Object.prototype name)
    Object.defineProperty(fields, key, {
      value: child.required ? s : Schema.optionalKey(s),
      enumerable: true,
      writable: true,
      configurable: true
    })
  }
  const struct = Schema.Struct(fields)
  // unknown fields: in effect 4 excess properties are an option of decoding, not of a Schema, so in `error` mode each
  // object says itself that every key it does not know is an error (at the key's path), in the same pass as its fields
  const closed: Schema.Top = strictness === "error" ? closedObject(struct, o) : struct
  if (!o.receiver) return closed
  return closed.check(
    Schema.makeFilter((r: unknown) => !bothReceiverMethods(r) || receiverBothMessage, {
      toJsonSchema: () => ({ not: { required: ["account_id", "card_id"] } })
    })
  )
}

const bothReceiverMethods = (r: unknown): boolean =>
  typeof r === "object" && r !== null && Object.hasOwn(r, "account_id") && Object.hasOwn(r, "card_id")

const closedObject = (struct: Schema.Struct<Record<string, Schema.Top>>, o: Obj): Schema.Top => {
  const known: ReadonlySet<string> = new Set(o.children.keys())
  const unknownKey = Schema.String.check(Schema.makeFilter((k: string) => !known.has(k)))
  const where = o.path.length === 0 ? "the payment body" : o.name
  return Schema.StructWithRest(struct, [Schema.Record(unknownKey, notAField(where))]).check(
    // the JSON Schema of the rest (keys that are not the fields, of no value) is this: the JSON Schema keeps
    // `additionalProperties: true`, as for every object of effect 4 unless it is asked for `onExcessProperty: "error"`
    Schema.makeFilter(() => undefined, { toJsonSchema: () => ({ propertyNames: { enum: [...known] } }) })
  )
}

const nodeSchema = (node: Node, strictness: Strictness): Schema.Top =>
  node._tag === "Leaf" ? leafSchema(node) : objectSchema(node, strictness)

/**
 * Unknown fields: `error` reports them, `strip` and `allow` ignore them (the Schema never copies them into its
 * output: copying keys by assignment would let a `"__proto__"` key set the output's prototype).
 */
export const build = (tree: Tree): Schema.Codec<PayBody.PayBody, PayBody.Encoded> =>
  nodeSchema(tree.root, tree.strictness).annotate({
    identifier: "PayBody",
    title: "POST /pay body"
  }) as unknown as Schema.Codec<PayBody.PayBody, PayBody.Encoded>
