/**
 * From a parsed pattern to a whole-value matcher: the RE2 and ECMAScript emitters, the length bounds, and the
 * structural check that lets a pattern run on the native (backtracking) engine only when its running time is
 * provably linear in the input; every other pattern runs on re2js.
 */
import { RE2JS } from "re2js"
import * as CharSet from "./charSet.js"
import type { Assertion, Failure, Node } from "./regexParse.js"
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

export const toRe2 = (node: Node): string => emit(node, (a) => a.re2 ?? CharSet.toRe2(a.set ?? CharSet.empty))

const toEcma = (node: Node): string => emit(node, (a) => CharSet.toEcma(a.set ?? CharSet.empty))

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
// the structural check for the native engine
// ---------------------------------------------------------------------------------------------------------------------

const isStart = (n: Node): boolean =>
  n._tag === "Assert" && (n.assertion === "textStart" || n.assertion === "lineStart")
const isEnd = (n: Node): boolean => n._tag === "Assert" && (n.assertion === "textEnd" || n.assertion === "lineEnd")

/** anchors at the very start or end of a top-level branch always hold for a whole-value match: drop them */
const stripBranch = (node: Node): Node => {
  if (node._tag === "Assert" && (isStart(node) || isEnd(node))) return { _tag: "Seq", items: [] }
  if (node._tag !== "Seq") return node
  let from = 0
  let to = node.items.length
  while (from < to && isStart(node.items[from]!)) from++
  while (to > from && isEnd(node.items[to - 1]!)) to--
  if (from === 0 && to === node.items.length) return node
  const items = node.items.slice(from, to)
  return items.length === 1 ? items[0]! : { _tag: "Seq", items }
}

export const stripAnchors = (node: Node): Node =>
  node._tag === "Alt" ? { _tag: "Alt", branches: node.branches.map(stripBranch) } : stripBranch(node)

const nullable = (node: Node): boolean => {
  switch (node._tag) {
    case "Atom":
      return false
    case "Assert":
      return true
    case "Seq":
      return node.items.every(nullable)
    case "Alt":
      return node.branches.some(nullable)
    case "Repeat":
      return node.min === 0 || nullable(node.body)
  }
}

/** the characters a non-empty match can start with */
const firstChars = (node: Node): CharSet.CharSet => {
  switch (node._tag) {
    case "Atom":
      return node.set ?? CharSet.anyChar
    case "Assert":
      return CharSet.empty
    case "Seq": {
      let out: CharSet.CharSet = CharSet.empty
      for (const item of node.items) {
        out = CharSet.union(out, firstChars(item))
        if (!nullable(item)) break
      }
      return out
    }
    case "Alt":
      return node.branches.reduce<CharSet.CharSet>((acc, b) => CharSet.union(acc, firstChars(b)), CharSet.empty)
    case "Repeat":
      return node.max === 0 ? CharSet.empty : firstChars(node.body)
  }
}

const hasVariableRepeat = (node: Node): boolean => {
  switch (node._tag) {
    case "Seq":
      return node.items.some(hasVariableRepeat)
    case "Alt":
      return node.branches.some(hasVariableRepeat)
    case "Repeat":
      return node.min < node.max || hasVariableRepeat(node.body)
    default:
      return false
  }
}

class Unsafe {
  constructor(readonly why: string) {}
}

/** features the native engine is not given, whatever their structure */
const checkFeatures = (node: Node): void => {
  switch (node._tag) {
    case "Atom":
      if (node.set === undefined) throw new Unsafe("a Unicode property class (its tables are RE2's)")
      return
    case "Assert":
      throw new Unsafe("an anchor or word boundary inside the pattern")
    case "Seq":
      for (const item of node.items) checkFeatures(item)
      return
    case "Alt": {
      let empty = 0
      for (const branch of node.branches) {
        checkFeatures(branch)
        if (nullable(branch)) empty++
      }
      if (empty > 1) throw new Unsafe("more than one alternative that can match the empty string")
      return
    }
    case "Repeat":
      checkFeatures(node.body)
      if (node.max >= 1 && nullable(node.body)) throw new Unsafe("a repetition of something that can be empty")
      if (node.max > 1 && hasVariableRepeat(node.body)) throw new Unsafe("nested quantifiers")
      return
  }
}

/**
 * The characters that can come first from `node` followed by `follow` (`END` for the end of the value), checking
 * that at every choice (an alternative, one more iteration or not) the options start with disjoint characters: then
 * a backtracking engine abandons every wrong option at its first character, and runs in linear time.
 */
const choose = (node: Node, follow: CharSet.CharSet): CharSet.CharSet => {
  switch (node._tag) {
    case "Atom":
      return node.set!
    case "Assert":
      return follow
    case "Seq": {
      let f = follow
      for (let k = node.items.length - 1; k >= 0; k--) f = choose(node.items[k]!, f)
      return f
    }
    case "Alt": {
      let seen: CharSet.CharSet = CharSet.empty
      for (const branch of node.branches) {
        const first = choose(branch, follow)
        if (CharSet.intersects(seen, first)) throw new Unsafe("alternatives that can start with the same character")
        seen = CharSet.union(seen, first)
      }
      return seen
    }
    case "Repeat": {
      if (node.max === 0) return follow
      const first = firstChars(node.body)
      if (node.min < node.max && CharSet.intersects(first, follow)) {
        throw new Unsafe("a repetition that can continue with the character that may follow it")
      }
      choose(node.body, node.max > 1 ? CharSet.union(first, follow) : follow)
      return node.min === 0 ? CharSet.union(first, follow) : first
    }
  }
}

/**
 * Why the pattern must not run on the native engine, or `undefined` when it is proven linear there. The branches
 * of a top-level alternation are checked one by one: the engine tries each at most once from the start of the
 * value, so they may overlap (`^\d{1,13}$|^\d{1,13}\.\d{1,5}$`).
 */
export const nativeProblem = (node: Node): string | undefined => {
  try {
    for (const branch of node._tag === "Alt" ? node.branches : [node]) {
      checkFeatures(branch)
      choose(branch, CharSet.single(CharSet.END))
    }
    return undefined
  } catch (e) {
    if (e instanceof Unsafe) return e.why
    throw e
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// compiling
// ---------------------------------------------------------------------------------------------------------------------

const re2Failure = (source: string, e: unknown): Failure => {
  const detail = e instanceof Error ? e.message : String(e)
  const property = /\\[pP]\{?[A-Za-z_]*\}?/.exec(/`([^`]*)`/.exec(detail)?.[1] ?? "")
  return property !== null && /class range/.test(detail)
    ? {
        reason: "UnsupportedPattern",
        construct: property[0],
        position: 0,
        detail: `the linear-time engine does not know the Unicode property ${property[0]}`
      }
    : { reason: "InvalidPattern", construct: undefined, position: 0, detail: `${detail} (in ${source})` }
}

const compileRe2 = (re2: string): RE2JS => RE2JS.compile(re2)

class Pattern implements Compiled {
  #re2: string | undefined
  #fallback: RE2JS | undefined
  readonly test: (value: string) => boolean

  constructor(
    readonly source: string,
    readonly node: Node,
    readonly engine: Engine,
    readonly re2Reason: string | undefined,
    readonly native: RegExp | undefined,
    readonly ecma: string | undefined,
    readonly minLength: number,
    readonly maxLength: number,
    readonly satisfiable: boolean,
    re2: RE2JS | undefined
  ) {
    if (native !== undefined) {
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
    const ecma = `^(?:${toEcma(stripped)})$`
    const native = new RegExp(ecma, "u")
    return {
      ok: true,
      pattern: new Pattern(source, node, "native", undefined, native, ecma, b.min, b.max, b.satisfiable, undefined)
    }
  }
  let engine: RE2JS
  try {
    engine = compileRe2(toRe2(node))
  } catch (e) {
    return { ok: false, failure: re2Failure(source, e) }
  }
  return {
    ok: true,
    pattern: new Pattern(source, node, "re2", problem, undefined, undefined, b.min, b.max, b.satisfiable, engine)
  }
}
