/**
 * Transfer fields: a POST /pay/fields response, the scheme limits that apply, and a payment body; every issue with
 * its path and message, the offending field marked in the body; a rule the compiler refuses shown as its typed
 * `RuleError`.
 */
import { useLayoutEffect, useMemo } from "preact/hooks"
import type { PanelProps } from "../App.js"
import { compute } from "../fields/model.js"
import { presetById, presets, pretty, type Scheme, schemes } from "../fields/presets.js"
import type { Located } from "../json/locate.js"
import * as Marks from "../marks.js"
import type { State } from "../state.js"
import { Annotated, type Note } from "../ui/Annotated.js"
import { CommandLine } from "../ui/CommandLine.js"

type Value = State["fields"]

/** why a text is not read, in the summary */
const unread = (what: string, located: Located) =>
  located.ok || located.reason === "NotJson"
    ? `The ${what} is not JSON.`
    : `The ${what} cannot be read: ${located.message}.`

export const FieldsPanel = ({ onChange, value }: PanelProps<Value>) => {
  const result = useMemo(() => compute(value), [value])
  useLayoutEffect(() => Marks.result("fields"), [result])
  const set = (patch: Partial<Value>) => {
    const next = { ...value, ...patch }
    const preset = next.preset === undefined ? undefined : presetById(next.preset)
    onChange({ ...next, preset: preset !== undefined && pretty(preset.fields) === next.fields ? preset.id : undefined })
  }
  const compiled = result.compiled
  const checked = result.checked
  const ruleNotes: Array<Note> =
    compiled?._tag === "Malformed"
      ? compiled.issues.map((i) => ({
          path: i.path,
          severity: "error",
          label: "not a /pay/fields response",
          message: i.message
        }))
      : []
  const bodyNotes: Array<Note> =
    checked?._tag === "Invalid"
      ? checked.issues.map((i) => ({ path: i.path, severity: "error", label: i.rule, message: i.message }))
      : []
  return (
    <div class="panel fields">
      <h2>Transfer fields</h2>
      <p class="intro">
        A payment body checked against the rules of POST /pay/fields and the limits of the payment scheme, as the
        validator compiled from those rules checks it before anything is sent.
      </p>
      <div class="columns">
        <section aria-labelledby="fields-rules-title">
          <h3 id="fields-rules-title">Rules</h3>
          <div class="field">
            <label for="fields-preset">Start from</label>
            <select
              id="fields-preset"
              value={value.preset ?? ""}
              onChange={(e) => {
                const preset = presetById((e.currentTarget as HTMLSelectElement).value)
                if (preset !== undefined) {
                  onChange({
                    preset: preset.id,
                    fields: pretty(preset.fields),
                    body: pretty(preset.body),
                    schemes: preset.schemes
                  })
                }
              }}
            >
              {value.preset === undefined ? <option value="">(edited)</option> : null}
              {presets.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="fields-json">POST /pay/fields response (JSON)</label>
            <textarea
              id="fields-json"
              rows={14}
              spellcheck={false}
              value={value.fields}
              onInput={(e) => set({ fields: (e.currentTarget as HTMLTextAreaElement).value })}
            />
          </div>
          {ruleNotes.length > 0 || !result.fieldsText.ok ? (
            <Annotated
              label="The response, with its faults"
              text={value.fields}
              located={result.fieldsText}
              notes={ruleNotes}
            />
          ) : null}
          <fieldset>
            <legend>Scheme limits to apply</legend>
            {schemes.map((s) => (
              <label class="inline" key={s.id}>
                <input
                  type="checkbox"
                  checked={value.schemes.includes(s.id)}
                  onChange={(e) => {
                    const on = (e.currentTarget as HTMLInputElement).checked
                    const next: ReadonlyArray<Scheme> = schemes
                      .map((x) => x.id)
                      .filter((id) => (id === s.id ? on : value.schemes.includes(id)))
                    set({ schemes: next })
                  }}
                />{" "}
                {s.label}
              </label>
            ))}
          </fieldset>
          {compiled?._tag === "Refused" ? (
            <div class="refused" data-testid="rule-errors">
              <h4>The compiler refuses {compiled.errors.length} rule(s)</h4>
              <ul>
                {compiled.errors.map((e, i) => (
                  <li key={i}>
                    <code>
                      {e._tag} {e.reason}
                    </code>
                    {e.field === undefined ? null : (
                      <>
                        {" "}
                        on <code>{e.field}</code>
                      </>
                    )}
                    {e.construct === undefined ? null : <> ({e.construct})</>}: {e.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {compiled?._tag === "Compiled" ? (
            <details>
              <summary>The fields a form needs ({compiled.form.length})</summary>
              <table class="form-fields">
                <thead>
                  <tr>
                    <th scope="col">field</th>
                    <th scope="col">required</th>
                    <th scope="col">length</th>
                    <th scope="col">rule</th>
                  </tr>
                </thead>
                <tbody>
                  {compiled.form.map((f) => (
                    <tr key={f.name}>
                      <td>
                        <code>{f.name}</code>
                      </td>
                      <td>{f.required ? "yes" : "no"}</td>
                      <td>
                        {f.minLength ?? 0} to {f.maxLength ?? "any"}
                      </td>
                      <td>
                        {[
                          f.patternDescription,
                          f.options === undefined ? undefined : `one of ${f.options.map((o) => o.value).join(", ")}`,
                          ...f.limits
                        ]
                          .filter((x) => x !== undefined)
                          .join("; ")}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          ) : null}
        </section>
        <section aria-labelledby="fields-body-title">
          <h3 id="fields-body-title">Payment body</h3>
          <div class="field">
            <label for="fields-body">POST /pay body (JSON)</label>
            <textarea
              id="fields-body"
              rows={14}
              spellcheck={false}
              value={value.body}
              onInput={(e) => set({ body: (e.currentTarget as HTMLTextAreaElement).value })}
            />
          </div>
          <p class="summary" data-testid="fields-summary" aria-live="polite">
            {compiled === undefined
              ? unread("response", result.fieldsText)
              : compiled._tag === "Malformed"
                ? "The response is not a /pay/fields response."
                : compiled._tag === "Refused"
                  ? "No check: the rules do not compile."
                  : !result.bodyText.ok
                    ? unread("body", result.bodyText)
                    : checked?._tag === "Valid"
                      ? "The body is valid."
                      : `${bodyNotes.length} issue(s).`}
          </p>
          {checked?._tag === "Invalid" ? (
            <ul class="issues" data-testid="fields-issues">
              {checked.issues.map((i, k) => (
                <li key={k}>
                  <code>{i.path.join(".") || "(body)"}</code> <strong>{i.rule}</strong>: {i.message}
                </li>
              ))}
            </ul>
          ) : null}
          <Annotated
            label="The body, with the issues under the fields they name"
            text={value.body}
            located={result.bodyText}
            notes={bodyNotes}
          />
        </section>
      </div>
      <CommandLine files="With the response saved as fields.json and the body as body.json." command={result.command} />
    </div>
  )
}
