import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as PlatformError from "effect/PlatformError"
import * as Schema from "effect/Schema"
import { describeFileError, maxReadBytes } from "../src/Files.js"
import { colorFor } from "../src/Output.js"
import { payrules, payrulesUntilFirstLine, type Result } from "./Harness.js"

const plan = "test/fixtures/pro-plan.json"

/** Exit code 1 and a single line on standard error, `error: <culprit>...`, with nothing else printed. */
const expectRefused = (r: Result, culprit: string, reason?: RegExp) => {
  expect(r.code).toBe(1)
  const lines = r.stderr.trimEnd().split("\n")
  expect(lines).toHaveLength(1)
  expect(lines[0]!.startsWith(`error: ${culprit}`), lines[0]).toBe(true)
  if (reason !== undefined) expect(lines[0]).toMatch(reason)
  expect(r.stderr).not.toMatch(/\s+at .+:\d+:\d+/)
}

/** A file of `size` NUL bytes that takes no room on the disk (a sparse file): its path. */
const sparseFile = (path: string, size: number): string => {
  const fd = openSync(path, "w")
  ftruncateSync(fd, size)
  closeSync(fd)
  return path
}

/** A port that something else listens on, for the life of the scope. */
const busyPort = Effect.acquireRelease(
  Effect.callback<{ port: number; close: () => void }>((resume) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resume(
        Effect.succeed({
          port: typeof address === "object" && address !== null ? address.port : 0,
          close: () => server.close()
        })
      )
    })
  }),
  (s) => Effect.sync(s.close)
)

describe("every failure is one line naming the culprit, and a non-zero exit", () => {
  it.live("serve --port 99999", () =>
    Effect.gen(function* () {
      expectRefused(yield* payrules(["serve", "--port", "99999"]), "--port", /99999 is not a port \(0 to 65535/)
      expectRefused(yield* payrules(["serve", "--port", "http"]), "--port", /http is not a port/)
    })
  )

  it.live(
    "bug: PAYRULES_SANDBOX_CONTROL_TOKEN set to nothing counts as not set; a bad one is named as the variable",
    () =>
      Effect.gen(function* () {
        const variable = "PAYRULES_SANDBOX_CONTROL_TOKEN"
        // the process's environment too, for as long as the test runs: `payrules` read it from there
        yield* Effect.acquireRelease(
          Effect.sync(() => {
            const before = process.env[variable]
            process.env[variable] = ""
            return before
          }),
          (before) =>
            Effect.sync(() => {
              if (before === undefined) delete process.env[variable]
              else process.env[variable] = before
            })
        )
        const empty = yield* payrulesUntilFirstLine(["serve", "--port", "0"], { env: { [variable]: "" } })
        expect(empty.stderr).toBe("")
        expect(empty.stdout).toMatch(/^payrules sandbox on http:\/\/127\.0\.0\.1:\d+ /)
        const bad = yield* payrulesUntilFirstLine(["serve", "--port", "0"], { env: { [variable]: "a b" } })
        expectRefused(bad, `${variable}: `, /token68/)
        expect(bad.stdout).toBe("")
        // a flag wins over the variable, and is named when it is the one that is wrong
        expectRefused(
          yield* payrulesUntilFirstLine(["serve", "--port", "0", "--control-token", "c d"], {
            env: { [variable]: "ok" }
          }),
          "--control-token: "
        )
      })
  )

  it.live("serve on a port already in use", () =>
    Effect.gen(function* () {
      const { port } = yield* busyPort
      const r = yield* payrules(["serve", "--port", String(port)])
      expectRefused(r, `--port ${port}`, /the port is in use \(EADDRINUSE\)$/)
      expect(r.stdout).toBe("")
    })
  )

  it.live("payment --debtor-currency USD reports the check's errors and exits 1", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["payment", "--debtor-currency", "USD"])
      expect(r.stdout).toMatch(/^error: Data\.ExchangeRateInformation\.UnitCurrency: UnitCurrency GBP/m)
      expectRefused(r, "payment ip_", /2 error\(s\) found by the checks with --debtor-currency USD$/)
    })
  )

  it.live("an unknown currency names the currency option", () =>
    Effect.gen(function* () {
      const payment = yield* payrules(["payment", "--debtor-currency", "ZZZ"])
      expectRefused(payment, "--debtor-currency", /ZZZ is not an ISO 4217 currency code/)
      expect(payment.stdout).toBe("")
      expectRefused(yield* payrules(["payment", "--debtor-currency", "usd"]), "--debtor-currency", /upper case: USD/)
      expectRefused(
        yield* payrules(["exchange", "--sell", "25", "--to-currency", "ZZZ"]),
        "--to-currency",
        /ZZZ is not an ISO 4217 currency code/
      )
    })
  )

  it.live("exchange --sell 25 --from-currency XXX is a currency error", () =>
    Effect.gen(function* () {
      const r = yield* payrules(["exchange", "--sell", "25", "--from-currency", "XXX"])
      expectRefused(r, "--from-currency", /XXX .* has no minor unit in ISO 4217/)
      expect(r.stdout).toBe("")
    })
  )

  it.live("exchange amounts and currencies are checked before anything is sent", () =>
    Effect.gen(function* () {
      expectRefused(
        yield* payrules(["exchange", "--buy", "1.234", "--to-currency", "JPY"]),
        "--buy",
        /1\.234 has 3 decimals but JPY has 0 \(ISO 4217\)$/
      )
      expectRefused(yield* payrules(["exchange", "--sell", "-5"]), "--sell", /not a decimal amount/)
      expectRefused(yield* payrules(["exchange", "--sell", "0"]), "--sell", /greater than 0/)
      expectRefused(yield* payrules(["exchange"]), "--sell or --buy")
      expectRefused(yield* payrules(["exchange", "--sell", "1", "--buy", "1"]), "--sell and --buy")
      expectRefused(yield* payrules(["exchange", "--sell", "1", "--to-currency", "GBP"]), "--to-currency", /also/)
      expectRefused(
        yield* payrules(["exchange", "--sell", "1", "--from-currency", "KWD", "--to-currency", "GBP"]),
        "--from-currency",
        /the sandbox has no KWD account \(it has GBP, EUR, USD, CHF, INR, JPY\); give --from-account$/
      )
      expectRefused(yield* payrules(["exchange", "--sell", "1", "--request-id", "x".repeat(41)]), "--request-id")
    })
  )

  it.live("bug: a value the exchange client refuses before sending names the flag that gave it", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string, RegExp]> = [
        [["--sell", "99999999999999999999999"], "--sell", /at most 15 significant digits/],
        [["--buy", "99999999999999999999999"], "--buy", /at most 15 significant digits/],
        [["--sell", "1", "--request-id", "a\nb"], "--request-id", /control character, U\+000A, at character 2$/],
        [["--sell", "1", "--from-account", ""], "--from-account", /account_id must not be empty$/],
        [["--sell", "1", "--to-account", ""], "--to-account", /account_id must not be empty$/],
        [["--sell", "1", "--reference", "a\tb"], "--reference", /control character, U\+0009/]
      ]
      for (const [args, flag, reason] of cases) {
        for (const target of [[], ["--base-url", "http://127.0.0.1:9"]]) {
          const r = yield* payrules(["exchange", ...args, ...target], { env: { PAYRULES_TOKEN: "t" } })
          expectRefused(r, `${flag}: `, reason)
          expect(r.stdout).toBe("")
        }
      }
    })
  )

  it.live("simulate --until before --start", () =>
    Effect.gen(function* () {
      const between = (start: string, until: string) =>
        payrules(["simulate", "--plan", plan, "--start", start, "--until", until])
      const r = yield* between("2024-06-01T00:00:00Z", "2024-01-01T00:00:00Z")
      expectRefused(r, "--until 2024-01-01T00:00:00Z", /must be after --start 2024-06-01T00:00:00Z$/)
      expect(r.stdout).toBe("")
      const same = yield* between("2024-06-01T00:00:00Z", "2024-06-01T00:00:00Z")
      expectRefused(same, "--until")
      // without --start the start is now, and a past --until is refused as well
      expectRefused(
        yield* payrules(["simulate", "--plan", plan, "--until", "2000-01-01T00:00:00Z"]),
        "--until",
        /after the start \(now/
      )
    })
  )

  it.live("simulate --trial P7D --no-trial, and the other contradictions", () =>
    Effect.gen(function* () {
      expectRefused(
        yield* payrules(["simulate", "--plan", plan, "--trial", "P7D", "--no-trial"]),
        "--trial and --no-trial"
      )
      expectRefused(
        yield* payrules(["simulate", "--plan", plan, "--months", "3", "--until", "2030-01-01T00:00:00Z"]),
        "--months and --until"
      )
      expectRefused(
        yield* payrules(["simulate", "--plan", plan, "--months", "0"]),
        "--months",
        /0 is not a whole number from 1 to 1200/
      )
      expectRefused(
        yield* payrules(["simulate", "--plan", plan, "--zone", "Mars/Olympus"]),
        "--zone",
        /not an IANA time zone/
      )
      expectRefused(yield* payrules(["simulate", "--plan", plan, "--trial", "PT12H"]), "--trial", /days only/)
      expectRefused(yield* payrules(["simulate", "--plan", plan, "--start", "yesterday"]), "--start")
      expectRefused(
        yield* payrules(["simulate", "--plan", plan, "--format", "pdf"]),
        "--format",
        /pdf is not one of table, json, svg/
      )
      expectRefused(yield* payrules(["simulate", "--plan", plan, "--anchor", "x"]), "--anchor")
      expectRefused(
        yield* payrules(["simulate", "--plan", plan, "--variation", "nope"]),
        "--variation nope",
        /has no variation nope \(it has monthly\)/
      )
      expectRefused(
        yield* payrules(["simulate", "--plan", plan, "--out", "no/such/dir/plan.svg"]),
        "--out no/such/dir/plan.svg",
        /its directory does not exist/
      )
    })
  )

  it.live("bug: a --trial that ends beyond the range of instants names --trial, not the horizon", () =>
    Effect.gen(function* () {
      const r = yield* payrules([
        "simulate",
        "--plan",
        plan,
        "--start",
        "2024-01-17T09:00:00Z",
        "--trial",
        "P99999999D"
      ])
      expectRefused(r, "--trial: P99999999D: the trial would end beyond the range of instants")
      expect(r.stdout).toBe("")
      // a finite phase that ends beyond it is the plan's (with this start), not the horizon's either
      expectRefused(
        yield* payrules([
          "simulate",
          "--plan",
          plan,
          "--start",
          "+275760-06-01T00:00:00Z",
          "--until",
          "+275760-09-01T00:00:00Z"
        ]),
        `--plan ${plan}: phase intro ends beyond the range of instants`
      )
    })
  )

  it.live("--base-url notaurl is refused up front, by every command that takes it", () =>
    Effect.gen(function* () {
      for (const args of [
        ["plans"],
        ["simulate", "--plan", "pln_x"],
        ["exchange", "--sell", "25"],
        ["payment", "ip_x"]
      ]) {
        const r = yield* payrules([...args, "--base-url", "notaurl"])
        expectRefused(r, "--base-url", /notaurl is not an absolute URL/)
        expect(r.stdout).toBe("")
      }
      expectRefused(
        yield* payrules(["plans", "--base-url", "ftp://example.com"]),
        "--base-url",
        /not an http or https URL/
      )
      expectRefused(yield* payrules(["plans", "--base-url", "https://u:p@example.com"]), "--base-url", /credentials/)
    })
  )

  it.live("plan files: missing, not JSON, not a plan", () =>
    Effect.gen(function* () {
      expectRefused(
        yield* payrules(["simulate", "--plan", "test/fixtures/nope.json"]),
        "--plan test/fixtures/nope.json",
        /no such file$/
      )
      expectRefused(
        yield* payrules(["simulate", "--plan", "test/fixtures/not-json.json"]),
        "--plan test/fixtures/not-json.json",
        /not JSON/
      )
      expectRefused(
        yield* payrules(["simulate", "--plan", "test/fixtures/bad-duration.json"]),
        "--plan test/fixtures/bad-duration.json",
        /variations\.0\.phases\.0\.cycle_duration/
      )
      expectRefused(yield* payrules(["simulate", "--plan", "pln_nope"]), "--plan pln_nope", /no plan with this id/)
    })
  )

  it.live("bug: a file that cannot be read or written says why: the system's reason and code, or its size", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "payrules-"))
      // sparse files: their size is on the disk's books, not on the disk, and nothing reads them
      const huge = sparseFile(join(dir, "huge.json"), 3 * 1024 ** 3)
      expectRefused(
        yield* payrules(["simulate", "--plan", huge]),
        `--plan ${huge}: the file is 3,221,225,472 bytes; at most 16,777,216 bytes (16 MiB) are read`
      )
      const nul = sparseFile(join(dir, "nul.json"), maxReadBytes + 1)
      expectRefused(
        yield* payrules(["validate-payment", "--fields", nul, "--body", "test/fixtures/draft-payment.json"]),
        `--fields ${nul}: the file is 16,777,217 bytes; at most 16,777,216 bytes (16 MiB) are read`
      )
      if (existsSync("/dev/full")) {
        expectRefused(
          yield* payrules(["simulate", "--plan", plan, "--months", "2", "--out", "/dev/full"]),
          "--out /dev/full: no space left on device (ENOSPC)"
        )
      }
      if (existsSync("/proc/version")) {
        // EIO for root, permission denied for anyone else
        expectRefused(
          yield* payrules(["simulate", "--plan", plan, "--months", "2", "--out", "/proc/version"]),
          "--out /proc/version: ",
          /: (.+ \(E[A-Z]+\)|permission denied)$/
        )
      }
      rmSync(dir, { recursive: true, force: true })
    })
  )

  it("bug: a file too large for Node.js to read (one whose size stat does not tell, a pipe) says so", () => {
    const readFailure = (code: string, message: string) =>
      PlatformError.systemError({
        _tag: "Unknown",
        module: "FileSystem",
        method: "readFile",
        cause: Object.assign(new RangeError(message), { code })
      })
    expect(describeFileError(readFailure("ERR_FS_FILE_TOO_LARGE", "File size is greater than 2 GiB"), "missing")).toBe(
      "the file is over 2 GiB; at most 16,777,216 bytes (16 MiB) are read"
    )
    const notText = PlatformError.badArgument({
      module: "FileSystem",
      method: "readFileString",
      description: "invalid encoding",
      cause: Object.assign(new Error("Cannot create a string longer than 0x1fffffe8 characters"), {
        code: "ERR_STRING_TOO_LONG"
      })
    })
    expect(describeFileError(notText, "missing")).toBe(
      "the file is over 512 MiB; at most 16,777,216 bytes (16 MiB) are read"
    )
    const busy = PlatformError.systemError({
      _tag: "Busy",
      module: "FileSystem",
      method: "writeFile",
      cause: Object.assign(new Error("EBUSY: resource busy or locked, open"), { code: "EBUSY", errno: -16 })
    })
    expect(describeFileError(busy, "missing")).toBe("resource busy or locked (EBUSY)")
  })

  it.live("usage errors of the command line are one line too", () =>
    Effect.gen(function* () {
      expectRefused(yield* payrules(["nope"]), "nope: not a payrules command", /use one of tour, plans, simulate/)
      // effect/cli's own words for its usage errors, on one line
      expectRefused(yield* payrules(["simulate"]), "Missing required flag: --plan")
      expectRefused(
        yield* payrules(["simulate", "--plna", "x"]),
        "Unrecognized flag: --plna",
        /in command payrules simulate \(did you mean --plan\?\)$/
      )
      expectRefused(yield* payrules(["payment", "ip_nope"]), "payment ip_nope", /no international payment ip_nope/)
      expectRefused(
        yield* payrules(["payment", "x", "--base-url", "http://127.0.0.1:9"]),
        "environment",
        /set PAYRULES_OPEN_BANKING_TOKEN/
      )
    })
  )

  it.live.prop(
    "any arguments: exit 0, or exit 1 with exactly one line on standard error",
    [
      Schema.Literals(["plans", "simulate", "exchange", "payment", "validate-payment", "bogus"]),
      Arbitrary.array(
        Arbitrary.schema(
          Schema.Union([
            Schema.Literals<ReadonlyArray<string>>([
              ...["--plan", plan, "--months", "--until", "--start", "--trial", "--no-trial", "--format", "--sell"],
              ...[
                "--buy",
                "--from-currency",
                "--debtor-currency",
                "--base-url",
                "--fields",
                "--body",
                "--zone",
                "--",
                "-x"
              ]
            ]),
            Schema.Literals<ReadonlyArray<string>>([
              "3",
              "0",
              "-1",
              "P7D",
              "2024-01-01T00:00:00Z",
              "json",
              "svg",
              "GBP",
              "XXX",
              "ZZZ",
              "notaurl",
              ""
            ])
          ])
        ),
        { maxLength: 6 }
      )
    ],
    ([command, rest]) =>
      Effect.gen(function* () {
        const r = yield* payrules([command, ...rest])
        if (r.code === 0) return
        expect(r.code).toBe(1)
        const lines = r.stderr.trimEnd().split("\n")
        expect(lines, r.stderr).toHaveLength(1)
        expect(lines[0]).toMatch(/^error: \S/)
      }),
    { arbitrary: { runs: 40, seed: 18 } }
  )
})

describe("colour", () => {
  it("only on a TTY, never with NO_COLOR or TERM=dumb", () => {
    expect(colorFor(true, {})).toBe(true)
    expect(colorFor(false, {})).toBe(false)
    expect(colorFor(undefined, {})).toBe(false)
    expect(colorFor(true, { NO_COLOR: "1" })).toBe(false)
    expect(colorFor(true, { NO_COLOR: "" })).toBe(true)
    expect(colorFor(true, { TERM: "dumb" })).toBe(false)
  })
})
