import { existsSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeWriteError, onWriteError } from "../src/Output.js"
import { runWithStdout } from "./Process.js"

const errno = (code: string, errno: number, message: string): NodeJS.ErrnoException =>
  Object.assign(new Error(message), { code, errno, syscall: "write" })

/** What the handler did: the lines it wrote to standard error and the exit codes it asked for. */
const record = (exitCode?: number) => {
  const err: Array<string> = []
  const exits: Array<number> = []
  const handle = onWriteError({
    writeErr: (text) => err.push(text),
    exit: (code) => exits.push(code),
    exitCode: () => exitCode
  })
  return { err, exits, handle }
}

describe("a standard stream that cannot be written", () => {
  it("bug: a full standard output is one line on standard error and exit 1, not a stack trace", () => {
    const r = record()
    r.handle("out", errno("ENOSPC", -28, "ENOSPC: no space left on device, write"))
    // a second failure of the same run (the next line) is not reported again
    r.handle("out", errno("ENOSPC", -28, "ENOSPC: no space left on device, write"))
    expect(r.err).toEqual(["error: standard output: no space left on device (ENOSPC)\n"])
    expect(r.exits).toEqual([1])
  })

  it("bug: a failure of standard error itself exits 1 without a word; EPIPE still ends quietly with the code so far", () => {
    const stderr = record()
    stderr.handle("err", errno("EIO", -5, "EIO: i/o error, write"))
    expect([stderr.err, stderr.exits]).toEqual([[], [1]])
    const closed = record()
    closed.handle("out", errno("EPIPE", -32, "EPIPE: broken pipe, write"))
    expect([closed.err, closed.exits]).toEqual([[], [0]])
    const failedBefore = record(1)
    failedBefore.handle("out", errno("EPIPE", -32, "EPIPE: broken pipe, write"))
    expect(failedBefore.exits).toEqual([1])
  })

  it("describeWriteError: the system's description and the code", () => {
    expect(describeWriteError(errno("ENOSPC", -28, "ENOSPC: no space left on device, write"))).toBe(
      "no space left on device (ENOSPC)"
    )
    expect(describeWriteError(errno("EBADF", -9, "EBADF: bad file descriptor, write"))).toBe(
      "bad file descriptor (EBADF)"
    )
    // without an errno the message says it
    expect(describeWriteError(Object.assign(new Error("EFOO: it broke, write"), { code: "EFOO" }))).toBe(
      "it broke (EFOO)"
    )
  })

  it.live.skipIf(!existsSync("/dev/full"))("bug: payrules simulate >/dev/full, as a process", () =>
    Effect.gen(function* () {
      const r = yield* runWithStdout(
        ["simulate", "--plan", "apps/demo/test/fixtures/pro-plan.json", "--start", "2024-01-17T09:00:00Z"],
        "/dev/full"
      )
      expect([r.code, r.stderr]).toEqual([1, "error: standard output: no space left on device (ENOSPC)\n"])
    })
  )
})
