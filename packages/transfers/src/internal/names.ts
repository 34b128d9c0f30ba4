/**
 * Field names (D6): dotted paths of at most 5 segments, each `^[A-Za-z_][A-Za-z0-9_]*$` and none a property of
 * `Object.prototype`, so that no name can reach a prototype when it is used as a key.
 */

export const MAX_DEPTH = 5

const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/

const forbidden: ReadonlySet<string> = new Set([
  "__proto__",
  "constructor",
  "prototype",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
  ...Object.getOwnPropertyNames(Object.prototype)
])

/** an input shortened for messages */
export const preview = (s: string): string => JSON.stringify(s.length > 48 ? `${s.slice(0, 45)}...` : s)

export type Checked =
  | { readonly ok: true; readonly path: ReadonlyArray<string> }
  | { readonly ok: false; readonly detail: string }

export const check = (name: string): Checked => {
  if (name.length === 0) return { ok: false, detail: "a field name must not be empty" }
  const path = name.split(".")
  if (path.length > MAX_DEPTH) {
    return { ok: false, detail: `${preview(name)} has ${path.length} levels; a field name has at most ${MAX_DEPTH}` }
  }
  for (const segment of path) {
    if (segment.length === 0) {
      return { ok: false, detail: `${preview(name)} has an empty segment (a leading, trailing or double dot)` }
    }
    if (!SEGMENT.test(segment)) {
      return {
        ok: false,
        detail: `${preview(name)}: the segment ${preview(segment)} is not an identifier (letters, digits and _, not starting with a digit)`
      }
    }
    if (forbidden.has(segment)) {
      return {
        ok: false,
        detail: `${preview(name)}: the segment ${preview(segment)} is a property of Object.prototype and could reach a prototype`
      }
    }
  }
  return { ok: true, path }
}

/** "transfer_reason_code" -> "Transfer reason code" */
export const label = (segment: string): string => {
  const words = segment.replace(/_+/g, " ").trim()
  return words.length === 0 ? segment : words[0]!.toUpperCase() + words.slice(1)
}
