/**
 * An oracle for the linearity proof of src/internal/regexLinear.ts, written apart from it: generated patterns as
 * trees, and whether each is deterministic in the sense of Brüggemann-Klein and Wood (its Glushkov automaton, with
 * the end of the value as one more symbol, never has two positions to go to on one character). A backtracking engine
 * runs a deterministic pattern in linear time: at every choice, the next character (or the end) rules out all options
 * but one. The native engine must only ever be given such patterns.
 */
import fc from "fast-check"

/**
 * The character classes of the generated patterns. Each class is constant on each group of characters below, so two
 * classes share a character exactly when they share one of these representatives.
 */
const representatives = ["a", "b", "c", "x", "0", "1", "5", "-", "é"] as const

const classes = ["a", "b", "c", "0", "1", "[ab]", "[bc]", "[a-c]", "\\d", "\\w", "[^a]", "[^\\d]", "[0a-]", "-", "é"]

/** the representatives a class holds, as bits */
const maskOf = (source: string): number => {
  const re = new RegExp(`^${source}$`, "u")
  let mask = 0
  representatives.forEach((r, k) => {
    if (re.test(r)) mask |= 1 << k
  })
  return mask
}

export type Rx =
  | { readonly _tag: "Char"; readonly source: string; readonly mask: number }
  | { readonly _tag: "Seq"; readonly items: ReadonlyArray<Rx> }
  | { readonly _tag: "Alt"; readonly branches: ReadonlyArray<Rx> }
  | { readonly _tag: "Repeat"; readonly body: Rx; readonly min: number; readonly max: number }

const quantifiers: ReadonlyArray<readonly [number, number]> = [
  [1, 1],
  [1, 1],
  [1, 1],
  [0, Infinity],
  [1, Infinity],
  [0, 1],
  [2, 2],
  [0, 2],
  [1, 3],
  [2, Infinity],
  [0, 0]
]

const repeat = (body: Rx, [min, max]: readonly [number, number]): Rx =>
  min === 1 && max === 1 ? body : { _tag: "Repeat", body, min, max }

/** patterns as trees; call it inside a test (it reads no package code, but keep fixtures out of the file's loading) */
export const rxArbitrary = (): fc.Arbitrary<Rx> => {
  const char = fc.constantFrom(...classes).map((source): Rx => ({ _tag: "Char", source, mask: maskOf(source) }))
  const quantifier = fc.constantFrom(...quantifiers)
  return fc.letrec<{ rx: Rx; seq: Rx; item: Rx }>((tie) => ({
    rx: fc.oneof(
      { weight: 3, arbitrary: tie("seq") },
      {
        weight: 1,
        arbitrary: fc
          .array(tie("seq"), { minLength: 2, maxLength: 3 })
          .map((branches): Rx => ({ _tag: "Alt", branches }))
      }
    ),
    seq: fc
      .array(tie("item"), { minLength: 0, maxLength: 4 })
      .map((items): Rx => (items.length === 1 ? items[0]! : { _tag: "Seq", items })),
    item: fc.oneof(
      { weight: 4, arbitrary: fc.tuple(char, quantifier).map(([c, q]) => repeat(c, q)) },
      { weight: 1, depthSize: "small", arbitrary: fc.tuple(tie("rx"), quantifier).map(([r, q]) => repeat(r, q)) }
    )
  })).rx
}

const quantifierText = (min: number, max: number): string =>
  max === Infinity
    ? min === 0
      ? "*"
      : min === 1
        ? "+"
        : `{${min},}`
    : min === 0 && max === 1
      ? "?"
      : min === max
        ? `{${min}}`
        : `{${min},${max}}`

/** the pattern in the dialect (and in ECMAScript, for these constructs) */
export const render = (rx: Rx): string => {
  switch (rx._tag) {
    case "Char":
      return rx.source
    case "Seq":
      return rx.items.map((item) => (item._tag === "Alt" ? `(?:${render(item)})` : render(item))).join("")
    case "Alt":
      return rx.branches.map((branch) => (branch._tag === "Alt" ? `(?:${render(branch)})` : render(branch))).join("|")
    case "Repeat":
      return `(?:${render(rx.body)})${quantifierText(rx.min, rx.max)}`
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// the Glushkov automaton
// ---------------------------------------------------------------------------------------------------------------------

/** a regular expression over positions: counted repetitions written out */
type G =
  | { readonly _tag: "Eps" }
  | { readonly _tag: "Pos"; readonly id: number }
  | { readonly _tag: "Seq"; readonly items: ReadonlyArray<G> }
  | { readonly _tag: "Alt"; readonly branches: ReadonlyArray<G> }
  | { readonly _tag: "Star"; readonly body: G }
  | { readonly _tag: "Opt"; readonly body: G }

const expand = (rx: Rx, masks: Array<number>): G => {
  switch (rx._tag) {
    case "Char":
      masks.push(rx.mask)
      return { _tag: "Pos", id: masks.length - 1 }
    case "Seq":
      return { _tag: "Seq", items: rx.items.map((item) => expand(item, masks)) }
    case "Alt":
      return { _tag: "Alt", branches: rx.branches.map((branch) => expand(branch, masks)) }
    case "Repeat": {
      // e{n,m} is n copies of e, then m-n nested optional ones: e(e(e)?)? ; e{n,} is n copies, then e*
      const items: Array<G> = []
      for (let k = 0; k < rx.min; k++) items.push(expand(rx.body, masks))
      if (rx.max === Infinity) items.push({ _tag: "Star", body: expand(rx.body, masks) })
      else {
        let tail: G | undefined
        for (let k = rx.min; k < rx.max; k++) {
          const copy = expand(rx.body, masks)
          tail = { _tag: "Opt", body: tail === undefined ? copy : { _tag: "Seq", items: [copy, tail] } }
        }
        if (tail !== undefined) items.push(tail)
      }
      return { _tag: "Seq", items }
    }
  }
}

interface Info {
  readonly nullable: boolean
  readonly first: ReadonlyArray<number>
  readonly last: ReadonlyArray<number>
}

const analyse = (g: G, follow: Array<Set<number>>): Info => {
  switch (g._tag) {
    case "Eps":
      return { nullable: true, first: [], last: [] }
    case "Pos":
      return { nullable: false, first: [g.id], last: [g.id] }
    case "Seq": {
      let acc: Info = { nullable: true, first: [], last: [] }
      for (const item of g.items) {
        const b = analyse(item, follow)
        for (const p of acc.last) for (const q of b.first) follow[p]!.add(q)
        acc = {
          nullable: acc.nullable && b.nullable,
          first: acc.nullable ? [...acc.first, ...b.first] : acc.first,
          last: b.nullable ? [...acc.last, ...b.last] : b.last
        }
      }
      return acc
    }
    case "Alt": {
      const infos = g.branches.map((branch) => analyse(branch, follow))
      return {
        nullable: infos.some((i) => i.nullable),
        first: infos.flatMap((i) => i.first),
        last: infos.flatMap((i) => i.last)
      }
    }
    case "Star":
    case "Opt": {
      const b = analyse(g.body, follow)
      if (g._tag === "Star") for (const p of b.last) for (const q of b.first) follow[p]!.add(q)
      return { nullable: true, first: b.first, last: b.last }
    }
  }
}

/** whether no two of the positions share a character (the end of the value is a symbol of its own) */
const disjoint = (positions: Iterable<number>, masks: ReadonlyArray<number>): boolean => {
  let seen = 0
  for (const p of positions) {
    if ((seen & masks[p]!) !== 0) return false
    seen |= masks[p]!
  }
  return true
}

const deterministicBranch = (rx: Rx): boolean => {
  const masks: Array<number> = []
  const g = expand(rx, masks)
  const follow = masks.map(() => new Set<number>())
  const root = analyse(g, follow)
  return disjoint(root.first, masks) && follow.every((f) => disjoint(f, masks))
}

/**
 * Whether a backtracking engine runs the pattern in linear time: each branch of a top-level alternation is
 * deterministic (the engine tries each branch once from the start of the value, so they may overlap).
 */
export const deterministic = (rx: Rx): boolean =>
  rx._tag === "Alt" ? rx.branches.every(deterministicBranch) : deterministicBranch(rx)
