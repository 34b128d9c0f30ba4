/**
 * The vitest configuration that every payrules package extends.
 *
 * Workspace packages resolve to their TypeScript sources through the `@payrules/source` export condition, so tests
 * run against `src/` without a build step and a change in one package is seen at once by the packages that use it.
 */
import { defineConfig } from "vitest/config"

const conditions = ["@payrules/source", "module", "node", "import", "default"]

export const shared = defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@payrules/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    sequence: { concurrent: false }
  }
})

export default shared
