/**
 * The help page and `--version` of the command line, in place of `effect/cli`'s own: a page that fits a terminal of
 * 100 columns (every line is wrapped, descriptions under their flag when the flag is long), with the version of the
 * package, and nothing but the version for `--version`. Usage errors are not printed here: `Cli.run` reports them in
 * one line, as every other error.
 *
 * Headings and names are coloured; `Output` takes the colour out where no terminal reads it.
 *
 * @since 0.1.0
 */

import * as Console from "effect/Console"
import * as CliOutput from "effect/cli/CliOutput"
import type * as HelpDoc from "effect/cli/HelpDoc"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/**
 * What a help page needs beyond the command's own description.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** the program's name, the first line of every page */
  readonly name: string
  readonly version: string
  /** the widest a line may be (default {@link WIDTH}) */
  readonly width?: number | undefined
}

/**
 * The widest line of a help page: it fits a terminal of 100 columns.
 *
 * @since 0.1.0
 * @category constants
 */
export const WIDTH = 100

/** where descriptions start, at most; a longer name puts its description on the next line */
const NAME_COLUMN = 30

const style = (code: number) => (text: string) => `\u001b[${code}m${text}\u001b[0m`
const bold = style(1)
const dim = style(2)
const green = style(32)
const cyan = style(36)

const width = CliOutput.displayWidth

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is looked for
const escapes = /\u001b\[[0-9;]*m/

/**
 * The words of a text in lines of at most `max` columns. The first line is to be printed from column `first` (what
 * precedes it is the caller's), the others are indented to column `indent`. A plain word wider than a line is cut.
 *
 * @since 0.1.0
 * @category layout
 */
export const wrap = (text: string, max: number, indent: number, first: number = indent): ReadonlyArray<string> => {
  const lines: Array<string> = []
  let line = ""
  let start = first
  const flush = () => {
    lines.push(line)
    line = ""
    start = indent
  }
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    let rest = word
    while (width(rest) > max - indent && !escapes.test(rest)) {
      if (line !== "") flush()
      const room = Math.max(1, max - start)
      lines.push(rest.slice(0, room))
      rest = rest.slice(room)
      start = indent
    }
    if (line === "") line = rest
    else if (start + width(line) + 1 + width(rest) <= max) line = `${line} ${rest}`
    else {
      flush()
      line = rest
    }
  }
  lines.push(line)
  return lines.map((l, i) => (i === 0 ? l : `${" ".repeat(indent)}${l}`))
}

interface Row {
  readonly name: string
  readonly description: string
}

/** Two columns: names, and their descriptions wrapped beside them (or under a name too long for the column). */
const table = (rows: ReadonlyArray<Row>, max: number): ReadonlyArray<string> => {
  if (rows.length === 0) return []
  const widest = Math.max(...rows.map((r) => width(r.name)))
  const column = Math.min(2 + widest + 2, NAME_COLUMN)
  return rows.flatMap(({ description, name }) => {
    const head = `  ${name}`
    if (description === "") return [head]
    const [first = "", ...rest] = wrap(description, max, column)
    return width(head) + 2 <= column
      ? [`${head}${" ".repeat(column - width(head))}${first}`, ...rest]
      : [head, `${" ".repeat(column)}${first}`, ...rest]
  })
}

const indented = (text: string, max: number, indent: number): ReadonlyArray<string> => {
  const [first = "", ...rest] = wrap(text, max, indent)
  return [`${" ".repeat(indent)}${first}`, ...rest]
}

const flagName = (flag: HelpDoc.FlagDoc, withType: boolean): string => {
  const names = [...flag.aliases.filter((a) => /^-[^-]$/.test(a)), `--${flag.name}`].map(green).join(", ")
  return withType && flag.type !== "boolean" ? `${names} ${dim(flag.type)}` : names
}

const flagRows = (flags: ReadonlyArray<HelpDoc.FlagDoc>): ReadonlyArray<Row> =>
  flags.map((flag) => ({ name: flagName(flag, true), description: Option.getOrElse(flag.description, () => "") }))

/** `$ payrules simulate --plan file|id [--variation id] ...`, wrapped with a hanging indent. */
const usage = (doc: HelpDoc.HelpDoc, name: string, max: number): ReadonlyArray<string> => {
  const words = [`$ ${(doc.commandPath ?? [name]).join(" ")}`]
  if (doc.subcommands !== undefined && doc.subcommands.length > 0) words.push("<command>")
  for (const flag of doc.flags) {
    const shown = flag.type === "boolean" ? `--${flag.name}` : `--${flag.name} ${flag.type}`
    words.push(flag.required ? shown : `[${shown}]`)
  }
  for (const arg of doc.args ?? []) {
    const shown = `<${arg.name}${arg.variadic ? "..." : ""}>`
    words.push(arg.required ? shown : `[${shown}]`)
  }
  // a flag and its value stay on one line
  const lines: Array<string> = []
  let line = ""
  for (const word of words) {
    const indent = lines.length === 0 ? 2 : 6
    if (line === "") line = word
    else if (indent + width(line) + 1 + width(word) <= max) line = `${line} ${word}`
    else {
      lines.push(`${" ".repeat(indent)}${line}`)
      line = word
    }
  }
  lines.push(`${" ".repeat(lines.length === 0 ? 2 : 6)}${line}`)
  return lines.map(cyan)
}

/**
 * The help page of a command: the program and its version, usage, description, arguments, flags, the global flags
 * and the commands, every line at most `options.width` columns wide.
 *
 * @since 0.1.0
 * @category rendering
 */
export const page = (doc: HelpDoc.HelpDoc, options: Options): string => {
  const max = options.width ?? WIDTH
  const sections: Array<ReadonlyArray<string>> = [
    [bold(options.name)],
    [`${options.name} ${options.version}`],
    [bold("USAGE"), "", ...usage(doc, options.name, max)]
  ]
  if (doc.description !== "") sections.push([bold("DESCRIPTION"), "", ...indented(doc.description, max, 2)])
  if (doc.args !== undefined && doc.args.length > 0) {
    sections.push([
      bold("ARGUMENTS"),
      "",
      ...table(
        doc.args.map((arg) => ({
          name: green(`<${arg.name}${arg.variadic ? "..." : ""}>`),
          description: `${Option.getOrElse(arg.description, () => "")}${arg.required ? "" : " (optional)"}`
        })),
        max
      )
    ])
  }
  if (doc.flags.length > 0) sections.push([bold("FLAGS"), "", ...table(flagRows(doc.flags), max)])
  if (doc.inheritedFlags !== undefined && doc.inheritedFlags.length > 0) {
    sections.push([bold("INHERITED FLAGS"), "", ...table(flagRows(doc.inheritedFlags), max)])
  }
  if (doc.globalFlags !== undefined && doc.globalFlags.length > 0) {
    sections.push([bold("GLOBAL FLAGS"), "", ...table(flagRows(doc.globalFlags), max)])
  }
  for (const group of doc.subcommands ?? []) {
    sections.push([
      bold(group.group === undefined ? "COMMANDS" : group.group.toUpperCase()),
      "",
      ...table(
        group.commands.map((c) => ({
          name: `- ${cyan(c.name)}${c.alias === undefined ? "" : `, ${cyan(c.alias)}`}`,
          description: c.shortDescription ?? c.description
        })),
        max
      )
    ])
  }
  if (doc.subcommands !== undefined && doc.subcommands.length > 0) {
    const path = (doc.commandPath ?? [options.name]).join(" ")
    sections.push(indented(`Run \`${path} <command> --help\` for the flags of a command.`, max, 0))
  }
  for (const example of doc.examples ?? []) {
    sections.push([
      bold("EXAMPLE"),
      "",
      ...(example.description === undefined ? [] : indented(dim(`# ${example.description}`), max, 2)),
      ...indented(cyan(example.command), max, 2)
    ])
  }
  return sections.map((s) => s.join("\n")).join("\n\n")
}

/**
 * The formatter of `effect/cli`'s output for this program: {@link page} for help, the bare version for
 * `--version` (what scripts compare), errors as one line.
 *
 * @since 0.1.0
 * @category rendering
 */
export const formatter = (options: Options): CliOutput.Formatter => ({
  formatHelpDoc: (doc) => page(doc, options),
  formatVersion: () => options.version,
  formatCliError: (error) => error.message.split("\n")[0] ?? "",
  formatError: (error) => `error: ${error.message.split("\n")[0] ?? ""}`,
  formatErrors: (errors) => errors.map((e) => `error: ${e.message.split("\n")[0] ?? ""}`).join("\n")
})

/**
 * What `effect/cli` shows, through this program's formatter: the help page (asked for, or when a command is missing)
 * and the version on standard output. A usage error shows nothing here: it fails the run, and `Cli.run` reports it
 * on one line.
 *
 * @since 0.1.0
 * @category rendering
 */
export const presenter = (options: Options): CliOutput.Presenter => {
  const format = formatter(options)
  return {
    present: (event) => {
      switch (event._tag) {
        case "Help":
          return Console.log(format.formatHelpDoc(event.helpDoc))
        case "Version":
          return Console.log(format.formatVersion(event.name, event.version))
        case "InvalidInvocation":
          return Effect.void
      }
    }
  }
}

/**
 * Runs an effect with this program's formatter and presenter in place of `effect/cli`'s.
 *
 * @since 0.1.0
 * @category rendering
 */
export const withHelp =
  (options: Options) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    self.pipe(
      Effect.provideService(CliOutput.Formatter, formatter(options)),
      Effect.provideService(CliOutput.Presenter, presenter(options))
    )
