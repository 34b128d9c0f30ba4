/**
 * Where each value of a JSON text is: for every path (`["variations", 0, "phases", 1, "ordinal"]`) the line on which
 * its member starts (its key, for an object member) and the span of its value, so that a finding about a path can be
 * shown next to that line of the text the person wrote, however they formatted it.
 *
 * A text that is not JSON gives the place of the first fault instead (what `JSON.parse` would refuse).
 */

export type Path = ReadonlyArray<string | number>

/** a path as one string: `variations.0.phases.1.ordinal` (the empty path is the whole document) */
export const pathKey = (path: Path): string => path.join(".")

export interface Place {
  /** 0-based line of the member (its key) or of the array element */
  readonly line: number
  /** offsets of the value in the text, end exclusive */
  readonly start: number
  readonly end: number
}

export type Located =
  | { readonly ok: true; readonly value: unknown; readonly places: ReadonlyMap<string, Place> }
  | { readonly ok: false; readonly message: string; readonly line: number; readonly offset: number }

class Fault {
  constructor(
    readonly message: string,
    readonly offset: number
  ) {}
}

const WS = new Set([" ", "\t", "\n", "\r"])

/** Reads a JSON text (as `JSON.parse` does) and records the place of every value by its path. */
export const locate = (text: string): Located => {
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
  const value = (path: Array<string | number>, memberStart: number): unknown => {
    skip()
    const start = i
    const record = (v: unknown) => {
      places.set(pathKey(path), { line: lineOf(memberStart < 0 ? start : memberStart), start, end: i })
      return v
    }
    const c = text[i]
    if (c === "{") {
      i++
      const out: Record<string, unknown> = {}
      skip()
      if (text[i] === "}") {
        i++
        return record(out)
      }
      for (;;) {
        skip()
        const keyAt = i
        const key = string()
        skip()
        expect(":")
        const v = value([...path, key], keyAt)
        Object.defineProperty(out, key, { value: v, enumerable: true, configurable: true, writable: true })
        skip()
        if (text[i] === ",") {
          i++
          continue
        }
        expect("}")
        return record(out)
      }
    }
    if (c === "[") {
      i++
      const out: Array<unknown> = []
      skip()
      if (text[i] === "]") {
        i++
        return record(out)
      }
      for (;;) {
        out.push(value([...path, out.length], -1))
        skip()
        if (text[i] === ",") {
          i++
          continue
        }
        expect("]")
        return record(out)
      }
    }
    if (c === '"') return record(string())
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400))
    if (literal === null) throw new Fault(i < text.length ? "not a JSON value" : "unexpected end: expected a value", i)
    i += literal[0].length
    return record(JSON.parse(literal[0]))
  }
  try {
    const v = value([], -1)
    skip()
    if (i < text.length) throw new Fault("more text after the JSON value", i)
    return { ok: true, value: v, places }
  } catch (e) {
    if (!(e instanceof Fault)) throw e
    return { ok: false, message: e.message, offset: e.offset, line: lineOf(e.offset) }
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
