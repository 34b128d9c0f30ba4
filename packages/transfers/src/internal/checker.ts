/**
 * The compiled checker behind `FieldValidator.validate`. Each object of the body is read once with `for...in` (the
 * fast path of V8 for property enumeration), keeping only own properties; each field is checked with the data
 * compiled for it (lengths, options, a native `RegExp` or an re2js matcher); a failing field is then explained by the
 * `explain` of rules.ts, which the Schema's check uses too, so messages and rules have one source. Nothing is
 * allocated for a valid body, unless `strip` has fields to drop.
 */
import { Currency } from "@payrules/money"
import * as CodePoints from "./codePoints.js"
import type { Leaf, Node, Obj, Rule, Strictness, Tree } from "./rules.js"
import {
  amountProblem,
  CHARACTERS,
  CURRENCY,
  explain,
  MAX_LENGTH,
  MIN_LENGTH,
  OK,
  ONE_OF,
  PATTERN,
  receiverBothMessage
} from "./rules.js"

export interface Issue {
  readonly path: ReadonlyArray<string>
  readonly rule: Rule
  readonly message: string
}

const freeze = (issue: Issue): Issue => Object.freeze({ ...issue, path: Object.freeze([...issue.path]) })

const hasOwnProperty = Object.prototype.hasOwnProperty

const KIND_STRING = 0
const KIND_CURRENCY = 1
const KIND_AMOUNT = 2
const KIND_OBJECT = 3

/** positions remembered per object, so that bodies of one shape find their fields without hashing */
const CACHED_POSITIONS = 64
/** objects with more fields than the bits of an int track them in an array */
const MASK_BITS = 30

const isSeen = (seen: number, large: Uint8Array | undefined, i: number): boolean =>
  large === undefined ? (seen & (1 << i)) !== 0 : large[i] === 1

const preview = (k: string): string => JSON.stringify(k.length > 48 ? `${k.slice(0, 45)}...` : k)

/** what one field of an object needs at check time, in one monomorphic object */
class Field {
  readonly kind: number
  readonly required: boolean
  readonly min: number
  readonly max: number
  readonly options: ReadonlySet<string> | undefined
  /** no control characters and no lone surrogates */
  readonly text: boolean
  /** the one native pattern of the field, tested inline */
  readonly native: RegExp | undefined
  /** the matcher of the first pattern (it falls back to re2js if the native engine runs out of stack) */
  readonly fallback: ((s: string) => boolean) | undefined
  /** every other pattern */
  readonly others: ReadonlyArray<(s: string) => boolean>
  readonly child: ObjectCheck | undefined
  readonly node: Node
  #typeIssue: Issue | undefined
  #missing: Issue | undefined

  constructor(node: Node, strictness: Strictness) {
    this.node = node
    this.required = node.required
    if (node._tag === "Obj") {
      this.kind = KIND_OBJECT
      this.min = 0
      this.max = Infinity
      this.options = undefined
      this.text = false
      this.native = undefined
      this.fallback = undefined
      this.others = []
      this.child = new ObjectCheck(node, strictness)
      return
    }
    this.kind = node.kind === "amount" ? KIND_AMOUNT : node.kind === "currency" ? KIND_CURRENCY : KIND_STRING
    this.min = node.minLength
    this.max = node.maxLength
    this.options = node.optionSet
    this.text = node.text
    const first = node.patterns[0]?.pattern
    this.native = first?.native
    this.fallback = first?.test
    this.others = node.patterns.slice(this.native === undefined ? 0 : 1).map((p) => p.pattern.test)
    this.child = undefined
  }

  get typeIssue(): Issue {
    const node = this.node
    this.#typeIssue ??= freeze({
      path: node.path,
      rule: "Type",
      message:
        node._tag === "Obj"
          ? `${node.name} must be a JSON object`
          : node.kind === "amount"
            ? `${node.name} must be a JSON number`
            : `${node.name} must be a string`
    })
    return this.#typeIssue
  }

  get missing(): Issue {
    this.#missing ??= freeze({ path: this.node.path, rule: "Required", message: `${this.node.name} is required` })
    return this.#missing
  }

  /**
   * The first rule a string breaks (0 when none), in the order and with the codes of `stringCode` in rules.ts (the
   * Schema's check): the same checks, inline with the field's data, the first native pattern tested directly.
   */
  code(s: string): number {
    const options = this.options
    if (options !== undefined) return options.has(s) ? OK : ONE_OF
    const min = this.min
    const max = this.max
    const units = s.length
    if (units < min) return MIN_LENGTH
    if (units > max || units - (units >> 1) < min) {
      const c = CodePoints.compare(s, min, max)
      if (c !== 0) return c < 0 ? MIN_LENGTH : MAX_LENGTH
    }
    if (this.kind === KIND_CURRENCY && !Currency.isKnown(s)) return CURRENCY
    if (this.text && CodePoints.hasControl(s)) return CHARACTERS
    const native = this.native
    let next = PATTERN
    if (native !== undefined) {
      let ok: boolean
      try {
        ok = native.test(s)
      } catch {
        // the native engine ran out of backtracking stack on a huge value: the matcher falls back to re2js
        ok = this.fallback!(s)
      }
      if (!ok) return PATTERN
      next++
    }
    const others = this.others
    for (let p = 0; p < others.length; p++) if (!others[p]!(s)) return next + p
    return OK
  }

  check(v: unknown, issues: Array<Issue>): unknown {
    const kind = this.kind
    if (kind === KIND_OBJECT) return this.child!.check(v, issues, this)
    if (kind === KIND_AMOUNT) {
      if (typeof v !== "number") issues.push(this.typeIssue)
      else if (!(v > 0 && v !== Infinity)) {
        const p = amountProblem(v)!
        issues.push({ path: this.node.path, rule: p.rule, message: p.message })
      }
      return v
    }
    if (typeof v !== "string") issues.push(this.typeIssue)
    else {
      const code = this.code(v)
      if (code !== OK) {
        const p = explain(this.node as Leaf, code, v)
        issues.push({ path: this.node.path, rule: p.rule, message: p.message })
      }
    }
    return v
  }
}

class ObjectCheck {
  readonly n: number
  readonly keys: ReadonlyArray<string>
  readonly index: ReadonlyMap<string, number>
  readonly fields: ReadonlyArray<Field>
  readonly requiredCount: number
  readonly path: ReadonlyArray<string>
  readonly where: string
  readonly strictness: Strictness
  readonly receiverA: number
  readonly receiverB: number
  #both: Issue | undefined
  readonly cacheKeys: Array<string | undefined> = []
  readonly cacheIdx: Array<number> = []

  constructor(o: Obj, strictness: Strictness) {
    this.keys = [...o.children.keys()]
    this.n = this.keys.length
    this.index = new Map(this.keys.map((k, i) => [k, i]))
    this.fields = [...o.children.values()].map((c) => new Field(c, strictness))
    this.requiredCount = this.fields.filter((f) => f.required).length
    this.path = o.path
    this.where = o.path.length === 0 ? "the payment body" : o.name
    this.strictness = strictness
    this.receiverA = o.receiver ? (this.index.get("account_id") ?? -1) : -1
    this.receiverB = o.receiver ? (this.index.get("card_id") ?? -1) : -1
  }

  get both(): Issue {
    this.#both ??= freeze({ path: this.path, rule: "OneReceiverMethod", message: receiverBothMessage })
    return this.#both
  }

  position(k: string, j: number): number {
    if (j < CACHED_POSITIONS) {
      if (this.cacheKeys[j] === k) return this.cacheIdx[j]!
      const i = this.index.get(k) ?? -1
      this.cacheKeys[j] = k
      this.cacheIdx[j] = i
      return i
    }
    return this.index.get(k) ?? -1
  }

  check(value: unknown, issues: Array<Issue>, self: { readonly typeIssue: Issue }): unknown {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      issues.push(self.typeIssue)
      return value
    }
    const input = value as Record<string, unknown>
    const before = issues.length
    const n = this.n
    const fields = this.fields
    const strictness = this.strictness
    let seen = 0
    const seenLarge: Uint8Array | undefined = n > MASK_BITS ? new Uint8Array(n) : undefined
    let requiredSeen = 0
    let outputs: Array<unknown> | undefined
    let unknown = false
    let j = 0
    for (const k in input) {
      const i = this.position(k, j++)
      // for...in also walks the prototype chain: only own properties are fields
      if (!hasOwnProperty.call(input, k)) continue
      if (i < 0) {
        if (strictness === "allow") continue
        unknown = true
        if (strictness === "error") {
          issues.push({
            path: [...this.path, k],
            rule: "UnknownField",
            message: `${preview(k)} is not a field of ${this.where}`
          })
        }
        continue
      }
      if (seenLarge === undefined) seen |= 1 << i
      else seenLarge[i] = 1
      const field = fields[i]!
      if (field.required) requiredSeen++
      const v = input[k]
      const out = field.check(v, issues)
      if (out !== v) {
        outputs ??= new Array<unknown>(n)
        outputs[i] = out
      }
    }
    if (requiredSeen < this.requiredCount) {
      for (let i = 0; i < n; i++) {
        const field = fields[i]!
        if (field.required && !isSeen(seen, seenLarge, i)) issues.push(field.missing)
      }
    }
    if (issues.length !== before) return value
    if (
      this.receiverA >= 0 &&
      this.receiverB >= 0 &&
      isSeen(seen, seenLarge, this.receiverA) &&
      isSeen(seen, seenLarge, this.receiverB)
    ) {
      issues.push(this.both)
      return value
    }
    if (strictness !== "strip" || (!unknown && outputs === undefined)) return value
    const copy: Record<string, unknown> = {}
    for (let i = 0; i < n; i++) {
      if (!isSeen(seen, seenLarge, i)) continue
      const key = this.keys[i]!
      // keys are checked names (never __proto__): defined, not assigned, all the same
      Object.defineProperty(copy, key, {
        value: outputs?.[i] ?? input[key],
        enumerable: true,
        writable: true,
        configurable: true
      })
    }
    return copy
  }
}

export const build = (tree: Tree): ((body: unknown, issues: Array<Issue>) => unknown) => {
  const root = new ObjectCheck(tree.root, tree.strictness)
  const self = {
    typeIssue: freeze({ path: [], rule: "Type", message: "the payment body must be a JSON object" })
  }
  return (body, issues) => root.check(body, issues, self)
}
