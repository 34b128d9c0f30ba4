/**
 * The state of every panel in the URL's fragment, so that a link reproduces what its sender saw: the panel shown,
 * and each panel's inputs (texts in base64url of their UTF-8, a seeded plan or a preset by its name while unedited).
 * The fragment never reaches a server; changing it loads nothing.
 */

import type { FieldsInputs } from "./fields/model.js"
import { presetById, presets, pretty, type Scheme } from "./fields/presets.js"
import { defaults, type PlanInputs, trialModes } from "./plan/inputs.js"
import { seeded } from "./plan/seeded.js"

export type Panel = "plan" | "fields" | "identifiers"

export const panels: ReadonlyArray<Panel> = ["plan", "fields", "identifiers"]

export interface State {
  readonly panel: Panel
  readonly plan: PlanInputs & { readonly seed: number | undefined }
  readonly fields: FieldsInputs & { readonly preset: string | undefined }
  readonly identifier: string
}

const firstPreset = presets[0]!

export const initial: State = {
  panel: "plan",
  plan: { ...defaults, json: seeded[0]!.json, seed: 0 },
  fields: {
    preset: firstPreset.id,
    fields: pretty(firstPreset.fields),
    body: pretty(firstPreset.body),
    schemes: firstPreset.schemes
  },
  identifier: "GB82 WEST 1234 5698 7654 32"
}

export const encodeText = (text: string): string => {
  let binary = ""
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

export const decodeText = (encoded: string): string | undefined => {
  try {
    const binary = atob(encoded.replace(/-/g, "+").replace(/_/g, "/"))
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
}

const schemeNames: ReadonlyArray<Scheme> = ["FasterPayments", "OpenBanking", "Swift"]

/** The fragment of a state: only what differs from the initial state, so that links stay short. */
export const toFragment = (s: State): string => {
  const q = new URLSearchParams()
  q.set("panel", s.panel)
  const p = s.plan
  if (p.seed !== undefined && seeded[p.seed]?.json === p.json) q.set("seed", String(p.seed))
  else q.set("plan", encodeText(p.json))
  for (const key of [
    "start",
    "zone",
    "horizon",
    "months",
    "until",
    "trialMode",
    "trial",
    "anchor",
    "variation"
  ] as const) {
    if (p[key] !== defaults[key]) q.set(key, p[key])
  }
  // a length without its mode reads as the length's mode (links made before the mode had a parameter of its own)
  if (p.trial !== defaults.trial && p.trialMode === defaults.trialMode) q.set("trialMode", p.trialMode)
  const f = s.fields
  const preset = f.preset === undefined ? undefined : presetById(f.preset)
  if (preset !== undefined && pretty(preset.fields) === f.fields) q.set("preset", preset.id)
  else q.set("fields", encodeText(f.fields))
  if (preset === undefined || pretty(preset.body) !== f.body) q.set("body", encodeText(f.body))
  q.set("schemes", f.schemes.join(","))
  if (s.identifier !== initial.identifier) q.set("id", s.identifier)
  return q.toString()
}

/**
 * The trial of a fragment: its mode, or (links made before the mode had a parameter) the mode the length implies:
 * none for `none`, the plan's own for nothing.
 */
const trialOf = (mode: string | null, trial: string | null): Pick<PlanInputs, "trialMode" | "trial"> => {
  const named = trialModes.find((m) => m === mode)
  if (named !== undefined) return { trialMode: named, trial: trial ?? defaults.trial }
  if (trial === null || trial === "") return { trialMode: "plan", trial: defaults.trial }
  return trial === "none" ? { trialMode: "none", trial: defaults.trial } : { trialMode: "days", trial }
}

/** the longest fragment written into the address: Chromium drops a URL over 2 MB, and the link with it */
export const MAX_FRAGMENT = 1_000_000

/**
 * The fragment of a state for the address, or its length when it is longer than {@link MAX_FRAGMENT}: a link
 * that long would not be kept (Chromium reloads it as the initial state), so the address is left as it was.
 */
export const linkOf = (s: State): { readonly fragment: string } | { readonly tooLong: number } => {
  const fragment = toFragment(s)
  return fragment.length > MAX_FRAGMENT ? { tooLong: fragment.length } : { fragment }
}

/** The state of a fragment; what it does not say (or says wrong) is the initial state's. */
export const fromFragment = (fragment: string): State => {
  const q = new URLSearchParams(fragment.replace(/^#/, ""))
  const panel = panels.find((p) => p === q.get("panel")) ?? initial.panel
  const text = (key: string) => {
    const v = q.get(key)
    return v === null ? undefined : decodeText(v)
  }
  const seedIndex = q.get("seed") === null ? undefined : Number(q.get("seed"))
  const seed = seedIndex !== undefined && seeded[seedIndex] !== undefined ? seedIndex : undefined
  const planText = text("plan")
  const planJson = planText ?? seeded[seed ?? initial.plan.seed!]!.json
  const get = <K extends keyof typeof defaults>(key: K, allowed?: ReadonlyArray<string>) => {
    const v = q.get(key)
    return v === null || (allowed !== undefined && !allowed.includes(v)) ? defaults[key] : (v as (typeof defaults)[K])
  }
  const plan = {
    json: planJson,
    seed: planText === undefined ? (seed ?? initial.plan.seed) : undefined,
    start: get("start"),
    zone: get("zone"),
    horizon: get("horizon", ["months", "until"]),
    months: get("months"),
    until: get("until"),
    ...trialOf(q.get("trialMode"), q.get("trial")),
    anchor: get("anchor", ["phase-start", "subscription-start"]),
    variation: get("variation")
  }
  const preset = presetById(q.get("preset") ?? "") ?? (q.has("fields") ? undefined : presetById(initial.fields.preset!))
  const schemesParam = q.get("schemes")
  const schemes =
    schemesParam === null
      ? (preset?.schemes ?? initial.fields.schemes)
      : schemeNames.filter((s) => schemesParam.split(",").includes(s))
  const fields = {
    preset: preset?.id,
    fields: text("fields") ?? (preset === undefined ? initial.fields.fields : pretty(preset.fields)),
    body: text("body") ?? (preset === undefined ? initial.fields.body : pretty(preset.body)),
    schemes
  }
  return { panel, plan, fields, identifier: q.get("id") ?? initial.identifier }
}
