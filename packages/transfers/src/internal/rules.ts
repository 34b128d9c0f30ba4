/**
 * From the server's field requirements, the scheme limits and the static base fields to one tree of compiled
 * rules: every constraint of a field intersected (largest minimum, smallest maximum, every pattern, the options
 * that pass all the other rules), every broken rule reported as a `RuleError`.
 */
import { SchemeLimits } from "@payrules/accounts"
import { Currency } from "@payrules/money"
import * as Option from "effect/Option"
import type * as PayFields from "../PayFields.js"
import * as RuleError from "../RuleError.js"
import * as CodePoints from "./codePoints.js"
import * as Names from "./names.js"
import { failureToError } from "./patternError.js"
import type { Compiled } from "./regexCompile.js"
import * as Regex from "./regexCompile.js"

export type Strictness = "strip" | "error" | "allow"

export type Rule =
  | "Type"
  | "Required"
  | "UnknownField"
  | "MinLength"
  | "MaxLength"
  | "Pattern"
  | "OneOf"
  | "Currency"
  | "PositiveAmount"
  | "OneReceiverMethod"
  | "Characters"

export interface Problem {
  readonly rule: Rule
  readonly message: string
}

export interface CompiledOption {
  readonly value: string
  readonly label: string
  readonly default: boolean
}

export interface CompiledPattern {
  readonly pattern: Compiled
  readonly description: string | undefined
}

export type LeafKind = "string" | "currency" | "amount"

export interface Leaf {
  readonly _tag: "Leaf"
  readonly name: string
  readonly path: ReadonlyArray<string>
  readonly kind: LeafKind
  required: boolean
  minLength: number
  minSource: string | undefined
  maxLength: number
  maxSource: string | undefined
  readonly patterns: Array<CompiledPattern>
  options: ReadonlyArray<CompiledOption> | undefined
  /** the values of `options`, once the rules are final */
  optionSet: ReadonlySet<string> | undefined
  /** listed by the server */
  server: boolean
  /** the sources of the scheme limits applied */
  readonly limits: Array<string>
  /** text only: no control character (U+0000 to U+001F, U+007F to U+009F) and no lone surrogate (`request_id`) */
  text: boolean
  /** the issue of a value that is not one of the options, built on first use */
  oneOf: Problem | undefined
  /** `undefined` when the value is allowed; computed once the rules are final */
  problem: (value: string) => Problem | undefined
}

export interface Obj {
  readonly _tag: "Obj"
  readonly name: string
  readonly path: ReadonlyArray<string>
  readonly children: Map<string, Node>
  required: boolean
  /** at most one of `account_id` and `card_id` */
  readonly receiver: boolean
}

export type Node = Leaf | Obj

export interface Tree {
  readonly root: Obj
  /** the leaves of the form, in order: the server's fields, then the fields a scheme limits */
  readonly formLeaves: ReadonlyArray<Leaf>
  readonly strictness: Strictness
}

export const MAX_REQUEST_ID_LENGTH = 40

export const receiverBothMessage =
  "give receiver.account_id (a bank transfer) or receiver.card_id (a card transfer), not both"

const noProblem = (): Problem | undefined => undefined

const leaf = (
  path: ReadonlyArray<string>,
  kind: LeafKind,
  required: boolean,
  min = 0,
  minSource: string | undefined = undefined
): Leaf => ({
  _tag: "Leaf",
  name: path.join("."),
  path,
  kind,
  required,
  minLength: min,
  minSource,
  maxLength: Infinity,
  maxSource: undefined,
  patterns: [],
  options: undefined,
  optionSet: undefined,
  server: false,
  limits: [],
  text: false,
  oneOf: undefined,
  problem: noProblem
})

const obj = (path: ReadonlyArray<string>, required: boolean, receiver = false): Obj => ({
  _tag: "Obj",
  name: path.join("."),
  path,
  children: new Map(),
  required,
  receiver
})

const nonEmpty = (name: string) => `${name} must not be empty`

/** amount, currency, account_id, receiver {counterparty_id, account_id?, card_id?}, request_id (D6) */
export const baseTree = (): Obj => {
  const root = obj([], true)
  root.children.set("amount", leaf(["amount"], "amount", true))
  root.children.set("currency", leaf(["currency"], "currency", true))
  root.children.set("account_id", leaf(["account_id"], "string", true, 1, nonEmpty("account_id")))
  const receiver = obj(["receiver"], true, true)
  receiver.children.set(
    "counterparty_id",
    leaf(["receiver", "counterparty_id"], "string", true, 1, nonEmpty("receiver.counterparty_id"))
  )
  receiver.children.set(
    "account_id",
    leaf(["receiver", "account_id"], "string", false, 1, nonEmpty("receiver.account_id"))
  )
  receiver.children.set("card_id", leaf(["receiver", "card_id"], "string", false, 1, nonEmpty("receiver.card_id")))
  root.children.set("receiver", receiver)
  const requestId = leaf(["request_id"], "string", true, 1, `request_id has 1 to ${MAX_REQUEST_ID_LENGTH} characters`)
  requestId.maxLength = MAX_REQUEST_ID_LENGTH
  requestId.maxSource = requestId.minSource
  // two request_ids that print alike must be the same key, as for POST /exchange (@payrules/exchange's RequestId)
  requestId.text = true
  root.children.set("request_id", requestId)
  return root
}

// ---------------------------------------------------------------------------------------------------------------------
// placing a name in the tree
// ---------------------------------------------------------------------------------------------------------------------

type Placed = { readonly ok: true; readonly leaf: Leaf } | { readonly ok: false; readonly error: RuleError.RuleError }

const conflict = (name: string, message: string): Placed => ({
  ok: false,
  error: RuleError.make("PathConflict", name, `${name}: ${message}`)
})

const place = (root: Obj, name: string, path: ReadonlyArray<string>, required: boolean): Placed => {
  let node: Obj = root
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i]!
    const child = node.children.get(segment)
    if (child === undefined) {
      const created = obj(path.slice(0, i + 1), false)
      node.children.set(segment, created)
      node = created
    } else if (child._tag === "Obj") {
      node = child
    } else {
      return conflict(
        name,
        `${child.name} is ${child.kind === "amount" ? "a number" : "a string"}, so it has no field ${path[i + 1]}`
      )
    }
  }
  const last = path[path.length - 1]!
  const existing = node.children.get(last)
  if (existing === undefined) {
    const created = leaf(path, "string", required)
    node.children.set(last, created)
    return { ok: true, leaf: created }
  }
  if (existing._tag === "Obj") {
    return conflict(
      name,
      existing.receiver
        ? "receiver is an object of the static base schema; rules apply to its fields (receiver.counterparty_id, ...)"
        : `${name} is an object (it has the field ${[...existing.children.keys()][0]}), not a value`
    )
  }
  if (existing.kind === "amount") {
    return conflict(name, "amount is a JSON number; length, pattern and option rules apply to strings")
  }
  existing.required ||= required
  return { ok: true, leaf: existing }
}

// ---------------------------------------------------------------------------------------------------------------------
// constraints
// ---------------------------------------------------------------------------------------------------------------------

const chars = (n: number): string => `${n} character${n === 1 ? "" : "s"}`

/** the source of a length bound that the server's rule set */
const SERVER_RULE = "the server's rule"

const describeMax = (leaf: Leaf): string =>
  leaf.maxLength === Infinity ? "no maximum" : `${leaf.maxLength} (${leaf.maxSource ?? SERVER_RULE})`

const describeMin = (leaf: Leaf): string => `${leaf.minLength} (${leaf.minSource ?? SERVER_RULE})`

const tightenMin = (l: Leaf, min: number, source: string): void => {
  if (min > l.minLength) {
    l.minLength = min
    l.minSource = source
  }
}

const tightenMax = (l: Leaf, max: number, source: string): void => {
  if (max < l.maxLength) {
    l.maxLength = max
    l.maxSource = source
  }
}

const isLength = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0

/** the check of `amount`: a finite number greater than 0 */
export const amountProblem = (n: number): Problem | undefined =>
  n > 0 && n !== Infinity
    ? undefined
    : { rule: "PositiveAmount", message: `amount must be a finite number greater than 0; got ${n}` }

const currencyProblem = (value: string): Problem | undefined => {
  const why = Currency.validate(value)
  return why === undefined ? undefined : { rule: "Currency", message: `currency: ${why}` }
}

const quoteList = (values: ReadonlyArray<string>): string => {
  const shown = values.slice(0, 12).map((v) => JSON.stringify(v))
  return values.length > 12 ? `${shown.join(", ")}, ... (${values.length} in all)` : shown.join(", ")
}

/** what `code` returns: 0 when a string passes, else the first rule it breaks (`PATTERN + k` for pattern k) */
export const OK = 0
export const MIN_LENGTH = 1
export const MAX_LENGTH = 2
export const CURRENCY = 3
export const ONE_OF = 4
export const CHARACTERS = 5
export const PATTERN = 6

/** the check of a string against every rule but the options, in the order: lengths, currency, characters, patterns */
const stringCode = (l: Leaf): ((value: string) => number) => {
  const { minLength, maxLength } = l
  const tests = l.patterns.map((p) => p.pattern.test)
  const currency = l.kind === "currency"
  const text = l.text
  const checkLength = minLength > 0 || maxLength !== Infinity
  return (value) => {
    if (checkLength) {
      const c = CodePoints.compare(value, minLength, maxLength)
      if (c !== 0) return c < 0 ? MIN_LENGTH : MAX_LENGTH
    }
    if (currency && !Currency.isKnown(value)) return CURRENCY
    if (text && CodePoints.hasControl(value)) return CHARACTERS
    for (let i = 0; i < tests.length; i++) if (!tests[i]!(value)) return PATTERN + i
    return OK
  }
}

/** the issue of a string that broke the rule `code`: the same words whoever found it (`validate` or the Schema) */
export const explain = (l: Leaf, code: number, value: string): Problem => {
  switch (code) {
    case MIN_LENGTH:
      return {
        rule: "MinLength",
        // a base field's minimum of 1 has a sentence of its own ("account_id must not be empty"); the server's has not
        message:
          l.minSource !== undefined && l.minSource !== SERVER_RULE && l.minLength === 1
            ? l.minSource
            : `${l.name} must have at least ${chars(l.minLength)}${l.minSource === undefined ? "" : ` (${l.minSource})`}; it has ${CodePoints.count(value)}`
      }
    case MAX_LENGTH:
      return {
        rule: "MaxLength",
        message: `${l.name} must have at most ${chars(l.maxLength)}${l.maxSource === undefined ? "" : ` (${l.maxSource})`}; it has ${CodePoints.count(value)}`
      }
    case CURRENCY:
      return currencyProblem(value) ?? { rule: "Currency", message: `currency: ${value} is not an ISO 4217 code` }
    case CHARACTERS: {
      const bad = CodePoints.firstControl(value)!
      const what = bad.code >= 0xd800 ? "a lone surrogate (UTF-8 cannot carry it)" : "a control character"
      return {
        rule: "Characters",
        message: `${l.name} must be text without control characters; it has ${what}, U+${bad.code.toString(16).toUpperCase().padStart(4, "0")}, at character ${bad.at}`
      }
    }
    case ONE_OF:
      l.oneOf ??= {
        rule: "OneOf",
        message: `${l.name} must be one of ${quoteList((l.options ?? []).map((o) => o.value))}`
      }
      return l.oneOf
    default: {
      const p = l.patterns[code - PATTERN]!
      return {
        rule: "Pattern",
        message: p.description ?? `${l.name} must match the pattern ${JSON.stringify(p.pattern.source)}`
      }
    }
  }
}

const stringProblem = (l: Leaf): ((value: string) => Problem | undefined) => {
  const code = stringCode(l)
  return (value) => {
    const c = code(value)
    return c === OK ? undefined : explain(l, c, value)
  }
}

const finish = (l: Leaf): void => {
  const options = l.options
  if (options === undefined) {
    l.problem = stringProblem(l)
    return
  }
  const allowed = new Set(options.map((o) => o.value))
  l.optionSet = allowed
  l.problem = (value) => (allowed.has(value) ? undefined : explain(l, ONE_OF, value))
}

// ---------------------------------------------------------------------------------------------------------------------
// compiling
// ---------------------------------------------------------------------------------------------------------------------

export interface CompileOptions {
  readonly schemes: ReadonlyArray<SchemeLimits.LimitSet>
  readonly limitFields: ReadonlyArray<readonly [string, SchemeLimits.Field]>
  readonly strictness: Strictness
}

/** A length bound of the server's rule: refused when it is not a non-negative integer, else applied. */
const serverLength = (
  l: Leaf,
  name: string,
  key: "min_length" | "max_length",
  value: number | undefined,
  tighten: (l: Leaf, bound: number, source: string) => void,
  errors: Array<RuleError.RuleError>
): void => {
  if (value === undefined) return
  if (isLength(value)) tighten(l, value, SERVER_RULE)
  else
    errors.push(RuleError.make("InvalidLength", name, `${name}: ${key} must be a non-negative integer, not ${value}`))
}

/** the server's description of a pattern; a blank one says nothing, so the pattern is explained by itself instead */
const describedBy = (description: unknown): string | undefined =>
  typeof description === "string" && description.trim() !== "" ? description : undefined

const applyServer = (l: Leaf, f: PayFields.FieldRequirement, errors: Array<RuleError.RuleError>): void => {
  const name = f.name
  const v = f.validation
  l.server = true
  if (v !== undefined) {
    serverLength(l, name, "min_length", v.min_length, tightenMin, errors)
    serverLength(l, name, "max_length", v.max_length, tightenMax, errors)
    if (v.regex !== undefined) {
      const r = Regex.compile(v.regex.pattern)
      if (!r.ok) errors.push(failureToError(v.regex.pattern, name, r.failure))
      else l.patterns.push({ pattern: r.pattern, description: describedBy(v.regex.description) })
    }
  }
}

const emptyIntersection = (l: Leaf, message: string): RuleError.RuleError =>
  RuleError.make("EmptyIntersection", l.name, `${l.name}: ${message}`)

const checkIntersection = (
  l: Leaf,
  f: PayFields.FieldRequirement | undefined,
  errors: Array<RuleError.RuleError>
): void => {
  if (l.minLength > l.maxLength) {
    errors.push(
      emptyIntersection(l, `no length fits: the minimum is ${describeMin(l)} and the maximum ${describeMax(l)}`)
    )
    return
  }
  for (const p of l.patterns) {
    const c = p.pattern
    if (!c.satisfiable) {
      errors.push(emptyIntersection(l, `no value can match the pattern ${JSON.stringify(c.source)}`))
      return
    }
    if (c.minLength > l.maxLength || c.maxLength < l.minLength) {
      const lengths = c.minLength === c.maxLength ? `${c.minLength}` : `${c.minLength} to ${c.maxLength}`
      errors.push(
        emptyIntersection(
          l,
          `the pattern ${JSON.stringify(c.source)} matches values of ${lengths} characters, but the length must be within ${l.minLength} and ${describeMax(l)}`
        )
      )
      return
    }
  }
  const options = f?.options
  if (options === undefined) return
  const problem = stringProblem(l)
  const seen = new Set<string>()
  const kept: Array<CompiledOption> = []
  for (const o of options) {
    if (seen.has(o.value)) continue
    seen.add(o.value)
    if (problem(o.value) !== undefined) continue
    kept.push({
      value: o.value,
      label: typeof o.description === "string" && o.description.length > 0 ? o.description : o.value,
      default: o.default === true
    })
  }
  if (kept.length === 0) {
    errors.push(
      emptyIntersection(
        l,
        options.length === 0
          ? "the list of options is empty, so no value is allowed"
          : `none of the options ${quoteList(options.map((o) => o.value))} satisfies the other rules (${
              problem(options[0]!.value)?.message ?? ""
            })`
      )
    )
    return
  }
  l.options = kept
}

const visit = (node: Node, f: (l: Leaf) => void): void => {
  if (node._tag === "Leaf") f(node)
  else for (const child of node.children.values()) visit(child, f)
}

/** an object is required when one of its fields is */
const settleRequired = (node: Obj): boolean => {
  let anyRequired = false
  for (const child of node.children.values()) {
    const r = child._tag === "Leaf" ? child.required : settleRequired(child)
    anyRequired ||= r
  }
  node.required ||= anyRequired
  return node.required
}

/** the static base fields alone */
export const base = (strictness: Strictness): Tree => {
  const root = baseTree()
  visit(root, finish)
  return { root, formLeaves: [], strictness }
}

export type Outcome =
  | { readonly ok: true; readonly tree: Tree }
  | { readonly ok: false; readonly errors: ReadonlyArray<RuleError.RuleError> }

export const compile = (fields: ReadonlyArray<PayFields.FieldRequirement>, options: CompileOptions): Outcome => {
  const errors: Array<RuleError.RuleError> = []
  const root = baseTree()
  const limits = SchemeLimits.intersect(...options.schemes)
  const limitLeaves: Array<Leaf> = []
  for (const [name, field] of options.limitFields) {
    const checked = Names.check(name)
    if (!checked.ok) {
      errors.push(RuleError.make("InvalidName", name, `the limit mapping names a bad field: ${checked.detail}`))
      continue
    }
    const placed = place(root, name, checked.path, false)
    if (!placed.ok) {
      errors.push(placed.error)
      continue
    }
    const limit = SchemeLimits.limit(limits, field)
    if (Option.isSome(limit)) {
      const source = `${limits.name}: ${limit.value.source}`
      tightenMax(placed.leaf, limit.value.maxLength, source)
      placed.leaf.limits.push(source)
      limitLeaves.push(placed.leaf)
    }
  }
  const names = new Set<string>()
  const serverLeaves: Array<readonly [Leaf, PayFields.FieldRequirement]> = []
  for (const f of fields) {
    const checked = Names.check(f.name)
    if (!checked.ok) {
      errors.push(RuleError.make("InvalidName", f.name, checked.detail))
      continue
    }
    if (names.has(f.name)) {
      errors.push(RuleError.make("DuplicateField", f.name, `${f.name} is listed twice`))
      continue
    }
    names.add(f.name)
    const placed = place(root, f.name, checked.path, f.required)
    if (!placed.ok) {
      errors.push(placed.error)
      continue
    }
    applyServer(placed.leaf, f, errors)
    serverLeaves.push([placed.leaf, f])
  }
  const byLeaf = new Map(serverLeaves)
  visit(root, (l) => checkIntersection(l, byLeaf.get(l), errors))
  if (errors.length > 0) return { ok: false, errors }
  visit(root, finish)
  settleRequired(root)
  const formLeaves = serverLeaves.map(([l]) => l)
  for (const l of limitLeaves) if (!l.server && !formLeaves.includes(l)) formLeaves.push(l)
  return { ok: true, tree: { root, formLeaves, strictness: options.strictness } }
}
