/**
 * The command `payrules-sandbox` (src/bin.ts) without its process: reading the arguments and the environment, and the
 * program that serves the sandbox until interrupted.
 *
 * @internal
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Sandbox from "../Sandbox.js"

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

const known = new Set(["port", "seed", "plans", "host", "control-token", ...Object.keys(limitFlags)])

/** @internal */
export const usage = [
  "usage: payrules-sandbox [--port <n>] [--seed <n>] [--host <address>] [--plans <n>] [--control-token <token>]",
  ...Object.entries(limitFlags).map(([flag, option]) => `  [--${flag} <n>]  default ${Sandbox.defaultLimits[option]}`)
].join("\n")

/** @internal */
export type Parsed =
  | { readonly _tag: "Help" }
  | { readonly _tag: "Invalid"; readonly message: string }
  | {
      readonly _tag: "Serve"
      readonly options: Sandbox.Options & {
        readonly port: number
        readonly seed: number
        readonly plans: number
        readonly host: string
      }
    }

const invalid = (message: string): Parsed => ({ _tag: "Invalid", message })

/**
 * The command line (`--name value` or `--name=value`; a `--` separator is skipped) and the environment (`PORT`,
 * `PAYRULES_SANDBOX_CONTROL_TOKEN`; a flag wins, a variable set to nothing counts as not set) as the sandbox's options.
 *
 * @internal
 */
export const parse = (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>): Parsed => {
  // a variable set to nothing (`PORT= payrules-sandbox`) counts as not set
  const fromEnv = (name: string) => (env[name] === "" ? undefined : env[name])
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    // `pnpm start -- --port 1` passes the separator through
    if (arg === "--") continue
    if (arg === "--help" || arg === "-h") return { _tag: "Help" }
    if (!arg.startsWith("--")) return invalid(`unexpected argument ${arg}`)
    const equals = arg.indexOf("=")
    const name = arg.slice(2, equals < 0 ? undefined : equals)
    if (!known.has(name)) return invalid(`unknown option --${name}`)
    const value = equals < 0 ? argv[++i] : arg.slice(equals + 1)
    if (value === undefined) return invalid(`--${name} needs a value`)
    flags.set(name, value)
  }
  const number = (name: string, fallback: number): number | undefined => {
    const raw = flags.get(name) ?? (name === "port" ? fromEnv("PORT") : undefined)
    if (raw === undefined) return fallback
    const n = raw.trim() === "" ? Number.NaN : Number(raw)
    return Number.isSafeInteger(n) && n >= 0 ? n : undefined
  }
  const port = number("port", 4010)
  const seed = number("seed", 1)
  const plans = number("plans", 1200)
  for (const [name, value] of [
    ["port", port],
    ["seed", seed],
    ["plans", plans]
  ] as const) {
    if (value === undefined) return invalid(`--${name} must be a whole number`)
  }
  const limits: { -readonly [K in keyof Sandbox.Limits]?: number } = {}
  for (const [flag, option] of Object.entries(limitFlags)) {
    if (!flags.has(flag)) continue
    const n = number(flag, 0)
    if (n === undefined || n === 0) return invalid(`--${flag} must be a whole number above 0`)
    limits[option] = n
  }
  const controlToken = flags.get("control-token") ?? fromEnv("PAYRULES_SANDBOX_CONTROL_TOKEN")
  return {
    _tag: "Serve",
    options: {
      port: port!,
      seed: seed!,
      plans: plans!,
      host: flags.get("host") ?? "127.0.0.1",
      limits,
      ...(controlToken === undefined ? {} : { controlToken })
    }
  }
}

/**
 * What the command prints once the sandbox listens: its addresses and its tenants' Bearer tokens.
 *
 * @internal
 */
export const banner = (
  running: Sandbox.Running,
  options: { readonly seed: number; readonly controlToken?: string | undefined }
) =>
  [
    `payrules sandbox (seed ${options.seed}) listening on ${running.url}`,
    `  Open Banking  ${running.urls.openBanking}`,
    `  Merchant      ${running.urls.merchant}`,
    `  Business      ${running.urls.business}`,
    `  API docs      ${running.urls.docs}`,
    `  Control       ${running.urls.control}${options.controlToken === undefined ? "" : " (Bearer <control token>)"}`,
    "Tenants (Authorization: Bearer <token>):",
    ...Sandbox.formatTenants(running.tenants),
    "Ctrl-C to stop."
  ].join("\n")

/**
 * The command: the usage for `--help`; for invalid arguments or options, the message and the usage on stderr and the
 * exit code 2; otherwise the sandbox, served until interrupted, its banner printed once it listens.
 *
 * @internal
 */
export const program = (parsed: Parsed, exit: (code: number) => void) => {
  switch (parsed._tag) {
    case "Help":
      return Console.log(usage)
    case "Invalid":
      return Effect.andThen(
        Console.error(`${parsed.message}\n${usage}`),
        Effect.sync(() => exit(2))
      )
    case "Serve":
      return Layer.launch(
        Layer.effectDiscard(
          Effect.flatMap(Sandbox.SandboxServer, (running) => Console.log(banner(running, parsed.options)))
        ).pipe(Layer.provideMerge(Sandbox.layer(parsed.options)))
      ).pipe(
        Effect.catchTag("SandboxOptionsError", (e) =>
          Effect.andThen(
            Console.error(e.message),
            Effect.sync(() => exit(2))
          )
        )
      )
  }
}
