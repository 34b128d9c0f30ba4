/**
 * The built playground for the browser test, the benchmark and the screenshots: built when dist/ is missing or was
 * built from other sources (a fresh clone has none; an edit anywhere in the sources it bundles makes it stale), and
 * served from 127.0.0.1 by a static file server, as any static host would serve it.
 *
 * Whether dist/ is current is a hash of everything the build reads (the playground's sources, its config and
 * manifest, the sources of the workspace's packages, the lockfile), kept in dist/.build-hash: comparing it costs
 * tens of milliseconds, building a few seconds. The build goes to a directory of its own and replaces dist/ at once,
 * so a run that reads dist/ meanwhile sees the old site or the new one, never half of one.
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { extname, join, normalize, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import * as Chromium from "@payrules/vitest/Chromium"
import { type Browser, chromium } from "playwright-core"

export const appDir = fileURLToPath(new URL("..", import.meta.url))
const root = join(appDir, "..", "..")
export const distDir = join(appDir, "dist")
const hashFile = join(distDir, ".build-hash")

const walk = (dir: string, out: Array<string>): void => {
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) walk(path, out)
    else if (entry.isFile()) out.push(path)
  }
}

/** every file the build reads, in a stable order */
const inputs = (): ReadonlyArray<string> => {
  const files: Array<string> = []
  walk(join(appDir, "src"), files)
  for (const f of ["index.html", "vite.config.ts", "package.json"]) files.push(join(appDir, f))
  for (const group of ["packages"]) {
    for (const pkg of readdirSync(join(root, group))) {
      walk(join(root, group, pkg, "src"), files)
      const manifest = join(root, group, pkg, "package.json")
      if (existsSync(manifest)) files.push(manifest)
    }
  }
  files.push(join(root, "pnpm-lock.yaml"))
  return files.sort()
}

/** the hash of the build's inputs: their paths and contents */
export const sourceHash = (): string => {
  const hash = createHash("sha256")
  for (const file of inputs()) {
    hash.update(relative(root, file))
    hash.update("\0")
    hash.update(readFileSync(file))
    hash.update("\0")
  }
  return hash.digest("hex")
}

/** Builds the site unless dist/ holds a build of the current sources; returns what was done. */
export const ensureBuilt = (): "built" | "current" => {
  const wanted = sourceHash()
  if (existsSync(hashFile) && readFileSync(hashFile, "utf8") === wanted) return "current"
  const out = join(appDir, `.dist-${process.pid}-${Date.now()}`)
  try {
    execFileSync(
      process.execPath,
      [
        join(appDir, "node_modules", "vite", "bin", "vite.js"),
        "build",
        "--outDir",
        out,
        "--emptyOutDir",
        "--logLevel",
        "warn"
      ],
      { cwd: appDir, stdio: ["ignore", "inherit", "inherit"], timeout: 300_000 }
    )
    writeFileSync(join(out, ".build-hash"), wanted)
    rmSync(distDir, { recursive: true, force: true })
    try {
      renameSync(out, distDir)
    } catch (e) {
      // another run put its build there first: it is of the same sources
      if (!existsSync(hashFile)) throw e
    }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
  return "built"
}

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json"
}

export interface Served {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string
  /** every path asked for, in order */
  readonly requests: ReadonlyArray<string>
  readonly close: () => Promise<void>
}

/** A static file server of dist/ on 127.0.0.1 and a free port: what any static host does, and nothing more. */
export const serve = (dir: string = distDir): Promise<Served> => {
  const requests: Array<string> = []
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)
    requests.push(path)
    const file = normalize(join(dir, path.endsWith("/") ? `${path}index.html` : path))
    if (!file.startsWith(dir.endsWith(sep) ? dir : dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found")
      return
    }
    res.writeHead(200, {
      "content-type": types[extname(file)] ?? "application/octet-stream",
      // what a static host says of files named by their content hash (assets/): they never change
      ...(path.startsWith("/assets/") ? { "cache-control": "public, max-age=31536000, immutable" } : {})
    })
    res.end(readFileSync(file))
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}/`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })
}

/** Debian's headless Chromium (installed when missing), driven by playwright-core: one per test file or script. */
export const launchBrowser = (): Promise<Browser> => {
  Chromium.ensureChromium()
  return chromium.launch({ executablePath: Chromium.executablePath, headless: true, args: [...Chromium.args] })
}
