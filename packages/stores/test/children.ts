/**
 * The child processes of the tests: the bundled programs of test/children (see test/setup/children.ts), started with
 * this Node through the launcher that keeps their compiled code (test/setup/launch.ts), their JSON lines read as they
 * come. A child that reports a stop point (`{"at": ...}`) is killed with SIGKILL at once: the kill lands where the
 * child stands, never at a moment chosen by a timer.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import { Effect } from "effect"

export interface Output {
  readonly lines: ReadonlyArray<Record<string, unknown>>
  /** the stop point the child reported before it was killed */
  readonly killedAt: string | undefined
  readonly code: number | null
  readonly stderr: string
}

const bundle = (name: string) => {
  const dir = process.env.PAYRULES_CHILDREN_DIR
  if (dir === undefined)
    throw new Error("PAYRULES_CHILDREN_DIR is not set: run the tests with the package's vitest config")
  return { launcher: join(dir, "launch.cjs"), bundle: join(dir, `${name}.cjs`) }
}

/** runs a bundled child with one JSON argument until it exits (or reports a stop point and is killed) */
export const run = (name: string, task: object): Effect.Effect<Output> =>
  Effect.callback<Output>((resume) => {
    const { launcher, bundle: file } = bundle(name)
    const child = spawn(process.execPath, [launcher, file, JSON.stringify(task)], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    const lines: Array<Record<string, unknown>> = []
    let killedAt: string | undefined
    let buffered = ""
    let stderr = ""
    child.stdout.setEncoding("utf8")
    child.stderr.setEncoding("utf8")
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk
    })
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk
      let newline = buffered.indexOf("\n")
      while (newline >= 0) {
        const line = JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>
        buffered = buffered.slice(newline + 1)
        lines.push(line)
        if (typeof line.at === "string" && killedAt === undefined) {
          killedAt = line.at
          child.kill("SIGKILL")
        }
        newline = buffered.indexOf("\n")
      }
    })
    child.on("close", (code) => resume(Effect.succeed({ lines, killedAt, code, stderr })))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/** the first line of a child's output that has `key`, or a failure that shows what the child said */
export const line = <A>(output: Output, key: string): A => {
  const found = output.lines.find((l) => key in l)
  if (found === undefined) {
    throw new Error(
      `the child printed no ${key} (exit ${output.code}): ${JSON.stringify(output.lines)} ${output.stderr.slice(0, 2000)}`
    )
  }
  return found[key] as A
}
