import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import * as Chromium from "@payrules/vitest/Chromium"
import { layerBlock } from "@payrules/vitest/Lazy"
import { Context, Effect, Layer } from "effect"
import { type BrowserContext, chromium } from "playwright-core"
import { call, server } from "./helpers.js"

// Issue 31: /docs, opened in a real browser (headless Chromium), declares the Bearer scheme of each family (a call
// tried from the page carries the token), asks nothing of another host (no web fonts, no CDN), gets no error answer
// (a browser asks for /favicon.ico by itself) and logs no console error. One browser and one visit for the file.

/** the page's document, as the functions evaluated in the browser see it (this project compiles without the DOM lib) */
declare const document: { readonly body: { readonly innerText: string; readonly textContent: string | null } }

/** Debian's chromium, installed when missing (never a skip): see `@payrules/vitest/Chromium` */
const ensureChromium = Effect.sync(Chromium.ensureChromium)

/** what the page did during one visit */
interface Visit {
  /** every request the browser made (the page, its scripts, their fetches, service workers) */
  readonly requests: ReadonlyArray<string>
  /** every answer it got, with its status */
  readonly responses: ReadonlyArray<{ readonly url: string; readonly status: number }>
  readonly console: ReadonlyArray<{ readonly type: string; readonly text: string }>
  readonly pageErrors: ReadonlyArray<string>
  /** the text of the rendered page as a reader sees it */
  readonly visible: string
  /** all of its text, what it keeps hidden included (the request examples) */
  readonly text: string
  /** what the sandbox received, with its answers: also what the browser asks for by itself (the icon) */
  readonly served: ReadonlyArray<{ readonly method: string; readonly path: string; readonly status: number }>
}

class DocsVisit extends Context.Service<DocsVisit, Visit>()("test/DocsVisit") {}

/** headless Chromium with a fresh profile under the temporary directory, closed (and its profile removed) after */
const browser = Effect.acquireRelease(
  Effect.andThen(
    ensureChromium,
    Effect.promise(async () => {
      const profile = mkdtempSync(join(tmpdir(), "payrules-docs-"))
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: Chromium.executablePath,
        headless: true,
        args: [...Chromium.args]
      })
      return { context, profile }
    })
  ),
  ({ context, profile }) =>
    Effect.promise(() => context.close()).pipe(
      Effect.andThen(Effect.sync(() => rmSync(profile, { recursive: true, force: true })))
    )
)

/** opens /docs, waits until Scalar rendered it and the network is quiet, and records what happened */
const visit = (context: BrowserContext, running: Sandbox.Running): Promise<Omit<Visit, "served">> =>
  (async () => {
    const requests: Array<string> = []
    const responses: Array<{ url: string; status: number }> = []
    const console: Array<{ type: string; text: string }> = []
    const pageErrors: Array<string> = []
    context.on("request", (request) => void requests.push(request.url()))
    context.on("response", (response) => void responses.push({ url: response.url(), status: response.status() }))
    const page = context.pages()[0] ?? (await context.newPage())
    page.on("console", (message) => void console.push({ type: message.type(), text: message.text() }))
    page.on("pageerror", (error) => void pageErrors.push(error.message))
    await page.goto(running.urls.docs, { waitUntil: "load" })
    // Scalar renders after the page loaded: wait until its authentication panel shows the schemes (a page that never
    // shows them fails the assertions below, with what it showed)
    await page
      .waitForFunction(
        // biome-ignore lint/performance/useDomNodeTextContent: what a reader sees is the point (textContent has hidden text)
        (schemes) => schemes.every((scheme) => document.body.innerText.includes(scheme)),
        ["OpenBankingBearer", "MerchantBearer", "BusinessBearer"],
        { timeout: 30_000 }
      )
      .catch(() => undefined)
    // a request that never ends (to a host this machine cannot reach) is reported below with the others, not as a
    // timeout of this wait
    await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined)
    // biome-ignore lint/performance/useDomNodeTextContent: what a reader sees is the point (textContent has hidden text)
    const visible = await page.evaluate(() => document.body.innerText)
    const text = await page.evaluate(() => document.body.textContent ?? "")
    await page.close()
    return { requests, responses, console, pageErrors, visible, text }
  })()

const DocsVisitLive = Layer.effect(
  DocsVisit,
  Effect.gen(function* () {
    const { context } = yield* browser
    const running = yield* server
    const seen = yield* Effect.promise(() => visit(context, running))
    const log = yield* call(`${running.urls.control}/requests`)
    return { ...seen, served: log.json as Visit["served"] }
  })
)

layerBlock(() => DocsVisitLive.pipe(Layer.provideMerge(Sandbox.layer({ seed: 4, plans: 15 }))), {
  timeout: 120_000
})("sandbox: /docs in headless Chromium", (it) => {
  it.effect("declares the Bearer scheme of each family, selected, so a call from the page carries a token", () =>
    Effect.gen(function* () {
      const { text, visible } = yield* DocsVisit
      for (const scheme of ["OpenBankingBearer", "MerchantBearer", "BusinessBearer"]) expect(visible).toContain(scheme)
      expect(visible).toContain("Bearer Token")
      expect(visible).not.toContain("No authentication selected")
      // the request example of an operation carries the credentials the page holds
      expect(text).toContain("Authorization: Bearer")
      // the operations of the three families and the control plane are there
      for (const title of ["Open Banking API", "Merchant API", "Business API", "sandbox"]) {
        expect(visible).toContain(title)
      }
    })
  )

  it.effect("asks nothing of another host: only the sandbox on 127.0.0.1 (and data: or blob: URLs)", () =>
    Effect.gen(function* () {
      const { requests } = yield* DocsVisit
      const s = yield* server
      expect(requests.length).toBeGreaterThan(0)
      expect(requests.filter((url) => !(url.startsWith(`${s.url}/`) || /^(data|blob):/.test(url)))).toEqual([])
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    })
  )

  it.effect("gets no answer of 400 or more (the icon a browser asks for by itself included)", () =>
    Effect.gen(function* () {
      const { responses, served } = yield* DocsVisit
      expect(responses.filter((r) => r.status >= 400)).toEqual([])
      expect(served.map((r) => r.path)).toEqual(expect.arrayContaining(["/docs"]))
      expect(served.filter((r) => r.status >= 400)).toEqual([])
    })
  )

  it.effect("logs no console error and throws nothing", () =>
    Effect.gen(function* () {
      const visit = yield* DocsVisit
      expect(visit.console.filter((m) => m.type === "error")).toEqual([])
      expect(visit.pageErrors).toEqual([])
    })
  )
})
