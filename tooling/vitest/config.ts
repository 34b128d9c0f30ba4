/**
 * The vitest configuration that every payrules package extends.
 *
 * Workspace packages resolve to their TypeScript sources through the `@payrules/source` export condition, so tests
 * run against `src/` without a build step and a change in one package is seen at once by the packages that use it.
 */

import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import type { Reporter } from "vitest/node"

// Vite adds `import` (and `require`) by how a module is imported. vitest also hands these conditions to node
// (`--conditions`) for the packages it leaves to node, and node applies them to `require` too: an `import` or `module`
// here would make a CommonJS package (pg) `require` the ESM build of its dependency (pg-pool)
const conditions = ["@payrules/source", "node", "default"]

// A guard against hangs, not a speed target: the integration suites (1,000 exchanges under faults, four replicas on
// PostgreSQL, 50 crashes) take 5-15 s on an idle 2-core machine and twice that under load
const testTimeout = 60_000

/**
 * Prints how long each test file took, slowest first, as a share of the test timeout: a suite that must pass on a
 * busy machine keeps every file far below its timeout (the goal is under a third of it, under load). It only prints:
 * a duration is never a test's verdict.
 */
const durations: Reporter = {
  onTestRunEnd: (modules) => {
    const rows = modules
      .map((m) => ({ name: m.relativeModuleId, ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((r) => `${r.name} ${(r.ms / 1000).toFixed(1)} s (${Math.round((100 * r.ms) / testTimeout)}% of the timeout)`)
    if (rows.length > 0) console.log(`  slowest test files: ${rows.join(", ")}`)
  }
}

export const shared = defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@payrules/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // One worker runs a package's files one after another and keeps the modules it loaded (effect, the platform, the
    // package's sources): loading them again for every file was a third of the suite's time. What modules keep between
    // files is caches of pure results (routes, time zones, Unicode property sets) and facts of the process (how this
    // Node's node:sqlite reads text): nothing one test can change for another; ./setup.ts resets what @effect/vitest
    // changes
    isolate: false,
    testTimeout,
    hookTimeout: testTimeout,
    reporters: ["default", durations],
    setupFiles: [fileURLToPath(new URL("./setup.ts", import.meta.url))],
    sequence: { concurrent: false }
  }
})

export default shared
