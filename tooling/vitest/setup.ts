/**
 * Runs before every test file: both property engines draw from a fixed seed (effect's `Arbitrary`, which `it.prop`
 * and the Schema laws use, and fast-check, which the oracle and grammar properties use), so a run of the suite is the
 * same run everywhere (CI, a loaded machine, a laptop) and a failure reproduces as it is. `FC_SEED=<n>` picks another
 * seed and `FC_SEED=random` a new one per property, to explore: both engines print the seed (effect's a replay token)
 * of any counterexample they find.
 */
import * as Arbitrary from "effect/Arbitrary"
import fc from "fast-check"

const raw = process.env.FC_SEED ?? ""
if (raw !== "random") {
  const seed = raw === "" ? 20_261_123 : Number(raw)
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random"; got ${raw}`)
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed })
  Arbitrary.configureGlobal({ check: { seed }, sample: { seed } })
}
