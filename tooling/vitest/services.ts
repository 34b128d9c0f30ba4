/**
 * A vitest `globalSetup` for the packages whose tests need the real servers (PostgreSQL, Redis): it uses the URLs of
 * the environment when both are set (`PAYRULES_POSTGRES_URL`, `PAYRULES_REDIS_URL`), and otherwise starts a pair of
 * its own with `scripts/services.sh` (which installs Debian's packages when missing and run as root), on loopback
 * and free ports, in a directory of its own (so two packages that start theirs at once do not meet), and stops them
 * when the run ends.
 *
 * When the servers cannot be had, it does not fail the run: it leaves the reason in `PAYRULES_SERVICES_UNAVAILABLE`,
 * and every test that needs a server fails with it (`postgresUrl()` and `redisUrl()` of `@payrules/vitest/Services`),
 * in CI and locally alike; the tests that need none still run.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const script = fileURLToPath(new URL("../../scripts/services.sh", import.meta.url))

export default function setup(): (() => void) | undefined {
  if (process.env.PAYRULES_POSTGRES_URL && process.env.PAYRULES_REDIS_URL) return undefined
  const dir = mkdtempSync(join(tmpdir(), "payrules-services-"))
  const env = { ...process.env, PAYRULES_SERVICES_DIR: join(dir, "state") }
  const started = spawnSync("bash", [script, "start"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
  if (started.status !== 0) {
    rmSync(dir, { recursive: true, force: true })
    process.env.PAYRULES_SERVICES_UNAVAILABLE = [
      `scripts/services.sh could not start PostgreSQL and Redis: ${(started.stderr || started.stdout || "").trim()}`,
      "Install them (sudo apt-get install -y postgresql redis-server; the script starts and stops its own servers),",
      "or point the tests at servers of yours: PAYRULES_POSTGRES_URL=postgres://... PAYRULES_REDIS_URL=redis://..."
    ].join("\n")
    return undefined
  }
  for (const line of readFileSync(join(dir, "state", "env"), "utf8").split("\n")) {
    const eq = line.indexOf("=")
    if (eq > 0 && line.startsWith("PAYRULES_")) process.env[line.slice(0, eq)] = line.slice(eq + 1)
  }
  return () => {
    spawnSync("bash", [script, "stop"], { env, stdio: "ignore" })
    rmSync(dir, { recursive: true, force: true })
  }
}
