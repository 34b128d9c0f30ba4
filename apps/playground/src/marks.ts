/**
 * What the tests and the benchmark read from the page, as attributes of `<html>` and performance marks (the page has
 * no other channel to them, and needs none):
 * - `data-loaded`: the panels whose code has arrived, space-separated; `data-ready="all"` once every panel's code
 *   and the modulus table are in, after which the page asks the network for nothing;
 * - a mark `result:<panel>` each time a panel has put a new result into the page (the time an edit takes to show).
 */
import type { Panel } from "./state.js"

const root = () => document.documentElement

export const loaded = (what: string): void => {
  const have = new Set((root().dataset.loaded ?? "").split(" ").filter((s) => s !== ""))
  have.add(what)
  root().dataset.loaded = [...have].sort().join(" ")
}

export const ready = (): void => {
  root().dataset.ready = "all"
}

export const result = (panel: Panel): void => {
  performance.mark(`result:${panel}`)
}
