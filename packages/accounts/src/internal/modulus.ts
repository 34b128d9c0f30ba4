import * as Data from "effect/Data"

export type Method = "MOD10" | "MOD11" | "DBLAL"

export interface Row {
  readonly from: string
  readonly to: string
  readonly method: Method
  readonly weights: ReadonlyArray<number>
  readonly exception: number | undefined
}

export interface Table {
  readonly rows: ReadonlyArray<Row>
  readonly substitutions: ReadonlyMap<string, string>
}

export interface CheckOutcome {
  readonly method: Method
  readonly exception: number | undefined
  readonly outcome: "Passed" | "Failed" | "Skipped"
  readonly detail: string
}

export type ModulusResult = Data.TaggedEnum<{
  Valid: { readonly checks: ReadonlyArray<CheckOutcome> }
  Invalid: { readonly checks: ReadonlyArray<CheckOutcome>; readonly message: string }
  Unchecked: { readonly reason: "FormatOnly" | "SortCodeNotInTable"; readonly message: string }
}>

export const ModulusResult = Data.taggedEnum<ModulusResult>()

// positions of the 14 digits: sort code u v w x y z, account number a b c d e f g h
const A = 6
const B = 7
const C = 8
const G = 12
const H = 13

/** Exception 2, a ≠ 0 and g ≠ 9 */
const EXCEPTION_2_WEIGHTS = [0, 0, 1, 2, 5, 3, 6, 4, 8, 7, 10, 9, 3, 1]
/** Exception 2, a ≠ 0 and g = 9 */
const EXCEPTION_2_WEIGHTS_G9 = [0, 0, 0, 0, 0, 0, 0, 0, 8, 7, 10, 9, 3, 1]
/** Exception 8 */
const EXCEPTION_8_SORT_CODE = "090126"
/** Exception 9 */
const EXCEPTION_9_SORT_CODE = "309634"

const mod = (n: number, m: number): number => ((n % m) + m) % m

const digitSum = (n: number): number => {
  let a = Math.abs(n)
  let s = 0
  while (a > 0) {
    s += a % 10
    a = Math.floor(a / 10)
  }
  return n < 0 ? -s : s
}

const toDigits = (s: string): Array<number> => Array.from(s, (c) => c.charCodeAt(0) - 48)

const withSortCode = (d: ReadonlyArray<number>, sortCode: string): Array<number> => [
  ...toDigits(sortCode),
  ...d.slice(6)
]

const zeroiseUtoB = (w: ReadonlyArray<number>): Array<number> => w.map((x, i) => (i <= B ? 0 : x))

const total = (method: Method, d: ReadonlyArray<number>, w: ReadonlyArray<number>): number => {
  let t = 0
  for (let i = 0; i < 14; i++) {
    const p = d[i]! * w[i]!
    t += method === "DBLAL" ? digitSum(p) : p
  }
  return t
}

const outcome = (row: Row, passed: boolean, detail: string): CheckOutcome => ({
  method: row.method,
  exception: row.exception,
  outcome: passed ? "Passed" : "Failed",
  detail
})

const sortCodeOf = (d: ReadonlyArray<number>): string => d.slice(0, 6).join("")

/** One row's check, with the exceptions that change how that row is computed. */
const run = (table: Table, row: Row, original: ReadonlyArray<number>): CheckOutcome => {
  const ex = row.exception
  let d: ReadonlyArray<number> = original
  let w: ReadonlyArray<number> = row.weights
  const notes: Array<string> = []

  if (ex === 3 && (d[C] === 6 || d[C] === 9)) {
    return { method: row.method, exception: ex, outcome: "Skipped", detail: `not performed: c = ${d[C]} (exception 3)` }
  }
  if (ex === 2 && d[A] !== 0) {
    w = d[G] === 9 ? EXCEPTION_2_WEIGHTS_G9 : EXCEPTION_2_WEIGHTS
    notes.push(`weights ${w.join(" ")} (exception 2: a ≠ 0, g ${d[G] === 9 ? "=" : "≠"} 9)`)
  }
  if (ex === 5) {
    const sub = table.substitutions.get(sortCodeOf(d))
    if (sub !== undefined) {
      notes.push(`sort code ${sortCodeOf(d)} substituted with ${sub} (exception 5)`)
      d = withSortCode(d, sub)
    }
  }
  if (ex === 7 && d[G] === 9) {
    w = zeroiseUtoB(w)
    notes.push("weights u-b zeroised (exception 7: g = 9)")
  }
  if (ex === 8) {
    d = withSortCode(d, EXCEPTION_8_SORT_CODE)
    notes.push(`sort code ${EXCEPTION_8_SORT_CODE} used (exception 8)`)
  }
  if (ex === 9) {
    d = withSortCode(d, EXCEPTION_9_SORT_CODE)
    notes.push(`sort code ${EXCEPTION_9_SORT_CODE} used (exception 9)`)
  }
  if (ex === 10 && (d[A] === 0 || d[A] === 9) && d[B] === 9 && d[G] === 9) {
    w = zeroiseUtoB(w)
    notes.push(`weights u-b zeroised (exception 10: ab = ${d[A]}${d[B]}, g = 9)`)
  }

  let t = total(row.method, d, w)
  if (ex === 1 && row.method === "DBLAL") {
    t += 27
    notes.push("27 added to the total (exception 1)")
  }
  const suffix = notes.length === 0 ? "" : `; ${notes.join("; ")}`
  switch (row.method) {
    case "MOD10": {
      const r = mod(t, 10)
      return outcome(row, r === 0, `MOD10 total ${t}, remainder ${r}${suffix}`)
    }
    case "MOD11": {
      const r = mod(t, 11)
      if (ex === 4) {
        const gh = d[G]! * 10 + d[H]!
        return outcome(row, r === gh, `MOD11 total ${t}, remainder ${r}, check digits gh ${gh} (exception 4)${suffix}`)
      }
      if (ex === 5) {
        const g = d[G]!
        const passed = r === 0 ? g === 0 : r !== 1 && 11 - r === g
        return outcome(row, passed, `MOD11 total ${t}, remainder ${r}, check digit g ${g} (exception 5)${suffix}`)
      }
      if (r !== 0 && ex === 14) return exception14(row, original, `MOD11 total ${t}, remainder ${r}${suffix}`)
      return outcome(row, r === 0, `MOD11 total ${t}, remainder ${r}${suffix}`)
    }
    case "DBLAL": {
      const r = mod(t, 10)
      if (ex === 5) {
        const h = d[H]!
        const passed = r === 0 ? h === 0 : 10 - r === h
        return outcome(row, passed, `DBLAL total ${t}, remainder ${r}, check digit h ${h} (exception 5)${suffix}`)
      }
      return outcome(row, r === 0, `DBLAL total ${t}, remainder ${r}${suffix}`)
    }
  }
}

/**
 * Exception 14 (Coutts): when the standard check fails and h is 0, 1 or 9, drop h, shift the account number right
 * with a leading 0 and repeat the modulus 11 check with the same weights.
 */
const exception14 = (row: Row, d: ReadonlyArray<number>, first: string): CheckOutcome => {
  const h = d[H]!
  if (h !== 0 && h !== 1 && h !== 9) {
    return outcome(row, false, `${first}; h = ${h} is not 0, 1 or 9, so the account fails (exception 14)`)
  }
  const shifted = [...d.slice(0, 6), 0, ...d.slice(6, 13)]
  const t = total("MOD11", shifted, row.weights)
  const r = mod(t, 11)
  return outcome(
    row,
    r === 0,
    `${first}; account number shifted to ${shifted.slice(6).join("")} (exception 14): MOD11 total ${t}, remainder ${r}`
  )
}

const passedOrSkipped = (c: CheckOutcome): boolean => c.outcome !== "Failed"

const formatSortCode = (s: string): string => `${s.slice(0, 2)}-${s.slice(2, 4)}-${s.slice(4)}`

const invalid = (sortCode: string, account: string, checks: ReadonlyArray<CheckOutcome>): ModulusResult => {
  const failed = checks.filter((c) => c.outcome === "Failed").map((c) => c.method)
  return ModulusResult.Invalid({
    checks,
    message: `Account number ${account} fails the ${failed.join(" and ")} modulus check${
      failed.length === 1 ? "" : "s"
    } for sort code ${formatSortCode(sortCode)}`
  })
}

/**
 * The rows of a table cut at every range bound: `rows[i]` are the rows (in table order, at most two) that cover the
 * sort codes from `starts[i]` up to `starts[i + 1]`. Built once per table, so a check is a binary search rather than
 * a scan of the thousand-odd rows.
 */
interface RangeIndex {
  readonly starts: ReadonlyArray<number>
  readonly rows: ReadonlyArray<ReadonlyArray<Row>>
}

const NONE: ReadonlyArray<Row> = []

const indexes = new WeakMap<ReadonlyArray<Row>, RangeIndex>()

/** The last index whose start is at most `n`, or -1. */
const floorIndex = (starts: ReadonlyArray<number>, n: number): number => {
  let lo = 0
  let hi = starts.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    if (starts[mid]! <= n) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}

const buildIndex = (rows: ReadonlyArray<Row>): RangeIndex => {
  const bounds = new Set<number>()
  for (const r of rows) {
    bounds.add(Number(r.from))
    bounds.add(Number(r.to) + 1)
  }
  const starts = [...bounds].sort((a, b) => a - b)
  const covering: Array<Array<Row>> = starts.map(() => [])
  for (const r of rows) {
    const end = Number(r.to) + 1
    for (let i = floorIndex(starts, Number(r.from)); i < starts.length && starts[i]! < end; i++) {
      const at = covering[i]!
      if (at.length < 2) at.push(r)
    }
  }
  return { starts, rows: covering }
}

/** The first two rows, in table order, whose range holds the sort code. */
const matching = (table: Table, sortCode: string): ReadonlyArray<Row> => {
  let index = indexes.get(table.rows)
  if (index === undefined) {
    index = buildIndex(table.rows)
    indexes.set(table.rows, index)
  }
  const i = floorIndex(index.starts, Number(sortCode))
  return i < 0 ? NONE : index.rows[i]!
}

/** The Vocalink modulus checks of a six-digit sort code and an eight-digit account number. */
export const evaluate = (table: Table, sortCode: string, account: string): ModulusResult => {
  const rows = matching(table, sortCode)
  const first = rows[0]
  if (first === undefined) {
    return ModulusResult.Unchecked({
      reason: "SortCodeNotInTable",
      message: `Sort code ${formatSortCode(sortCode)} is not in the modulus weight table: no check can be made, and Vocalink presumes the account valid`
    })
  }
  const d = toDigits(sortCode + account)
  if (rows.some((r) => r.exception === 6) && d[A]! >= 4 && d[A]! <= 8 && d[G] === d[H]) {
    return ModulusResult.Valid({
      checks: rows.map((r) => ({
        method: r.method,
        exception: r.exception,
        outcome: "Skipped",
        detail: "not performed: a foreign currency account (exception 6: a is 4 to 8 and g = h)"
      }))
    })
  }
  const c1 = run(table, first, d)
  const second = rows[1]
  if (second === undefined) {
    return passedOrSkipped(c1) ? ModulusResult.Valid({ checks: [c1] }) : invalid(sortCode, account, [c1])
  }
  // exceptions 2 & 9, 10 & 11, 12 & 13: the account is valid when either check passes
  if (first.exception === 2 || first.exception === 10 || first.exception === 12) {
    if (passedOrSkipped(c1)) return ModulusResult.Valid({ checks: [c1] })
    const c2 = run(table, second, d)
    return passedOrSkipped(c2) ? ModulusResult.Valid({ checks: [c1, c2] }) : invalid(sortCode, account, [c1, c2])
  }
  if (!passedOrSkipped(c1)) return invalid(sortCode, account, [c1])
  const c2 = run(table, second, d)
  return passedOrSkipped(c2) ? ModulusResult.Valid({ checks: [c1, c2] }) : invalid(sortCode, account, [c1, c2])
}
