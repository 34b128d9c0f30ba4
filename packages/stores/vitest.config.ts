import { fileURLToPath } from "node:url"
import { mergeConfig } from "vitest/config"
import shared from "../../tooling/vitest/config.ts"

// PostgreSQL and Redis for the tests that need them (the URLs of the environment, or servers of this run's own), and
// the child programs of the crash test, bundled once
export default mergeConfig(shared, {
  test: {
    globalSetup: [
      fileURLToPath(new URL("../../tooling/vitest/services.ts", import.meta.url)),
      fileURLToPath(new URL("./test/setup/children.ts", import.meta.url))
    ]
  }
})
