/**
 * The size of what a browser or a serverless function loads for one entry of payrules: each entry bundled on its own
 * with esbuild (ESM, minified, tree-shaken, the workspace's sources through the `@payrules/source` condition, nothing
 * external but `node:*`), raw and gzipped (level 9). Prints a Markdown table.
 *
 *   pnpm --filter @payrules/bench bundle-size [<repository root>]
 *
 * The root defaults to this repository; another checkout (say, the effect 3 version of payrules) can be measured with
 * this same script for a before/after table.
 */
import { resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import * as esbuild from "esbuild"

const root = resolve(process.argv[2] ?? fileURLToPath(new URL("../../..", import.meta.url)))

/** the entries the issue of the effect 4 port names: a leaf module, the validator compiler, a transport client */
const entries = [
  ["@payrules/iso8601/IsoDuration", "packages/iso8601/src/IsoDuration.ts"],
  ["@payrules/transfers/FieldValidator", "packages/transfers/src/FieldValidator.ts"],
  ["@payrules/transport/BusinessClient", "packages/transport/src/BusinessClient.ts"]
] as const

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

console.log(`Bundle sizes of ${root} (esbuild ${esbuild.version}, minified ESM, gzip -9)\n`)
console.log("| entry | minified | gzipped |")
console.log("| --- | ---: | ---: |")
for (const [name, file] of entries) {
  const result = await esbuild.build({
    entryPoints: [resolve(root, file)],
    absWorkingDir: root,
    bundle: true,
    minify: true,
    treeShaking: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["@payrules/source", "import", "default"],
    external: ["node:*"],
    write: false,
    logLevel: "error"
  })
  const code = result.outputFiles[0]!.contents
  console.log(`| \`${name}\` | ${kb(code.length)} | ${kb(gzipSync(code, { level: 9 }).length)} |`)
}
