#!/usr/bin/env node
/**
 * `payrules-sandbox [--port 4010] [--seed 1] [--host 127.0.0.1] [--control-token <token>]`: serves the sandbox until
 * stopped (Ctrl-C), and prints its tenants with their Bearer tokens. The port also comes from `PORT` (default 4010),
 * the control token from `PAYRULES_SANDBOX_CONTROL_TOKEN` (required on a host other than loopback). The limits of
 * `Sandbox.Limits` have flags of their own (`--max-body-bytes`, `--request-timeout-ms`, ...; see `--help`).
 *
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Sandbox from "./Sandbox.js"

/** the flags of the limits, and the option each sets */
const limitFlags = {
  "max-body-bytes": "maxBodyBytes",
  "max-json-depth": "maxJsonDepth",
  "max-header-bytes": "maxHeaderBytes",
  "headers-timeout-ms": "headersTimeoutMs",
  "request-timeout-ms": "requestTimeoutMs",
  "keep-alive-timeout-ms": "keepAliveTimeoutMs",
  "max-connections": "maxConnections"
} as const satisfies Record<string, keyof Sandbox.Limits>

const usage = [
  "usage: payrules-sandbox [--port <n>] [--seed <n>] [--host <address>] [--plans <n>] [--control-token <token>]",
  ...Object.entries(limitFlags).map(([flag, option]) => `  [--${flag} <n>]  default ${Sandbox.defaultLimits[option]}`)
].join("\n")

const parse = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    // `pnpm start -- --port 1` passes the separator through
    if (arg === "--") continue
    if (arg === "--help" || arg === "-h") return { help: true } as const
    const [name, inline] = arg.split("=", 2)
    if (!name?.startsWith("--")) return { error: `unexpected argument ${arg}` } as const
    const value = inline ?? argv[++i]
    if (value === undefined) return { error: `${name} needs a value` } as const
    flags.set(name.slice(2), value)
  }
  const number = (name: string, fallback: number) => {
    const raw = flags.get(name) ?? (name === "port" ? env.PORT : undefined)
    if (raw === undefined) return fallback
    const n = Number(raw)
    return Number.isSafeInteger(n) && n >= 0 ? n : Number.NaN
  }
  const options = {
    port: number("port", 4010),
    seed: number("seed", 1),
    plans: number("plans", 1200),
    host: flags.get("host") ?? "127.0.0.1",
    controlToken: flags.get("control-token") ?? env.PAYRULES_SANDBOX_CONTROL_TOKEN
  }
  const limits: Partial<Record<keyof Sandbox.Limits, number>> = {}
  for (const [flag, option] of Object.entries(limitFlags)) {
    if (!flags.has(flag)) continue
    const n = number(flag, 0)
    if (!(n > 0)) return { error: `--${flag} must be a whole number above 0` } as const
    limits[option] = n
  }
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === "number" && Number.isNaN(value)) return { error: `--${name} must be a whole number` } as const
  }
  for (const name of flags.keys()) {
    if (!["port", "seed", "plans", "host", "control-token", ...Object.keys(limitFlags)].includes(name)) {
      return { error: `unknown option --${name}` } as const
    }
  }
  return { options: { ...options, limits } } as const
}

const parsed = parse(process.argv.slice(2), process.env)

const program = Effect.gen(function* () {
  if ("help" in parsed) return yield* Console.log(usage)
  if ("error" in parsed) {
    yield* Console.error(`${parsed.error}\n${usage}`)
    return yield* Effect.sync(() => process.exit(2))
  }
  return yield* Layer.launch(
    Layer.effectDiscard(
      Effect.flatMap(Sandbox.SandboxServer, (running) =>
        Console.log(
          [
            `payrules sandbox (seed ${parsed.options.seed}) listening on ${running.url}`,
            `  Open Banking  ${running.urls.openBanking}`,
            `  Merchant      ${running.urls.merchant}`,
            `  Business      ${running.urls.business}`,
            `  API docs      ${running.urls.docs}`,
            `  Control       ${running.urls.control}${parsed.options.controlToken === undefined ? "" : " (Bearer <control token>)"}`,
            "Tenants (Authorization: Bearer <token>):",
            ...Sandbox.formatTenants(running.tenants),
            "Ctrl-C to stop."
          ].join("\n")
        )
      )
    ).pipe(Layer.provideMerge(Sandbox.layer(parsed.options)))
  ).pipe(
    Effect.catchTag("SandboxOptionsError", (e) =>
      Effect.andThen(
        Console.error(e.message),
        Effect.sync(() => process.exit(2))
      )
    )
  )
})

NodeRuntime.runMain(program)
