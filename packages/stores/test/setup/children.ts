/**
 * A vitest `globalSetup`: bundles the child programs of the tests (test/children/*.ts) once per run with esbuild,
 * into one ES module each, and says where they are (`PAYRULES_CHILDREN_DIR`). A bundled child starts in a fraction
 * of the time that tsx needs to compile the workspace's sources on every start. better-sqlite3 (a native addon)
 * stays outside the bundle and loads from the package's node_modules.
 */
import { mkdirSync, readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { buildSync } from "esbuild"

export default function setup(): void {
  const children = fileURLToPath(new URL("../children/", import.meta.url))
  const outdir = fileURLToPath(new URL("../../node_modules/.cache/payrules-test-children/", import.meta.url))
  mkdirSync(outdir, { recursive: true })
  buildSync({
    entryPoints: readdirSync(children)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `${children}${f}`),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@payrules/source"],
    external: ["better-sqlite3"],
    // the CommonJS drivers (pg, ioredis) call require: give the module one
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);'
    },
    logLevel: "error"
  })
  process.env.PAYRULES_CHILDREN_DIR = outdir
}
