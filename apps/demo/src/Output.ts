/**
 * Where the command line prints: a `Console` over two streams that writes colour only where a person reads a
 * terminal. Colour is on for a stream that is a TTY, unless `NO_COLOR` is set to anything but "" (no-color.org) or
 * `TERM` is `dumb`; anywhere else (a pipe, a file, a test) every ANSI escape is taken out, including those of
 * the help page.
 *
 * @since 0.1.0
 */
import { format, stripVTControlCharacters } from "node:util"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { describeSystemError } from "./CliError.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Stream = "out" | "err"

/**
 * Where the lines go: `write` gets one formatted line (without its newline) at a time.
 *
 * @since 0.1.0
 * @category models
 */
export interface Sink {
  readonly write: (stream: Stream, line: string) => void
  /** colour for this stream (see {@link colorFor}) */
  readonly color: (stream: Stream) => boolean
}

/**
 * Whether a stream gets colour: only a TTY, never with `NO_COLOR` set to a non-empty value or with `TERM=dumb`.
 *
 * @since 0.1.0
 * @category colour
 */
export const colorFor = (isTTY: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean =>
  isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "") && env.TERM !== "dumb"

const line = (sink: Sink, stream: Stream, args: ReadonlyArray<unknown>): void => {
  const text = format(...args)
  sink.write(stream, sink.color(stream) ? text : stripVTControlCharacters(text))
}

/**
 * A `Console` that writes through a sink: log, info and debug to `out`; error, warn and trace to `err`. The rest
 * (group, table, time...) is `base`'s, which nothing here uses.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (sink: Sink, base: Console.Console): Console.Console => {
  const out = (...args: ReadonlyArray<unknown>) => line(sink, "out", args)
  const err = (...args: ReadonlyArray<unknown>) => line(sink, "err", args)
  return {
    assert: base.assert.bind(base),
    clear: base.clear.bind(base),
    count: base.count.bind(base),
    countReset: base.countReset.bind(base),
    dir: base.dir.bind(base),
    dirxml: base.dirxml.bind(base),
    group: base.group.bind(base),
    groupCollapsed: base.groupCollapsed.bind(base),
    groupEnd: base.groupEnd.bind(base),
    table: base.table.bind(base),
    time: base.time.bind(base),
    timeEnd: base.timeEnd.bind(base),
    timeLog: base.timeLog.bind(base),
    debug: out,
    error: err,
    info: out,
    log: out,
    trace: err,
    warn: err
  }
}

/**
 * Why a write failed, in the system's words with its code: `no space left on device (ENOSPC)`.
 *
 * @since 0.2.0
 * @category errors
 */
export const describeWriteError = (error: NodeJS.ErrnoException): string =>
  describeSystemError(error) ?? (error.message || "the write failed")

/**
 * What the process does when writing to a standard stream fails: a reader that stopped early (`payrules plans |
 * head`, EPIPE) ends it quietly with the exit code it had, as Unix tools do; any other failure (a full disk, a
 * closed file) ends it with 1, after one line on standard error when the failure was standard output's. Only the
 * first failure is reported.
 *
 * @since 0.2.0
 * @category constructors
 */
export const onWriteError = (io: {
  /** writes a line (with its newline) to standard error */
  readonly writeErr: (text: string) => void
  readonly exit: (code: number) => void
  readonly exitCode: () => number | undefined
}): ((stream: Stream, error: NodeJS.ErrnoException) => void) => {
  let failed = false
  return (stream, error) => {
    if (failed) return
    failed = true
    if (error.code === "EPIPE") return io.exit(io.exitCode() ?? 0)
    if (stream === "out") {
      try {
        io.writeErr(`error: standard output: ${describeWriteError(error)}\n`)
      } catch {
        // standard error fails too: the exit code says it
      }
    }
    io.exit(1)
  }
}

/**
 * The process's own streams, with colour decided per stream from its TTY and the environment.
 *
 * @since 0.1.0
 * @category constructors
 */
export const processSink = (env: Readonly<Record<string, string | undefined>> = process.env): Sink => {
  const color = { out: colorFor(process.stdout.isTTY, env), err: colorFor(process.stderr.isTTY, env) }
  const failed = onWriteError({
    writeErr: (text) => process.stderr.write(text),
    exit: (code) => process.exit(code),
    exitCode: () => (typeof process.exitCode === "number" ? process.exitCode : undefined)
  })
  process.stdout.on("error", (error: NodeJS.ErrnoException) => failed("out", error))
  process.stderr.on("error", (error: NodeJS.ErrnoException) => failed("err", error))
  return {
    color: (stream) => color[stream],
    write: (stream, text) => {
      ;(stream === "out" ? process.stdout : process.stderr).write(`${text}\n`)
    }
  }
}

/**
 * Runs an effect with its `Console` writing through a sink.
 *
 * @since 0.1.0
 * @category combinators
 */
export const withSink =
  (sink: Sink) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Console.consoleWith((base) => Effect.provideService(self, Console.Console, make(sink, base)))
