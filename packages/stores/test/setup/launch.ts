/**
 * The entry point of every child process of the tests: `node launch.cjs <bundle.cjs> <task>`. It runs the bundled
 * child (a CommonJS file made by ./children.ts) with V8's code cache, so a child does not parse and compile the same
 * 1.3 MB of JavaScript again: the first child to exit writes the cache of what it compiled beside the bundle, and the
 * children after it start from that cache (0.30 s -> 0.21 s of CPU per start, measured on a child with nothing to do;
 * the crash and replica tests start about a hundred). The cache holds what that first child compiled, whatever became
 * of it; a function it never ran is compiled by the child that needs it, as without a cache.
 *
 * V8 accepts a cache for any source of the same length (it does not hash the text), so the cache's name carries a
 * hash of the bundle's content: a cache made from other code is never found, let alone run. V8 refuses a cache of
 * another V8 or of other flags (`cachedDataRejected`); the next child to exit then writes a new one. The cache changes
 * only how fast the code starts, never what it does.
 *
 * Bundled by ./children.ts into `launch.cjs`: the Node of the tests runs it as it is, without a TypeScript loader.
 */
import { createHash } from "node:crypto"
import { readFileSync, renameSync, writeFileSync } from "node:fs"
import Module, { createRequire } from "node:module"
import { dirname, resolve } from "node:path"
import { constants, Script } from "node:vm"

if (process.argv[2] === undefined) throw new Error("usage: node launch.cjs <bundle.cjs> <task>")
const file = resolve(process.argv[2])
// the child reads its task from argv[2], as if it had been started directly
process.argv.splice(2, 1)

const source = readFileSync(file, "utf8")
const cacheFile = `${file}.${createHash("sha256").update(source).digest("hex").slice(0, 16)}.v8-cache`
const readCache = (): Buffer | undefined => {
  try {
    return readFileSync(cacheFile)
  } catch {
    return undefined
  }
}
const cachedData = readCache()
const script = new Script(Module.wrap(source), {
  filename: file,
  // a dynamic import() the bundle keeps (a built-in such as node:sqlite) loads as it would outside vm
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  ...(cachedData === undefined ? {} : { cachedData })
})

if (cachedData === undefined || script.cachedDataRejected === true) {
  // at exit the cache holds every function this child compiled, not just the top level; written under another name
  // and renamed, so a child that starts meanwhile reads a whole cache or none
  process.once("exit", () => {
    const partial = `${cacheFile}.${process.pid}`
    try {
      writeFileSync(partial, script.createCachedData())
      renameSync(partial, cacheFile)
    } catch {
      // a cache is an optimisation: the next child tries again
    }
  })
}

const child = new Module(file)
child.filename = file
const wrapper = script.runInThisContext() as (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string
) => void
wrapper.call(child.exports, child.exports, createRequire(file), child, file, dirname(file))
