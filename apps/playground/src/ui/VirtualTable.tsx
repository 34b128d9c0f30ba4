/**
 * A table that stays fast for 315 million rows: a real `<table>` (headers, row and column counts for assistive
 * technology) that holds only the rows in view, between two spacer rows as tall as the rows left out (their height
 * scaled when the rows would be taller than a browser lets an element be: see `scroll.ts`). It scrolls in its own
 * region, which the keyboard reaches (Tab) and scrolls (arrows, Page Up/Down, Home/End). When the number of rows
 * changes, a position past the new end is brought back to it.
 */
import type { ComponentChildren } from "preact"
import { useLayoutEffect, useRef, useState } from "preact/hooks"
import { ROW, VIEW, windowOf } from "./scroll.js"

interface Scroll {
  readonly top: number
  /** `scrollHeight - clientHeight` when last measured */
  readonly range: number | undefined
}

export const VirtualTable = <R,>(props: {
  readonly caption: string
  readonly columns: ReadonlyArray<string>
  readonly count: number
  readonly row: (index: number) => R | undefined
  readonly cells: (row: R) => ReadonlyArray<ComponentChildren>
}) => {
  const region = useRef<HTMLElement>(null)
  const [scroll, setScroll] = useState<Scroll>({ top: 0, range: undefined })
  const measure = (el: HTMLElement) => {
    const next = { top: el.scrollTop, range: el.scrollHeight - el.clientHeight }
    setScroll((s) => (s.top === next.top && s.range === next.range ? s : next))
  }
  // a new number of rows: the spacers changed; a position past the new end is read as the end (windowOf), and the
  // region's own position is brought back within it and measured again
  useLayoutEffect(() => {
    const el = region.current
    if (el === null) return
    const end = Math.max(0, el.scrollHeight - el.clientHeight)
    if (el.scrollTop > end) el.scrollTop = end
    measure(el)
  }, [props.count])
  const w = windowOf(props.count, scroll.top, scroll.range)
  const rows: Array<ComponentChildren> = []
  for (let i = w.first; i < w.last; i++) {
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
      ref={region}
      class="virtual"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable from the keyboard
      tabIndex={0}
      aria-label={`${props.caption}: ${props.count} rows, scroll to see more`}
      style={{ height: `${(VIEW + 1) * ROW + 2}px` }}
      onScroll={(e) => measure(e.currentTarget as HTMLElement)}
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
          <tr class="spacer" style={{ height: `${w.top}px` }} />
          {rows}
          <tr class="spacer" style={{ height: `${Math.max(0, w.height - w.top - rows.length * ROW)}px` }} />
        </tbody>
      </table>
    </section>
  )
}
