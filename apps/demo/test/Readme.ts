/**
 * The commands the READMEs show, and how each launcher (`pnpm payrules`, `pnpm --filter @payrules/cli start`, ...)
 * hands its arguments and directory to the command line.
 */
import { readFileSync } from "node:fs"
import * as Invocation from "../src/Invocation.js"
import { packageDir, rootDir } from "./Harness.js"

/** A row of a command table: `| command | exit | first line of output |`. */
export interface Row {
  readonly readme: string
  readonly command: string
  /** 0, 1, or "running" for a command that serves until stopped */
  readonly exit: 0 | 1 | "running"
  readonly firstLine: string
}

/** A ```sh example followed by the ```text block of what it prints. */
export interface Example {
  readonly readme: string
  readonly command: string
  readonly output: ReadonlyArray<string>
}

export const readmes = {
  root: `${rootDir}README.md`,
  cli: `${packageDir}README.md`
} as const

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim())

const code = (cell: string) => {
  const m = /^`(.*)`$/.exec(cell)
  if (m === null) throw new Error(`expected a cell in backticks: ${cell}`)
  return m[1]!
}

/** The rows of every command table of a README. */
export const commandTable = (readme: string): ReadonlyArray<Row> => {
  const lines = readFileSync(readme, "utf8").split("\n")
  const rows: Array<Row> = []
  lines.forEach((line, i) => {
    const header = cells(line)
    if (header.join("|") !== "command|exit|first line of output") return
    for (const row of lines.slice(i + 2)) {
      if (!row.trim().startsWith("|")) break
      const [command, exit, first] = cells(row)
      rows.push({
        readme,
        command: code(command!),
        exit: exit === "0" ? 0 : exit === "1" ? 1 : exit === "runs until Ctrl-C" ? "running" : (Number.NaN as 0),
        firstLine: code(first!)
      })
    }
  })
  return rows
}

/** The ```sh examples of a README that are followed by the ```text block of their output. */
export const examples = (readme: string): ReadonlyArray<Example> => {
  const markdown = readFileSync(readme, "utf8")
  const blocks = [...markdown.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1]!,
    body: m[2]!,
    start: m.index!,
    end: m.index! + m[0].length
  }))
  const out: Array<Example> = []
  blocks.forEach((b, i) => {
    const next = blocks[i + 1]
    if (b.lang !== "sh" || next === undefined || next.lang !== "text") return
    if (markdown.slice(b.end, next.start).trim() !== "") return
    out.push({ readme, command: b.body.trim(), output: next.body.replace(/\n$/, "").split("\n") })
  })
  return out
}

/** How a launcher runs the command line: the arguments it passes and the directory paths resolve against. */
export interface Launch {
  readonly args: ReadonlyArray<string>
  readonly cwd: string
}

const words = (command: string) => command.split(/\s+/).filter((w) => w !== "")

/**
 * What the command line receives when a person types `command` in the repository root, for each launcher the
 * READMEs use. pnpm runs a script in its package's directory with `INIT_CWD` set to where it was typed, and passes
 * the arguments on as they are (a literal `--` included).
 */
export const launch = (command: string): Launch | undefined => {
  const w = words(command)
  const script = (name: string, scriptDir: string, event: string, args: ReadonlyArray<string>): Launch => ({
    args,
    cwd: Invocation.workingDirectory(
      { INIT_CWD: rootDir, npm_package_name: name, npm_lifecycle_event: event },
      scriptDir
    )
  })
  if (w[0] === "pnpm" && w[1] === "payrules") return script("payrules", rootDir, "payrules", w.slice(2))
  if (w[0] === "pnpm" && w[1] === "demo") return script("payrules", rootDir, "demo", ["tour", ...w.slice(2)])
  if (w[0] === "pnpm" && w[1] === "--filter" && w[2] === "@payrules/cli" && w[3] === "start") {
    return script("@payrules/cli", packageDir, "start", w.slice(4))
  }
  if (w[0] === "npx" && w[1] === "payrules") return { args: w.slice(2), cwd: rootDir }
  return undefined
}

/** `expected` with `…` standing for any text. */
export const matches = (expected: string, actual: string): boolean =>
  new RegExp(
    `^${expected
      .split("…")
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`
  ).test(actual)

/**
 * Whether printed lines follow an example's text: line by line with `…` standing for any text, and a line `...`
 * for any number of lines.
 */
export const follows = (expected: ReadonlyArray<string>, actual: ReadonlyArray<string>): boolean => {
  const go = (i: number, j: number): boolean => {
    if (i === expected.length) return j === actual.length
    if (expected[i] === "...") {
      for (let k = j; k <= actual.length; k++) if (go(i + 1, k)) return true
      return false
    }
    return j < actual.length && matches(expected[i]!, actual[j]!) && go(i + 1, j + 1)
  }
  return go(0, 0)
}
