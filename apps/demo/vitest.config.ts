import { mergeConfig } from "vitest/config"
import shared from "../../tooling/vitest/config.ts"

// The test files import the same module graph (every package of the repository, through the command line): one
// worker that keeps its modules between files loads it once instead of once per file. The files share no state:
// each command runs in its own Effect runtime with its own embedded sandbox.
export default mergeConfig(shared, { test: { isolate: false } })
