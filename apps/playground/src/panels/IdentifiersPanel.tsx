/**
 * Identifiers and durations: one input read as an IBAN, a UK sort code and account number, a US routing number or
 * an ISO 8601 duration; what was parsed, or the typed reason it was refused.
 */
import { ModulusChecker } from "@payrules/accounts"
import * as Effect from "effect/Effect"
import { useEffect, useLayoutEffect, useMemo, useState } from "preact/hooks"
import type { PanelProps } from "../App.js"
import { kindNames, modulusCheck, read } from "../identifiers/model.js"
import * as Marks from "../marks.js"

/** Vocalink's weight table as `@payrules/accounts` ships it, read when this panel's code arrives */
export const tableLoaded: Promise<ModulusChecker.ModulusTable | undefined> = Effect.runPromise(
  ModulusChecker.defaultTable
).catch(() => undefined)

let table: ModulusChecker.ModulusTable | undefined
void tableLoaded.then((t) => {
  table = t
})

const examples = [
  "GB82 WEST 1234 5698 7654 32",
  "ES91 2100 0418 4502 0005 1332",
  "GB82 WEST 1234 5698 7654 33",
  "08-99-99 66374958",
  "011000015",
  "P1Y2M10DT2H30M",
  "P0.5Y"
]

export const IdentifiersPanel = ({ onChange, value }: PanelProps<string>) => {
  const [, setTableReady] = useState(table !== undefined)
  useEffect(() => {
    if (table === undefined) void tableLoaded.then(() => setTableReady(true))
  }, [])
  const reading = useMemo(() => read(value), [value])
  const modulus =
    reading._tag === "Parsed" && reading.kind === "uk" && table !== undefined ? modulusCheck(table, value) : undefined
  useLayoutEffect(() => Marks.result("identifiers"), [reading])
  return (
    <div class="panel identifiers">
      <h2>Identifiers and durations</h2>
      <p class="intro">
        An IBAN, a UK sort code and account number, a US routing number or an ISO 8601 duration: what payrules reads in
        it, or the reason it refuses it.
      </p>
      <div class="field wide">
        <label for="identifier-input">Identifier or duration</label>
        <input
          id="identifier-input"
          value={value}
          spellcheck={false}
          autocomplete="off"
          aria-describedby="identifier-examples"
          onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value)}
        />
        <span id="identifier-examples" class="hint">
          For example:{" "}
          {examples.map((x, i) => (
            <span key={x}>
              {i > 0 ? ", " : ""}
              <button type="button" class="link" onClick={() => onChange(x)}>
                {x}
              </button>
            </span>
          ))}
        </span>
      </div>
      <section
        class="reading"
        aria-labelledby="identifier-result-title"
        aria-live="polite"
        data-testid="identifier-result"
      >
        <h3 id="identifier-result-title">
          {reading._tag === "Empty"
            ? "Type something to read"
            : reading._tag === "Unrecognised"
              ? "Not recognised"
              : reading._tag === "Parsed"
                ? `Read as ${kindNames[reading.kind]}`
                : `Refused as ${kindNames[reading.kind]}`}
        </h3>
        {reading._tag === "Unrecognised" ? <p>{reading.message}</p> : null}
        {reading._tag === "Refused" ? (
          <p class="refusal">
            <code>
              {reading.error} {reading.reason}
            </code>
            : {reading.message}
          </p>
        ) : null}
        {reading._tag === "Parsed" ? (
          <dl>
            {[...reading.facts, ...(modulus === undefined ? [] : [modulus])].map((f) => (
              <div key={f.name}>
                <dt>{f.name}</dt>
                <dd>{f.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
      </section>
      <section class="command" aria-labelledby="identifier-command-title">
        <h3 id="identifier-command-title">Open in the command line</h3>
        <p>
          No <code>payrules</code> command reads a lone identifier or duration: in code, it is <code>Iban.parse</code>,{" "}
          <code>UkAccount.parse</code> with <code>ModulusChecker.check</code>, <code>AbaRouting.parse</code> (
          <code>@payrules/accounts</code>) or <code>IsoDuration.parse</code> (<code>@payrules/iso8601</code>).
        </p>
      </section>
    </div>
  )
}
