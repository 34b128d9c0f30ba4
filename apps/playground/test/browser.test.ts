/**
 * Issue 32: the playground in a real browser. The built site (built here when dist/ is missing or stale) served from
 * 127.0.0.1 by a static file server, driven in Debian's headless Chromium (installed when missing, never a skip), one
 * browser for the file and a fresh context per test. No test waits for time to pass: each waits for what the page
 * shows (playwright's `waitFor` on a condition).
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { ensureBuilt, launchBrowser, type Served, serve } from "../scripts/site.js"

/** what the functions evaluated in the page see (the tests compile without the DOM lib) */
declare const document: {
  readonly activeElement: { readonly id: string; readonly tagName: string } | null
  readonly documentElement: { readonly dataset: Record<string, string | undefined> }
}
declare const window: { readonly getComputedStyle: (e: unknown) => { outlineStyle: string; outlineWidth: string } }
declare const axe: {
  run: (
    context: unknown,
    options: unknown
  ) => Promise<{
    violations: ReadonlyArray<{
      id: string
      impact: string | null
      help: string
      nodes: ReadonlyArray<{ target: unknown }>
    }>
  }>
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

let site: Served
let browser: Browser
/** the context of most tests: its HTTP cache keeps the site's files between their fresh loads of the page */
let shared: BrowserContext

beforeAll(async () => {
  ensureBuilt()
  site = await serve()
  browser = await launchBrowser()
  shared = await browser.newContext({ viewport: { width: 1280, height: 900 } })
}, 300_000)

afterAll(async () => {
  await shared?.close()
  await browser?.close()
  await site?.close()
})

interface Visit {
  readonly context: BrowserContext | undefined
  readonly page: Page
  /** every request of the context, in order */
  readonly requests: Array<string>
  readonly errors: Array<string>
}

/**
 * A new page (a fresh load) opened at a fragment, every request and error recorded: in the shared context, or in a
 * context of its own (no cache, no storage) when `fresh`.
 */
const open = async (fragment: string, fresh: boolean): Promise<Visit> => {
  const context = fresh ? await browser.newContext({ viewport: { width: 1280, height: 900 } }) : undefined
  const requests: Array<string> = []
  const errors: Array<string> = []
  const page = await (context ?? shared).newPage()
  page.on("request", (r) => void requests.push(r.url()))
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text())
  })
  page.on("pageerror", (e) => void errors.push(e.message))
  await page.goto(`${site.url}${fragment === "" ? "" : `#${fragment}`}`)
  return { context, page, requests, errors }
}

const withPage = async (fragment: string, f: (v: Visit) => Promise<void>, options = { fresh: false }) => {
  const visit = await open(fragment, options.fresh)
  try {
    await f(visit)
    expect(visit.errors).toEqual([])
  } finally {
    await visit.page.close()
    await visit.context?.close()
  }
}

const text = (page: Page, testId: string) => page.getByTestId(testId)

/** the rows of the cycles table whose number (the first cell) matches */
const numbered = (page: Page, number: RegExp) =>
  page.locator(".virtual tbody tr:not(.spacer)").filter({ has: page.locator("td:first-child", { hasText: number }) })

/**
 * Puts a long text into a textarea as a paste would, in one input event: `fill` types it through Chromium's editing,
 * which takes seconds for a few thousand lines.
 */
const paste = (page: Page, selector: string, value: string) =>
  page.locator(selector).evaluate((e, v) => {
    const area = e as unknown as { value: string; dispatchEvent: (event: unknown) => boolean }
    area.value = v
    area.dispatchEvent(
      new (globalThis as unknown as { Event: new (t: string, o: unknown) => unknown }).Event("input", { bubbles: true })
    )
  }, value)

/** the page has every panel's code and the modulus table: from then on it fetches nothing */
const allLoaded = (page: Page) => page.locator("html[data-ready=all]").waitFor()

describe("the playground in headless Chromium", () => {
  it("each panel renders from a fresh load", async () => {
    await withPage("panel=plan", async ({ page }) => {
      await page.getByRole("heading", { name: "Plan schedule", level: 2 }).waitFor()
      await text(page, "plan-totals").filter({ hasText: "24 cycle(s) billed: £224.76" }).waitFor()
      await page.locator("[data-testid=plan-timeline] svg .phase-band").first().waitFor()
      await expect(page.locator("[data-testid=plan-timeline] svg line.cycle").count()).resolves.toBe(24)
      await expect(page.locator(".virtual tbody tr:not(.spacer)").first().textContent()).resolves.toContain("£4.99")
      await expect(text(page, "command").textContent()).resolves.toBe(
        "pnpm payrules simulate --plan plan.json --start 2025-01-31T09:00:00Z --zone Europe/London --months 24 --format svg"
      )
    })
    await withPage("panel=fields", async ({ page }) => {
      await text(page, "fields-summary").filter({ hasText: "The body is valid." }).waitFor()
      await expect(text(page, "command").textContent()).resolves.toBe(
        "pnpm payrules validate-payment --fields fields.json --body body.json --scheme FasterPayments"
      )
    })
    await withPage("panel=identifiers", async ({ page }) => {
      await text(page, "identifier-result").filter({ hasText: "Read as an IBAN" }).waitFor()
      await expect(text(page, "identifier-result").textContent()).resolves.toContain("GB82 WEST 1234 5698 7654 32")
    })
  })

  it("typing into an input updates the result, in every panel", async () => {
    await withPage("panel=plan", async ({ page }) => {
      await text(page, "plan-totals").filter({ hasText: "24 cycle(s)" }).waitFor()
      await page.getByLabel("Months (1 to 1200)").fill("12")
      await text(page, "plan-totals").filter({ hasText: "12 cycle(s) billed: £104.88" }).waitFor()
      await page.getByLabel("Zone (IANA, type to search)").fill("Mars/Olympus")
      await page.getByText("Mars/Olympus is not an IANA time zone").waitFor()
      await page.getByLabel("Zone (IANA, type to search)").fill("Asia/Tokyo")
      await text(page, "plan-totals").filter({ hasText: "12 cycle(s)" }).waitFor()
    })
    await withPage("panel=fields", async ({ page }) => {
      await text(page, "fields-summary").filter({ hasText: "The body is valid." }).waitFor()
      const body = page.getByLabel("POST /pay body (JSON)")
      await body.fill((await body.inputValue()).replace('"GBP"', '"gbp"'))
      await text(page, "fields-issues").filter({ hasText: "currency" }).waitFor()
      await expect(text(page, "fields-summary").textContent()).resolves.toBe("1 issue(s).")
    })
    await withPage("panel=identifiers", async ({ page }) => {
      await page.getByLabel("Identifier or duration").fill("P1Y2M10DT2H30M")
      await text(page, "identifier-result").filter({ hasText: "Read as an ISO 8601 duration" }).waitFor()
      await expect(text(page, "identifier-result").textContent()).resolves.toMatch(/months\s*2/)
      await page.getByLabel("Identifier or duration").fill("08-99-99 66374958")
      await text(page, "identifier-result").filter({ hasText: "modulus check (Vocalink)" }).waitFor()
      await expect(text(page, "identifier-result").textContent()).resolves.toMatch(/modulus check \(Vocalink\)\s*valid/)
    })
  })

  it("a plan with a duplicate ordinal shows its finding next to the ordinal", async () => {
    await withPage("panel=plan", async ({ page }) => {
      const json = page.getByLabel("Plan JSON (one plan of GET /api/subscription-plans)")
      await json.fill((await json.inputValue()).replace('"ordinal": 2', '"ordinal": 1'))
      const note = page.locator(".annotated li.flagged.error").filter({ hasText: "DuplicateOrdinal" })
      await note.waitFor()
      // the note sits under the line of the second phase's ordinal
      await expect(note.locator(".line").textContent()).resolves.toBe('          "ordinal": 1,')
      await expect(note.locator(".note").textContent()).resolves.toContain(
        "variations.0.phases.1.ordinal: phases 0 and 1 both have ordinal 1"
      )
      await expect(text(page, "plan-summary").textContent()).resolves.toMatch(/^1 error\(s\)/)
      await text(page, "plan-unavailable").waitFor()
    })
  })

  it("a body with a 41-character reference on Faster Payments shows the 18-character limit", async () => {
    await withPage("panel=fields&preset=GB-GBP-FPS", async ({ page }) => {
      const reference = "INVOICE 2024-00017 MARCH RENT FLAT 2 LDN1"
      expect(reference).toHaveLength(41)
      const body = page.getByLabel("POST /pay body (JSON)")
      await body.fill((await body.inputValue()).replace("RENT MARCH FLAT 2", reference))
      const issue = text(page, "fields-issues").locator("li").filter({ hasText: "reference" })
      await issue.waitFor()
      await expect(issue.textContent()).resolves.toMatch(
        /^reference MaxLength: reference must have at most 18 characters .*it has 41$/
      )
      // and the line of the reference is marked in the body
      await expect(page.locator(".annotated li.flagged .line").textContent()).resolves.toContain(reference)
      // without Faster Payments, the server's 35 is the limit
      await page.getByLabel("Faster Payments (reference 18, end-to-end id 31)").uncheck()
      await text(page, "fields-issues").filter({ hasText: "at most 35 characters" }).waitFor()
    })
  })

  it("a rule the compiler refuses is shown as its typed rule error", async () => {
    await withPage("panel=fields&preset=refused", async ({ page }) => {
      const errors = text(page, "rule-errors")
      await errors.waitFor()
      const shown = await errors.textContent()
      expect(shown).toContain("RuleError UnsupportedPattern on reference (backreference)")
      expect(shown).toContain("RuleError InvalidName on __proto__.polluted")
      expect(shown).toContain("RuleError EmptyIntersection on invoice_number")
    })
  })

  it("an invalid IBAN shows its reason", async () => {
    await withPage("panel=identifiers", async ({ page }) => {
      await page.getByLabel("Identifier or duration").fill("GB82 WEST 1234 5698 7654 33")
      const result = text(page, "identifier-result")
      await result.filter({ hasText: "Refused as an IBAN" }).waitFor()
      await expect(result.locator(".refusal").textContent()).resolves.toMatch(/^IbanError Checksum: Invalid IBAN/)
      await page.getByLabel("Identifier or duration").fill("P0.5Y")
      await result.filter({ hasText: "IsoDurationParseError FractionOnDateUnit" }).waitFor()
    })
  })

  it("a link with state restores that state", async () => {
    let link = ""
    await withPage("", async ({ page }) => {
      await page.getByLabel("Start from a plan of the sandbox").selectOption({ label: "Three phases, then stops" })
      await page.getByLabel("Months (1 to 1200)").fill("6")
      await page.getByLabel("Zone (IANA, type to search)").fill("America/New_York")
      await page.getByLabel("Anchor").selectOption("subscription-start")
      await text(page, "plan-totals").filter({ hasText: "8 cycle(s)" }).waitFor()
      await page.getByRole("tab", { name: "Transfer fields" }).click()
      const body = page.getByLabel("POST /pay body (JSON)")
      await body.fill((await body.inputValue()).replace("RENT MARCH FLAT 2", "SHARED LINK"))
      await page.getByRole("tab", { name: "Identifiers and durations" }).click()
      await page.getByLabel("Identifier or duration").fill("PT36H")
      await text(page, "identifier-result").filter({ hasText: "hours" }).waitFor()
      // the address follows the state once the page has painted it
      await page.waitForFunction(() =>
        (globalThis as unknown as { location: { hash: string } }).location.hash.includes("id=PT36H")
      )
      link = page.url()
    })
    expect(link).toMatch(/#panel=identifiers&/)
    await withPage(link.slice(link.indexOf("#") + 1), async ({ page }) => {
      await expect(page.getByLabel("Identifier or duration").inputValue()).resolves.toBe("PT36H")
      await text(page, "identifier-result").filter({ hasText: "Read as an ISO 8601 duration" }).waitFor()
      await page.getByRole("tab", { name: "Plan schedule" }).click()
      await text(page, "plan-totals").filter({ hasText: "8 cycle(s)" }).waitFor()
      await expect(page.getByLabel("Months (1 to 1200)").inputValue()).resolves.toBe("6")
      await expect(page.getByLabel("Zone (IANA, type to search)").inputValue()).resolves.toBe("America/New_York")
      await expect(page.getByLabel("Anchor").inputValue()).resolves.toBe("subscription-start")
      await expect(page.getByLabel("Start from a plan of the sandbox").inputValue()).resolves.toBe("14")
      await page.getByRole("tab", { name: "Transfer fields" }).click()
      await expect(page.getByLabel("POST /pay body (JSON)").inputValue()).resolves.toContain("SHARED LINK")
    })
  })

  it("the page makes no network request after it has loaded", async () => {
    await withPage(
      "panel=plan",
      async ({ page, requests }) => {
        await allLoaded(page)
        // what the load asked for: the page and its own files, from the server it came from, and nothing else
        expect(requests.length).toBeGreaterThan(1)
        expect(requests.filter((url) => !url.startsWith(site.url))).toEqual([])
        const before = requests.length
        await page.getByLabel("Months (1 to 1200)").fill("120")
        await text(page, "plan-totals").filter({ hasText: "120 cycle(s)" }).waitFor()
        await page
          .getByLabel("Start from a plan of the sandbox")
          .selectOption({ label: "Metered compute (2-hour cycles)" })
        await text(page, "plan-totals")
          .filter({ hasText: /^4\d{4} cycle\(s\) billed: €10,9\d\d\.\d\d$/ })
          .waitFor()
        await page.locator(".virtual").evaluate((el: { scrollTop: number }) => {
          el.scrollTop = 500_000
        })
        await page
          .locator(".virtual tbody tr:not(.spacer)")
          .filter({ hasText: /^19\d\d\d/ })
          .first()
          .waitFor()
        await page.getByRole("tab", { name: "Transfer fields" }).click()
        await page.getByLabel("Start from").selectOption("twenty")
        await text(page, "fields-summary").filter({ hasText: "The body is valid." }).waitFor()
        await page.getByRole("tab", { name: "Identifiers and durations" }).click()
        await page.getByLabel("Identifier or duration").fill("08-99-99 66374958")
        await text(page, "identifier-result").filter({ hasText: "modulus check (Vocalink)" }).waitFor()
        expect(requests.slice(before)).toEqual([])
        // and the page forbids any connection: its Content-Security-Policy
        const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content")
        expect(csp).toContain("connect-src 'none'")
      },
      { fresh: true }
    )
  })

  it("bug: a deeply nested text is a finding in the panel, and a link holding one opens on that finding", async () => {
    const deep = "[".repeat(20_000) + "]".repeat(20_000)
    let link = ""
    await withPage("panel=plan", async ({ page }) => {
      await text(page, "plan-totals").filter({ hasText: "24 cycle(s)" }).waitFor()
      await page.getByLabel("Plan JSON (one plan of GET /api/subscription-plans)").fill(deep)
      await text(page, "plan-summary")
        .filter({ hasText: "The plan cannot be read: more than 64 arrays and objects inside one another" })
        .waitFor()
      await page.locator(".annotated .note").filter({ hasText: "too deep" }).waitFor()
      await text(page, "plan-unavailable").waitFor()
      // the other panels, and this one again, still render
      await page.getByRole("tab", { name: "Transfer fields" }).click()
      const body = page.getByLabel("POST /pay body (JSON)")
      await body.fill(deep)
      await text(page, "fields-summary").filter({ hasText: "The body cannot be read: more than 64" }).waitFor()
      await page.getByRole("tab", { name: "Plan schedule" }).click()
      await text(page, "plan-summary").filter({ hasText: "The plan cannot be read" }).waitFor()
      await page.waitForFunction(() =>
        (globalThis as unknown as { location: { hash: string } }).location.hash.includes("&plan=")
      )
      link = page.url()
    })
    await withPage(link.slice(link.indexOf("#") + 1), async ({ page }) => {
      await text(page, "plan-summary").filter({ hasText: "The plan cannot be read: more than 64" }).waitFor()
      await page.getByRole("tab", { name: "Transfer fields" }).click()
      await text(page, "fields-summary").filter({ hasText: "The body cannot be read" }).waitFor()
    })
  })

  it("bug: a long text shows its first lines and its notes, and a text over the limit is refused by its size", async () => {
    await withPage("panel=fields", async ({ page }) => {
      await text(page, "fields-summary").filter({ hasText: "The body is valid." }).waitFor()
      const body = page.getByLabel("POST /pay body (JSON)")
      // 5,000 lines, the fault on the last: the first 2,000 lines are rendered, then the faulty one
      const long = (await body.inputValue()).replace("{", `{${"\n".repeat(5000)}`).replace('"GBP"', '"gbp"')
      await paste(page, "#fields-body", long)
      await text(page, "fields-issues").filter({ hasText: "currency" }).waitFor()
      await text(page, "annotated-cut").filter({ hasText: "its first 2,000 lines of 5,0" }).waitFor()
      const lines = page.locator("[aria-label='The body, with the issues under the fields they name'] > li")
      expect(await lines.count()).toBeLessThan(2010)
      await expect(page.locator(".annotated li.flagged .line").textContent()).resolves.toContain('"gbp"')
      await expect(page.locator(".annotated li.gap").first().textContent()).resolves.toMatch(
        /^lines 2,001 to 5,0\d\d are not shown$/
      )
      // one character over the limit: refused by its size, with the size and the limit, and nothing of it rendered
      await paste(page, "#fields-body", `"${"y".repeat(512 * 1024 - 1)}"`)
      await text(page, "fields-summary")
        .filter({
          hasText:
            "The body cannot be read: the text has 524,289 characters: the playground reads texts of up to 524,288."
        })
        .waitFor()
      await page.locator(".annotated .note").filter({ hasText: "too large" }).waitFor()
      await expect(
        page.locator("[aria-label='The body, with the issues under the fields they name']").count()
      ).resolves.toBe(0)
    })
  })

  it("bug: the last of 315 million cycles is reached by scrolling to the end of the table", async () => {
    await withPage("panel=plan&seed=4&months=120", async ({ page }) => {
      await text(page, "plan-totals").filter({ hasText: "43824 cycle(s)" }).waitFor()
      const json = page.getByLabel("Plan JSON (one plan of GET /api/subscription-plans)")
      await json.fill((await json.inputValue()).replace('"PT2H"', '"PT1S"'))
      await text(page, "plan-totals")
        .filter({ hasText: /^315532800 cycle\(s\)/ })
        .waitFor()
      const table = page.locator(".virtual")
      const rows = page.locator(".virtual tbody tr:not(.spacer)")
      // the scroll space is capped, well under what Chromium lets an element be
      expect(await table.evaluate((el: { scrollHeight: number }) => el.scrollHeight)).toBeLessThan(10_100_000)
      await table.evaluate((el: { scrollTop: number; scrollHeight: number }) => {
        el.scrollTop = el.scrollHeight
      })
      await numbered(page, /^315532800$/).waitFor()
      // the last row is in view, at the bottom of the region
      const [last, region] = await Promise.all([rows.last().boundingBox(), table.boundingBox()])
      expect(last!.y + last!.height).toBeLessThanOrEqual(region!.y + region!.height + 1)
      expect(last!.y).toBeGreaterThan(region!.y)
      // halfway: the rows around the middle
      await table.evaluate((el: { scrollTop: number; scrollHeight: number; clientHeight: number }) => {
        el.scrollTop = (el.scrollHeight - el.clientHeight) / 2
      })
      await numbered(page, /^15776\d{4}$/)
        .first()
        .waitFor()
      // and back to the first
      await table.evaluate((el: { scrollTop: number }) => {
        el.scrollTop = 0
      })
      await numbered(page, /^1$/).first().waitFor()
    })
  })

  it("bug: the table keeps showing rows when the schedule shrinks under a scrolled table", async () => {
    await withPage("panel=plan&seed=4&months=120", async ({ page }) => {
      await text(page, "plan-totals").filter({ hasText: "43824 cycle(s)" }).waitFor()
      const table = page.locator(".virtual")
      const rows = page.locator(".virtual tbody tr:not(.spacer)")
      await table.evaluate((el: { scrollTop: number; scrollHeight: number }) => {
        el.scrollTop = el.scrollHeight
      })
      await numbered(page, /^43824$/).waitFor()
      await page.getByLabel("Months (1 to 1200)").fill("1")
      await text(page, "plan-totals")
        .filter({ hasText: /^336 cycle\(s\)/ })
        .waitFor()
      await numbered(page, /^336$/).waitFor()
      expect(await rows.count()).toBeGreaterThanOrEqual(14)
      // the region scrolls within the shorter table, and back to its top
      expect(
        await table.evaluate(
          (el: { scrollTop: number; scrollHeight: number; clientHeight: number }) =>
            el.scrollTop <= el.scrollHeight - el.clientHeight
        )
      ).toBe(true)
      await table.evaluate((el: { scrollTop: number }) => {
        el.scrollTop = 0
      })
      await numbered(page, /^1$/).first().waitFor()
    })
  })

  it("bug: the command line quotes every value for the shell, and a variation from a link is checked", async () => {
    await withPage("panel=plan&seed=0&variation=var_1%3Btouch+%2Ftmp%2Fpwned%3B%23", async ({ page }) => {
      await text(page, "command").filter({ hasText: "--variation 'var_1;touch /tmp/pwned;#' --format svg" }).waitFor()
      await expect(page.locator("#plan-variation-hint").textContent()).resolves.toBe(
        "plan pln_pro-trial-intro-then-mon has no variation var_1;touch /tmp/pwned;#: pick one of var_1"
      )
      await text(page, "plan-unavailable").waitFor()
      await page.getByLabel("Zone (IANA, type to search)").fill("UTC $(id>x)")
      await text(page, "command").filter({ hasText: "--zone 'UTC $(id>x)' " }).waitFor()
      await page.getByLabel("Zone (IANA, type to search)").fill("Europe/London")
      // the variation picker clears it
      await page.getByLabel("Variation").selectOption("")
      await text(page, "plan-totals").filter({ hasText: "24 cycle(s)" }).waitFor()
      await expect(text(page, "command").textContent()).resolves.toBe(
        "pnpm payrules simulate --plan plan.json --start 2025-01-31T09:00:00Z --zone Europe/London --months 24 --format svg"
      )
    })
  })

  it("bug: a variation left from another plan can be cleared: the picker shows it, with its error", async () => {
    await withPage("panel=plan", async ({ page }) => {
      const json = page.getByLabel("Plan JSON (one plan of GET /api/subscription-plans)")
      await page.getByLabel("Start from a plan of the sandbox").selectOption({ label: "Annual" })
      await text(page, "plan-totals").filter({ hasText: "2 cycle(s)" }).waitFor()
      const annual = await json.inputValue()
      await page.getByLabel("Start from a plan of the sandbox").selectOption({ label: "Monthly or yearly" })
      await page.getByLabel("Variation").selectOption("var_10_2")
      await text(page, "command").filter({ hasText: "--variation var_10_2" }).waitFor()
      await json.fill(annual)
      await expect(page.locator("#plan-variation-hint").textContent()).resolves.toBe(
        "plan pln_annual has no variation var_10_2: pick one of var_2"
      )
      await text(page, "plan-unavailable").waitFor()
      await page.getByLabel("Variation").selectOption("")
      await text(page, "plan-totals").filter({ hasText: "2 cycle(s)" }).waitFor()
      await expect(text(page, "command").textContent()).resolves.not.toContain("--variation")
      // a plan with one variation needs no picker
      await expect(page.locator("#plan-variation").count()).resolves.toBe(0)
    })
  })

  it("bug: clearing the trial's length keeps the field, and typing none into it is a length to correct", async () => {
    await withPage("panel=plan", async ({ page }) => {
      await text(page, "plan-totals").filter({ hasText: "24 cycle(s)" }).waitFor()
      await page.getByLabel("Trial", { exact: true }).selectOption("days")
      const length = page.getByLabel("Trial length (days: P14D)")
      await expect(length.inputValue()).resolves.toBe("P14D")
      await length.focus()
      await page.keyboard.press("End")
      for (let k = 0; k < 4; k++) await page.keyboard.press("Backspace")
      await expect(length.inputValue()).resolves.toBe("")
      // still there, still focused, and the empty length is an error by it
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("plan-trial")
      await page.locator("#plan-trial-hint").filter({ hasText: "a trial is whole days" }).waitFor()
      await expect(page.getByLabel("Trial", { exact: true }).inputValue()).resolves.toBe("days")
      await page.keyboard.type("none")
      await expect(page.getByLabel("Trial", { exact: true }).inputValue()).resolves.toBe("days")
      await page.locator("#plan-trial-hint").filter({ hasText: "a trial is whole days" }).waitFor()
      await page.keyboard.press("Control+A")
      await page.keyboard.type("P30D")
      await text(page, "command").filter({ hasText: "--trial P30D" }).waitFor()
      await text(page, "plan-totals").filter({ hasText: "cycle(s)" }).waitFor()
    })
  })

  it("bug: a total past 2^53 minor units reads exactly in the totals per currency", async () => {
    await withPage("panel=plan&seed=1", async ({ page }) => {
      const json = page.getByLabel("Plan JSON (one plan of GET /api/subscription-plans)")
      await text(page, "plan-totals").filter({ hasText: "2 cycle(s)" }).waitFor()
      const plan = JSON.parse(await json.inputValue()) as { variations: Array<{ phases: Array<{ amount: number }> }> }
      plan.variations[0]!.phases[0]!.amount = 9_007_199_254_740_991
      await json.fill(JSON.stringify(plan, null, 2))
      await page
        .getByRole("list", { name: "Totals per currency" })
        .filter({ hasText: "GBP £180,143,985,094,819.82" })
        .waitFor()
    })
  })

  it("bug: a plan with no variations is said not to be simulable", async () => {
    await withPage("panel=plan", async ({ page }) => {
      const json = page.getByLabel("Plan JSON (one plan of GET /api/subscription-plans)")
      await text(page, "plan-totals").filter({ hasText: "24 cycle(s)" }).waitFor()
      const plan = JSON.parse(await json.inputValue()) as { variations: Array<unknown> }
      await json.fill(JSON.stringify({ ...plan, variations: [] }, null, 2))
      await text(page, "plan-summary")
        .filter({ hasText: "No findings, but the plan has no variations: it cannot be simulated." })
        .waitFor()
      await text(page, "plan-unavailable").waitFor()
    })
  })

  it("bug: a state too large for a link leaves the address as it was and says so", async () => {
    await withPage("panel=plan", async ({ page }) => {
      await text(page, "plan-totals").filter({ hasText: "24 cycle(s)" }).waitFor()
      const hash = () => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)
      await page.getByLabel("Months (1 to 1200)").fill("12")
      await page.waitForFunction(() =>
        (globalThis as unknown as { location: { hash: string } }).location.hash.includes("months=12")
      )
      const before = await hash()
      // 800,000 characters: refused by the panel (over 512 KiB), and over 1,000,000 in base64 in the link
      await paste(page, "#plan-json", "y".repeat(800_000))
      await text(page, "unlinked").filter({ hasText: "a link holds up to 1,000,000" }).waitFor()
      await text(page, "plan-summary").filter({ hasText: "The plan cannot be read: the text has 800,000" }).waitFor()
      expect(await hash()).toBe(before)
      // the page works on; a state that fits is written again
      await page.getByLabel("Start from a plan of the sandbox").selectOption({ label: "Annual" })
      await text(page, "plan-totals").filter({ hasText: "1 cycle(s)" }).waitFor()
      await page.waitForFunction(() =>
        (globalThis as unknown as { location: { hash: string } }).location.hash.includes("seed=1")
      )
      await expect(text(page, "unlinked").count()).resolves.toBe(0)
    })
  })

  it("axe-core finds no serious or critical violation on any panel", async () => {
    for (const panel of ["plan", "fields", "identifiers"]) {
      await withPage(`panel=${panel}`, async ({ page }) => {
        await page.locator("main [role=tabpanel] h2").waitFor()
        await page.locator(".summary, [data-testid=identifier-result]").first().waitFor()
        await page.evaluate(axeSource)
        const { violations } = await page.evaluate(() =>
          axe.run(document, {
            resultTypes: ["violations"],
            runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] }
          })
        )
        const grave = violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`)
        expect(grave, panel).toEqual([])
      })
    }
  })

  it("each panel can be used with the keyboard alone: labels, focus order, visible focus", async () => {
    await withPage("", async ({ page }) => {
      // keys go to the page only once it is rendered and is the focused page of the browser (a page opened beside
      // another in the shared context may not be: Tab then leaves the focus on the body)
      await page.locator("main [role=tabpanel] h2").waitFor()
      await page.locator(".summary").first().waitFor()
      await page.bringToFront()
      /** the focused element: its id, or its tag and accessible name */
      const focused = () =>
        page.evaluate(() => {
          const e = document.activeElement as unknown as {
            id: string
            tagName: string
            getAttribute: (n: string) => string | null
          } | null
          return e === null
            ? ""
            : e.id !== ""
              ? e.id
              : `${e.tagName.toLowerCase()}:${e.getAttribute("aria-label") ?? e.getAttribute("name") ?? ""}`
        })
      const outline = () =>
        page.evaluate(() => {
          const s = window.getComputedStyle(document.activeElement)
          return `${s.outlineStyle} ${s.outlineWidth}`
        })
      /** presses Tab (or Shift+Tab) until the focus is on `target`; every stop on the way, each with a visible focus */
      const tabTo = async (target: string, key = "Tab"): Promise<ReadonlyArray<string>> => {
        const stops: Array<string> = []
        for (let i = 0; i < 30; i++) {
          await page.keyboard.press(key)
          const at = await focused()
          stops.push(at)
          expect(await outline(), at).toBe("solid 3px")
          if (at === target) return stops
        }
        throw new Error(`${target} not reached by ${key}: ${stops.join(", ")}`)
      }
      // the first stop is the selected tab; then the panel's controls in reading order, each labelled
      expect(await tabTo("tab-plan")).toEqual(["tab-plan"])
      expect(await tabTo("plan-anchor")).toEqual([
        "plan-seed",
        "plan-json",
        "plan-start",
        "plan-zone",
        "input:plan-horizon",
        "plan-months",
        "plan-trial-mode",
        "plan-anchor"
      ])
      // then the plan check beside them (it scrolls: a stop of its own)
      expect(await tabTo("ol:The plan, with the findings under the lines they name")).toHaveLength(1)
      await tabTo("plan-months", "Shift+Tab")
      await page.keyboard.press("Control+A")
      await page.keyboard.type("3")
      await text(page, "plan-totals").filter({ hasText: "3 cycle(s) billed" }).waitFor()
      // the table of cycles is a stop of its own, and scrolls from the keyboard
      await tabTo("section:Billed cycles: 3 rows, scroll to see more")
      // back to the tabs; the arrow keys move between the panels
      await tabTo("tab-plan", "Shift+Tab")
      await page.keyboard.press("ArrowRight")
      expect(await focused()).toBe("tab-fields")
      await page.getByRole("tabpanel").getByRole("heading", { name: "Transfer fields" }).waitFor()
      expect(await tabTo("fields-json")).toEqual(["fields-preset", "fields-json"])
      await tabTo("fields-body")
      await page.keyboard.press("Control+End")
      await page.keyboard.type(" ")
      await text(page, "fields-summary").filter({ hasText: "The body is valid." }).waitFor()
      await tabTo("tab-fields", "Shift+Tab")
      await page.keyboard.press("End")
      expect(await focused()).toBe("tab-identifiers")
      expect(await tabTo("identifier-input")).toEqual(["identifier-input"])
      await page.keyboard.press("Control+A")
      await page.keyboard.type("011000015")
      await text(page, "identifier-result").filter({ hasText: "Read as a US routing number" }).waitFor()
      // the examples are buttons: Tab reaches them, Enter uses one
      await tabTo("button:")
      await page.keyboard.press("Enter")
      await text(page, "identifier-result").filter({ hasText: "Read as an IBAN" }).waitFor()
    })
  })
})
