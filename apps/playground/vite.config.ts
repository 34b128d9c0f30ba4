/**
 * The playground's build: a static site under dist/ that works from any static file server (relative URLs), built
 * from the workspace's TypeScript sources (the `@payrules/source` condition), with Preact's JSX compiled by Vite
 * itself (no Babel). The code of each panel is a chunk of its own, loaded when the panel is first needed.
 */
import { defaultClientConditions, defineConfig, type Plugin } from "vite"

/** Node's modules have no place in the page: importing one fails the build, where it would otherwise be stubbed. */
const noNodeModules: Plugin = {
  name: "payrules:no-node-modules",
  enforce: "pre",
  resolveId(id, importer) {
    if (id.startsWith("node:")) this.error(`${importer ?? "the page"} imports ${id}: the playground runs in a browser`)
    return null
  }
}

/**
 * The page allows no connection at all (`connect-src 'none'`); the development server talks to the page over a
 * WebSocket (hot reload), so `pnpm playground` serves the page with that one connection allowed.
 */
const devConnections: Plugin = {
  name: "payrules:dev-connections",
  apply: "serve",
  transformIndexHtml: (html) => html.replace("connect-src 'none'", "connect-src 'self' ws: wss:")
}

export default defineConfig({
  base: "./",
  resolve: { conditions: ["@payrules/source", ...defaultClientConditions] },
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  plugins: [noNodeModules, devConnections],
  build: {
    target: "es2022",
    // the size of each panel's chunk is measured by the benchmark; no warning for the panels' lazy chunks
    chunkSizeWarningLimit: 1200,
    reportCompressedSize: false
  }
})
