/**
 * A JSON text as its author wrote it, line by line, with each note under the line of the field it is about: the
 * findings of a plan check next to the field they name, the issues of a payment next to the offending field. A long
 * text shows its first lines and the lines with notes (see `shown.ts`); a text too large to read shows its refusal.
 */
import { type Located, type Path, placeOf } from "../json/locate.js"
import { MAX_LINES, MAX_NOTES, shownLine, shownLines } from "./shown.js"

export interface Note {
  readonly path: Path
  readonly severity: "error" | "warning"
  /** the rule or reason, shown first */
  readonly label: string
  readonly message: string
}

type Placed = Note & { readonly where: string; readonly line: number }

const pathText = (path: Path) => (path.length === 0 ? "(whole document)" : path.join("."))

const count = (n: number) => n.toLocaleString("en-GB")

const NoteView = (props: { readonly note: Placed }) => (
  <div class={`note ${props.note.severity}`} role="note">
    <strong>
      {props.note.severity} {props.note.label}
    </strong>{" "}
    <span class="where">{props.note.where}</span>: {props.note.message}
  </div>
)

export const Annotated = (props: {
  readonly label: string
  readonly text: string
  readonly located: Located
  readonly notes: ReadonlyArray<Note>
}) => {
  const located = props.located
  if (!located.ok && located.reason === "TooLarge") {
    // not one line of it is rendered: the refusal is the whole view
    return (
      <figure class="annotated">
        <figcaption>{props.label}</figcaption>
        <NoteView
          note={{
            path: [],
            severity: "error",
            label: "too large",
            message: located.message,
            where: "the text",
            line: 0
          }}
        />
      </figure>
    )
  }
  const lines = props.text.split("\n")
  const at = (line: number) => Math.min(Math.max(line, 0), lines.length - 1)
  const placed: Array<Placed> = !located.ok
    ? [
        {
          path: [],
          severity: "error",
          label: located.reason === "TooDeep" ? "too deep" : "JSON",
          message: located.reason === "TooDeep" ? located.message : `not JSON: ${located.message}`,
          where: `line ${located.line + 1}`,
          line: at(located.line)
        }
      ]
    : props.notes.map((note) => ({
        ...note,
        where: pathText(note.path),
        line: at(placeOf(located.places, note.path)?.line ?? 0)
      }))
  // the first notes in the order of the text; a stable sort keeps the order of the notes of one line
  const kept = placed.length > MAX_NOTES ? [...placed].sort((a, b) => a.line - b.line).slice(0, MAX_NOTES) : placed
  const byLine = new Map<number, Array<Placed>>()
  for (const note of kept) byLine.set(note.line, [...(byLine.get(note.line) ?? []), note])
  const items = shownLines(lines.length, byLine.keys())
  return (
    <figure class="annotated">
      <figcaption>{props.label}</figcaption>
      {lines.length > MAX_LINES ? (
        <p class="cut" data-testid="annotated-cut">
          A long text: its first {count(MAX_LINES)} lines of {count(lines.length)} are shown, then only the lines with
          notes.
        </p>
      ) : null}
      {kept.length < placed.length ? (
        <p class="cut">
          {count(placed.length - kept.length)} more note(s) after the first {count(MAX_NOTES)} are not shown.
        </p>
      ) : null}
      {/* it scrolls when long: a stop for the keyboard (axe's scrollable-region-focusable), named by its caption */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable from the keyboard */}
      <ol class="code" tabIndex={0} aria-label={props.label}>
        {items.map((item, k) => {
          if (item._tag === "Gap") {
            return (
              <li key={`gap-${item.from}`} class="gap">
                {item.from === item.to
                  ? `line ${count(item.from + 1)} is not shown`
                  : `lines ${count(item.from + 1)} to ${count(item.to + 1)} are not shown`}
              </li>
            )
          }
          const i = item.line
          const notes = byLine.get(i)
          const worst = notes?.some((n) => n.severity === "error") ? "error" : notes === undefined ? "" : "warning"
          const line = shownLine(lines[i]!)
          return (
            <li
              key={i}
              value={k > 0 && items[k - 1]!._tag === "Gap" ? i + 1 : undefined}
              class={worst === "" ? undefined : `flagged ${worst}`}
            >
              <span class="line">{line === "" ? " " : line}</span>
              {notes?.map((n, j) => (
                <NoteView key={j} note={n} />
              ))}
            </li>
          )
        })}
      </ol>
    </figure>
  )
}
