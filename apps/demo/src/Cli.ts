/**
 * The `payrules` command line: its commands, and `run`, which runs one invocation to an exit code. The installed
 * command (`main.ts`) and the tests both go through `run`, so the tests see what a person sees.
 *
 * @since 0.1.0
 */

import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as CliUsage from "effect/cli/CliError"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Queue from "effect/Queue"
import * as Terminal from "effect/Terminal"
import { CliError, oneLine } from "./CliError.js"
import * as Exchange from "./commands/Exchange.js"
import * as Payment from "./commands/Payment.js"
import * as Plans from "./commands/Plans.js"
import * as Resume from "./commands/Resume.js"
import * as Serve from "./commands/Serve.js"
import * as Simulate from "./commands/Simulate.js"
import * as ValidatePayment from "./commands/ValidatePayment.js"
import * as Help from "./Help.js"
import * as Invocation from "./Invocation.js"
import { visible } from "./Text.js"
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

const cli = Command.runWith(payrules, { version })

/**
 * The names of the commands, in the order of `--help`.
 *
 * @since 0.1.0
 * @category commands
 */
export const commandNames: ReadonlyArray<string> = commands.flatMap((c) => [
  c.name,
  ...(c.alias === undefined ? [] : [c.alias])
])

/**
 * What `run` needs: the platform services of `effect/cli` (a file system, paths, the terminal, standard streams, a
 * process spawner) and the invocation (the directory paths resolve against).
 *
 * @since 0.1.0
 * @category models
 */
export type Environment = Command.Environment | Invocation.Invocation

/**
 * A usage error of `effect/cli` (a missing or unknown flag, a value it cannot read) on one line, its suggestions in
 * parentheses.
 *
 * @since 0.1.0
 * @category errors
 */
export const describeUsage = (error: CliUsage.CliError): string => {
  switch (error._tag) {
    case "UnrecognizedOption": {
      const where = error.command === undefined ? "" : ` in command ${error.command.join(" ")}`
      return `Unrecognized flag: ${error.option}${where}${suggesting(error.suggestions)}`
    }
    case "UnknownSubcommand": {
      const where = error.parent === undefined ? "" : ` for "${error.parent.join(" ")}"`
      return `Unknown subcommand "${error.subcommand}"${where}${suggesting(error.suggestions)}`
    }
    case "ShowHelp":
      return error.errors.map(describeUsage).join("; ")
    default:
      return oneLine(error.message)
  }
}

const suggesting = (suggestions: ReadonlyArray<string>) =>
  suggestions.length === 0 ? "" : ` (did you mean ${suggestions.join(" or ")}?)`

/**
 * One line for any failure: ours say where and why; anything else gets its message.
 *
 * @since 0.1.0
 * @category errors
 */
export const describe = (error: unknown): string => {
  if (error instanceof CliError) return oneLine(error.message)
  if (CliUsage.isCliError(error)) return describeUsage(error)
  if (error instanceof Error) return oneLine(error.message) || error.name
  if (typeof error === "object" && error !== null && "message" in error) return oneLine(String(error.message))
  return oneLine(String(error))
}

/**
 * Whether the arguments ask for `effect/cli`'s wizard: `--wizard` (or `--wizard=...`) before a `--`.
 *
 * @since 0.2.0
 * @category wizard
 */
export const asksForWizard = (args: ReadonlyArray<string>): boolean => {
  const end = args.indexOf("--")
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === "--wizard" || a.startsWith("--wizard="))
}

/**
 * The exit code of a cancelled wizard (Ctrl-C, Esc, Ctrl-D or the end of the input at one of its questions): 130, as
 * for a command interrupted with Ctrl-C.
 *
 * @since 0.2.0
 * @category wizard
 */
export const wizardCancelled = 130

/**
 * `effect/cli`'s wizard, which asks its questions on the terminal: refused, on one line, when standard input or
 * output is not a terminal (its questions would be escapes in a pipe, and its answers would never come); on a
 * terminal, `wizardCancelled` when the person cancels it (`effect/cli` reports the cancel and ends as if it succeeded).
 */
const runWizard = (
  args: ReadonlyArray<string>,
  report: (line: string) => Effect.Effect<number>
): Effect.Effect<number, unknown, Environment> =>
  Effect.gen(function* () {
    const { interactive } = yield* Invocation.Invocation
    if (interactive !== true) {
      return yield* report(
        "--wizard: the wizard asks its questions on a terminal, and standard input or output is not one: give the flags on the command line (--help lists them)"
      )
    }
    // every question reads the keys from a queue of its own, ended when the person cancels (or the input ends)
    const inputs: Array<Queue.Dequeue<Terminal.UserInput, unknown>> = []
    const terminal = yield* Terminal.Terminal
    const watched = Terminal.make({
      columns: terminal.columns,
      rows: terminal.rows,
      size: terminal.size,
      readInput: Effect.tap(terminal.readInput, (queue) => Effect.sync(() => inputs.push(queue))),
      readLine: terminal.readLine,
      display: terminal.display
    })
    yield* cli(args).pipe(Effect.provideService(Terminal.Terminal, watched))
    return inputs.some((queue) => queue.state._tag !== "Open") ? wizardCancelled : 0
  })

/**
 * Runs the command line on the arguments a person typed (after the program name) and returns the exit code: 0, or
 * 1 after one line `error: <where>: <why>` on standard error. `effect/cli`'s own usage errors are reported the same
 * way (its help page is not printed with them). A defect (a bug) is reported as one line too, never as a stack
 * trace; an interrupted command (Ctrl-C) gives 130, and so does a cancelled `--wizard`, which runs only on a
 * terminal.
 *
 * @since 0.1.0
 * @category running
 */
export const run = (args: ReadonlyArray<string>): Effect.Effect<number, never, Environment> =>
  Effect.suspend(() => {
    // a line may quote what came from outside (a server's message, a value, a file name): shown, not obeyed
    const report = (line: string) => Effect.as(Console.error(`error: ${visible(line)}`), 1)
    const first = args[0]
    if (first !== undefined && !first.startsWith("-") && !commandNames.includes(first)) {
      return report(`${first}: not a payrules command; use one of ${commandNames.join(", ")} (or --help)`)
    }
    return (asksForWizard(args) ? runWizard(args, report) : Effect.as(cli(args), 0)).pipe(
      Help.withHelp({ name: "payrules", version }),
      Effect.matchCauseEffect({
        onSuccess: Effect.succeed,
        onFailure: (cause) =>
          Option.match(Cause.findErrorOption(cause), {
            onSome: (error) =>
              // `payrules` alone shows the help page: not a failure
              CliUsage.isCliError(error) && error._tag === "ShowHelp" && error.errors.length === 0
                ? Effect.succeed(0)
                : report(describe(error)),
            onNone: () =>
              Cause.hasInterruptsOnly(cause)
                ? Effect.succeed(130)
                : report(`unexpected failure: ${describe(Cause.squash(cause))}`)
          })
      })
    )
  })
