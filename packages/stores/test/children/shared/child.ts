/**
 * What the child programs of the tests (the `.ts` files one folder up) share: their task from the first argument,
 * the lines they write, the HTTP client they call the sandbox with, and how they run and exit. Not a child itself:
 * the test setup bundles only the files at the top of test/children.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Logger, Runtime } from "effect"

/** the task of this child: the JSON object of its first argument */
export const task = <A>(): A => JSON.parse(process.argv[2] ?? "{}") as A

/** writes one JSON line to stdout, where the parent reads it */
export const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`)

/** node:http with connections kept alive (a new Agent does not keep them by default: one TCP connection per call) */
export const keptAliveHttp = NodeHttpClient.layerNodeHttpOptions({ keepAlive: true })

/**
 * runs the child's program: exit code 0 when it succeeds, 1 with the failure on stderr when it does not. Logs go to
 * stderr too: stdout holds only the JSON lines the parent reads. The process exits as soon as the program ends,
 * whatever handles are left open.
 */
export const main = (program: Effect.Effect<void, unknown>): void =>
  NodeRuntime.runMain(
    program.pipe(
      Effect.tapCause((cause) => Effect.sync(() => process.stderr.write(`${Cause.pretty(cause)}\n`))),
      Effect.provideService(Logger.LogToStderr, true)
    ),
    { disableErrorReporting: true, teardown: (exit) => Runtime.defaultTeardown(exit, (code) => process.exit(code)) }
  )
