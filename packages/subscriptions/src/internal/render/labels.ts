/**
 * The geometry of the text of a picture, and the placing of labels along a line so that no two overlap.
 *
 * The pictures use a monospaced font and give every text its `textLength`, so a text's box follows from its
 * attributes alone: `fontSize * 0.6` per character across, from `0.8 * fontSize` above the baseline to `0.2 *
 * fontSize` below it. A renderer draws the text into exactly that width (`lengthAdjust="spacingAndGlyphs"`).
 *
 * @internal
 */

/**
 * The advance of one character of a monospaced font, in font sizes (DejaVu Sans Mono, Menlo and Consolas: 0.6).
 *
 * @since 0.1.0
 * @category geometry
 */
export const CHARACTER_WIDTH = 0.6

/**
 * @since 0.1.0
 * @category models
 */
export type Anchor = "start" | "middle" | "end"

/**
 * @since 0.1.0
 * @category models
 */
export interface Box {
  readonly left: number
  readonly right: number
  readonly top: number
  readonly bottom: number
}

const codePoints = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

/**
 * How wide a text is drawn, in pixels.
 *
 * @since 0.1.0
 * @category geometry
 */
export const textWidth = (text: string, fontSize: number): number => codePoints(text) * fontSize * CHARACTER_WIDTH

/**
 * The box of a text drawn at (x, y) with an anchor and a width.
 *
 * @since 0.1.0
 * @category geometry
 */
export const box = (x: number, y: number, anchor: Anchor, width: number, fontSize: number): Box => {
  const left = anchor === "start" ? x : anchor === "middle" ? x - width / 2 : x - width
  return { left, right: left + width, top: y - 0.8 * fontSize, bottom: y + 0.2 * fontSize }
}

/**
 * Whether two boxes share any area (touching edges do not count).
 *
 * @since 0.1.0
 * @category geometry
 */
export const overlap = (a: Box, b: Box): boolean =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom

/**
 * A label that wants to sit centred at `x`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Candidate {
  readonly x: number
  readonly text: string
  /** a label that may be left out when it does not fit (a cycle cut short by the end of the picture) */
  readonly optional?: boolean
}

/**
 * A label placed: centred at `x`, `width` wide.
 *
 * @since 0.1.0
 * @category models
 */
export interface Placed {
  readonly x: number
  readonly text: string
  readonly width: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Line {
  /** the span the labels must stay within */
  readonly min: number
  readonly max: number
  readonly fontSize: number
  /** the least space between two labels */
  readonly gap: number
}

const clampTo = (line: Line, c: Candidate): Placed => {
  const width = textWidth(c.text, line.fontSize)
  const half = width / 2
  const x = Math.min(Math.max(c.x, line.min + half), line.max - half)
  return { x, text: c.text, width }
}

const clear = (line: Line, a: Placed, b: Placed): boolean => Math.abs(a.x - b.x) - (a.width + b.width) / 2 >= line.gap

/**
 * All the required labels on a line, each moved inside the span if it stuck out, and the optional ones that find
 * room among them; or `undefined` when two required labels would come closer than the gap (or one is wider than the
 * span): the caller then tries a coarser level.
 *
 * @since 0.1.0
 * @category layout
 */
export const fitAll = (line: Line, candidates: ReadonlyArray<Candidate>): ReadonlyArray<Placed> | undefined => {
  const required = candidates
    .filter((c) => c.optional !== true)
    .map((c) => clampTo(line, c))
    .sort((a, b) => a.x - b.x)
  for (let i = 0; i < required.length; i++) {
    const p = required[i]!
    if (p.width > line.max - line.min) return undefined
    const next = required[i + 1]
    if (next !== undefined && !clear(line, p, next)) return undefined
  }
  const placed = [...required]
  for (const c of candidates) {
    if (c.optional !== true) continue
    const p = clampTo(line, c)
    if (p.width <= line.max - line.min && placed.every((q) => clear(line, p, q))) placed.push(p)
  }
  return placed.sort((a, b) => a.x - b.x)
}

/**
 * The labels that fit, taken from left to right: a label is kept when it keeps the gap to the last one kept, and
 * dropped otherwise. Never two overlapping labels, whatever the input.
 *
 * @since 0.1.0
 * @category layout
 */
export const thin = (line: Line, candidates: ReadonlyArray<Candidate>): ReadonlyArray<Placed> => {
  const kept: Array<Placed> = []
  for (const p of candidates.map((c) => clampTo(line, c)).sort((a, b) => a.x - b.x)) {
    if (p.width > line.max - line.min) continue
    const last = kept[kept.length - 1]
    if (last === undefined || clear(line, last, p)) kept.push(p)
  }
  return kept
}

/**
 * The first level whose labels all fit (levels from the finest, one label per cycle, to the coarsest, one per
 * phase), or the coarsest thinned when none does.
 *
 * @since 0.1.0
 * @category layout
 */
export const byZoom = <L>(
  line: Line,
  levels: ReadonlyArray<readonly [L, ReadonlyArray<Candidate>]>
): { readonly level: L; readonly labels: ReadonlyArray<Placed> } | undefined => {
  for (const [level, candidates] of levels) {
    const placed = fitAll(line, candidates)
    if (placed !== undefined) return { level, labels: placed }
  }
  const coarsest = levels[levels.length - 1]
  return coarsest === undefined ? undefined : { level: coarsest[0], labels: thin(line, coarsest[1]) }
}
