/**
 * Debian's Chromium for the browser tests (the sandbox's /docs, the playground) and the scripts that drive a real
 * page (the playground's benchmark and screenshots): where it is, the flags a headless run in a container needs,
 * and its installation when it is missing. playwright-core drives it; no browser is downloaded.
 *
 * @since 0.0.0
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * @since 0.0.0
 */
export const executablePath = "/usr/bin/chromium"

/**
 * The flags of every headless run: no sandbox (root in a container), no GPU, and none of the requests a browser makes
 * by itself (updates, sync, QUIC probes).
 *
 * @since 0.0.0
 */
export const args: ReadonlyArray<string> = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

/**
 * Debian's chromium: installed with apt-get when it is missing and this runs as root (as scripts/services.sh installs
 * PostgreSQL), otherwise an error that says how to install it. Never a skip. Two runs that start together install it
 * once (a lock).
 *
 * @since 0.0.0
 */
export const ensureChromium = (): void => {
  if (existsSync(executablePath)) return
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${executablePath} is missing: install Debian's chromium (sudo apt-get install -y chromium), then run the tests again`
    )
  }
  const lock = join(tmpdir(), "payrules-chromium-install.lock")
  execFileSync(
    "flock",
    [
      lock,
      "sh",
      "-c",
      `[ -x ${executablePath} ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }`
    ],
    { stdio: "inherit", timeout: 600_000 }
  )
  if (!existsSync(executablePath)) throw new Error(`apt-get installed chromium, but ${executablePath} is not there`)
}
