/**
 * The README's pictures of the playground, taken from the real page: the site built (when stale) and served from
 * 127.0.0.1, each panel opened in headless Chromium from a link with its state, and a PNG of it written to docs/.
 *
 *   pnpm --filter @payrules/playground screenshots
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { appDir, ensureBuilt, launchBrowser, serve } from "./site.js"

/** each panel, the link that opens it, what it shows once ready, and what is typed into it then */
const shots: ReadonlyArray<{
  readonly file: string
  readonly fragment: string
  readonly ready: string
  readonly type?: { readonly label: string; readonly replace: string; readonly by: string; readonly shows: string }
}> = [
  { file: "plan.png", fragment: "panel=plan&seed=0", ready: "[data-testid=plan-timeline] svg" },
  {
    file: "fields.png",
    fragment: "panel=fields&preset=GB-GBP-FPS",
    ready: "[data-testid=fields-summary]",
    // a 41-character reference, over Faster Payments' 18
    type: {
      label: "POST /pay body (JSON)",
      replace: "RENT MARCH FLAT 2",
      by: "INVOICE 2024-00017 MARCH RENT FLAT 2 LDN1",
      shows: "[data-testid=fields-issues]"
    }
  },
  {
    file: "identifiers.png",
    fragment: "panel=identifiers&id=ES91+2100+0418+4502+0005+1332",
    ready: "[data-testid=identifier-result] dl"
  }
]

const main = async () => {
  console.log(`site: ${ensureBuilt()}`)
  const site = await serve()
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 })
    mkdirSync(join(appDir, "docs"), { recursive: true })
    for (const shot of shots) {
      await page.goto(`${site.url}#${shot.fragment}`)
      await page.reload()
      await page.locator(shot.ready).first().waitFor()
      if (shot.type !== undefined) {
        const input = page.getByLabel(shot.type.label)
        await input.fill((await input.inputValue()).replace(shot.type.replace, shot.type.by))
        await page.locator(shot.type.shows).waitFor()
      }
      const path = join(appDir, "docs", shot.file)
      await page.screenshot({ path, fullPage: true })
      console.log(`wrote docs/${shot.file}`)
    }
  } finally {
    await browser.close()
    await site.close()
  }
}

await main()
