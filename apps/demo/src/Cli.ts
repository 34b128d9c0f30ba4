/**
 * The `payrules` command line: its commands, and `run`, which runs one invocation to an exit code. The installed
 * command (`main.ts`) and the tests both go through `run`, so the tests see what a person sees.
 *
 * @since 0.1.0
 */

import type * as CliApp from "@effect/cli/CliApp"
import * as Command from "@effect/cli/Command"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { CliError, oneLine } from "./CliError.js"
import * as Exchange from "./commands/Exchange.js"
import * as Payment from "./commands/Payment.js"
import * as Plans from "./commands/Plans.js"
import * as Resume from "./commands/Resume.js"
import * as Serve from "./commands/Serve.js"
import * as Simulate from "./commands/Simulate.js"
import * as ValidatePayment from "./commands/ValidatePayment.js"
import type * as Invocation from "./Invocation.js"
import * as Output from "./Output.js"
import { version } from "./Version.js"

// the tour needs every package (and the sandbox): loaded when it runs, so that `--help` and the other commands start
// without them
const tourCommand = Command.make("tour", {}, () =>
  Effect.flatMap(
    Effect.promise(() => import("./Tour.js")),
    (m) => m.tour
  )
).pipe(Command.withDescription("A short tour of payrules against an embedded sandbox"))

const commands = [
  tourCommand,
  Plans.command,
  Simulate.command,
  ValidatePayment.command,
  Exchange.command,
  Resume.command,
  Payment.command,
  Serve.command
] as const

/**
 * The command tree.
 *
 * @since 0.1.0
 * @category commands
 */
export const payrules = Command.make("payrules").pipe(
  Command.withDescription("Validate and simulate payment API traffic"),
  Command.withSubcommands(commands)
)

const cli = Command.run(payrules, { name: "payrules", version })

/**
 * The names of the commands, in the order of `--help`.
 *
 * @since 0.1.0
 * @category commands
 */
export const commandNames: ReadonlyArray<string> = commands.flatMap((c) => [
  ...Descriptor.getNames<unknown>(c.descriptor)
])

/**
 * What `run` needs: the platform services of `@effect/cli` and the invocation (the directory paths resolve against).
 *
 * @since 0.1.0
 * @category models
 */
export type Environment = CliApp.CliApp.Environment | Invocation.Invocation

/**
 * One line for any failure: ours say where and why; anything else gets its message.
 *
 * @since 0.1.0
 * @category errors
 */
export const describe = (error: unknown): string => {
  if (error instanceof CliError) return oneLine(error.message)
  if (ValidationError.isValidationError(error)) return oneLine(HelpDoc.toAnsiText(error.error))
  if (error instanceof Error) return oneLine(error.message) || error.name
  if (typeof error === "object" && error !== null && "message" in error) return oneLine(String(error.message))
  return oneLine(String(error))
}

/**
 * Runs the command line on the arguments a person typed (after the program name) and returns the exit code: 0, or
 * 1 after one line `error: <where>: <why>` on standard error. `@effect/cli`'s own usage errors are reported the same
 * way (its multi-line page is held back). A defect (a bug) is reported as one line too, never as a stack trace.
 *
 * @since 0.1.0
 * @category running
 */
export const run = (args: ReadonlyArray<string>): Effect.Effect<number, never, Environment> =>
  Effect.consoleWith((console) => {
    // @effect/cli prints its usage errors on the error stream before failing: hold them back, and print them only
    // when the failure turns out not to be one of those
    const held: Array<string> = []
    const holding = Output.make(
      { color: () => true, write: (stream, line) => (stream === "err" ? held.push(line) : console.unsafe.log(line)) },
      console
    )
    const release = Effect.suspend(() => Effect.forEach(held, (line) => console.error(line), { discard: true }))
    const report = (line: string) => Effect.as(Console.error(`error: ${line}`), 1)
    const first = args[0]
    if (first !== undefined && !first.startsWith("-") && !commandNames.includes(first)) {
      return report(`${first}: not a payrules command; use one of ${commandNames.join(", ")} (or --help)`)
    }
    return cli(["node", "payrules", ...args]).pipe(
      Effect.withConsole(holding),
      Effect.matchCauseEffect({
        onSuccess: () => Effect.as(release, 0),
        onFailure: (cause) =>
          Option.match(Cause.failureOption(cause), {
            onSome: (error) =>
              Effect.zipRight(
                ValidationError.isValidationError(error) ? Effect.void : release,
                report(describe(error))
              ),
            onNone: () =>
              Cause.isInterruptedOnly(cause)
                ? Effect.as(release, 130)
                : Effect.zipRight(release, report(`unexpected failure: ${describe(Cause.squash(cause))}`))
          })
      })
    )
  })
