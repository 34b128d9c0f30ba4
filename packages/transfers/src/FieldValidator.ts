/**
 * A validator of POST /pay bodies compiled at run time from the rules of POST /pay/fields and the limits of the
 * payment schemes (D6, D7). The rules come from a server, so they are untrusted: compiling refuses field names that
 * could reach a prototype, patterns that no linear-time engine can run, and rules that no value can satisfy, each as
 * a typed `RuleError`. The validator then gives
 *
 * - `validate`: a specialised checker (one closure per field) that reports every issue at once;
 * - `schema`: the same rules as an Effect Schema of the whole body, to compose with other schemas, to export JSON
 *   Schema with `Schema.toJsonSchemaDocument` and to draw valid bodies with `Arbitrary.schema`;
 * - `form`: the fields in a shape ready for a form.
 *
 * @since 0.1.0
 */
import type { SchemeLimits } from "@payrules/accounts"
import { ItemList } from "@payrules/lenient"
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Checker from "./internal/checker.js"
import * as Names from "./internal/names.js"
import * as Rules from "./internal/rules.js"
import * as SchemaBuilder from "./internal/schema.js"
import type * as PayBody from "./PayBody.js"
import * as PayFields from "./PayFields.js"
import * as RuleError from "./RuleError.js"

/**
 * What to do with body fields that neither the base schema nor the rules know: `error` reports each one (the
 * default: a misspelt field would otherwise vanish), `strip` drops them from the valid body, `allow` keeps them.
 *
 * @since 0.1.0
 * @category models
 */
export type Strictness = Rules.Strictness

/**
 * The rule an issue breaks:
 *
 * - `Type`: not a JSON object, string or number where one is expected;
 * - `Required`: a required field is missing;
 * - `UnknownField`: a field nobody knows (with `unknownFields: "error"`);
 * - `MinLength` / `MaxLength`: too few or too many code points (after intersecting the server's rule, the scheme
 *   limits and the base schema);
 * - `Pattern`: the whole value does not match (the message is the server's description of the pattern, or the
 *   pattern itself when the description is blank);
 * - `OneOf`: not one of the options;
 * - `Currency`: not an ISO 4217 code of the list;
 * - `PositiveAmount`: `amount` not a finite number greater than 0;
 * - `OneReceiverMethod`: both `receiver.account_id` and `receiver.card_id`;
 * - `Characters`: a `request_id` with a control character (U+0000 to U+001F, U+007F to U+009F: NUL, CR, LF, DEL,
 *   ...) or a lone surrogate (text that UTF-8 cannot carry), as POST /exchange refuses them: two request_ids that
 *   print alike must be one key.
 *
 * @since 0.1.0
 * @category models
 */
export type Rule = Rules.Rule

/**
 * One problem of a body: where, which rule, and what to tell the person who filled it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Issue {
  readonly path: ReadonlyArray<string>
  readonly rule: Rule
  readonly message: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** the limit sets to apply, e.g. `[SchemeLimits.FasterPayments]` for a UK domestic payment (default none) */
  readonly schemes?: ReadonlyArray<SchemeLimits.LimitSet> | undefined
  /**
   * Which body field carries which limited field of the schemes (default {@link defaultLimitFields}). The fields
   * named here are known optional strings of the body even when no scheme limits them.
   */
  readonly limitFields?: Readonly<Record<string, SchemeLimits.Field>> | undefined
  /** default `"error"` */
  readonly unknownFields?: Strictness | undefined
}

/**
 * `reference` (the /pay body's reference) carries the scheme's `Reference` (RemittanceInformation.Reference): 18
 * code points under Faster Payments, 35 under Open Banking, 140 under SWIFT.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultLimitFields: Readonly<Record<string, SchemeLimits.Field>> = { reference: "Reference" }

/**
 * An allowed value of a form field.
 *
 * @since 0.1.0
 * @category models
 */
export interface FormOption {
  readonly value: string
  /** the option's `description` when the server gives a string, else the value */
  readonly label: string
  /** the server marked it with `default: true` */
  readonly default: boolean
}

/**
 * A field of the form, with its rules after intersection.
 *
 * @since 0.1.0
 * @category models
 */
export interface FormField {
  /** the dotted name, as in the rules */
  readonly name: string
  readonly path: ReadonlyArray<string>
  /** the last segment in words: `transfer_reason_code` is "Transfer reason code" */
  readonly label: string
  readonly required: boolean
  /** in code points; `undefined` when there is no minimum */
  readonly minLength: number | undefined
  /** in code points; `undefined` when there is no maximum */
  readonly maxLength: number | undefined
  /** the server's description of the pattern (`undefined` when it is blank) */
  readonly patternDescription: string | undefined
  /**
   * The pattern for an HTML `pattern` attribute (whole value, ECMAScript syntax), only when it is proven to run in
   * linear time on a backtracking engine; `undefined` otherwise or without a pattern.
   */
  readonly htmlPattern: string | undefined
  /** the allowed values, when the field has options */
  readonly options: ReadonlyArray<FormOption> | undefined
  /** the scheme limits applied, in words */
  readonly limits: ReadonlyArray<string>
}

/**
 * A body that passed `validate`: the base fields typed, the fields of the rules as `unknown`.
 *
 * @since 0.1.0
 * @category models
 */
export type ValidBody = PayBody.PayBody

/**
 * @since 0.1.0
 * @category models
 */
export interface FieldValidator {
  /** checks a body (for instance `JSON.parse` of it) and reports every issue at once; never throws */
  readonly validate: (body: unknown) => Result.Result<ValidBody, ReadonlyArray<Issue>>
  /**
   * The same rules as an Effect Schema of the whole body (built on first use). `Arbitrary.schema(schema)` draws bodies
   * that `validate` accepts.
   */
  readonly schema: Schema.Codec<PayBody.PayBody, PayBody.Encoded>
  /** the fields of the rules (and the fields a scheme limits), ready for a form (built on first use) */
  readonly form: ReadonlyArray<FormField>
  readonly unknownFields: Strictness
}

const unreadable = (e: unknown): ReadonlyArray<Issue> => [
  {
    path: [],
    rule: "Type",
    message: `the payment body could not be read: ${e instanceof Error ? e.message : "it threw while being read"}`
  }
]

const toForm = (l: Rules.Leaf): FormField => {
  const descriptions = l.patterns.flatMap((p) => (p.description === undefined ? [] : [p.description]))
  const html = l.patterns.length === 1 ? l.patterns[0]!.pattern.ecma : undefined
  return {
    name: l.name,
    path: l.path,
    label: Names.label(l.path[l.path.length - 1]!),
    required: l.required,
    minLength: l.minLength > 0 ? l.minLength : undefined,
    maxLength: l.maxLength === Infinity ? undefined : l.maxLength,
    patternDescription: descriptions.length === 0 ? undefined : descriptions.join("; "),
    htmlPattern: html === undefined ? undefined : html.slice(4, -2),
    options: l.options?.map((o) => ({ value: o.value, label: o.label, default: o.default })),
    limits: [...l.limits]
  }
}

class Validator implements FieldValidator {
  readonly validate: (body: unknown) => Result.Result<ValidBody, ReadonlyArray<Issue>>
  readonly #tree: Rules.Tree
  #schema: Schema.Codec<PayBody.PayBody, PayBody.Encoded> | undefined
  #form: ReadonlyArray<FormField> | undefined

  constructor(tree: Rules.Tree) {
    this.#tree = tree
    const check = Checker.build(tree)
    this.validate = (body) => {
      const issues: Array<Checker.Issue> = []
      let out: unknown
      try {
        out = check(body, issues)
      } catch (e) {
        return Result.fail(unreadable(e))
      }
      return issues.length === 0 ? Result.succeed(out as ValidBody) : Result.fail(issues)
    }
  }

  get schema(): Schema.Codec<PayBody.PayBody, PayBody.Encoded> {
    this.#schema ??= SchemaBuilder.build(this.#tree)
    return this.#schema
  }

  get form(): ReadonlyArray<FormField> {
    this.#form ??= this.#tree.formLeaves.map(toForm)
    return this.#form
  }

  get unknownFields(): Strictness {
    return this.#tree.strictness
  }
}

/**
 * What {@link compile} takes: the rules (`fields`), or a whole answer (`{ fields }`), or a lenient read of one
 * (`PayFields.decodeLenient`, whose findings name the rules that could not be read).
 *
 * @since 0.2.0
 * @category models
 */
export type RuleSet = ReadonlyArray<PayFields.FieldRequirement> | PayFields.FieldsResponse | PayFields.FieldsRead

/**
 * What the compiler can read of a rule: `FieldRequirement` with lengths of any number, since a length that is not a
 * non-negative integer is the compiler's own `InvalidLength` error (with the field's name), not an unreadable rule.
 */
const ReadableRule = Schema.Struct({
  name: Schema.String,
  required: Schema.Boolean,
  validation: Schema.optionalKey(
    Schema.Struct({
      min_length: Schema.optionalKey(Schema.Number),
      max_length: Schema.optionalKey(Schema.Number),
      regex: Schema.optionalKey(PayFields.FieldRegex)
    })
  ),
  options: Schema.optionalKey(Schema.Array(PayFields.FieldOption))
})

const isReadable = Schema.is(ReadableRule)
const readReadable = ItemList.decode(ReadableRule, { prefix: ["fields"] })

/** a rule that could not be read, as the compiler's error: the rule is not left out in silence */
const unreadableRule = (finding: PayFields.Finding): RuleError.RuleError => {
  const name =
    Predicate.hasProperty(finding.raw, "name") && typeof finding.raw.name === "string" ? finding.raw.name : undefined
  return RuleError.make(
    "UnreadableRule",
    name,
    `fields[${finding.index}]${name === undefined ? "" : ` (${name})`}: the rule could not be read (${finding.message}); a validator without it would not check what the server asks, so it is not compiled (compile the read's fields alone to go on without it)`
  )
}

/** the rules that can be read, and an `UnreadableRule` error for each one that cannot */
const readRules = (
  rules: RuleSet
): {
  readonly fields: ReadonlyArray<PayFields.FieldRequirement>
  readonly errors: ReadonlyArray<RuleError.RuleError>
} => {
  const list: ReadonlyArray<unknown> = Array.isArray(rules) ? rules : (rules as PayFields.FieldsResponse).fields
  const reported = !Array.isArray(rules) && "findings" in rules ? (rules as PayFields.FieldsRead).findings : []
  // rules typed as such but not so at run time (JSON given as is): read one by one, each unreadable one reported
  if (list.every(isReadable)) {
    return { fields: list as ReadonlyArray<PayFields.FieldRequirement>, errors: reported.map(unreadableRule) }
  }
  const read = readReadable(list)
  return {
    fields: read.items as ReadonlyArray<PayFields.FieldRequirement>,
    errors: [...reported, ...PayFields.unreadableFindings(read.unreadable)].map(unreadableRule)
  }
}

/**
 * Compiles the rules of a POST /pay/fields response, with the scheme limits of `options`, into a validator; or
 * reports every rule that cannot be compiled. Compiling is pure and cheap (patterns proven linear are not run
 * through re2js); cache validators by {@link hash} if you compile the same rules often.
 *
 * Rules combine by intersection: the largest minimum and the smallest maximum length of the server's rule, the
 * scheme limits (through `limitFields`) and the base schema; every pattern; the options that satisfy all the other
 * rules. A rule on a string field of the base schema (`currency`, `account_id`, `request_id`,
 * `receiver.counterparty_id`, `receiver.account_id`, `receiver.card_id`) is intersected with it; a rule on `amount` (a
 * number) or `receiver` (an object) is refused with `PathConflict`.
 *
 * A rule that cannot be read (a lenient read's `UnreadableItem` finding, or an item of the list that is not a
 * `FieldRequirement` at run time) is an `UnreadableRule` error, beside the others: never left out in silence. To go
 * on without it, compile the read's `fields` alone, which holds only the rules that were read.
 *
 * @example
 * ```ts
 * import { FieldValidator } from "@payrules/transfers"
 * import { SchemeLimits } from "@payrules/accounts"
 * import { Result } from "effect"
 *
 * const v = FieldValidator.compile([{ name: "reference", required: true, validation: { min_length: 20 } }], {
 *   schemes: [SchemeLimits.FasterPayments]
 * })
 * if (Result.isFailure(v)) console.log(v.failure[0]?.reason) // EmptyIntersection: 20 is above Faster Payments' 18
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const compile = (
  rules: RuleSet,
  options: Options = {}
): Result.Result<FieldValidator, ReadonlyArray<RuleError.RuleError>> => {
  const { errors: unreadable, fields } = readRules(rules)
  const mapping = options.limitFields ?? defaultLimitFields
  const limitFields: Array<readonly [string, SchemeLimits.Field]> = []
  for (const key of Object.keys(mapping)) {
    const field = mapping[key]
    if (Object.hasOwn(mapping, key) && field !== undefined) limitFields.push([key, field])
  }
  const compiled = Rules.compile(fields, {
    schemes: options.schemes ?? [],
    limitFields,
    strictness: options.unknownFields ?? "error"
  })
  if (unreadable.length > 0) return Result.fail([...unreadable, ...(compiled.ok ? [] : compiled.errors)])
  return compiled.ok ? Result.succeed(new Validator(compiled.tree)) : Result.fail(compiled.errors)
}

/**
 * Like {@link compile}, but throws the first `RuleError`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const compileUnsafe = (rules: RuleSet, options?: Options): FieldValidator =>
  Result.getOrThrowWith(compile(rules, options), (errors) => errors[0])

/**
 * @deprecated Use {@link compileUnsafe}.
 * @since 0.1.0
 * @category constructors
 */
export const unsafeCompile: (rules: RuleSet, options?: Options) => FieldValidator = compileUnsafe

const canonicalJson = (value: unknown): string | undefined => {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v) ?? "null").join(",")}]`
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>
    const parts: Array<string> = []
    for (const key of Object.keys(record).sort()) {
      const v = canonicalJson(record[key])
      if (v !== undefined) parts.push(`${JSON.stringify(key)}:${v}`)
    }
    return `{${parts.join(",")}}`
  }
  return JSON.stringify(value)
}

/**
 * The rules as canonical JSON: keys sorted at every level, no whitespace. Equal rules give equal text whatever the
 * order of their keys (the order of fields and of options counts), and different rules never share it: a cache key
 * that no one can collide on purpose.
 *
 * @since 0.1.0
 * @category utils
 */
export const canonical = (fields: ReadonlyArray<PayFields.FieldRequirement>): string => canonicalJson(fields) ?? "[]"

/**
 * A 64-bit hash (16 hexadecimal digits) of {@link canonical}: a short cache key for rules. It is not
 * collision-resistant; when the party that sends the rules could try to make two rule sets collide, key by
 * {@link canonical} instead. Either way, add your options (schemes, `unknownFields`) to the key.
 *
 * @since 0.1.0
 * @category utils
 */
export const hash = (fields: ReadonlyArray<PayFields.FieldRequirement>): string => {
  const text = canonical(fields)
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (h2 >>> 0).toString(16).padStart(8, "0") + (h1 >>> 0).toString(16).padStart(8, "0")
}
