/**
 * A command run as a process, as a person types it in the repository root (for the smoke tests: everything else runs
 * in process, see Harness.ts).
 */
import { execFile } from "node:child_process"
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
