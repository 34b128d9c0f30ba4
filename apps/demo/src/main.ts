#!/usr/bin/env node
/**
 * The `payrules` command: runs the command line on this process's arguments, with colour only on a TTY (never with
 * NO_COLOR), paths resolved against the directory the person ran it in, and the exit code `Cli.run` gives.
 *
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Effect from "effect/Effect"
import * as Cli from "./Cli.js"
import * as Invocation from "./Invocation.js"
import * as Output from "./Output.js"

Cli.run(Invocation.userArguments(process.argv.slice(2))).pipe(
  Effect.flatMap((code) =>
    Effect.sync(() => {
      process.exitCode = code
    })
  ),
  Output.withSink(Output.processSink()),
  Effect.provide(
    Invocation.layer({
      cwd: Invocation.workingDirectory(process.env, process.cwd()),
      interactive: process.stdin.isTTY === true && process.stdout.isTTY === true
    })
  ),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
