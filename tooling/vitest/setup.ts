/**
 * Runs before every test file: fast-check draws from a fixed seed, so a run of the suite is the same run everywhere
 * (CI, a loaded machine, a laptop) and a failure reproduces as it is. `FC_SEED=<n>` picks another seed and
 * `FC_SEED=random` a new one per property, to explore: fast-check prints the seed of any counterexample it finds.
 */
import { it, makeMethods } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"

const raw = process.env.FC_SEED ?? ""
if (raw !== "random") {
  const seed = raw === "" ? 20_261_123 : Number(raw)
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random"; got ${raw}`)
  FastCheck.configureGlobal({ ...FastCheck.readConfigureGlobal(), seed })
}

// Test files share a worker and its modules (`isolate: false` in ./config.ts). @effect/vitest's `layer(...)` assigns
// its own `effect`/`scoped` testers onto vitest's one `it` object, so a file that ran after a `layer(...)` of another
// file would run its top-level `it.effect` in that file's runtime (no TestClock). Each file starts from the defaults.
makeMethods(it)
