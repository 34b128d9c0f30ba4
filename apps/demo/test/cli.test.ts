import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "@effect/vitest"

const run = promisify(execFile)
const cwd = fileURLToPath(new URL("..", import.meta.url))

const payrules = (...args: Array<string>) =>
  run(process.execPath, ["--conditions=@payrules/source", "--import", "tsx", "src/main.ts", ...args], {
    cwd,
    timeout: 60_000
  })

describe("payrules CLI (as a process)", () => {
  it("tour exits 0 and shows each step", async () => {
    const { stdout } = await payrules("tour")
    expect(stdout).toContain("== ISO 8601 durations")
    expect(stdout).toContain("P1Y2M3DT4H5M6.5S")
    expect(stdout).toContain("anchored 2024-03-31T09:00   chained 2024-03-29T09:00")
    expect(stdout).toContain("+ PT24H = 2024-03-31T13:00:00.000+01:00[Europe/London]")
    expect(stdout).toMatch(/\nDone: .+\n$/)
  })

  it("--help describes the commands", async () => {
    const { stdout } = await payrules("--help")
    expect(stdout).toContain("tour")
  })
})
