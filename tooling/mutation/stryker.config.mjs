/**
 * The Stryker configuration of every package (`pnpm mutation`, see ./README.md): run from the package's directory,
 * it mutates the package's `src` and runs the package's own vitest suite (`vitest.config.ts`) against each mutant.
 *
 * Mutants are applied in place (`inPlace`): Stryker's sandbox copies only the package's directory, where the shared
 * vitest configuration and the other packages' sources (`../../tooling`, `../<package>`) are out of reach. Stryker
 * restores every file when it ends, also on Ctrl-C; a run killed with SIGKILL can leave a mutant in `src`, which
 * `git status` shows.
 */
import { basename } from "node:path"
import { thresholdOf } from "./thresholds.mjs"

const name = basename(process.cwd())
const threshold = thresholdOf(name)

/**
 * Generated data, not logic: each entry would be a mutant that runs when the module loads (a static mutant: the whole
 * suite in a fresh worker). money's ISO 4217 table is checked against its published source by the package's tests;
 * exchange's ISO 3166-1 file is the standard's 249 alpha-2 codes and the three reserved ones it names; subscriptions'
 * PlanShapes and transfers' FieldCorridors are example data (the sandbox's seed), exercised by the sandbox's tests.
 */
const data = {
  money: ["src/internal/iso4217.ts"],
  exchange: ["src/internal/iso3166.ts"],
  subscriptions: ["src/PlanShapes.ts"],
  transfers: ["src/FieldCorridors.ts"]
}

export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "vitest.config.ts" },
  // the barrel only re-exports: no behaviour to mutate
  mutate: ["src/**/*.ts", "!src/index.ts", ...(data[name] ?? []).map((file) => `!${file}`)],
  inPlace: true,
  coverageAnalysis: "perTest",
  // the last results of a whole run: the next run tests again only the mutants in changed code or under changed
  // tests (`pnpm mutation --full` ignores them; committed once CI runs the incremental step, see ./README.md)
  incremental: true,
  incrementalFile: `../../tooling/mutation/incremental/${name}.json`,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: `../../reports/mutation/${name}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  thresholds: { high: Math.max(threshold, 90), low: threshold, break: threshold },
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? "2"),
  // a mutant that loops (a bound turned around) is a timeout, which counts as detected. Stryker waits the tests' own
  // time x 1.5 plus this much before it calls one; a package whose mutants hang often (the sandbox's static mutants, in
  // code its layers run at start, each wait for the whole suite) runs faster with less, on an otherwise idle machine
  timeoutMS: Number(process.env.MUTATION_TIMEOUT_MS ?? "20000")
}
