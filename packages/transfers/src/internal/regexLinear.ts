/**
 * The structural check that lets a pattern run on the native (backtracking) engine only when its running time is
 * provably linear in the input: anchors at the very start and end dropped, no feature the native engine is not given,
 * and, at every choice, options that start with different characters.
 */
import * as CharSet from "./charSet.js"
import type { Node } from "./regexParse.js"

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
