/**
 * What of a long text the annotated view renders: every line costs an element, so a paste of 500,000 lines would
 * take the page minutes to lay out. The first {@link MAX_LINES} lines are shown, then only the lines with notes
 * (at most {@link MAX_NOTES} notes in all), with a gap where lines are left out; a line is cut after
 * {@link MAX_LINE_CHARACTERS} characters. Plain data, so that the rule is tested without the page.
 */

/** lines shown from the start of the text */
export const MAX_LINES = 2000
/** notes shown in all (the first ones, in the order of the text) */
export const MAX_NOTES = 500
/** characters shown of one line */
export const MAX_LINE_CHARACTERS = 2000

export type Item =
  /** a line of the text, 0-based */
  | { readonly _tag: "Line"; readonly line: number }
  /** lines `from` to `to` (0-based, inclusive) are left out */
  | { readonly _tag: "Gap"; readonly from: number; readonly to: number }

/**
 * The lines to render, in order, for a text of `lineCount` lines whose notes are on `flagged` lines (any order,
 * repeats allowed): lines 0 to MAX_LINES - 1, then each flagged line after them, and the gaps between.
 */
export const shownLines = (lineCount: number, flagged: Iterable<number>): ReadonlyArray<Item> => {
  const items: Array<Item> = []
  const head = Math.min(lineCount, MAX_LINES)
  for (let line = 0; line < head; line++) items.push({ _tag: "Line", line })
  const after = [...new Set(flagged)].filter((l) => l >= head && l < lineCount).sort((a, b) => a - b)
  let next = head
  for (const line of after) {
    if (line > next) items.push({ _tag: "Gap", from: next, to: line - 1 })
    items.push({ _tag: "Line", line })
    next = line + 1
  }
  if (next < lineCount) items.push({ _tag: "Gap", from: next, to: lineCount - 1 })
  return items
}

/** a line as shown: cut after MAX_LINE_CHARACTERS, saying how many characters are left out */
export const shownLine = (line: string): string =>
  line.length <= MAX_LINE_CHARACTERS
    ? line
    : `${line.slice(0, MAX_LINE_CHARACTERS)} … (${(line.length - MAX_LINE_CHARACTERS).toLocaleString("en-GB")} more characters)`
