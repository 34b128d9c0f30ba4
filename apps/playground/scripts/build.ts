/**
 * `pnpm --filter @payrules/playground build`: the static site in dist/ (`vite build`), unless dist/ holds a build of
 * the current sources already (see `site.ts`). Serve dist/ from any static file server: its URLs are relative.
 */
import { distDir, ensureBuilt } from "./site.js"

console.log(`${ensureBuilt() === "built" ? "built" : "already built from these sources:"} ${distDir}`)
