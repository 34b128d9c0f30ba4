import { describe, expect, it } from "@effect/vitest"
import { payrules } from "./cli.js"

describe("payrules (as a process)", () => {
  it("tour exits 0, shows each step's result and ends with a one-line summary", async () => {
    const r = await payrules("tour")
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("[1] An embedded sandbox of the three APIs, on 127.0.0.1")
    expect(r.stdout).toMatch(/15 plans in 3 pages of at most 5/)
    expect(r.stdout).toContain("Metered compute (2-hour cycles)            8760 cycle(s) billed")
    expect(r.stdout).toMatch(/\[3\][^\n]*\n {2}ip_[0-9a-f-]+: AcceptedSettlementCompleted/)
    expect(r.stdout).toMatch(/received request_id tour-exchange-1 2 times and created 1 transaction/)
    expect(r.stdout).toContain("reference: reference must have at most 18 characters")
    const last = r.stdout.trim().split("\n").at(-1)!
    expect(last).toMatch(
      /^Done: 15 plans simulated .* 1 exchange sent 2 times and processed 1 time, 2 corridors validated/
    )
    expect(r.stderr).toBe("")
  })

  it("--help lists every command, and every command has --help", async () => {
    const top = await payrules("--help")
    expect(top.code).toBe(0)
    for (const command of ["tour", "simulate", "validate-payment", "exchange", "payment", "serve"]) {
      expect(top.stdout).toContain(command)
      const help = await payrules(command, "--help")
      expect([command, help.code]).toEqual([command, 0])
    }
  })

  it("exchange and payment run against the embedded sandbox", async () => {
    const exchange = await payrules("exchange", "--sell", "25")
    expect(exchange.code).toBe(0)
    expect(exchange.stdout).toMatch(
      /^transaction [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}: completed/
    )
    const payment = await payrules("payment")
    expect(payment.code).toBe(0)
    expect(payment.stdout).toMatch(/^ip_[0-9a-f-]+: Pending/)
  })

  it("errors are one line with where and why", async () => {
    const bad = await payrules("exchange", "--buy", "1.234", "--to-currency", "JPY")
    expect(bad.code).not.toBe(0)
    expect(bad.stderr.trim()).toBe(
      "error: the exchange request is invalid: amount: 1.234 has 3 decimals but JPY has 0 (ISO 4217)"
    )
    const unknown = await payrules("payment", "ip_nope")
    expect(unknown.stderr.trim()).toBe("error: 400: no international payment ip_nope")
    const remote = await payrules("payment", "x", "--base-url", "http://127.0.0.1:9")
    expect(remote.stderr.trim()).toMatch(/^error: environment: set PAYRULES_OPEN_BANKING_TOKEN/)
  })

  it("validate-payment prints every issue and exits non-zero", async () => {
    const r = await payrules(
      "validate-payment",
      "--fields",
      "test/fixtures/swift-fields.json",
      "--body",
      "test/fixtures/draft-payment.json",
      "--scheme",
      "Swift"
    )
    expect(r.code).not.toBe(0)
    expect(r.stdout.trim().split("\n")).toEqual([
      'charge_bearer: OneOf: charge_bearer must be one of "shared", "debtor", "prefer_debtor"',
      "reference: Required: reference is required"
    ])
    expect(r.stderr.trim()).toBe("error: test/fixtures/draft-payment.json: 2 issue(s)")
  })
})
