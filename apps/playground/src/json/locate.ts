/**
 * Where each value of a JSON text is: for every path (`["variations", 0, "phases", 1, "ordinal"]`) the line on which
 * its member starts (its key, for an object member) and the span of its value, so that a finding about a path can be
 * shown next to that line of the text the person wrote, however they formatted it.
 *
 * A text that is not JSON gives the place of the first fault instead (what `JSON.parse` would refuse). The reading is
 * bounded: a loop with a stack of its own (never a call per level, which a deep text would overflow), at most
 * {@link MAX_DEPTH} levels of nesting and {@link MAX_CHARACTERS} characters; beyond them the text is refused as it
 * would be if it were not JSON, with the limit it passed.
 */

export type Path = ReadonlyArray<string | number>

/** a path as one string: `variations.0.phases.1.ordinal` (the empty path is the whole document) */
export const pathKey = (path: Path): string => path.join(".")

/** the most levels of arrays and objects inside one another that a text may have (plans and bodies have under 10) */
export const MAX_DEPTH = 64

/** the longest text read, in characters (UTF-16 code units, as `String.length` counts them): 512 KiB */
export const MAX_CHARACTERS = 512 * 1024

export interface Place {
  /** 0-based line of the member (its key) or of the array element */
  readonly line: number
  /** offsets of the value in the text, end exclusive */
  readonly start: number
  readonly end: number
}

/** why a text is not read: it is not JSON, or it passes one of the limits above */
export type Refusal = "NotJson" | "TooDeep" | "TooLarge"

export type Located =
  | { readonly ok: true; readonly value: unknown; readonly places: ReadonlyMap<string, Place> }
  | {
      readonly ok: false
      readonly reason: Refusal
      readonly message: string
      readonly line: number
      readonly offset: number
    }

class Fault {
  constructor(
    readonly message: string,
    readonly offset: number,
    readonly reason: Refusal = "NotJson"
  ) {}
}

const WS = new Set([" ", "\t", "\n", "\r"])

const count = (n: number) => n.toLocaleString("en-GB")

/** An array or object being read: where it started, what it holds so far, and the member whose value comes next. */
interface Open {
  readonly kind: "[" | "{"
  readonly out: Array<unknown> | Record<string, unknown>
  /** the path of this value, as `pathKey` writes it */
  readonly key: string
  /** how many arrays and objects hold it: 0 for the whole document */
  readonly depth: number
  readonly start: number
  readonly memberStart: number
  /** the key of the member being read (objects) */
  member: string
}

/** Reads a JSON text (as `JSON.parse` does) and records the place of every value by its path. */
export const locate = (text: string): Located => {
  if (text.length > MAX_CHARACTERS) {
    return {
      ok: false,
      reason: "TooLarge",
      message: `the text has ${count(text.length)} characters: the playground reads texts of up to ${count(MAX_CHARACTERS)}`,
      line: 0,
      offset: 0
    }
  }
  const places = new Map<string, Place>()
  const lineStarts: Array<number> = [0]
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1)
  const lineOf = (offset: number): number => {
    let lo = 0
    let hi = lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (lineStarts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }
  let i = 0
  const skip = () => {
    while (i < text.length && WS.has(text[i]!)) i++
  }
  const expect = (c: string) => {
    if (text[i] !== c) throw new Fault(i < text.length ? `expected ${c}` : `unexpected end: expected ${c}`, i)
    i++
  }
  const string = (): string => {
    const start = i
    expect('"')
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i)
      if (c < 0x20) throw new Fault("a control character inside a string", i)
      i += text[i] === "\\" ? 2 : 1
    }
    expect('"')
    try {
      return JSON.parse(text.slice(start, i)) as string
    } catch {
      throw new Fault("an invalid escape in a string", start)
    }
  }
  const child = (parent: Open, segment: string | number) =>
    parent.depth === 0 ? String(segment) : `${parent.key}.${segment}`
  const record = (key: string, memberStart: number, start: number) =>
    places.set(key, { line: lineOf(memberStart < 0 ? start : memberStart), start, end: i })
  const stack: Array<Open> = []
  /** the path, and where the member starts, of the value read next */
  let key = ""
  let memberStart = -1
  /** after a member's key: its `:` and its path */
  const member = (o: Open) => {
    skip()
    const keyAt = i
    o.member = string()
    skip()
    expect(":")
    key = child(o, o.member)
    memberStart = keyAt
  }
  const read = (): unknown => {
    for (;;) {
      // a value starts here
      skip()
      const start = i
      const c = text[i]
      let value: unknown
      if (c === "{" || c === "[") {
        if (stack.length >= MAX_DEPTH) {
          throw new Fault(
            `more than ${count(MAX_DEPTH)} arrays and objects inside one another: the playground reads up to ${count(MAX_DEPTH)}`,
            i,
            "TooDeep"
          )
        }
        i++
        const close = c === "{" ? "}" : "]"
        const open: Open = {
          kind: c,
          out: c === "{" ? {} : [],
          key,
          depth: stack.length,
          start,
          memberStart,
          member: ""
        }
        skip()
        if (text[i] === close) {
          i++
          record(key, memberStart, start)
          value = open.out
        } else {
          stack.push(open)
          if (c === "{") member(open)
          else {
            key = child(open, 0)
            memberStart = -1
          }
          continue
        }
      } else if (c === '"') {
        value = string()
        record(key, memberStart, start)
      } else {
        const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400))
        if (literal === null) {
          throw new Fault(i < text.length ? "not a JSON value" : "unexpected end: expected a value", i)
        }
        i += literal[0].length
        value = JSON.parse(literal[0])
        record(key, memberStart, start)
      }
      // the value is read: it goes into the array or object around it, which may close in turn
      for (;;) {
        const top = stack[stack.length - 1]
        if (top === undefined) return value
        if (top.kind === "{") {
          Object.defineProperty(top.out, top.member, { value, enumerable: true, configurable: true, writable: true })
        } else (top.out as Array<unknown>).push(value)
        skip()
        if (text[i] === ",") {
          i++
          if (top.kind === "{") member(top)
          else {
            key = child(top, (top.out as Array<unknown>).length)
            memberStart = -1
          }
          break
        }
        expect(top.kind === "{" ? "}" : "]")
        stack.pop()
        record(top.key, top.memberStart, top.start)
        value = top.out
      }
    }
  }
  try {
    const v = read()
    skip()
    if (i < text.length) throw new Fault("more text after the JSON value", i)
    return { ok: true, value: v, places }
  } catch (e) {
    if (!(e instanceof Fault)) throw e
    return { ok: false, reason: e.reason, message: e.message, offset: e.offset, line: lineOf(e.offset) }
  }
}

/**
 * The place of the longest prefix of a path that the text has: a finding about a member that is missing
 * (`amount` of a phase without one) is shown at the object that should hold it.
 */
export const placeOf = (places: ReadonlyMap<string, Place>, path: Path): Place | undefined => {
  for (let n = path.length; n >= 0; n--) {
    const place = places.get(pathKey(path.slice(0, n)))
    if (place !== undefined) return place
  }
  return undefined
}
