import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"

export const cwd = fileURLToPath(new URL("..", import.meta.url))

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs the CLI as a process, as a person would, and collects what it printed. */
export const payrules = (...args: Array<string>): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--conditions=@payrules/source", "--import", "tsx", "src/main.ts", ...args],
      { cwd, timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        resolve({ code, stdout, stderr })
      }
    )
  })
