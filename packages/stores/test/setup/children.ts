/**
 * A vitest `globalSetup`: bundles the child programs of the tests (test/children/*.ts) once per run with esbuild,
 * into one CommonJS file each, with the launcher that runs them from V8's code cache (./launch.ts), and says where
 * they are (`PAYRULES_CHILDREN_DIR`). A bundled child starts in a fraction of the time that tsx needs to compile the
 * workspace's sources on every start. Everything a child needs is JavaScript (SQLite is Node's built-in
 * `node:sqlite`, PostgreSQL and Redis have pure JavaScript clients), so the bundle holds it all.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

// esbuild by node's resolution from this package: a vitest run from the workspace root (`pnpm test`) resolves
// through vite, which finds no esbuild there (it is this package's devDependency, not the root's)
const { buildSync } = createRequire(import.meta.url)("esbuild") as typeof import("esbuild")

export default function setup(): void {
  const children = fileURLToPath(new URL("../children/", import.meta.url))
  const outdir = fileURLToPath(new URL("../../node_modules/.cache/payrules-test-children/", import.meta.url))
  // the bundles of this run, and no code cache of an earlier one (./launch.ts keys its cache by content anyway)
  rmSync(outdir, { recursive: true, force: true })
  mkdirSync(outdir, { recursive: true })
  buildSync({
    // by name, so the children and the launcher land side by side in outdir
    entryPoints: {
      ...Object.fromEntries(
        readdirSync(children)
          .filter((f) => f.endsWith(".ts"))
          .map((f) => [f.slice(0, -".ts".length), `${children}${f}`])
      ),
      launch: fileURLToPath(new URL("./launch.ts", import.meta.url))
    },
    outdir,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    platform: "node",
    // CommonJS, which V8's code cache (vm.Script) can hold; esbuild hoists the ES modules into one scope
    format: "cjs",
    target: "node22",
    conditions: ["@payrules/source"],
    logLevel: "error"
  })
  process.env.PAYRULES_CHILDREN_DIR = outdir
}
