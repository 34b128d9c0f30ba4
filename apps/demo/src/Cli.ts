/**
 * The `payrules` command line.
 */
import * as Command from "@effect/cli/Command"
import { tour } from "./Tour.js"

const tourCommand = Command.make("tour", {}, () => tour).pipe(
  Command.withDescription("A short tour of payrules: durations, billing boundaries and calendar arithmetic")
)

export const payrules = Command.make("payrules").pipe(
  Command.withDescription("Validate and simulate payment API traffic"),
  Command.withSubcommands([tourCommand])
)

export const cli = Command.run(payrules, { name: "payrules", version: "0.0.0" })
