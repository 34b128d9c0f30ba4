/**
 * A table that stays fast for 43,800 rows: a real `<table>` (headers, row and column counts for assistive
 * technology) that holds only the rows in view, between two spacer rows as tall as the rows left out. It scrolls in
 * its own region, which the keyboard reaches (Tab) and scrolls (arrows, Page Up/Down, Home/End).
 */
import type { ComponentChildren } from "preact"
import { useState } from "preact/hooks"

const ROW = 26
const VIEW = 14
const OVERSCAN = 6

export const VirtualTable = <R,>(props: {
  readonly caption: string
  readonly columns: ReadonlyArray<string>
  readonly count: number
  readonly row: (index: number) => R | undefined
  readonly cells: (row: R) => ReadonlyArray<ComponentChildren>
}) => {
  const [top, setTop] = useState(0)
  const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN)
  const last = Math.min(props.count, Math.ceil((top + VIEW * ROW) / ROW) + OVERSCAN)
  const rows: Array<ComponentChildren> = []
  for (let i = first; i < last; i++) {
    const r = props.row(i)
    if (r === undefined) break
    rows.push(
      <tr key={i} aria-rowindex={i + 2}>
        {props.cells(r).map((c, k) => (
          <td key={k}>{c}</td>
        ))}
      </tr>
    )
  }
  return (
    <section
      class="virtual"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable from the keyboard
      tabIndex={0}
      aria-label={`${props.caption}: ${props.count} rows, scroll to see more`}
      style={{ height: `${(VIEW + 1) * ROW + 2}px` }}
      onScroll={(e) => setTop((e.currentTarget as HTMLElement).scrollTop)}
    >
      <table aria-rowcount={props.count + 1}>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr aria-rowindex={1}>
            {props.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr class="spacer" style={{ height: `${first * ROW}px` }} />
          {rows}
          <tr class="spacer" style={{ height: `${(props.count - first - rows.length) * ROW}px` }} />
        </tbody>
      </table>
    </section>
  )
}
