import { describe, expect, it } from "@effect/vitest"
import type * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Terminal from "effect/Terminal"
import { asksForWizard, wizardCancelled } from "../src/Cli.js"
import { payrules } from "./Harness.js"
import { runPiped } from "./Process.js"

// `--wizard` (effect/cli's) asks its questions on the terminal: in a pipe it wrote cursor escapes (ESC [?25l) to
// standard output and, its input ended, said "Wizard cancelled." and exited 0; cancelled on a terminal, it exited 0.

const line =
  "error: --wizard: the wizard asks its questions on a terminal, and standard input or output is not one: give the flags on the command line (--help lists them)\n"

/** a terminal where the person presses Enter at every question (the default answer), and what was displayed */
const pressingEnter = () => {
  const displayed: Array<string> = []
  const terminal = Terminal.make({
    columns: Effect.succeed(100),
    rows: Effect.succeed(40),
    size: Effect.tap(Queue.make<Terminal.Size, Cause.Done>(), (q) => Queue.end(q)),
    readInput: Effect.tap(Queue.make<Terminal.UserInput, Cause.Done>(), (q) =>
      Queue.offer(q, {
        input: Option.some("\r"),
        key: { name: "return", ctrl: false, meta: false, shift: false }
      })
    ),
    readLine: Effect.fail(new Terminal.QuitError()),
    display: (text) => Effect.sync(() => void displayed.push(text))
  })
  return { terminal, displayed }
}

describe("payrules --wizard", () => {
  it.live("bug: without a terminal it is refused on one line, before any question, with exit 1", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["plans", "--wizard"])
      expect([r.code, r.stdout, r.stderr]).toEqual([1, "", line])
      const root = yield* payrules(["--wizard"])
      expect([root.code, root.stdout, root.stderr]).toEqual([1, "", line])
    })
  )

  it.live("bug: a wizard cancelled on a terminal exits 130, as Ctrl-C does", () =>
    Effect.gen(function* () {
      // the harness's terminal: its input has ended, as after Ctrl-D at the first question
      const r = yield* payrules(["plans", "--wizard"], { interactive: true })
      expect(r.code).toBe(wizardCancelled)
      expect(r.code).toBe(130)
      expect(r.stdout).toContain("Wizard cancelled.")
    })
  )

  it.live("answered on a terminal, it runs the command it built and exits with its code", () =>
    Effect.gen(function* () {
      const { displayed, terminal } = pressingEnter()
      // Set Format? no; Set Base url? no; Run this command? yes
      const r = yield* payrules(["plans", "--wizard"], { interactive: true, terminal })
      expect(r.code).toBe(0)
      expect(r.stdout).toContain("$ payrules plans")
      expect(r.stdout).toContain("15 plans")
      expect(displayed.join("")).toContain("Run this command?")
    })
  )

  it("asksForWizard: --wizard or --wizard=... before a --", () => {
    expect(asksForWizard(["plans", "--wizard"])).toBe(true)
    expect(asksForWizard(["--wizard=true"])).toBe(true)
    expect(asksForWizard(["plans"])).toBe(false)
    expect(asksForWizard(["plans", "--", "--wizard"])).toBe(false)
  })

  it.live("bug: as a process with pipes: no escape on standard output, one line on standard error, exit 1", () =>
    Effect.gen(function* () {
      const r = yield* runPiped(["plans", "--wizard"])
      expect([r.code, r.stdout, r.stderr]).toEqual([1, "", line])
    })
  )
})
