/**
 * From a parsed pattern to a whole-value matcher: the RE2 and ECMAScript emitters, the length bounds, and the choice
 * of the engine: the native (backtracking) one when the structural check of regexLinear.ts proves the running time
 * linear in the input, re2js for every other pattern.
 */
import { RE2JS } from "re2js"
import * as CharSet from "./charSet.js"
import { nativeProblem, stripAnchors } from "./regexLinear.js"
import type { Assertion, Failure, Node, Property, PropertyClass } from "./regexParse.js"
import * as RegexParse from "./regexParse.js"

export type Engine = "native" | "re2"

export interface Compiled {
  readonly source: string
  readonly engine: Engine
  /** why the pattern does not run natively, when it runs on re2js */
  readonly re2Reason: string | undefined
  /** the whole-value match in RE2 syntax (fed to re2js) */
  readonly re2: string
  /** the native engine, for patterns proven linear */
  readonly native: RegExp | undefined
  /** the whole-value match in ECMAScript `u` syntax, `^(?:...)$`, only for patterns proven linear */
  readonly ecma: string | undefined
  /**
   * The whole-value match in ECMAScript `u` syntax to draw matching values from (`Arbitrary`), also for patterns that
   * are not proven linear (drawing never backtracks), written on first use; its Unicode property classes as the code
   * points of ECMAScript's tables; `undefined` when the pattern has an anchor or a boundary inside, or a property that
   * ECMAScript does not know, which have no plain ECMAScript form here.
   */
  readonly generator: string | undefined
  /** the fewest and most code points of a match (`Infinity` when unbounded) */
  readonly minLength: number
  readonly maxLength: number
  /** false when no string at all matches */
  readonly satisfiable: boolean
  readonly test: (value: string) => boolean
}

export type Result =
  | { readonly ok: true; readonly pattern: Compiled }
  | { readonly ok: false; readonly failure: Failure }

// ---------------------------------------------------------------------------------------------------------------------
// emitters
// ---------------------------------------------------------------------------------------------------------------------

const quantifier = (min: number, max: number): string => {
  if (max === Infinity) return min === 0 ? "*" : min === 1 ? "+" : `{${min},}`
  if (min === 0 && max === 1) return "?"
  return min === max ? `{${min}}` : `{${min},${max}}`
}

const re2Assertions: Record<Assertion, string> = {
  textStart: "\\A",
  textEnd: "\\z",
  lineStart: "(?m:^)",
  lineEnd: "(?m:$)",
  wordBoundary: "\\b",
  notWordBoundary: "\\B"
}

const emit = (node: Node, atomText: (n: Extract<Node, { _tag: "Atom" }>) => string): string => {
  switch (node._tag) {
    case "Atom":
      return atomText(node)
    case "Assert":
      return re2Assertions[node.assertion]
    case "Seq":
      return node.items.length === 0
        ? "(?:)"
        : node.items.map((n) => (n._tag === "Alt" ? `(?:${emit(n, atomText)})` : emit(n, atomText))).join("")
    case "Alt":
      return node.branches.map((n) => emit(n, atomText)).join("|")
    case "Repeat": {
      const body = node.body._tag === "Atom" ? emit(node.body, atomText) : `(?:${emit(node.body, atomText)})`
      return body + quantifier(node.min, node.max)
    }
  }
}

/** a Unicode property in RE2 syntax: `\p{Lu}`, `\P{Greek}` */
const re2Property = (p: Property): string => `\\${p.negated ? "P" : "p"}{${p.name}}`

/** a class with Unicode properties in RE2 syntax: a lone property as it is, anything else as a bracketed class */
const re2Class = (p: PropertyClass): string =>
  !p.negated && p.concrete.length === 0 && p.items.length === 1
    ? re2Property(p.items[0]!)
    : `[${p.negated ? "^" : ""}${CharSet.re2ClassBody(p.concrete)}${p.items.map(re2Property).join("")}]`

export const toRe2 = (node: Node): string =>
  emit(node, (a) => (a.set === undefined ? re2Class(a.properties) : CharSet.toRe2(a.set)))

const toEcma = (node: Node): string => emit(node, (a) => CharSet.toEcma(a.set ?? CharSet.empty))

/** only character sets, repetitions, sequences and alternatives: what {@link toEcma} writes exactly */
const plain = (node: Node): boolean => {
  switch (node._tag) {
    case "Atom":
      return node.set !== undefined
    case "Assert":
      return false
    case "Seq":
      return node.items.every(plain)
    case "Alt":
      return node.branches.every(plain)
    case "Repeat":
      return plain(node.body)
  }
}

/**
 * The pattern without its parts that match nothing ({@link bounds}' `satisfiable`: an empty class, in a branch or under
 * `?`, `*`, `{0,n}`): the same values, written so that a generator can draw them (effect's cannot draw from `[]`);
 * `undefined` when nothing matches.
 */
const matchable = (node: Node): Node | undefined => {
  if (!bounds(node).satisfiable) return undefined
  switch (node._tag) {
    case "Seq":
      // every item of a sequence that matches something matches something
      return { _tag: "Seq", items: node.items.map((item) => matchable(item)!) }
    case "Alt":
      return { _tag: "Alt", branches: node.branches.flatMap((branch) => matchable(branch) ?? []) }
    case "Repeat": {
      // a repetition whose body matches nothing matches only the empty value (`{0,n}`)
      const body = matchable(node.body)
      return body === undefined ? { _tag: "Seq", items: [] } : { ...node, body }
    }
    default:
      return node
  }
}

/** RE2's general categories, which ECMAScript writes as RE2 does; every other property name RE2 knows is a script */
const categories = new Set(
  "C Cc Cf Cn Co Cs L LC Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs".split(
    " "
  )
)

/** the code points of each property name, as ECMAScript's tables give them (read once: a scan of every code point) */
const propertySets = new Map<string, CharSet.CharSet | undefined>()

const scan = (ecma: string): CharSet.CharSet | undefined => {
  let re: RegExp
  try {
    re = new RegExp(`^${ecma}$`, "u")
  } catch {
    return undefined
  }
  const pairs: Array<number> = []
  let start = -1
  for (let c = 0; c <= CharSet.MAX_CODE_POINT; c++) {
    const inside = re.test(String.fromCodePoint(c))
    if (inside && start < 0) start = c
    else if (!inside && start >= 0) {
      pairs.push(start, c - 1)
      start = -1
    }
  }
  if (start >= 0) pairs.push(start, CharSet.MAX_CODE_POINT)
  return CharSet.fromRanges(pairs)
}

/**
 * The code points of a Unicode property (`\p{Lu}`, `\P{Greek}`) as ECMAScript's tables give them (V8's Unicode
 * version, which can differ from RE2's at the edges: a value drawn from them is still checked by the field's rule);
 * `undefined` for a name ECMAScript does not know.
 */
const propertySet = ({ name, negated }: Property): CharSet.CharSet | undefined => {
  if (!propertySets.has(name))
    propertySets.set(name, scan(categories.has(name) ? `\\p{${name}}` : `\\p{Script=${name}}`))
  const set = propertySets.get(name)
  return set === undefined || !negated ? set : CharSet.negate(set)
}

/** the pattern with its property classes made concrete ({@link propertySet}); `undefined` when one cannot be */
const concrete = (node: Node): Node | undefined => {
  switch (node._tag) {
    case "Atom": {
      if (node.set !== undefined) return node
      let set = node.properties.concrete
      for (const item of node.properties.items) {
        const items = propertySet(item)
        if (items === undefined) return undefined
        set = CharSet.union(set, items)
      }
      return { _tag: "Atom", set: node.properties.negated ? CharSet.negate(set) : set }
    }
    case "Assert":
      return node
    case "Seq": {
      const items = node.items.map(concrete)
      return items.every((item) => item !== undefined) ? { _tag: "Seq", items } : undefined
    }
    case "Alt": {
      const branches = node.branches.map(concrete)
      return branches.every((branch) => branch !== undefined) ? { _tag: "Alt", branches } : undefined
    }
    case "Repeat": {
      const body = concrete(node.body)
      return body === undefined ? undefined : { ...node, body }
    }
  }
}

/** the ECMAScript form to draw values from, `undefined` when {@link toEcma} cannot write the pattern exactly */
const generatorOf = (stripped: Node): string | undefined => {
  const drawn = concrete(stripped)
  if (drawn === undefined || !plain(drawn)) return undefined
  return `^(?:${toEcma(matchable(drawn) ?? drawn)})$`
}

// ---------------------------------------------------------------------------------------------------------------------
// length bounds
// ---------------------------------------------------------------------------------------------------------------------

interface Bounds {
  readonly min: number
  readonly max: number
  readonly satisfiable: boolean
}

const times = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : a * b)

export const bounds = (node: Node): Bounds => {
  switch (node._tag) {
    case "Atom":
      return { min: 1, max: 1, satisfiable: node.set === undefined || node.set.length > 0 }
    case "Assert":
      return { min: 0, max: 0, satisfiable: true }
    case "Seq": {
      let min = 0
      let max = 0
      let satisfiable = true
      for (const item of node.items) {
        const b = bounds(item)
        min += b.min
        max += b.max
        satisfiable &&= b.satisfiable
      }
      return { min, max, satisfiable }
    }
    case "Alt": {
      let min = Infinity
      let max = 0
      let satisfiable = false
      for (const branch of node.branches) {
        const b = bounds(branch)
        if (!b.satisfiable) continue
        satisfiable = true
        min = Math.min(min, b.min)
        max = Math.max(max, b.max)
      }
      return satisfiable ? { min, max, satisfiable } : { min: 0, max: 0, satisfiable }
    }
    case "Repeat": {
      const b = bounds(node.body)
      if (node.max === 0 || !b.satisfiable) {
        return { min: 0, max: 0, satisfiable: node.max === 0 || node.min === 0 }
      }
      return { min: times(node.min, b.min), max: times(node.max, b.max), satisfiable: true }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// compiling
// ---------------------------------------------------------------------------------------------------------------------

const re2Failure = (e: unknown): Failure => {
  const detail = e instanceof Error ? e.message : String(e)
  if (/expression too large/.test(detail)) {
    return {
      reason: "UnsupportedPattern",
      construct: "pattern size",
      position: 0,
      detail: "written out, its repetitions make a program larger than the linear-time engine runs"
    }
  }
  const property = /\\[pP]\{?[A-Za-z_]*\}?/.exec(/`([^`]*)`/.exec(detail)?.[1] ?? "")
  return property !== null && /class range/.test(detail)
    ? {
        reason: "UnsupportedPattern",
        construct: property[0],
        position: 0,
        detail: `the linear-time engine does not know the Unicode property ${property[0]}`
      }
    : { reason: "InvalidPattern", construct: undefined, position: 0, detail }
}

const compileRe2 = (re2: string): RE2JS => RE2JS.compile(re2)

/** the length from which a native pattern's RE2 form is compiled at once (see {@link compile}) */
const EAGER_RE2_LENGTH = 512

class Pattern implements Compiled {
  #re2: string | undefined
  #generator: { readonly source: string | undefined } | undefined
  #fallback: RE2JS | undefined
  readonly test: (value: string) => boolean

  constructor(
    readonly source: string,
    readonly node: Node,
    readonly engine: Engine,
    readonly re2Reason: string | undefined,
    readonly native: RegExp | undefined,
    readonly ecma: string | undefined,
    /** the pattern without its outer anchors, which {@link generator} is written from */
    private readonly drawnFrom: Node,
    readonly minLength: number,
    readonly maxLength: number,
    readonly satisfiable: boolean,
    re2: RE2JS | undefined
  ) {
    if (native !== undefined) {
      this.#fallback = re2
      this.test = (value) => {
        try {
          return native.test(value)
        } catch {
          // the native engine ran out of stack on a huge input: same verdict from re2js
          this.#fallback ??= compileRe2(this.re2)
          return this.#fallback.testExact(value)
        }
      }
    } else {
      const engine = re2!
      this.test = (value) => engine.testExact(value)
    }
  }

  get re2(): string {
    this.#re2 ??= toRe2(this.node)
    return this.#re2
  }

  /** written on first use: its property classes cost a scan of every code point the first time a name is seen */
  get generator(): string | undefined {
    this.#generator ??= { source: generatorOf(this.drawnFrom) }
    return this.#generator.source
  }
}

/**
 * Compiles a pattern for whole-value matching. Patterns that pass the structural check run on a native `RegExp`
 * (`u` flag); the others on re2js, compiled here so that its errors are reported now.
 */
export const compile = (source: string): Result => {
  const parsed = RegexParse.parse(source)
  if (!parsed.ok) return parsed
  const node = parsed.node
  const b = bounds(node)
  const stripped = stripAnchors(node)
  const problem = nativeProblem(stripped)
  if (problem === undefined) {
    // A native match that runs out of stack falls back to re2js, which refuses a program of more than about 1.4
    // million instructions: a pattern of EAGER_RE2_LENGTH characters or more can reach that with its repetitions
    // written out (at most 1000 copies of each character). Such a pattern is compiled by re2js now, so that one too
    // large for it is refused here rather than failing a match.
    let fallback: RE2JS | undefined
    if (source.length >= EAGER_RE2_LENGTH) {
      try {
        fallback = compileRe2(toRe2(node))
      } catch (e) {
        return { ok: false, failure: re2Failure(e) }
      }
    }
    const ecma = `^(?:${toEcma(stripped)})$`
    const native = new RegExp(ecma, "u")
    return {
      ok: true,
      pattern: new Pattern(
        source,
        node,
        "native",
        undefined,
        native,
        ecma,
        stripped,
        b.min,
        b.max,
        b.satisfiable,
        fallback
      )
    }
  }
  let engine: RE2JS
  try {
    engine = compileRe2(toRe2(node))
  } catch (e) {
    return { ok: false, failure: re2Failure(e) }
  }
  return {
    ok: true,
    pattern: new Pattern(
      source,
      node,
      "re2",
      problem,
      undefined,
      undefined,
      stripped,
      b.min,
      b.max,
      b.satisfiable,
      engine
    )
  }
}
