#!/usr/bin/env node
// The published packages as users get them: their exports, the tarballs pnpm packs, and a consumer project.
//
//   node scripts/packages.mjs exports [--write]  every public module of src/ is an export entry (--write: rewrite them)
//   node scripts/packages.mjs lint               pack every published package; publint --strict and attw on each tarball
//   node scripts/packages.mjs version-dry-run    `changeset version` on a throwaway copy of the tracked tree: it must
//                                                consume every changeset and bump what they name
//   node scripts/packages.mjs consumer           install the tarballs with the lowest effect our peer ranges allow, in
//                                                an empty temporary directory, with npm (no ERESOLVE), import each, and
//                                                typecheck and run scripts/consumer/check.ts in a strict TS project
//
// `lint` and `consumer` need `pnpm build` first (the tarballs hold dist/). Nothing here writes outside the packages'
// package.json (exports --write) and a temporary directory.
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const groups = ["packages", "apps"]
/** Modules of src/ that are programs, not library entry points. */
const programs = new Set(["bin.ts", "main.ts"])

const run = (command, args, options = {}) =>
  execFileSync(command, args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", ...options })

const published = () =>
  groups.flatMap((group) =>
    readdirSync(join(root, group), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, group, d.name, "package.json")))
      .map((d) => {
        const dir = join(root, group, d.name)
        const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
        return { dir, manifest }
      })
      .filter(({ manifest }) => manifest.private !== true)
  )

/** The export map a package's src/ calls for: ".", one entry per public module, internals closed. */
const exportsFor = (dir) => {
  const src = join(dir, "src")
  const modules = readdirSync(src)
    .filter((f) => /^[A-Z][A-Za-z0-9]*\.ts$/.test(f) && !programs.has(f))
    .map((f) => f.slice(0, -3))
    .sort()
  const entry = (name) => ({
    "@payrules/source": `./src/${name}.ts`,
    types: `./dist/${name}.d.ts`,
    default: `./dist/${name}.js`
  })
  const map = { ".": entry("index") }
  for (const m of modules) map[`./${m}`] = entry(m)
  map["./package.json"] = "./package.json"
  map["./internal/*"] = null
  return map
}

const commandExports = (write) => {
  let stale = 0
  for (const { dir, manifest } of published()) {
    if (!existsSync(join(dir, "src", "index.ts"))) continue
    const wanted = exportsFor(dir)
    if (JSON.stringify(manifest.exports) === JSON.stringify(wanted)) continue
    if (write) {
      // main and types for tools that do not read exports, placed before it
      const next = {}
      for (const [key, value] of Object.entries(manifest)) {
        if (key === "main" || key === "types") continue
        if (key === "exports") Object.assign(next, { main: "./dist/index.js", types: "./dist/index.d.ts" })
        next[key] = key === "exports" ? wanted : value
      }
      writeFileSync(join(dir, "package.json"), `${JSON.stringify(next, null, 2)}\n`)
      console.log(`exports: rewrote ${manifest.name}`)
    } else {
      stale++
      console.error(`exports: ${manifest.name} does not export exactly its public modules of src/`)
    }
  }
  if (stale > 0) {
    console.error("exports: run `node scripts/packages.mjs exports --write`")
    process.exit(1)
  }
  console.log("exports: every published package exports its public modules")
}

const pack = (destination) =>
  published().map(({ dir, manifest }) => {
    if (!existsSync(join(dir, "dist"))) {
      console.error(`pack: ${manifest.name} has no dist/: run \`pnpm build\` first`)
      process.exit(1)
    }
    run("pnpm", ["pack", "--pack-destination", destination], { cwd: dir })
    const file = `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`
    return { name: manifest.name, manifest, tarball: join(destination, file) }
  })

const commandLint = () => {
  const temp = mkdtempSync(join(tmpdir(), "payrules-lint-"))
  let failed = 0
  try {
    for (const { name, tarball } of pack(temp)) {
      for (const [tool, args] of [
        ["publint", ["run", tarball, "--strict"]],
        ["attw", [tarball, "--profile", "esm-only", "--format", "ascii"]]
      ]) {
        try {
          run(join(root, "node_modules", ".bin", tool), args, { cwd: root })
          console.log(`lint: ${name}: ${tool} ok`)
        } catch (e) {
          failed++
          console.error(`lint: ${name}: ${tool} failed\n${e.stdout ?? ""}${e.stderr ?? ""}`)
        }
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
  if (failed > 0) process.exit(1)
}

/**
 * The lowest version a peer range allows: `^4.1.0` -> 4.1.0; for a union of ranges (`>=5.0.0 <7.0.0`,
 * `^5.0.0 || ^6.0.0`) the lowest bound of its first range.
 */
const lowest = (range) => {
  const m = /^(?:\^|>=)\s*(\d+\.\d+\.\d+)(?:\s*<\s*\d+\.\d+\.\d+)?(?:\s*\|\|.*)?$/.exec(range.trim())
  if (m === null) {
    console.error(`consumer: peer range ${range} is not a caret or a >= range`)
    process.exit(1)
  }
  return m[1]
}

/**
 * The stores' drivers are optional peer dependencies: in the consumer project, with them hidden as if they had not
 * been installed (a resolve hook answers ERR_MODULE_NOT_FOUND), `@payrules/stores/LedgerUrl` imports, parses every
 * form and opens the in-memory ledger, and a store whose driver is missing fails its layer with a `StoreFailed` error
 * that names the packages to install.
 */
const optionalDrivers = (app, packs) => {
  const stores = packs.find((p) => p.name === "@payrules/stores")
  if (stores === undefined) throw new Error("consumer: @payrules/stores was not packed")
  const optional = Object.entries(stores.manifest.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta.optional === true)
    .map(([name]) => name)
  if (optional.length === 0) throw new Error("consumer: @payrules/stores declares no optional peer dependency")
  const hidden = new RegExp(`^(${optional.map((n) => n.replace(/[/.]/g, "\\$&")).join("|")})(/|$)`)
  writeFileSync(
    join(app, "hide-optional.mjs"),
    `import { register } from "node:module"
const hook = ${JSON.stringify(`export const resolve = (specifier, context, next) => {
  if (${hidden}.test(specifier)) {
    const error = new Error("Cannot find package '" + specifier + "' (an optional peer dependency, not installed)")
    error.code = "ERR_MODULE_NOT_FOUND"
    throw error
  }
  return next(specifier, context)
}`)}
register("data:text/javascript," + encodeURIComponent(hook))
`
  )
  writeFileSync(
    join(app, "optional-drivers.mjs"),
    `import * as LedgerUrl from "@payrules/stores/LedgerUrl"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
const open = (place) => Effect.runPromiseExit(Effect.scoped(Layer.build(LedgerUrl.layer(LedgerUrl.parseUnsafe(place)))))
for (const place of ["memory", "sqlite::memory:"]) {
  const exit = await open(place)
  if (!Exit.isSuccess(exit)) throw new Error("the ledger " + place + " did not open: " + String(exit.cause))
}
for (const [place, needs] of [["postgres://u@127.0.0.1:1/d", "@effect/sql-pg"]]) {
  const exit = await open(place)
  const error = Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : Option.none()
  const failure = Option.getOrUndefined(error)
  if (failure?._tag !== "RequestLedgerError" || failure.reason !== "StoreFailed" || !failure.message.includes(needs)) {
    throw new Error(place + ": expected a StoreFailed error naming " + needs + ", got " + (Exit.isFailure(exit) ? String(exit.cause) : "success"))
  }
  console.log("consumer: without the optional drivers, LedgerUrl.layer(" + place + ") fails with: " + failure.message.split(" (")[0])
}
console.log("consumer: without ${optional.join(", ")}: @payrules/stores/LedgerUrl imports, parses and opens memory and sqlite::memory: (node:sqlite)")
`
  )
  run("node", ["--import", "./hide-optional.mjs", "optional-drivers.mjs"], { cwd: app, stdio: "inherit" })
}

/**
 * A user's strict TypeScript project against the installed tarballs: `scripts/consumer/check.ts` (typed uses of every
 * published package) typechecked with the workspace's TypeScript under `strict`, `exactOptionalPropertyTypes` and
 * `noUncheckedIndexedAccess` (our declaration files included: `skipLibCheck` off for them), then run.
 */
const strictProject = (app) => {
  writeFileSync(join(app, "check.ts"), readFileSync(join(root, "scripts", "consumer", "check.ts"), "utf8"))
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022", "DOM"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          types: ["node"],
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          noUnusedLocals: true,
          verbatimModuleSyntax: true,
          skipLibCheck: false,
          outDir: "out"
        },
        files: ["check.ts"]
      },
      null,
      2
    )
  )
  run("node", [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "."], { cwd: app, stdio: "inherit" })
  console.log("consumer: check.ts typechecks in a strict TypeScript project")
  run("node", ["out/check.js"], { cwd: app, stdio: "inherit" })
}

const commandConsumer = () => {
  const temp = mkdtempSync(join(tmpdir(), "payrules-consumer-"))
  try {
    const packs = pack(temp)
    const peers = new Map()
    for (const { manifest } of packs) {
      for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
        const packed = JSON.parse(
          run("tar", ["-xzOf", packs.find((p) => p.manifest === manifest).tarball, "package/package.json"])
        )
        peers.set(name, lowest(packed.peerDependencies[name] ?? range))
      }
    }
    const app = join(temp, "app")
    run("mkdir", ["-p", app])
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)
    )
    const typesNode = JSON.parse(readFileSync(join(root, "node_modules", "@types", "node", "package.json"), "utf8"))
    const specs = [
      ...packs.map((p) => p.tarball),
      ...[...peers].map(([name, version]) => `${name}@${version}`),
      `@types/node@${typesNode.version}`
    ]
    console.log(
      `consumer: npm install ${[...peers].map(([n, v]) => `${n}@${v}`).join(" ")} and ${packs.length} tarballs`
    )
    // npm refuses unsatisfiable peer ranges with ERESOLVE (no --legacy-peer-deps, no --force)
    run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...specs], { cwd: app, stdio: "inherit" })
    const lines = packs
      .filter((p) => p.manifest.exports?.["."] !== undefined)
      .map(
        (p, i) =>
          `import * as m${i} from ${JSON.stringify(p.name)}\n` +
          `if (Object.keys(m${i}).length === 0) throw new Error(${JSON.stringify(`${p.name} exports nothing`)})\n` +
          `console.log(${JSON.stringify(`consumer: import ${p.name}:`)}, Object.keys(m${i}).join(", "))`
      )
    writeFileSync(join(app, "check.mjs"), `${lines.join("\n")}\n`)
    run("node", ["check.mjs"], { cwd: app, stdio: "inherit" })
    strictProject(app)
    // every installed command answers --help
    for (const { manifest } of packs) {
      for (const bin of Object.keys(manifest.bin ?? {})) {
        const out = run("npx", ["--no-install", bin, "--help"], { cwd: app })
        console.log(`consumer: ${bin} --help: ${out.split("\n")[0]}`)
      }
    }
    optionalDrivers(app, packs)
    const installed = JSON.parse(readFileSync(join(app, "node_modules", "effect", "package.json"), "utf8")).version
    console.log(`consumer: ok with effect ${installed}`)
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

const commandVersionDryRun = () => {
  const temp = mkdtempSync(join(tmpdir(), "payrules-version-"))
  try {
    // the tracked files as they are now (committed or not), never the checkout itself
    const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root })
      .split("\0")
      .filter((f) => f !== "" && existsSync(join(root, f)))
    run("tar", ["-cf", join(temp, "tree.tar"), "-C", root, ...files], { maxBuffer: 1 << 26 })
    const copy = join(temp, "tree")
    run("mkdir", ["-p", copy])
    run("tar", ["-xf", join(temp, "tree.tar"), "-C", copy])
    const git = (...args) => run("git", ["-c", "user.name=ci", "-c", "user.email=ci@invalid", ...args], { cwd: copy })
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "tree")
    const pending = readdirSync(join(copy, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md")
    const before = new Map(published().map(({ manifest }) => [manifest.name, manifest.version]))
    run("node", [join(root, "node_modules", "@changesets", "cli", "bin.js"), "version"], { cwd: copy })
    const left = readdirSync(join(copy, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md")
    if (left.length > 0) throw new Error(`changeset version left ${left.join(", ")}`)
    for (const { dir, manifest } of published()) {
      const copied = join(copy, dir.slice(root.length + 1))
      const after = JSON.parse(readFileSync(join(copied, "package.json"), "utf8")).version
      const changelog = existsSync(join(copied, "CHANGELOG.md"))
      console.log(
        `version-dry-run: ${manifest.name} ${before.get(manifest.name)} -> ${after}${changelog ? " (CHANGELOG.md)" : ""}`
      )
    }
    console.log(`version-dry-run: ${pending.length} changesets consumed; the checkout is untouched`)
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

const [command, ...rest] = process.argv.slice(2)
if (command === "exports") commandExports(rest.includes("--write"))
else if (command === "lint") commandLint()
else if (command === "consumer") commandConsumer()
else if (command === "version-dry-run") commandVersionDryRun()
else {
  console.error("usage: node scripts/packages.mjs exports [--write] | lint | version-dry-run | consumer")
  process.exit(2)
}
