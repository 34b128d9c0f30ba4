/**
 * The compiled rules as an Effect Schema of the whole /pay body, for composition and JSON Schema. Each field is
 * checked by the very function `validate` uses, so both accept the same bodies and report issues at the same paths.
 */
import * as Schema from "effect/Schema"
import * as Names from "./names.js"
import type { Leaf, Node, Obj, Strictness, Tree } from "./rules.js"
import { amountProblem, receiverBothMessage } from "./rules.js"

type Field = Schema.Schema.All | Schema.PropertySignature.All

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
  if (l.options !== undefined) {
    js.enum = l.options.map((o) => o.value)
    return js
  }
  if (l.minLength > 0) js.minLength = l.minLength
  if (l.maxLength !== Infinity) js.maxLength = l.maxLength
  // only patterns proven linear go into the JSON Schema: its consumers run them on their own (backtracking) engines
  const patterns = l.patterns.flatMap((p) => (p.pattern.ecma === undefined ? [] : [p.pattern.ecma]))
  if (l.kind === "currency") patterns.unshift("^[A-Z]{3}$")
  // lone surrogates are refused too, which a JSON Schema pattern cannot say
  if (l.text) patterns.unshift("^[^\\u0000-\\u001f\\u007f-\\u009f]*$")
  if (patterns.length === 1) js.pattern = patterns[0]
  else if (patterns.length > 1) js.allOf = patterns.map((pattern) => ({ pattern }))
  return js
}

const leafSchema = (l: Leaf): Schema.Schema.All => {
  const title = Names.label(l.path[l.path.length - 1]!)
  if (l.kind === "amount") {
    return Schema.Number.pipe(
      Schema.filter((n) => amountProblem(n)?.message ?? true, {
        title,
        description: "the amount, a finite number greater than 0",
        jsonSchema: { exclusiveMinimum: 0 }
      })
    )
  }
  const description = describe(l)
  const problem = l.problem
  const checked = Schema.String.pipe(
    Schema.filter((s) => problem(s)?.message ?? true, {
      title,
      ...(description === undefined ? {} : { description }),
      jsonSchema: jsonSchemaOf(l)
    })
  )
  return l.kind === "currency" ? checked.pipe(Schema.brand("CurrencyCode")) : checked
}

const objectSchema = (o: Obj, strictness: Strictness): Schema.Schema.All => {
  const fields: Record<string, Field> = {}
  for (const [key, child] of o.children) {
    const s = nodeSchema(child, strictness)
    // keys come from checked names (never __proto__ or another Object.prototype name)
    Object.defineProperty(fields, key, {
      value: child.required ? s : Schema.optionalWith(s, { exact: true }),
      enumerable: true,
      writable: true,
      configurable: true
    })
  }
  const struct = Schema.Struct(fields)
  const open = strictness === "error" ? {} : { additionalProperties: true }
  if (o.receiver) {
    return struct.pipe(
      Schema.filter((r) => !(Object.hasOwn(r, "account_id") && Object.hasOwn(r, "card_id")) || receiverBothMessage, {
        jsonSchema: { not: { required: ["account_id", "card_id"] }, ...open }
      })
    )
  }
  return strictness === "error" ? struct : struct.pipe(Schema.filter(() => true, { jsonSchema: open }))
}

const nodeSchema = (node: Node, strictness: Strictness): Schema.Schema.All =>
  node._tag === "Leaf" ? leafSchema(node) : objectSchema(node, strictness)

/**
 * Unknown fields: `error` reports them, `strip` and `allow` ignore them (the Schema never copies them into its
 * output: copying keys by assignment would let a `"__proto__"` key set the output's prototype).
 */
export const build = (tree: Tree): Schema.Schema.All =>
  nodeSchema(tree.root, tree.strictness).annotations({
    identifier: "PayBody",
    title: "POST /pay body",
    parseOptions: { onExcessProperty: tree.strictness === "error" ? "error" : "ignore" }
  })
