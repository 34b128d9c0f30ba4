/**
 * `pnpm --filter @payrules/playground bench`: the playground measured in headless Chromium, on the built site served
 * from 127.0.0.1.
 *
 * - From an edit to the updated result: a character typed into the plan JSON (the plan's name), for each of
 *   the sandbox's 15 plans over 24 months and over 10 years; a value typed into the payment body, and into the rules,
 *   of the 20-rule /pay/fields corpus. The time runs from the `input` event to the mark the panel sets once the new
 *   result is in the page (decoding, checks, the schedule, the timeline, the table's rows, the DOM), and to the next
 *   frame after it. Target: under 16 ms (one frame at 60 Hz) each.
 * - The first load: the JavaScript the page fetched before it showed its first result (one panel's code), gzipped
 *   (-9), and the code of each panel. Target: under 250 KB gzipped.
 *
 * Not a test: it prints a Markdown table (for the README) and fails on nothing.
 */
import { readFileSync } from "node:fs"
import { cpus } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import type { Page } from "playwright-core"
import { distDir, ensureBuilt, launchBrowser, serve } from "../scripts/site.js"

const EDITS = 21

/** the page as the functions evaluated in it see it (this file compiles without the DOM lib) */
interface Doc {
  readonly querySelector: (s: string) => { value: string; dispatchEvent: (e: unknown) => void }
}
declare const document: Doc
declare const Event: new (type: string, init: { bubbles: boolean }) => unknown
declare const PerformanceObserver: new (
  f: (list: { getEntriesByName: (n: string) => ReadonlyArray<{ startTime: number }> }) => void
) => { observe: (o: { entryTypes: Array<string> }) => void; disconnect: () => void }
declare const requestAnimationFrame: (f: (t: number) => void) => void

/** One edit in the page: the time to the panel's next `result:` mark, and to the frame after it. */
const edit = (page: Page, selector: string, panel: string, value: string) =>
  page.evaluate(
    ({ panel, selector, value }) =>
      new Promise<{ result: number; frame: number }>((resolve) => {
        const el = document.querySelector(selector)
        let t0 = 0
        const observer = new PerformanceObserver((list) => {
          const mark = list.getEntriesByName(`result:${panel}`)[0]
          if (mark === undefined) return
          observer.disconnect()
          requestAnimationFrame(() => resolve({ result: mark.startTime - t0, frame: performance.now() - t0 }))
        })
        observer.observe({ entryTypes: ["mark"] })
        t0 = performance.now()
        el.value = value
        el.dispatchEvent(new Event("input", { bubbles: true }))
      }),
    { panel, selector, value }
  )

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}
const max = (xs: ReadonlyArray<number>) => Math.max(...xs)

interface Row {
  readonly name: string
  readonly result: ReadonlyArray<number>
  readonly frame: ReadonlyArray<number>
}

/** the plan's name with a character typed at its end (every plan has one; it is in the timeline's title) */
const typed = (json: string, k: number): string => json.replace(/"name": "([^"]*)"/, `"name": "$1 ${k}"`)

const main = async () => {
  console.log(`site: ${ensureBuilt()}`)
  const site = await serve()
  const browser = await launchBrowser()
  const rows: Array<Row> = []
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()

    // the first load: what the page fetched before its first result
    await page.goto(`${site.url}#panel=plan`)
    await page.locator("html[data-ready=all]").waitFor()
    const resources = await page.evaluate(() => {
      const first = performance.getEntriesByName("result:plan")[0]!.startTime
      return performance
        .getEntriesByType("resource")
        .map((r) => ({ name: r.name, start: r.startTime }))
        .filter((r) => r.name.endsWith(".js"))
        .map((r) => ({ ...r, first: r.start < first }))
    })
    const gz = (url: string) => {
      const file = join(distDir, new URL(url).pathname)
      return { raw: readFileSync(file).length, gz: gzipSync(readFileSync(file), { level: 9 }).length }
    }
    const firstLoad = resources.filter((r) => r.first).map((r) => ({ ...r, ...gz(r.name) }))
    const later = resources.filter((r) => !r.first).map((r) => ({ ...r, ...gz(r.name) }))
    const entryHtml = readFileSync(join(distDir, "index.html"))

    // the plans: 15 plans x 2 horizons, EDITS edits each
    const names: ReadonlyArray<string> = await page
      .locator("#plan-seed option")
      .evaluateAll((os) => os.map((o) => (o as unknown as { textContent: string }).textContent))
    for (const months of [24, 120]) {
      for (const [i, name] of names.entries()) {
        await page.goto("about:blank")
        await page.goto(`${site.url}#panel=plan&seed=${i}&months=${months}`)
        await page.getByTestId("plan-totals").waitFor()
        const json = await page.locator("#plan-json").inputValue()
        const result: Array<number> = []
        const frame: Array<number> = []
        for (let k = 0; k < EDITS; k++) {
          const t = await edit(page, "#plan-json", "plan", typed(json, k))
          // the first edits run the code before V8 has optimised it: kept out, as a person's first keystroke is
          if (k < 3) continue
          result.push(t.result)
          frame.push(t.frame)
        }
        rows.push({ name: `${name}, ${months === 24 ? "24 months" : "10 years"}`, result, frame })
      }
    }

    // the 20-rule corpus: an edit of the body, an edit of the rules (the validator compiled again)
    await page.goto("about:blank")
    await page.goto(`${site.url}#panel=fields&preset=twenty`)
    await page.getByTestId("fields-summary").filter({ hasText: "The body is valid." }).waitFor()
    for (const [what, selector] of [
      ["20-rule /pay/fields: an edit of the body", "#fields-body"],
      ["20-rule /pay/fields: an edit of the rules (compiled again)", "#fields-json"]
    ] as const) {
      const text = await page.locator(selector).inputValue()
      const result: Array<number> = []
      const frame: Array<number> = []
      for (let k = 0; k < EDITS; k++) {
        const next =
          selector === "#fields-body"
            ? text.replace("Invoice 2024/17 (March)", `Invoice 2024/${k} (March)`)
            : text.replace('"max_length": 140', `"max_length": ${130 + k}`)
        const t = await edit(page, selector, "fields", next)
        if (k < 3) continue
        result.push(t.result)
        frame.push(t.frame)
      }
      rows.push({ name: what, result, frame })
    }

    const version = browser.version()
    const date = new Date().toISOString().slice(0, 10)
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
    const out: Array<string> = []
    out.push(
      `Headless Chromium ${version}, ${cpus()[0]?.model.trim()} x${cpus().length}, ${date}; ${EDITS - 3} edits per case after 3 warm-up edits.`
    )
    out.push("")
    out.push("| case | edit → result in the page, median | max | edit → next frame, median | under 16 ms |")
    out.push("| --- | ---: | ---: | ---: | :---: |")
    for (const r of rows) {
      const m = median(r.result)
      out.push(
        `| ${r.name} | ${m.toFixed(1)} ms | ${max(r.result).toFixed(1)} ms | ${median(r.frame).toFixed(1)} ms | ${m < 16 ? "yes" : "**no**"} |`
      )
    }
    out.push("")
    const firstGz = firstLoad.reduce((n, f) => n + f.gz, 0)
    const firstRaw = firstLoad.reduce((n, f) => n + f.raw, 0)
    out.push("| first load (the plan panel) | minified | gzipped (-9) | under 250 KB gzipped |")
    out.push("| --- | ---: | ---: | :---: |")
    for (const f of firstLoad) out.push(`| \`${new URL(f.name).pathname.slice(1)}\` | ${kb(f.raw)} | ${kb(f.gz)} | |`)
    out.push(`| index.html | ${kb(entryHtml.length)} | ${kb(gzipSync(entryHtml, { level: 9 }).length)} | |`)
    out.push(
      `| **JavaScript of the first load** | **${kb(firstRaw)}** | **${kb(firstGz)}** | ${firstGz < 250 * 1024 ? "yes" : "**no**"} |`
    )
    out.push("")
    out.push("| loaded after the first result, while the page is idle | minified | gzipped (-9) |")
    out.push("| --- | ---: | ---: |")
    for (const f of later) out.push(`| \`${new URL(f.name).pathname.slice(1)}\` | ${kb(f.raw)} | ${kb(f.gz)} |`)
    console.log(out.join("\n"))
  } finally {
    await browser.close()
    await site.close()
  }
}

await main()
