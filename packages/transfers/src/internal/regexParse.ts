/**
 * The parser of the pattern dialect (see FieldPattern.ts): java.util.regex syntax and semantics with default flags,
 * plus RE2's spellings, restricted to what a linear-time engine can run. Flags are resolved while parsing (`(?i)` folds
 * ASCII letters into classes, `(?s)` widens `.`, `(?m)` turns `^`/`$` into line anchors), so the tree has no flags
 * and both emitters (RE2 and ECMAScript) give the same language.
 */
import * as CharSet from "./charSet.js"

export type Assertion = "textStart" | "textEnd" | "lineStart" | "lineEnd" | "wordBoundary" | "notWordBoundary"

export type Node =
  /** One character: `set` when known here */
  | { readonly _tag: "Atom"; readonly set: CharSet.CharSet; readonly properties?: undefined }
  /** One character of a class with Unicode properties, which only RE2 knows: what the class is made of */
  | { readonly _tag: "Atom"; readonly set: undefined; readonly properties: PropertyClass }
  | { readonly _tag: "Seq"; readonly items: ReadonlyArray<Node> }
  | { readonly _tag: "Alt"; readonly branches: ReadonlyArray<Node> }
  /** `max` is `Infinity` when unbounded */
  | { readonly _tag: "Repeat"; readonly body: Node; readonly min: number; readonly max: number }
  | { readonly _tag: "Assert"; readonly assertion: Assertion }

/** A Unicode property as RE2 names it: a general category (`Lu`) or a script (`Greek`), or all but it (`\P{Lu}`). */
export interface Property {
  readonly negated: boolean
  readonly name: string
}

/** A class with Unicode properties: `concrete` and the property items (`\p{Lu}`, `\P{Greek}`), or all but them. */
export interface PropertyClass {
  readonly negated: boolean
  readonly concrete: CharSet.CharSet
  readonly items: ReadonlyArray<Property>
}

export type FailureReason = "InvalidPattern" | "UnsupportedPattern"

export interface Failure {
  readonly reason: FailureReason
  /** the construct the linear-time engine cannot run, for `UnsupportedPattern` */
  readonly construct: string | undefined
  /** index in the pattern (UTF-16 code units) */
  readonly position: number
  readonly detail: string
}

/** RE2's limit on repetition counts (and on their product when nested) */
export const MAX_REPEAT = 1000
/** longer patterns are refused, so compiling stays cheap */
export const MAX_PATTERN_LENGTH = 4096
const MAX_DEPTH = 64

class Stop {
  constructor(readonly failure: Failure) {}
}

const invalid = (position: number, detail: string): Stop =>
  new Stop({ reason: "InvalidPattern", construct: undefined, position, detail })

const unsupported = (position: number, construct: string, detail: string): Stop =>
  new Stop({ reason: "UnsupportedPattern", construct, position, detail })

interface Flags {
  readonly i: boolean
  readonly s: boolean
  readonly m: boolean
}

const atom = (set: CharSet.CharSet): Node => ({ _tag: "Atom", set })

const seq = (items: ReadonlyArray<Node>): Node => (items.length === 1 ? items[0]! : { _tag: "Seq", items })

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
const isAsciiLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
const isAsciiAlnum = (c: number): boolean => isDigit(c) || isAsciiLetter(c)

const literal = (c: number, flags: Flags): Node => {
  const set = CharSet.single(c)
  return atom(flags.i ? CharSet.foldAscii(set) : set)
}

/** A class item: concrete ranges, or Unicode properties only RE2 can evaluate (the union of `properties`). */
type Item =
  | { readonly _tag: "Set"; readonly set: CharSet.CharSet }
  | { readonly _tag: "Property"; readonly properties: ReadonlyArray<Property> }
  | { readonly _tag: "Char"; readonly c: number }

/**
 * The cased-letter categories. Under `(?i)` Java reads each of them as all three (`\p{Lu}` matches `a`) and `\P` of one
 * as none of them: java.util.regex's CharPredicates.forProperty with its case-insensitive flag. RE2 has no class for
 * "none of the three", so that is written as its equal `\P{L}\p{Lm}\p{Lo}` (L is Lu, Ll, Lt, Lm and Lo).
 */
const casedLetters = new Set(["Lu", "Ll", "Lt"])

const categoryPrefixes = ["general_category=", "gc=", "script=", "sc="]

const repetition = /\{(\d+)(,(\d*))?\}/y

class Parser {
  i = 0
  constructor(readonly src: string) {}

  peek(offset = 0): number {
    const c = this.src.codePointAt(this.i + offset)
    return c === undefined ? -1 : c
  }

  next(): number {
    const c = this.src.codePointAt(this.i)
    if (c === undefined) throw invalid(this.i, "the pattern ends too early")
    this.i += c > 0xffff ? 2 : 1
    return c
  }

  eat(s: string): boolean {
    if (this.src.startsWith(s, this.i)) {
      this.i += s.length
      return true
    }
    return false
  }

  get done(): boolean {
    return this.i >= this.src.length
  }

  parse(): Node {
    const node = this.alternation({ i: false, s: false, m: false }, 0)
    if (!this.done) throw invalid(this.i, "unmatched ')'")
    return node
  }

  alternation(outer: Flags, depth: number): Node {
    if (depth > MAX_DEPTH) throw unsupported(this.i, "deep nesting", `groups nest more than ${MAX_DEPTH} levels`)
    const flags = { ...outer }
    const branches = [this.sequence(flags, depth)]
    while (this.peek() === 0x7c /* | */) {
      this.i++
      branches.push(this.sequence(flags, depth))
    }
    return branches.length === 1 ? branches[0]! : { _tag: "Alt", branches }
  }

  /** `flags` is mutable: `(?i)` changes it for the rest of the enclosing group */
  sequence(flags: { i: boolean; s: boolean; m: boolean }, depth: number): Node {
    const items: Array<Node> = []
    for (;;) {
      const c = this.peek()
      if (c === -1 || c === 0x7c || c === 0x29 /* ) */) break
      const start = this.i
      const node = this.atom(flags, depth, items)
      if (node === undefined) continue
      items.push(this.quantified(node, start))
    }
    return seq(items)
  }

  quantified(node: Node, start: number): Node {
    let result = node
    let quantifiers = 0
    for (;;) {
      const at = this.i
      const q = this.quantifier()
      if (q === undefined) return result
      if (quantifiers > 0) throw invalid(at, "a repetition operator cannot follow another one")
      if (node._tag === "Assert") throw invalid(at, "nothing to repeat: an anchor or boundary cannot be repeated")
      if (node._tag === "Seq" && node.items.length === 0 && this.src[start] !== "(") {
        throw invalid(at, "nothing to repeat")
      }
      if (this.peek() === 0x2b /* + */) {
        throw unsupported(
          at,
          "possessive quantifier",
          "possessive quantifiers (`*+`, `++`, `?+`, `{n}+`) need backtracking control"
        )
      }
      if (this.peek() === 0x3f /* ? */) this.i++ // lazy: the same verdict for a whole-value match
      result = { _tag: "Repeat", body: result, min: q.min, max: q.max }
      quantifiers++
    }
  }

  quantifier(): { min: number; max: number } | undefined {
    const c = this.peek()
    if (c === 0x2a) {
      this.i++
      return { min: 0, max: Infinity }
    }
    if (c === 0x2b) {
      this.i++
      return { min: 1, max: Infinity }
    }
    if (c === 0x3f) {
      this.i++
      return { min: 0, max: 1 }
    }
    if (c === 0x7b) {
      repetition.lastIndex = this.i
      const m = repetition.exec(this.src)
      if (m === null) return undefined // RE2: a brace that does not start a repetition is a literal
      const min = Number(m[1])
      const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3])
      if (min > MAX_REPEAT || (m[3] !== undefined && m[3] !== "" && max > MAX_REPEAT)) {
        throw unsupported(this.i, "repetition count over 1000", `repetition counts are at most ${MAX_REPEAT}: ${m[0]}`)
      }
      if (max < min) throw invalid(this.i, `the repetition ${m[0]} has its maximum below its minimum`)
      this.i += m[0].length
      return { min, max }
    }
    return undefined
  }

  /** one atom, or `undefined` for what matches nothing by itself (a flag group, an empty \Q\E) */
  atom(flags: { i: boolean; s: boolean; m: boolean }, depth: number, items: Array<Node>): Node | undefined {
    const at = this.i
    const c = this.next()
    switch (c) {
      case 0x28 /* ( */:
        return this.group(flags, depth, at)
      case 0x5b /* [ */:
        return this.charClass(flags, at)
      case 0x2e /* . */:
        return atom(flags.s ? CharSet.anyChar : CharSet.dot)
      case 0x5e /* ^ */:
        return { _tag: "Assert", assertion: flags.m ? "lineStart" : "textStart" }
      case 0x24 /* $ */:
        return { _tag: "Assert", assertion: flags.m ? "lineEnd" : "textEnd" }
      case 0x2a:
      case 0x2b:
      case 0x3f:
        throw invalid(at, `nothing to repeat before '${String.fromCodePoint(c)}'`)
      case 0x7b /* { */:
        {
          this.i = at
          if (this.quantifier() !== undefined) throw invalid(at, "nothing to repeat before '{'")
          this.i = at + 1
          return literal(c, flags)
        }
      case 0x5c /* \ */:
        return this.escape(flags, at, items)
      default:
        return literal(c, flags)
    }
  }

  group(outer: { i: boolean; s: boolean; m: boolean }, depth: number, at: number): Node | undefined {
    if (this.peek() === 0x3f /* ? */) {
      this.i++
      if (this.eat(":")) return this.closeGroup(this.alternation(outer, depth + 1), at)
      if (this.eat("=") || this.eat("!")) {
        throw unsupported(at, "lookahead", "lookahead `(?=...)` / `(?!...)` needs backtracking")
      }
      if (this.eat("<=") || this.eat("<!")) {
        throw unsupported(at, "lookbehind", "lookbehind `(?<=...)` / `(?<!...)` needs backtracking")
      }
      if (this.eat(">")) throw unsupported(at, "atomic group", "atomic groups `(?>...)` need backtracking control")
      if (this.eat("P=")) throw unsupported(at, "backreference", "backreferences `(?P=name)` are not regular")
      if (this.eat("P>") || this.eat("R)") || this.eat("&") || /^[+-]?\d/.test(this.src.slice(this.i, this.i + 2))) {
        throw unsupported(at, "recursion", "recursive patterns are not regular")
      }
      if (this.eat("(")) throw unsupported(at, "conditional", "conditionals `(?(...)...)` are not supported")
      if (this.eat("#")) throw invalid(at, "comments `(?#...)` are not part of the dialect")
      const named = /^P?<([A-Za-z][A-Za-z0-9_]*)>/.exec(this.src.slice(this.i, this.i + 40))
      if (named !== null) {
        this.i += named[0].length
        return this.closeGroup(this.alternation(outer, depth + 1), at)
      }
      if (this.peek() === 0x3c || this.peek() === 0x50) throw invalid(at, "a malformed group name")
      return this.flagGroup(outer, depth, at)
    }
    return this.closeGroup(this.alternation(outer, depth + 1), at)
  }

  closeGroup(node: Node, at: number): Node {
    if (this.peek() !== 0x29) throw invalid(at, "missing ')'")
    this.i++
    // an empty group stays a group so that `()*` is seen as a repetition of nothing
    return node
  }

  flagGroup(outer: { i: boolean; s: boolean; m: boolean }, depth: number, at: number): Node | undefined {
    const set = { ...outer }
    let negative = false
    let sawFlag = false
    for (;;) {
      const c = this.peek()
      if (c === -1) throw invalid(at, "missing ')'")
      this.i++
      if (c === 0x29 || c === 0x3a) {
        if (!sawFlag) throw invalid(at, "an empty flag group")
        if (c === 0x29) {
          // (?i) applies to the rest of the enclosing group
          outer.i = set.i
          outer.s = set.s
          outer.m = set.m
          return undefined
        }
        return this.closeGroup(this.alternation(set, depth + 1), at)
      }
      if (c === 0x2d /* - */) {
        if (negative) throw invalid(at, "two '-' in a flag group")
        negative = true
        continue
      }
      const letter = String.fromCodePoint(c)
      sawFlag = true
      if (letter === "i" || letter === "s" || letter === "m") {
        set[letter] = !negative
        continue
      }
      switch (letter) {
        case "x":
          throw unsupported(at, "flag (?x)", "comments mode `(?x)` is not supported")
        case "u":
          throw unsupported(at, "flag (?u)", "Unicode case folding `(?u)` is not supported; `(?i)` folds ASCII letters")
        case "U":
          throw unsupported(at, "flag (?U)", "`(?U)` means UNICODE_CHARACTER_CLASS in Java and ungreedy in RE2")
        case "d":
          throw unsupported(at, "flag (?d)", "UNIX_LINES `(?d)` is not supported")
        default:
          throw invalid(at, `unknown flag '${letter}'`)
      }
    }
  }

  /** the escapes shared by classes and the rest; `undefined` when `c` is not one of them */
  charEscape(c: number, at: number): number | undefined {
    switch (c) {
      case 0x74:
        return 0x09 // \t
      case 0x6e:
        return 0x0a // \n
      case 0x72:
        return 0x0d // \r
      case 0x66:
        return 0x0c // \f
      case 0x61:
        return 0x07 // \a
      case 0x65:
        return 0x1b // \e
      case 0x63 /* \cX */:
        {
          const x = this.peek()
          if (x === -1 || x > 0x7f) throw invalid(at, "\\c must be followed by an ASCII character")
          this.i++
          return x ^ 64
        }
      case 0x30 /* \0 octal */:
        {
          const m = /^([0-3][0-7]{2}|[0-7]{1,2})/.exec(this.src.slice(this.i, this.i + 3))
          if (m === null) throw invalid(at, "\\0 must be followed by octal digits (\\0101)")
          this.i += m[0].length
          return Number.parseInt(m[0], 8)
        }
      case 0x78 /* \x */:
        {
          if (this.peek() === 0x7b) {
            const m = /^\{([0-9A-Fa-f]{1,8})\}/.exec(this.src.slice(this.i, this.i + 10))
            if (m === null) throw invalid(at, "\\x{...} needs hexadecimal digits")
            const v = Number.parseInt(m[1]!, 16)
            if (v > CharSet.MAX_CODE_POINT) throw invalid(at, "\\x{...} is beyond U+10FFFF")
            this.i += m[0].length
            return v
          }
          if (isHex(this.peek()) && isHex(this.peek(1))) {
            const v = Number.parseInt(this.src.slice(this.i, this.i + 2), 16)
            this.i += 2
            return v
          }
          throw invalid(at, "\\x needs two hexadecimal digits or braces")
        }
      case 0x75 /* \u */:
        {
          const m = /^[0-9A-Fa-f]{4}/.exec(this.src.slice(this.i, this.i + 4))
          if (m === null) throw invalid(at, "\\u needs four hexadecimal digits")
          this.i += 4
          const v = Number.parseInt(m[0], 16)
          if (v >= 0xd800 && v <= 0xdbff) {
            const low = /^\\u(d[c-f][0-9a-f]{2})/i.exec(this.src.slice(this.i, this.i + 6))
            if (low !== null) {
              this.i += 6
              return 0x10000 + ((v - 0xd800) << 10) + (Number.parseInt(low[1]!, 16) - 0xdc00)
            }
          }
          return v
        }
      default:
        return undefined
    }
  }

  /** `\d`-like classes; `undefined` when `c` is not one */
  classEscape(c: number): CharSet.CharSet | undefined {
    switch (c) {
      case 0x64:
        return CharSet.digit
      case 0x44:
        return CharSet.negate(CharSet.digit)
      case 0x77:
        return CharSet.word
      case 0x57:
        return CharSet.negate(CharSet.word)
      case 0x73:
        return CharSet.space
      case 0x53:
        return CharSet.negate(CharSet.space)
      case 0x68:
        return CharSet.horizontalSpace
      case 0x48:
        return CharSet.negate(CharSet.horizontalSpace)
      case 0x76:
        return CharSet.verticalSpace
      case 0x56:
        return CharSet.negate(CharSet.verticalSpace)
      default:
        return undefined
    }
  }

  refusedEscape(c: number, at: number): void {
    if (c >= 0x31 && c <= 0x39) throw unsupported(at, "backreference", "backreferences (`\\1`) are not regular")
    switch (c) {
      case 0x6b /* k */:
        throw unsupported(at, "backreference", "backreferences (`\\k<name>`) are not regular")
      case 0x47 /* G */:
        throw unsupported(at, "\\G", "`\\G` (end of the previous match) has no meaning for one value")
      case 0x5a /* Z */:
        throw unsupported(at, "\\Z", "`\\Z` (end before a final line terminator) is not supported; use `$` or `\\z`")
      case 0x52 /* R */:
        throw unsupported(at, "\\R", "the linebreak matcher `\\R` is not supported")
      case 0x58 /* X */:
        throw unsupported(at, "\\X", "grapheme clusters `\\X` are not supported")
      case 0x4e /* N */:
        throw unsupported(at, "\\N{name}", "named characters `\\N{...}` are not supported")
      default:
        return
    }
  }

  /** `\p{...}`, `\P{...}`, `\pL` (the `p` or `P` already read) */
  property(
    negated: boolean,
    at: number,
    flags: Flags
  ):
    | { readonly _tag: "Set"; readonly set: CharSet.CharSet }
    | { readonly _tag: "Property"; readonly properties: ReadonlyArray<Property> } {
    let name: string
    if (this.peek() === 0x7b) {
      const end = this.src.indexOf("}", this.i)
      if (end < 0) throw invalid(at, "\\p{ without '}'")
      name = this.src.slice(this.i + 1, end)
      this.i = end + 1
    } else {
      const c = this.peek()
      if (c === -1 || !isAsciiLetter(c)) throw invalid(at, "\\p needs a property name")
      this.i++
      name = String.fromCodePoint(c)
    }
    if (name.startsWith("^")) {
      negated = !negated
      name = name.slice(1)
    }
    const written = `\\${negated ? "P" : "p"}{${name}}`
    if (!/^[A-Za-z][A-Za-z0-9_=]*$/.test(name)) throw invalid(at, `${written} is not a property name`)
    if (name.startsWith("java")) {
      throw unsupported(at, written, `${written} (a java.lang.Character method) is not supported`)
    }
    if (name.startsWith("In") || name.startsWith("block=") || name.startsWith("blk=")) {
      throw unsupported(at, written, `Unicode blocks (${written}) are not supported; use a script or a range`)
    }
    const posix = CharSet.posix.get(name)
    if (posix !== undefined) {
      const folded = flags.i ? CharSet.foldAscii(posix) : posix
      return { _tag: "Set", set: negated ? CharSet.negate(folded) : folded }
    }
    let bare = name.startsWith("Is") ? name.slice(2) : name
    for (const prefix of categoryPrefixes) if (bare.startsWith(prefix)) bare = bare.slice(prefix.length)
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(bare)) throw invalid(at, `${written} is not a property name`)
    // every code point, or none: concrete, so that the length bounds know \P{Any} never matches
    if (bare === "Any") return { _tag: "Set", set: negated ? CharSet.empty : CharSet.anyChar }
    if (flags.i && casedLetters.has(bare)) {
      return {
        _tag: "Property",
        properties: negated
          ? [
              { negated: true, name: "L" },
              { negated: false, name: "Lm" },
              { negated: false, name: "Lo" }
            ]
          : [...casedLetters].map((name) => ({ negated: false, name }))
      }
    }
    return { _tag: "Property", properties: [{ negated, name: bare }] }
  }

  escape(flags: Flags, at: number, items: Array<Node>): Node | undefined {
    const c = this.next()
    this.refusedEscape(c, at)
    switch (c) {
      case 0x62 /* b */:
        if (this.peek() === 0x7b) throw unsupported(at, "\\b{g}", "grapheme boundaries `\\b{g}` are not supported")
        return { _tag: "Assert", assertion: "wordBoundary" }
      case 0x42 /* B */:
        return { _tag: "Assert", assertion: "notWordBoundary" }
      case 0x41 /* A */:
        return { _tag: "Assert", assertion: "textStart" }
      case 0x7a /* z */:
        return { _tag: "Assert", assertion: "textEnd" }
      case 0x70 /* p */:
      case 0x50 /* P */:
        {
          const item = this.property(c === 0x50, at, flags)
          if (item._tag === "Set") return atom(item.set)
          return {
            _tag: "Atom",
            set: undefined,
            properties: { negated: false, concrete: CharSet.empty, items: item.properties }
          }
        }
      case 0x51 /* Q */:
        {
          const end = this.src.indexOf("\\E", this.i)
          const text = end < 0 ? this.src.slice(this.i) : this.src.slice(this.i, end)
          this.i = end < 0 ? this.src.length : end + 2
          const chars = Array.from(text, (ch) => literal(ch.codePointAt(0)!, flags))
          if (chars.length === 0) return undefined
          // the quantifier that may follow applies to the last character only, as in Java
          for (let k = 0; k < chars.length - 1; k++) items.push(chars[k]!)
          return chars[chars.length - 1]!
        }
      case 0x45 /* E */:
        throw invalid(at, "\\E without \\Q")
      default: {
        const set = this.classEscape(c)
        if (set !== undefined) return atom(set)
        const ch = this.charEscape(c, at)
        if (ch !== undefined) return literal(ch, flags)
        if (c < 0x80 && !isAsciiAlnum(c)) return literal(c, flags)
        throw invalid(at, `unknown escape \\${String.fromCodePoint(c)}`)
      }
    }
  }

  /** one character of a class: a plain or escaped code point, or a class item */
  classAtom(flags: Flags, at: number, out: Array<Item>): Item | undefined {
    const c = this.next()
    if (c === 0x5b /* [ */) {
      const m = /^:(\^?)([a-z]+):\]/.exec(this.src.slice(this.i, this.i + 12))
      if (m !== null) {
        const set = CharSet.bracketPosix.get(m[2]!)
        if (set === undefined) throw invalid(at, `unknown class [:${m[2]}:]`)
        this.i += m[0].length
        const folded = flags.i ? CharSet.foldAscii(set) : set
        return { _tag: "Set", set: m[1] === "^" ? CharSet.negate(folded) : folded }
      }
      throw unsupported(
        at,
        "nested character class",
        "classes inside classes (Java's union `[a[b]]`) are not supported"
      )
    }
    if (c === 0x26 /* & */ && this.peek() === 0x26) {
      throw unsupported(
        at,
        "character class intersection",
        "Java's class intersection `[a-z&&[^aeiou]]` is not supported"
      )
    }
    if (c !== 0x5c) return { _tag: "Char", c }
    const e = this.next()
    this.refusedEscape(e, at)
    if (e === 0x70 || e === 0x50) return this.property(e === 0x50, at, flags)
    if (e === 0x51 /* \Q...\E inside a class */) {
      const end = this.src.indexOf("\\E", this.i)
      const text = end < 0 ? this.src.slice(this.i) : this.src.slice(this.i, end)
      this.i = end < 0 ? this.src.length : end + 2
      for (const ch of text) out.push({ _tag: "Char", c: ch.codePointAt(0)! })
      return undefined
    }
    if (e === 0x62 || e === 0x42 || e === 0x41 || e === 0x7a) throw invalid(at, "an anchor inside a class")
    const set = this.classEscape(e)
    if (set !== undefined) return { _tag: "Set", set }
    const ch = this.charEscape(e, at)
    if (ch !== undefined) return { _tag: "Char", c: ch }
    if (e < 0x80 && !isAsciiAlnum(e)) return { _tag: "Char", c: e }
    throw invalid(at, `unknown escape \\${String.fromCodePoint(e)} in a class`)
  }

  charClass(flags: Flags, at: number): Node {
    const negated = this.peek() === 0x5e
    if (negated) this.i++
    const items: Array<Item> = []
    let first = true
    for (;;) {
      if (this.done) throw invalid(at, "missing ']'")
      const c = this.peek()
      if (c === 0x5d /* ] */ && !first) {
        this.i++
        break
      }
      first = false
      const itemAt = this.i
      let item: Item | undefined
      if (c === 0x5d) {
        this.i++
        item = { _tag: "Char", c }
      } else {
        item = this.classAtom(flags, itemAt, items)
      }
      if (item === undefined) continue
      // a range a-z (a '-' first or before ']' is a literal, and so is one after a class, as Java and RE2 read it:
      // `[\w-.]` is a word character, '-' or '.')
      const range = this.peek() === 0x2d && this.peek(1) !== 0x5d && this.peek(1) !== -1
      if (range && item._tag === "Char") {
        this.i++
        const hiAt = this.i
        const hi = this.classAtom(flags, hiAt, items)
        if (hi === undefined || hi._tag !== "Char") throw invalid(hiAt, "a range must end with a single character")
        if (hi.c < item.c) throw invalid(itemAt, "a range whose end is before its start")
        items.push({ _tag: "Set", set: CharSet.range(item.c, hi.c) })
        continue
      }
      items.push(item)
    }
    const pairs: Array<number> = []
    const properties: Array<Property> = []
    for (const item of items) {
      if (item._tag === "Property") properties.push(...item.properties)
      else if (item._tag === "Char") pairs.push(item.c, item.c)
      else for (const x of item.set) pairs.push(x)
    }
    let concrete = CharSet.fromRanges(pairs)
    if (flags.i) concrete = CharSet.foldAscii(concrete)
    if (properties.length === 0) return atom(negated ? CharSet.negate(concrete) : concrete)
    return { _tag: "Atom", set: undefined, properties: { negated, concrete, items: properties } }
  }
}

const repeatBudget = (node: Node, budget: number): boolean => {
  switch (node._tag) {
    case "Repeat": {
      let m = node.max === Infinity ? node.min : node.max
      if (m === 0) return true
      if (m > budget) return false
      m = Math.max(m, 1)
      return repeatBudget(node.body, Math.floor(budget / m))
    }
    case "Seq":
      return node.items.every((n) => repeatBudget(n, budget))
    case "Alt":
      return node.branches.every((n) => repeatBudget(n, budget))
    default:
      return true
  }
}

export type Parsed = { readonly ok: true; readonly node: Node } | { readonly ok: false; readonly failure: Failure }

export const parse = (src: string): Parsed => {
  if (src.length > MAX_PATTERN_LENGTH) {
    return {
      ok: false,
      failure: {
        reason: "UnsupportedPattern",
        construct: "pattern length",
        position: MAX_PATTERN_LENGTH,
        detail: `patterns are at most ${MAX_PATTERN_LENGTH} characters long; this one has ${src.length}`
      }
    }
  }
  try {
    const node = new Parser(src).parse()
    if (!repeatBudget(node, MAX_REPEAT)) {
      return {
        ok: false,
        failure: {
          reason: "UnsupportedPattern",
          construct: "repetition count over 1000",
          position: 0,
          detail: `nested repetitions multiply: their counts may give at most ${MAX_REPEAT} copies`
        }
      }
    }
    return { ok: true, node }
  } catch (e) {
    if (e instanceof Stop) return { ok: false, failure: e.failure }
    throw e
  }
}
