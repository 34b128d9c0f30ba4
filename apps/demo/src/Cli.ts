/**
 * The `payrules` command line.
 */
import * as Command from "@effect/cli/Command"
import * as Operations from "./commands/Operations.js"
import * as Simulate from "./commands/Simulate.js"
import { tour } from "./Tour.js"

const tourCommand = Command.make("tour", {}, () => tour).pipe(
  Command.withDescription("A short tour of payrules against an embedded sandbox")
)

export const payrules = Command.make("payrules").pipe(
  Command.withDescription("Validate and simulate payment API traffic"),
  Command.withSubcommands([
    tourCommand,
    Simulate.command,
    Operations.validatePayment,
    Operations.exchange,
    Operations.payment,
    Operations.serve
  ])
)

export const cli = Command.run(payrules, { name: "payrules", version: "0.1.0" })
