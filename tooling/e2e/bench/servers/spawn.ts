/**
 * Starts a benchmark server (./sandbox.ts, ./baseline.ts or ./floor.ts) in a child process and waits for its URL.
 */
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"

export interface Child {
  readonly url: string
  readonly pid: number
  readonly stop: () => Promise<void>
}

export const spawn = (name: "sandbox" | "baseline" | "floor", options: object = {}): Promise<Child> =>
  new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)), [JSON.stringify(options)], {
      execArgv: [
        ...(process.env.BENCH_DIST === "1" ? [] : ["--conditions=@payrules/source"]),
        "--import",
        "tsx",
        "--expose-gc",
        // BENCH_PROFILE=<dir>: a CPU profile of each server, written when it stops
        ...(process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])
      ],
      stdio: ["ignore", "inherit", "inherit", "ipc"]
    })
    child.once("error", reject)
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code} before it listened`)))
    child.once("message", (message) => {
      child.removeAllListeners("exit")
      const { url } = message as { url: string }
      resolve({
        url,
        pid: child.pid!,
        stop: () =>
          new Promise<void>((done) => {
            child.once("exit", () => done())
            child.send("stop")
          })
      })
    })
  })
