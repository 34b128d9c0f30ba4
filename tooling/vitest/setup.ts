/**
 * Runs before every test file: fast-check draws from a fixed seed, so a run of the suite is the same run everywhere
 * (CI, a loaded machine, a laptop) and a failure reproduces as it is. `FC_SEED=<n>` picks another seed and
 * `FC_SEED=random` a new one per property, to explore: fast-check prints the seed of any counterexample it finds.
 */
import * as FastCheck from "effect/FastCheck"

const raw = process.env.FC_SEED ?? ""
if (raw !== "random") {
  const seed = raw === "" ? 20_261_123 : Number(raw)
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random"; got ${raw}`)
  FastCheck.configureGlobal({ ...FastCheck.readConfigureGlobal(), seed })
}
