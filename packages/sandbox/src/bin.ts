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
import * as Cli from "./internal/cli.js"

NodeRuntime.runMain(Cli.program(Cli.parse(process.argv.slice(2), process.env), (code) => process.exit(code)))
