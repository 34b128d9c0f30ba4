/**
 * The command line run in this process, as `main.ts` runs it, against a console that records what it prints.
 */
import { fileURLToPath } from "node:url"
import * as NodeChildProcessSpawner from "@effect/platform-node/NodeChildProcessSpawner"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import type * as Cause from "effect/Cause"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Stdio from "effect/Stdio"
import * as Terminal from "effect/Terminal"
import * as Cli from "../src/Cli.js"
import * as Invocation from "../src/Invocation.js"
import * as Output from "../src/Output.js"

/** apps/demo */
export const packageDir = fileURLToPath(new URL("..", import.meta.url))
/** the repository root */
export const rootDir = fileURLToPath(new URL("../../..", import.meta.url))

export interface Result {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  /** both streams, in the order the lines were printed */
  readonly output: ReadonlyArray<string>
}

export interface RunOptions {
  /** the directory the person runs the command in (default: apps/demo) */
  readonly cwd?: string
  /** colour as on a TTY (default: none, as in a pipe) */
  readonly color?: boolean
  /** the environment the command reads its configuration from (tokens) */
  readonly env?: Readonly<Record<string, string>>
  /** standard input and output on a terminal, as for a person at it (default: no, as in a pipe) */
  readonly interactive?: boolean
  /** the terminal the wizard asks on (default: one whose input has ended) */
  readonly terminal?: Terminal.Terminal
}

/** A terminal without a person at it: nothing to read. */
const noTerminal: Terminal.Terminal = Terminal.make({
  columns: Effect.succeed(120),
  rows: Effect.succeed(40),
  size: Effect.tap(Queue.make<Terminal.Size, Cause.Done>(), (q) => Queue.end(q)),
  readInput: Effect.tap(Queue.make<Terminal.UserInput, Cause.Done>(), (q) => Queue.end(q)),
  readLine: Effect.fail(new Terminal.QuitError()),
  display: () => Effect.void
})

/** The services of `main.ts`'s `NodeServices.layer`, with standard streams and a terminal that nobody reads. */
const platform = Layer.mergeAll(
  NodeChildProcessSpawner.layer,
  Stdio.layerTest({}),
  Layer.succeed(Terminal.Terminal, noTerminal)
).pipe(Layer.provideMerge(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)))

interface Recorder {
  readonly sink: Output.Sink
  readonly result: (code: number) => Result
}

const recorder = (color: boolean, onLine?: (line: string, stream: Output.Stream) => void): Recorder => {
  const out: Array<string> = []
  const err: Array<string> = []
  const all: Array<string> = []
  return {
    sink: {
      color: () => color,
      write: (stream, text) => {
        for (const line of text.split("\n")) {
          ;(stream === "out" ? out : err).push(line)
          all.push(line)
          onLine?.(line, stream)
        }
      }
    },
    result: (code) => ({
      code,
      stdout: out.length === 0 ? "" : `${out.join("\n")}\n`,
      stderr: err.length === 0 ? "" : `${err.join("\n")}\n`,
      output: all
    })
  }
}

const prepare = (args: ReadonlyArray<string>, options: RunOptions, rec: Recorder) =>
  Cli.run(Invocation.userArguments(args)).pipe(
    Output.withSink(rec.sink),
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: { ...options.env } })),
    Effect.provide(Invocation.layer({ cwd: options.cwd ?? packageDir, interactive: options.interactive })),
    Effect.provideService(Terminal.Terminal, options.terminal ?? noTerminal),
    Effect.provide(platform)
  )

/** Runs `payrules <args>` to its end: its exit code and what it printed. */
export const payrules = (args: ReadonlyArray<string>, options: RunOptions = {}): Effect.Effect<Result> =>
  Effect.suspend(() => {
    const rec = recorder(options.color ?? false)
    return Effect.map(prepare(args, options, rec), rec.result)
  })

/**
 * Runs a command that serves until stopped (`serve`): waits for its first line on standard output, then stops it as
 * Ctrl-C would. The result has the code 130 of an interrupted command, or the code it ended with on its own (1 after
 * its error line, which it prints on standard error).
 */
export const payrulesUntilFirstLine = (args: ReadonlyArray<string>, options: RunOptions = {}): Effect.Effect<Result> =>
  Effect.gen(function* () {
    const firstLine = yield* Deferred.make<void>()
    const rec = recorder(options.color ?? false, (_, stream) => {
      if (stream === "out") Deferred.doneUnsafe(firstLine, Effect.void)
    })
    const fiber = yield* Effect.forkChild(prepare(args, options, rec))
    yield* Effect.raceFirst(Deferred.await(firstLine), Fiber.await(fiber))
    yield* Fiber.interrupt(fiber)
    const exit = yield* Fiber.await(fiber)
    return rec.result(exit._tag === "Success" ? exit.value : 130)
  })
