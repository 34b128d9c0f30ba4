/**
 * Plan schedule: a plan (JSON, editable; or one of the sandbox's 15), when and where it starts, how far to look, the
 * trial and the anchor; its check findings next to the fields they name, its timeline (the command line's SVG),
 * every billed cycle (a virtualised table), and the totals per currency.
 */
import { useLayoutEffect, useMemo } from "preact/hooks"
import type { PanelProps } from "../App.js"
import * as Marks from "../marks.js"
import type { TrialMode } from "../plan/inputs.js"
import { compute, formatTotal, type InputName, type PlanInputs } from "../plan/model.js"
import { seeded, seededIndex } from "../plan/seeded.js"
import type { State } from "../state.js"
import { Annotated, type Note } from "../ui/Annotated.js"
import { CommandLine } from "../ui/CommandLine.js"
import { VirtualTable } from "../ui/VirtualTable.js"

const zones: ReadonlyArray<string> = (() => {
  try {
    return ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")]
  } catch {
    return ["UTC", "Europe/London", "America/New_York"]
  }
})()

type Value = State["plan"]

const Field = (props: {
  readonly id: InputName
  readonly label: string
  readonly hint?: string
  readonly value: string
  readonly error: string | undefined
  readonly onInput: (v: string) => void
  readonly list?: string
}) => (
  <div class="field">
    <label for={`plan-${props.id}`}>{props.label}</label>
    <input
      id={`plan-${props.id}`}
      value={props.value}
      list={props.list}
      spellcheck={false}
      autocomplete="off"
      aria-invalid={props.error !== undefined}
      aria-describedby={`plan-${props.id}-hint`}
      onInput={(e) => props.onInput((e.currentTarget as HTMLInputElement).value)}
    />
    <span id={`plan-${props.id}-hint`} class={props.error === undefined ? "hint" : "hint error"}>
      {props.error ?? props.hint}
    </span>
  </div>
)

export const PlanPanel = ({ onChange, value }: PanelProps<Value>) => {
  const result = useMemo(() => compute(value), [value])
  useLayoutEffect(() => Marks.result("plan"), [result])
  const set = (patch: Partial<PlanInputs>) => onChange({ ...value, ...patch })
  const errorOf = (input: InputName) => result.inputErrors.find((e) => e.input === input)?.message
  const notes: Array<Note> =
    result.reading === undefined
      ? []
      : result.reading._tag === "Malformed"
        ? result.reading.issues.map((i) => ({
            path: i.path,
            severity: "error",
            label: "not a plan",
            message: i.message
          }))
        : result.reading.findings.map((f) => ({
            path: f.path,
            severity: f.severity,
            label: f.rule,
            message: f.message
          }))
  const s = result.simulated
  return (
    <div class="panel plan">
      <h2>Plan schedule</h2>
      <p class="intro">
        What a subscription to a plan bills, when, in which phase, for how much. Edit the plan or pick one of the
        sandbox's 15; the plan check's findings appear next to the field they name.
      </p>
      <div class="columns">
        <section aria-labelledby="plan-input-title">
          <h3 id="plan-input-title">Plan</h3>
          <div class="field">
            <label for="plan-seed">Start from a plan of the sandbox</label>
            <select
              id="plan-seed"
              value={value.seed === undefined ? "" : String(value.seed)}
              onChange={(e) => {
                const i = Number((e.currentTarget as HTMLSelectElement).value)
                const picked = seeded[i]
                if (picked !== undefined) onChange({ ...value, json: picked.json, seed: i, variation: "" })
              }}
            >
              {value.seed === undefined ? <option value="">(edited)</option> : null}
              {seeded.map((p, i) => (
                <option key={p.name} value={String(i)}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="plan-json">Plan JSON (one plan of GET /api/subscription-plans)</label>
            <textarea
              id="plan-json"
              rows={18}
              spellcheck={false}
              value={value.json}
              onInput={(e) => {
                const json = (e.currentTarget as HTMLTextAreaElement).value
                onChange({ ...value, json, seed: seededIndex(json) })
              }}
            />
          </div>
          <fieldset>
            <legend>Subscription</legend>
            <Field
              id="start"
              label="Start (ISO 8601 with offset)"
              value={value.start}
              error={errorOf("start")}
              onInput={(start) => set({ start })}
            />
            <Field
              id="zone"
              label="Zone (IANA, type to search)"
              list="plan-zones"
              value={value.zone}
              error={errorOf("zone")}
              hint="the wall clock of the bills"
              onInput={(zone) => set({ zone })}
            />
            <datalist id="plan-zones">
              {zones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
            <div class="field" role="radiogroup" aria-labelledby="plan-horizon-label">
              <span id="plan-horizon-label" class="label">
                Simulate
              </span>
              <label class="inline">
                <input
                  type="radio"
                  name="plan-horizon"
                  checked={value.horizon === "months"}
                  onChange={() => set({ horizon: "months" })}
                />{" "}
                for a number of months
              </label>
              <label class="inline">
                <input
                  type="radio"
                  name="plan-horizon"
                  checked={value.horizon === "until"}
                  onChange={() => set({ horizon: "until" })}
                />{" "}
                until a date-time
              </label>
            </div>
            {value.horizon === "months" ? (
              <Field
                id="months"
                label="Months (1 to 1200)"
                value={value.months}
                error={errorOf("months")}
                onInput={(months) => set({ months })}
              />
            ) : (
              <Field
                id="until"
                label="Until (ISO 8601 with offset)"
                value={value.until}
                error={errorOf("until")}
                onInput={(until) => set({ until })}
              />
            )}
            <div class="field">
              <label for="plan-trial-mode">Trial</label>
              <select
                id="plan-trial-mode"
                value={value.trialMode}
                onChange={(e) => {
                  const mode = (e.currentTarget as HTMLSelectElement).value as TrialMode
                  // the length typed stays for when "another length" is chosen again
                  set({ trialMode: mode, trial: mode === "days" && value.trial.trim() === "" ? "P14D" : value.trial })
                }}
              >
                <option value="plan">the plan's own</option>
                <option value="none">no trial</option>
                <option value="days">another length</option>
              </select>
            </div>
            {value.trialMode === "days" ? (
              <Field
                id="trial"
                label="Trial length (days: P14D)"
                value={value.trial}
                error={errorOf("trial")}
                onInput={(trial) => set({ trial })}
              />
            ) : null}
            <div class="field">
              <label for="plan-anchor">Anchor</label>
              <select
                id="plan-anchor"
                value={value.anchor}
                onChange={(e) => set({ anchor: (e.currentTarget as HTMLSelectElement).value as PlanInputs["anchor"] })}
              >
                <option value="phase-start">each phase bills from its own start</option>
                <option value="subscription-start">keep the subscription's day of the month</option>
              </select>
            </div>
            {result.variations.length > 1 || errorOf("variation") !== undefined ? (
              <div class="field">
                <label for="plan-variation">Variation</label>
                <select
                  id="plan-variation"
                  value={value.variation}
                  aria-invalid={errorOf("variation") !== undefined}
                  aria-describedby="plan-variation-hint"
                  onChange={(e) => set({ variation: (e.currentTarget as HTMLSelectElement).value })}
                >
                  <option value="">
                    {result.variations.length === 0 ? "the first" : `the first (${result.variations[0]})`}
                  </option>
                  {result.variations.slice(1).map((v) => (
                    <option key={v} value={v}>
                      {v}
                    </option>
                  ))}
                  {value.variation !== "" && !result.variations.includes(value.variation) ? (
                    <option value={value.variation}>{value.variation} (not in this plan)</option>
                  ) : null}
                </select>
                <span id="plan-variation-hint" class={errorOf("variation") === undefined ? "hint" : "hint error"}>
                  {errorOf("variation") ?? "the plan's variations"}
                </span>
              </div>
            ) : null}
          </fieldset>
        </section>
        <section aria-labelledby="plan-check-title" class="check">
          <h3 id="plan-check-title">Plan check</h3>
          <p class="summary" data-testid="plan-summary" aria-live="polite">
            {!result.located.ok
              ? result.located.reason === "NotJson"
                ? "The plan is not JSON."
                : `The plan cannot be read: ${result.located.message}.`
              : result.reading?._tag === "Malformed"
                ? `Not a plan: ${result.reading.issues.length} fault(s).`
                : notes.length === 0
                  ? result.reading?._tag === "Read" && result.variations.length === 0
                    ? "No findings, but the plan has no variations: it cannot be simulated."
                    : "No findings: the plan can be simulated."
                  : `${notes.filter((n) => n.severity === "error").length} error(s), ${notes.filter((n) => n.severity === "warning").length} warning(s).`}
          </p>
          <Annotated
            label="The plan, with the findings under the lines they name"
            text={value.json}
            located={result.located}
            notes={notes}
          />
        </section>
      </div>
      <section aria-labelledby="plan-schedule-title" class="schedule">
        <h3 id="plan-schedule-title">Schedule</h3>
        {s === undefined ? (
          <p class="unavailable" data-testid="plan-unavailable">
            {result.scheduleError ??
              (result.inputErrors.length > 0
                ? "Correct the inputs above to see the schedule."
                : "No schedule: the plan must be read without errors first.")}
          </p>
        ) : (
          <>
            <p class="totals" data-testid="plan-totals">
              {s.totalsLine}
            </p>
            {s.totals.byCurrency.length > 0 ? (
              <ul class="currencies" aria-label="Totals per currency">
                {s.totals.byCurrency.map((t) => (
                  <li key={t.currency}>
                    <strong>{t.currency}</strong> {formatTotal(t.amount, t.currency)}
                  </li>
                ))}
              </ul>
            ) : null}
            <div
              class="timeline"
              role="img"
              aria-label={`Timeline of the schedule: ${s.totalsLine}`}
              data-testid="plan-timeline"
            >
              <div dangerouslySetInnerHTML={{ __html: s.svg }} />
            </div>
            <VirtualTable
              caption="Billed cycles"
              columns={["#", "phase", "cycle", "billed at", "until", "amount"]}
              count={s.rows.count}
              row={(i) => s.rows.at(i)}
              cells={(r) => [r.number, r.phase, r.cycle, r.start, r.end, r.amount]}
            />
          </>
        )}
      </section>
      <CommandLine files="With the plan above saved as plan.json." command={result.command} />
    </div>
  )
}
