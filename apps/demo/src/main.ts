#!/usr/bin/env node
/**
 * Entry point of the `payrules` command line. A failure prints one line (where, and why) and exits with 1.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { cli } from "./Cli.js"

const oneLine = (e: unknown): string => {
  const message =
    e instanceof Error
      ? e.message
      : typeof e === "object" && e !== null && "message" in e
        ? String(e.message)
        : String(e)
  return message
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join(" ")
}

cli(process.argv).pipe(
  Effect.catchAll((e) =>
    // @effect/cli has already printed its own usage errors (ValidationError); everything else gets one line here
    typeof e === "object" &&
    e !== null &&
    "_tag" in e &&
    /^(CommandMismatch|CorrectedFlag|HelpRequested|InvalidArgument|InvalidValue|MissingValue|MissingFlag|MultipleValuesDetected|MissingSubcommand|NoBuiltInMatch|UnclusteredFlag)$/.test(
      String(e._tag)
    )
      ? Effect.sync(() => (process.exitCode = 1))
      : Effect.zipRight(
          Console.error(`error: ${oneLine(e)}`),
          Effect.sync(() => (process.exitCode = 1))
        )
  ),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
