/**
 * A JSON text as its author wrote it, line by line, with each note under the line of the field it is about: the
 * findings of a plan check next to the field they name, the issues of a payment next to the offending field.
 */
import { type Located, type Path, placeOf } from "../json/locate.js"

export interface Note {
  readonly path: Path
  readonly severity: "error" | "warning"
  /** the rule or reason, shown first */
  readonly label: string
  readonly message: string
}

const pathText = (path: Path) => (path.length === 0 ? "(whole document)" : path.join("."))

export const Annotated = (props: {
  readonly label: string
  readonly text: string
  readonly located: Located
  readonly notes: ReadonlyArray<Note>
}) => {
  const lines = props.text.split("\n")
  const byLine = new Map<number, Array<Note & { readonly where: string }>>()
  const add = (line: number, note: Note & { readonly where: string }) => {
    const at = Math.min(Math.max(line, 0), lines.length - 1)
    byLine.set(at, [...(byLine.get(at) ?? []), note])
  }
  if (!props.located.ok) {
    add(props.located.line, {
      path: [],
      severity: "error",
      label: "JSON",
      message: `not JSON: ${props.located.message}`,
      where: `line ${props.located.line + 1}`
    })
  } else {
    for (const note of props.notes) {
      const place = placeOf(props.located.places, note.path)
      add(place?.line ?? 0, { ...note, where: pathText(note.path) })
    }
  }
  return (
    <figure class="annotated">
      <figcaption>{props.label}</figcaption>
      {/* it scrolls when long: a stop for the keyboard (axe's scrollable-region-focusable), named by its caption */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable from the keyboard */}
      <ol class="code" tabIndex={0} aria-label={props.label}>
        {lines.map((line, i) => {
          const notes = byLine.get(i)
          const worst = notes?.some((n) => n.severity === "error") ? "error" : notes === undefined ? "" : "warning"
          return (
            <li key={i} class={worst === "" ? undefined : `flagged ${worst}`}>
              <span class="line">{line === "" ? " " : line}</span>
              {notes?.map((n, k) => (
                <div key={k} class={`note ${n.severity}`} role="note">
                  <strong>
                    {n.severity} {n.label}
                  </strong>{" "}
                  <span class="where">{n.where}</span>: {n.message}
                </div>
              ))}
            </li>
          )
        })}
      </ol>
    </figure>
  )
}
