import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { shared } from "../../tooling/vitest/config.ts"

// The shared configuration, with two changes:
// - PostgreSQL and Redis for the tests that need them: the URLs of the environment, or servers of this run's own;
//   the child programs of the crash and replica tests, bundled once;
// - vitest hands its resolve conditions to node (`--conditions`) for the packages it does not transform, and node
//   applies them to `require` too: with `import` among them, the CommonJS driver of PostgreSQL (pg) would `require`
//   the ESM build of pg-pool. Vite adds `import` and `module` itself where they belong.
export default defineConfig({
  ...shared,
  resolve: { conditions: ["@payrules/source", "node", "default"] },
  ssr: { resolve: { conditions: ["@payrules/source", "node", "default"], externalConditions: ["@payrules/source"] } },
  test: {
    ...shared.test,
    globalSetup: [
      fileURLToPath(new URL("../../tooling/vitest/services.ts", import.meta.url)),
      fileURLToPath(new URL("./test/setup/children.ts", import.meta.url))
    ]
  }
})
