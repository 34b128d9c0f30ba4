import { readFileSync } from "node:fs"
import { stripVTControlCharacters } from "node:util"
import { describe, expect, it, layer } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import * as CliOutput from "effect/cli/CliOutput"
import * as Effect from "effect/Effect"
import * as Cli from "../src/Cli.js"
import { payrules } from "./Harness.js"

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }

describe("payrules (in process)", () => {
  it.live("--help lists every command, and every command has --help", () =>
    Effect.gen(function* () {
      const top = yield* payrules(["--help"])
      expect(top.code).toBe(0)
      expect(Cli.commandNames).toEqual([
        "tour",
        "plans",
        "simulate",
        "validate-payment",
        "exchange",
        "resume",
        "payment",
        "serve"
      ])
      for (const command of Cli.commandNames) {
        expect(top.stdout).toContain(`- ${command}`)
        const help = yield* payrules([command, "--help"])
        expect([command, help.code, help.stderr]).toEqual([command, 0, ""])
        expect(help.stdout).toContain(`$ payrules ${command}`)
      }
    })
  )

  it.live("every help page fits a terminal of 100 columns, in a pipe and in colour", () =>
    Effect.gen(function* () {
      const widest = (text: string) => Math.max(...text.split("\n").map((line) => [...line].length))
      for (const args of [["--help"], ...Cli.commandNames.map((command) => [command, "--help"]), []]) {
        const piped = yield* payrules(args)
        expect([args, piped.code]).toEqual([args, 0])
        expect(piped.stdout.split("\n").length).toBeGreaterThan(10)
        // what `payrules --help | awk '{ print length }' | sort -n | tail -1` measures
        expect(widest(piped.stdout), `payrules ${args.join(" ")}`).toBeLessThanOrEqual(100)
        // on a terminal the escapes of the colours take no room
        const tty = yield* payrules(args, { color: true })
        expect(stripVTControlCharacters(tty.stdout)).toBe(piped.stdout)
        expect(Math.max(...tty.stdout.split("\n").map(CliOutput.displayWidth))).toBeLessThanOrEqual(100)
        expect(tty.stdout).toContain("\u001b[")
      }
      // the description of a command is wrapped, never cut
      const simulate = yield* payrules(["simulate", "--help"])
      expect(simulate.stdout.replace(/\s+/g, " ")).toContain(
        "--base-url url the API's base URL, absolute http(s) (tokens come from PAYRULES_<FAMILY>_TOKEN or PAYRULES_TOKEN); without it, an embedded sandbox"
      )
    })
  )

  it.live("--version is the version of package.json, as the help page says", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["--version"])
      expect([r.code, r.stdout.trim()]).toEqual([0, manifest.version])
      const help = yield* payrules(["--help"])
      expect(help.stdout).toContain(`payrules ${manifest.version}`)
    })
  )

  it.live("colour only where asked: none in a pipe, ANSI escapes on a TTY", () =>
    Effect.gen(function* () {
      const piped = yield* payrules(["--help"])
      expect(piped.stdout).not.toContain("\u001b[")
      const tty = yield* payrules(["--help"], { color: true })
      expect(tty.stdout).toContain("\u001b[")
      const bad = yield* payrules(["simulate"])
      expect(bad.stderr).not.toContain("\u001b[")
    })
  )

  it.live("the literal -- that pnpm passes on is not an argument", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["--", "--help"])
      expect(r.code).toBe(0)
      expect(r.stdout).toContain("USAGE")
      const sub = yield* payrules(["--", "simulate", "--help"])
      expect([sub.code, sub.stdout.includes("--plan")]).toEqual([0, true])
    })
  )

  it.live("plans lists the sandbox's plans with ids, names, variations and phases; the ids work in simulate", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["plans"])
      expect(r.code).toBe(0)
      const lines = r.stdout.split("\n")
      expect(lines[0]).toBe("15 plans")
      expect(r.stdout).toMatch(
        // plan, variation and phase ids are UUIDs, as the official document gives them (format: uuid)
        /^[0-9a-f-]{36} {2}Pro \(trial, intro, then monthly\) \(active, trial P14D\)\n {2}[0-9a-f-]{36}: [0-9a-f-]{36} P1M × 3 £4\.99 → [0-9a-f-]{36} P1M £9\.99, no end$/m
      )
      expect(r.stdout).toMatch(
        / {2}Three phases, then stops \(active\)\n {2}\S+: \S+ P1W × 2 £1\.00 → \S+ P1M × 2 £5\.00 → \S+ P1M × 6 £9\.00$/m
      )
      const compute = /^([0-9a-f-]{36}) {2}Metered compute \(2-hour cycles\)/m.exec(r.stdout)
      expect(compute).not.toBeNull()
      const json = yield* payrules(["plans", "--format", "json"])
      const plans = JSON.parse(json.stdout) as ReadonlyArray<{ id: string; variations: ReadonlyArray<unknown> }>
      expect(plans).toHaveLength(15)
      expect(plans.map((p) => p.id)).toContain(compute![1])
      const sim = yield* payrules([
        "simulate",
        "--plan",
        compute![1]!,
        "--start",
        "2025-01-01T00:00:00Z",
        "--months",
        "1"
      ])
      expect(sim.code).toBe(0)
      expect(sim.stdout.split("\n")[0]).toBe(`Metered compute (2-hour cycles) (${compute![1]}), UTC`)
      expect(sim.stdout).toContain("372 cycle(s) billed: €93.00")
    })
  )

  it.live("exchange and payment run against the embedded sandbox", () =>
    Effect.gen(function* () {
      const exchange = yield* payrules(["exchange", "--sell", "25"])
      expect(exchange.code).toBe(0)
      expect(exchange.stdout).toMatch(
        /^transaction [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}: completed/
      )
      const payment = yield* payrules(["payment", "--debtor-currency", "GBP"])
      expect(payment.code).toBe(0)
      expect(payment.stdout).toMatch(/^ip_[0-9a-f-]+: Pending/)
    })
  )

  it.live("validate-payment prints every issue and exits non-zero", () =>
    Effect.gen(function* () {
      const r = yield* payrules([
        "validate-payment",
        "--fields",
        "test/fixtures/swift-fields.json",
        "--body",
        "test/fixtures/draft-payment.json",
        "--scheme",
        "Swift"
      ])
      expect(r.code).toBe(1)
      expect(r.stdout.trim().split("\n")).toEqual([
        'charge_bearer: OneOf: charge_bearer must be one of "shared", "debtor", "prefer_debtor"',
        "reference: Required: reference is required"
      ])
      expect(r.stderr.trim()).toBe("error: --body test/fixtures/draft-payment.json: 2 issue(s)")
    })
  )
})

// one sandbox for the file, standing for a real API at --base-url (with the real clock: the clients retry)
layer(Sandbox.layer({ seed: 7, plans: 15 }), { excludeTestServices: true })(
  "payrules against an API at --base-url",
  (it) => {
    // the token of the API's first tenant
    const env = { PAYRULES_TOKEN: Sandbox.tenants({ seed: 7 })[0]!.token }

    it.effect("plans and simulate --plan <id> read the API's plans", () =>
      Effect.gen(function* () {
        const server = yield* Sandbox.SandboxServer
        const listed = yield* payrules(["plans", "--base-url", server.urls.merchant], { env })
        expect([listed.code, listed.stdout.split("\n")[0]]).toEqual([0, "15 plans"])
        const id = /^([0-9a-f-]{36}) {2}Annual/m.exec(listed.stdout)![1]!
        // seed 7 is not the embedded sandbox's seed 1: the ids differ, and only the API at --base-url knows this one
        const embedded = yield* payrules(["plans"])
        expect(embedded.stdout).not.toContain(id)
        const sim = yield* payrules(
          ["simulate", "--plan", id, "--base-url", server.urls.merchant, "--start", "2025-01-01T00:00:00Z"],
          { env }
        )
        expect([sim.code, sim.stdout.split("\n")[0]]).toEqual([0, `Annual (${id}), UTC`])
        expect(sim.stdout).toContain("2 cycle(s) billed: £198.00")
      })
    )

    it.effect("without a token, or without the accounts, the command says what to give", () =>
      Effect.gen(function* () {
        const server = yield* Sandbox.SandboxServer
        const noToken = yield* payrules(["plans", "--base-url", server.urls.merchant])
        expect([noToken.code, noToken.stderr.trim()]).toEqual([
          1,
          "error: environment: set PAYRULES_MERCHANT_TOKEN (or PAYRULES_TOKEN) to call merchant APIs at --base-url"
        ])
        const noAccount = yield* payrules(["exchange", "--sell", "25", "--base-url", server.urls.business], { env })
        expect([noAccount.code, noAccount.stderr.trim()]).toEqual([
          1,
          "error: --from-account: give the account id: with --base-url the accounts are not known"
        ])
      })
    )
  }
)
