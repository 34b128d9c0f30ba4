/**
 * The vitest configuration of `pnpm test`: every test file of the workspace in one vitest run, on two workers (one per
 * core but one on larger machines).
 *
 * One run instead of one per package: each package's own run (its `vitest.config.ts`, what `turbo run test` and
 * `pnpm --filter <package> test` use) starts vitest, a vite server and a worker that loads effect, the platform and
 * the workspace's sources again; over fourteen packages that was more than a quarter of the suite's CPU. Here each
 * worker loads them once and takes the files of every package from one queue, so every core stays busy until the last
 * file.
 */
import { statSync } from "node:fs"
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import type { TestSpecification } from "vitest/node"
import { BaseSequencer } from "vitest/node"
import shared from "./config.js"

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// two on the 2-core machines CI and `loaded-test` use (vitest's default would be one there)
const workers = Math.max(2, availableParallelism() - 1)

/**
 * The test that starts the most processes at once (four clients and the sandbox they share, on PostgreSQL): it runs
 * last, when the other worker has only its last small file left, so that it does not share the two cores with another
 * heavy file. Under load it was the slowest file by far when it did.
 */
const last = new Set([at("../../packages/stores/test/Replicas.test.ts")])
// a renamed or moved file would silently lose its place at the end: say so when the config loads
for (const file of last) statSync(file)

/**
 * Files in the same order on every run and every machine: largest first (what vitest does without a cache), not by the
 * durations of the last run, which would start the multi-process suites of the stores side by side; `last` at the end.
 */
class BySize extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sizes = new Map(files.map((file) => [file, statSync(file.moduleId).size]))
    const rank = (file: TestSpecification) => (last.has(file.moduleId) ? 1 : 0)
    const size = (file: TestSpecification) => sizes.get(file) ?? 0
    return [...files].sort((a, b) => rank(a) - rank(b) || size(b) - size(a) || a.moduleId.localeCompare(b.moduleId))
  }
}

export default defineConfig({
  ...shared,
  root: at("../.."),
  test: {
    ...shared.test,
    include: ["{packages,apps,tooling}/*/test/**/*.test.ts"],
    maxWorkers: workers,
    sequence: { ...shared.test?.sequence, sequencer: BySize },
    // what the packages' own configs add (packages/stores/vitest.config.ts, the only one that adds anything):
    // PostgreSQL and Redis, and the stores tests' child programs. A package config that gains a globalSetup needs it
    // here too
    globalSetup: [at("./services.ts"), at("../../packages/stores/test/setup/children.ts")]
  }
})
