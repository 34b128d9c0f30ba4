/**
 * A command run as a process, as a person types it in the repository root (for the smoke tests: everything else runs
 * in process, see Harness.ts).
 */
import { execFile, spawn } from "node:child_process"
import { closeSync, openSync } from "node:fs"
import * as Effect from "effect/Effect"
import { rootDir } from "./Harness.js"

export interface ProcessResult {
  readonly code: number
  /** standard output without pnpm's own `> package script` lines before it */
  readonly stdout: string
  readonly stderr: string
}

/** pnpm prints `> name@version script dir` and `> command` (and a blank line) before running a script. */
const withoutPnpmBanner = (stdout: string): string => {
  const lines = stdout.split("\n")
  let i = 0
  while (i < lines.length && (lines[i]!.startsWith("> ") || lines[i] === "")) i++
  return lines.slice(i).join("\n")
}

export const run = (command: string): Effect.Effect<ProcessResult> =>
  Effect.callback<ProcessResult>((resume) => {
    const [file, ...args] = command.split(/\s+/)
    const child = execFile(file!, args, { cwd: rootDir, timeout: 25_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
      resume(Effect.succeed({ code, stdout: withoutPnpmBanner(stdout), stderr }))
    })
    return Effect.sync(() => child.kill())
  })

/**
 * `payrules <args>` as a process (as `pnpm payrules` starts it, from the repository root), its standard output
 * written to a file opened for writing (`/dev/full`): the exit code and what it wrote to standard error.
 */
export const runWithStdout = (
  args: ReadonlyArray<string>,
  stdoutPath: string
): Effect.Effect<{ readonly code: number; readonly stderr: string }> =>
  Effect.callback((resume) => {
    const fd = openSync(stdoutPath, "w")
    const child = spawn(
      process.execPath,
      ["--conditions=@payrules/source", "--import", "tsx", "apps/demo/src/main.ts", ...args],
      { cwd: rootDir, stdio: ["ignore", fd, "pipe"], timeout: 25_000 }
    )
    closeSync(fd)
    let stderr = ""
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
    })
    child.on("close", (code) => resume(Effect.succeed({ code: code ?? 1, stderr })))
    return Effect.sync(() => child.kill())
  })

/**
 * `payrules <args>` as a process with standard input, output and error all pipes (no terminal anywhere), its input
 * ended at once: the exit code and what it wrote to each stream.
 */
export const runPiped = (args: ReadonlyArray<string>): Effect.Effect<ProcessResult> =>
  Effect.callback((resume) => {
    const child = spawn(
      process.execPath,
      ["--conditions=@payrules/source", "--import", "tsx", "apps/demo/src/main.ts", ...args],
      { cwd: rootDir, stdio: ["pipe", "pipe", "pipe"], timeout: 25_000 }
    )
    child.stdin?.end()
    let stdout = ""
    let stderr = ""
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
    })
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
    })
    child.on("close", (code) => resume(Effect.succeed({ code: code ?? 1, stdout, stderr })))
    return Effect.sync(() => child.kill())
  })
