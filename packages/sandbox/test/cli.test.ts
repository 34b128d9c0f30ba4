import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Effect } from "effect"
import * as TestConsole from "effect/testing/TestConsole"
import * as Cli from "../src/internal/cli.js"

const serve = (argv: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const parsed = Cli.parse(argv, env)
  if (parsed._tag !== "Serve") throw new Error(`expected options, got ${JSON.stringify(parsed)}`)
  return parsed.options
}

const refusal = (argv: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const parsed = Cli.parse(argv, env)
  if (parsed._tag !== "Invalid") throw new Error(`expected a refusal, got ${JSON.stringify(parsed)}`)
  return parsed.message
}

describe("payrules-sandbox: its arguments", () => {
  it("without arguments: port 4010 on loopback, seed 1, 1,200 plans, the default limits, no control token", () => {
    expect(serve([])).toStrictEqual({ port: 4010, seed: 1, plans: 1200, host: "127.0.0.1", limits: {} })
  })

  it("each flag as --name value or --name=value (a value may hold '='); a `--` separator is skipped", () => {
    expect(
      serve(["--", "--port", "5001", "--seed=7", "--plans", "15", "--host=0.0.0.0", "--control-token=a=b"])
    ).toEqual({ port: 5001, seed: 7, plans: 15, host: "0.0.0.0", limits: {}, controlToken: "a=b" })
  })

  it("PORT and PAYRULES_SANDBOX_CONTROL_TOKEN from the environment; a flag wins over either", () => {
    const env = { PORT: "4999", PAYRULES_SANDBOX_CONTROL_TOKEN: "from-env" }
    expect(serve([], env)).toMatchObject({ port: 4999, controlToken: "from-env" })
    expect(serve(["--port", "5000", "--control-token", "from-flag"], env)).toMatchObject({
      port: 5000,
      controlToken: "from-flag"
    })
    expect(refusal([], { PORT: "http" })).toBe("--port must be a whole number")
    // PORT is the port's only: the other numbers keep their defaults (bug: every number read from PORT)
    expect(serve([], { PORT: "4999" })).toStrictEqual({
      port: 4999,
      seed: 1,
      plans: 1200,
      host: "127.0.0.1",
      limits: {}
    })
    // blanks are no number (bug: `Number(" ")` is 0, a port the command would take)
    expect(refusal([], { PORT: " " })).toBe("--port must be a whole number")
    expect(refusal(["--seed", " \t"])).toBe("--seed must be a whole number")
    // set to nothing: not set (the default port, no control token), where it read as port 0 and an invalid token
    expect(serve([], { PORT: "", PAYRULES_SANDBOX_CONTROL_TOKEN: "" })).toEqual(serve([]))
  })

  it("the limits' flags set those limits only, each a whole number above 0", () => {
    expect(serve(["--max-body-bytes", "2048", "--max-connections=3", "--request-timeout-ms", "900"]).limits).toEqual({
      maxBodyBytes: 2048,
      maxConnections: 3,
      requestTimeoutMs: 900
    })
    expect(refusal(["--max-json-depth", "0"])).toBe("--max-json-depth must be a whole number above 0")
    expect(refusal(["--keep-alive-timeout-ms", "1.5"])).toBe("--keep-alive-timeout-ms must be a whole number above 0")
  })

  it.each([
    [["--port", "-1"], "--port must be a whole number"],
    [["--port", "80.5"], "--port must be a whole number"],
    [["--port="], "--port must be a whole number"],
    [["--seed", "one"], "--seed must be a whole number"],
    [["--plans", "9007199254740993"], "--plans must be a whole number"],
    [["--seed"], "--seed needs a value"],
    [["serve"], "unexpected argument serve"],
    [["-p", "1"], "unexpected argument -p"],
    [["--verbose"], "unknown option --verbose"],
    [["--port", "1", "--colour=always"], "unknown option --colour"]
  ] as const)("refuses %j: %s", (argv, message) => {
    expect(refusal(argv)).toBe(message)
  })

  it("--help or -h, wherever it comes, asks for the usage, which names every flag with the limits' defaults", () => {
    expect(Cli.parse(["--seed", "3", "-h"], {})).toEqual({ _tag: "Help" })
    expect(Cli.parse(["--help", "--bogus"], {})).toEqual({ _tag: "Help" })
    for (const flag of ["--port", "--seed", "--host", "--plans", "--control-token", "--max-body-bytes"]) {
      expect(Cli.usage).toContain(flag)
    }
    expect(Cli.usage).toContain(`[--max-body-bytes <n>]  default ${Sandbox.defaultLimits.maxBodyBytes}`)
    expect(Cli.usage).toContain(`[--max-connections <n>]  default ${Sandbox.defaultLimits.maxConnections}`)
  })
})

describe("payrules-sandbox: the program (in process)", () => {
  it.effect("--help prints the usage and exits normally", () =>
    Effect.gen(function* () {
      const codes: Array<number> = []
      yield* Cli.program(Cli.parse(["--help"], {}), (code) => codes.push(code))
      expect(yield* TestConsole.logLines).toEqual([Cli.usage])
      expect(codes).toEqual([])
    })
  )

  it.effect("bad arguments: the reason and the usage on stderr, exit code 2, no server", () =>
    Effect.gen(function* () {
      const codes: Array<number> = []
      yield* Cli.program(Cli.parse(["--port", "x"], {}), (code) => codes.push(code))
      expect(yield* TestConsole.errorLines).toEqual([`--port must be a whole number\n${Cli.usage}`])
      expect(yield* TestConsole.logLines).toEqual([])
      expect(codes).toEqual([2])
    })
  )

  it.effect.each([
    [["--port", "0", "--control-token", "not one token"], "controlToken must be one token68"],
    [["--port", "0", "--host", "0.0.0.0"], "give a controlToken (--control-token or PAYRULES_SANDBOX_CONTROL_TOKEN)"]
  ] as const)(
    "options the sandbox refuses (%j): its message on stderr, exit code 2, nothing served",
    ([argv, message]) =>
      Effect.gen(function* () {
        const codes: Array<number> = []
        yield* Cli.program(Cli.parse(argv, {}), (code) => codes.push(code))
        expect((yield* TestConsole.errorLines).join("\n")).toContain(message)
        expect(yield* TestConsole.logLines).toEqual([])
        expect(codes).toEqual([2])
      })
  )

  it.effect("the banner: where each API listens and every tenant's Bearer token", () =>
    Effect.gen(function* () {
      const running = yield* Sandbox.SandboxServer
      const text = Cli.banner(running, { seed: 5 })
      expect(text.split("\n")[0]).toBe(`payrules sandbox (seed 5) listening on ${running.url}`)
      for (const url of Object.values(running.urls)) expect(text).toContain(url)
      for (const tenant of running.tenants) expect(text).toContain(tenant.token)
      expect(text).not.toContain("control token")
      const lines = text.split("\n")
      expect(lines).toContain(`  Control       ${running.urls.control}`)
      expect(lines).toContain("Tenants (Authorization: Bearer <token>):")
      expect(lines.at(-1)).toBe("Ctrl-C to stop.")
      expect(Cli.banner(running, { seed: 5, controlToken: "secret" })).toContain(
        `${running.urls.control} (Bearer <control token>)`
      )
      expect(Cli.banner(running, { seed: 5, controlToken: "secret" })).not.toContain("secret")
    }).pipe(Effect.provide(Sandbox.layer({ seed: 5, plans: 15 })))
  )
})

// One run of the command as a process: it starts, serves, and stops on SIGINT.
const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))

interface Ran {
  readonly stdout: string
  readonly stderr: string
  readonly code: number | null
  readonly seedStatus?: number
}

const { PORT: _port, PAYRULES_SANDBOX_CONTROL_TOKEN: _token, ...withoutSandboxEnv } = process.env

const runBin = (argv: ReadonlyArray<string>, whenListening?: (stdout: string) => Promise<number>) =>
  Effect.callback<Ran>((resume) => {
    const child = spawn(process.execPath, ["--conditions=@payrules/source", "--import", "tsx", bin, ...argv], {
      env: withoutSandboxEnv,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    let seedStatus: number | undefined
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
      if (whenListening !== undefined && stdout.includes("Ctrl-C to stop.") && seedStatus === undefined) {
        seedStatus = -1
        void whenListening(stdout).then((status) => {
          seedStatus = status
          child.kill("SIGINT")
        })
      }
    })
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on("close", (code) =>
      resume(Effect.succeed({ stdout, stderr, code, ...(seedStatus === undefined ? {} : { seedStatus }) }))
    )
    return Effect.sync(() => child.kill("SIGKILL"))
  })

describe("payrules-sandbox: the command (a process)", () => {
  it.live("serves on the port given (0: any free one), prints its tenants, answers, and stops on SIGINT", () =>
    Effect.gen(function* () {
      const ran = yield* runBin(["--port", "0", "--seed", "5", "--plans", "15"], async (stdout) => {
        const control = /Control\s+(\S+)/.exec(stdout)![1]!
        return (await fetch(`${control}/seed`)).status
      })
      expect(ran.stdout).toMatch(/^payrules sandbox \(seed 5\) listening on http:\/\/127\.0\.0\.1:\d+/)
      for (const tenant of Sandbox.tenants({ seed: 5, plans: 15 })) expect(ran.stdout).toContain(tenant.token)
      expect(ran.seedStatus).toBe(200)
      expect(ran.code).not.toBe(2)
    })
  )

  it.live("an unknown flag: exit code 2, the usage on stderr", () =>
    Effect.gen(function* () {
      const ran = yield* runBin(["--bogus"])
      expect(ran.code).toBe(2)
      expect(ran.stderr).toContain("unknown option --bogus")
      expect(ran.stderr).toContain("usage: payrules-sandbox")
    })
  )
})
