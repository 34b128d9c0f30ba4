/**
 * Which rows of a long table are in view, and where they go, for a scroll position: plain arithmetic, apart from the
 * page. Rows are {@link ROW} pixels tall. Up to {@link MAX_HEIGHT} pixels of rows, the scroll space is the rows'
 * own height (a pixel is a pixel); beyond it (a browser caps an element's height: Chromium near 33.5 million pixels,
 * 1.29 million rows), the scroll space stays {@link MAX_HEIGHT} tall and a position maps to a row in proportion:
 * row = scrollTop / (scrollHeight - clientHeight) × (count - rows in view), so the first and the last rows are
 * reached, and the rows move with the scrollbar between them.
 */

/** the height of a row, in pixels */
export const ROW = 26
/** rows in view */
export const VIEW = 14
/** rows rendered beyond the view on each side, when a pixel is a pixel */
export const OVERSCAN = 6
/** the tallest scroll space for the rows, in pixels */
export const MAX_HEIGHT = 10_000_000

export interface Window {
  /** the rows to render: from `first` to `last`, exclusive */
  readonly first: number
  readonly last: number
  /** pixels above and below them (the spacers) */
  readonly top: number
  readonly bottom: number
  /** the height of the rows' scroll space: `top + (last - first) × ROW + bottom` */
  readonly height: number
  /** whether positions map to rows in proportion */
  readonly scaled: boolean
}

/**
 * The rows to render for `count` rows scrolled to `scrollTop`. `range` is how far the region scrolls
 * (`scrollHeight - clientHeight`) as last measured; without it, the scroll space less the rows in view. A position
 * past the end (left from a longer table) is read as the end.
 */
export const windowOf = (count: number, scrollTop: number, range?: number): Window => {
  const rows = Math.max(0, Math.floor(count))
  if (rows * ROW <= MAX_HEIGHT) {
    const height = rows * ROW
    const at = Math.min(Math.max(scrollTop, 0), Math.max(0, height - VIEW * ROW))
    const first = Math.max(0, Math.floor(at / ROW) - OVERSCAN)
    const last = Math.min(rows, Math.ceil((at + VIEW * ROW) / ROW) + OVERSCAN)
    return { first, last, top: first * ROW, bottom: (rows - last) * ROW, height, scaled: false }
  }
  const height = MAX_HEIGHT
  const span = range !== undefined && range > 0 ? range : height - VIEW * ROW
  const at = Math.min(Math.max(scrollTop, 0), span)
  // the row at the top of the view, with its fraction: 0 at the top, count - VIEW at the end
  const exact = (at / span) * (rows - VIEW)
  const first = Math.min(Math.floor(exact), rows - VIEW)
  const last = Math.min(rows, first + VIEW + 2)
  const shown = (last - first) * ROW
  // the first row sits at the top of the view, moved up by its fraction so that the rows glide with the scrollbar
  const top = Math.min(Math.max(at - (exact - first) * ROW, 0), height - shown)
  return { first, last, top, bottom: height - top - shown, height, scaled: true }
}
