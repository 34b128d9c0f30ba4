#!/usr/bin/env node
/**
 * `pnpm mutation [<package> ...] [--full] [--mutate <files>]`: Stryker on each package (every package of
 * tooling/mutation/thresholds.mjs by default), one after another, from the package's directory with
 * tooling/mutation/stryker.config.mjs. Incremental: only the mutants in code or tests changed since the results in
 * tooling/mutation/incremental/ are tested again (`--full` tests every mutant). `--mutate` narrows a run to some files
 * (Stryker's syntax, relative to the package: `src/internal/memoryLedger.ts`, with `:line-line` ranges).
 *
 * Stryker writes its mutants into the package's own files (see the config), so a package must have no uncommitted
 * change to start, and when Stryker does not end cleanly (killed, crashed) its files are restored from git. Ctrl-C
 * stops the run and restores them too. Prints each package's score beside its threshold; exits with 1 when one is
 * below it or a run failed.
 */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { thresholdOf, thresholds } from "../tooling/mutation/thresholds.mjs"

const root = resolve(fileURLToPath(new URL("..", import.meta.url)))
const args = process.argv.slice(2)
const full = args.includes("--full")
const mutateAt = args.indexOf("--mutate")
const mutate = mutateAt >= 0 ? args[mutateAt + 1] : undefined
const names = args.filter((a, i) => !a.startsWith("--") && (mutateAt < 0 || i !== mutateAt + 1))
const packages = names.length > 0 ? names : Object.keys(thresholds)
for (const name of packages) {
  thresholdOf(name)
  if (!existsSync(join(root, "packages", name, "vitest.config.ts"))) throw new Error(`no package packages/${name}`)
}

const git = (...gitArgs) => execFileSync("git", gitArgs, { cwd: root, encoding: "utf8" })
/** uncommitted changes of a package's sources, tests and configuration */
const changesOf = (name) => git("status", "--porcelain", "--", `packages/${name}`).trim()

/** puts back every file Stryker may have written into the package (it started with no uncommitted change) */
const restore = (name) => {
  git("checkout", "--", `packages/${name}`)
  git("clean", "-fdq", "--", `packages/${name}`)
}

/** the score of a Stryker JSON report: detected (killed or timed out) of the mutants that ran or had no test */
const scoreOf = (report) => {
  const count = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0 }
  for (const file of Object.values(report.files)) {
    for (const mutant of file.mutants) if (mutant.status in count) count[mutant.status]++
  }
  const valid = count.Killed + count.Timeout + count.Survived + count.NoCoverage
  return { ...count, valid, score: valid === 0 ? 100 : ((count.Killed + count.Timeout) / valid) * 100 }
}

/** the test files of a package (`*.test.ts` under `test`), relative to the package, as Stryker's incremental file names them */
const testFilesOf = (dir) =>
  readdirSync(join(dir, "test"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".test.ts"))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).replaceAll("\\", "/"))

/**
 * Stryker's incremental mode tests a surviving mutant again only when a test that covers it is new or changed. A
 * static mutant (in code that runs when a module loads: a Schema's annotations, a table) is covered by no test in
 * particular, so a new test never brings it back: it stays "Survived" even when the new test kills it (measured on
 * money's `MinorUnits.ts`: a test of the JSON Schema's title killed its two mutants in a whole run and left both
 * alive in an incremental run). So when a test file was added, changed or removed since the incremental file was
 * written, the static mutants that were not detected are dropped from it, and Stryker tests them again.
 */
const forgetStaticSurvivors = (name, incrementalFile) => {
  if (!existsSync(incrementalFile)) return 0
  const report = JSON.parse(readFileSync(incrementalFile, "utf8"))
  const dir = join(root, "packages", name)
  const before = report.testFiles ?? {}
  const now = testFilesOf(dir)
  // a test file the incremental file does not know counts when it reaches the package's code (Stryker runs only the
  // test files related to the mutated ones: README.test.ts, which runs the README's examples, is never among them)
  const reachesPackage = (text) => text.includes(`@payrules/${name}`) || /from "\.\.?\/(\.\.\/)*src\//.test(text)
  const testsChanged =
    now.some((file) => {
      const text = readFileSync(join(dir, file), "utf8")
      return before[file] === undefined ? reachesPackage(text) : before[file].source !== text
    }) || Object.keys(before).some((file) => !now.includes(file))
  if (!testsChanged) return 0
  let dropped = 0
  for (const file of Object.values(report.files)) {
    const kept = file.mutants.filter(
      (m) => !(m.static === true && (m.status === "Survived" || m.status === "NoCoverage"))
    )
    dropped += file.mutants.length - kept.length
    file.mutants = kept
  }
  if (dropped > 0) writeFileSync(incrementalFile, JSON.stringify(report))
  return dropped
}

let current
let interrupted = false
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    interrupted = true
    // to Stryker's whole process group: pnpm does not pass a signal on to the program it runs
    if (current?.pid !== undefined) process.kill(-current.pid, "SIGINT")
  })
}

const stryker = (name) =>
  new Promise((done) => {
    current = spawn(
      "pnpm",
      [
        "exec",
        "stryker",
        "run",
        "../../tooling/mutation/stryker.config.mjs",
        ...(full ? ["--force"] : []),
        // a narrowed run keeps its results apart: the package's incremental file holds whole runs
        ...(mutate === undefined
          ? []
          : ["--mutate", mutate, "--incrementalFile", `../../reports/mutation/${name}.incremental.json`])
      ],
      // its own process group, so that a signal reaches Stryker itself (see above)
      { cwd: join(root, "packages", name), stdio: "inherit", detached: true }
    )
    current.on("exit", (code, signal) => done(code ?? signal))
  })

const rows = []
let failed = false
for (const name of packages) {
  if (interrupted) break
  const dirty = changesOf(name)
  if (dirty !== "") {
    console.error(`mutation: packages/${name} has uncommitted changes; commit or stash them first:\n${dirty}`)
    failed = true
    continue
  }
  const reportFile = join(root, "reports", "mutation", `${name}.json`)
  rmSync(reportFile, { force: true })
  if (!full) {
    const incrementalFile =
      mutate === undefined
        ? join(root, "tooling", "mutation", "incremental", `${name}.json`)
        : join(root, "reports", "mutation", `${name}.incremental.json`)
    const dropped = forgetStaticSurvivors(name, incrementalFile)
    if (dropped > 0)
      console.log(`mutation: tests of ${name} changed; ${dropped} static survivor(s) will be tested again`)
  }
  const started = Date.now()
  const status = await stryker(name)
  const seconds = Math.round((Date.now() - started) / 1000)
  if (changesOf(name) !== "") {
    restore(name)
    console.error(`mutation: Stryker ended (${status}) with files of packages/${name} changed; restored them from git`)
  }
  if (!existsSync(reportFile)) {
    failed = true
    rows.push(`| ${name} | (no report: Stryker ended with ${status}) | | ${thresholdOf(name)}% | ${seconds} s |`)
    continue
  }
  const s = scoreOf(JSON.parse(readFileSync(reportFile, "utf8")))
  const pass = s.score >= thresholdOf(name)
  if (!pass || status !== 0) failed = true
  rows.push(
    `| ${name}${mutate === undefined ? "" : ` (${mutate})`} | ${s.score.toFixed(1)}%${pass ? "" : " (below)"} | ${s.Killed + s.Timeout} of ${s.valid} (${s.Survived} survived, ${s.NoCoverage} under no test) | ${thresholdOf(name)}% | ${seconds} s |`
  )
}
console.log("\n| package | mutation score | detected | threshold | time |\n| --- | ---: | --- | ---: | ---: |")
for (const row of rows) console.log(row)
process.exit(failed || interrupted ? 1 : 0)
