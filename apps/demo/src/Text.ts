/**
 * Text that comes from outside the command line (plan names and ids from the API or a `--plan` file, payment fields,
 * field rules, server messages quoted in errors), made safe to print: a terminal shows it as written, and nothing in
 * it moves the cursor, changes colours, sets the title, opens a hyperlink or breaks a line.
 *
 * @since 0.2.0
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const controls = /[\u0000-\u001f\u007f-\u009f]/g

const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`

/**
 * Text as a terminal may show it: every control character (Unicode's category Cc: C0 U+0000 to U+001F, DEL U+007F,
 * C1 U+0080 to U+009F), tab and line feed included, written as its escape `\u001b`, the way JSON writes it; every
 * other character as it is. An escape sequence in a plan's name (`Pro\u001b[31mPlan`) is shown, not obeyed, and a
 * line break in it does not start a line. The JSON outputs carry the exact text.
 *
 * Applied where text from outside enters a line of output, never to the command line's own colours; applying it
 * twice changes nothing.
 *
 * @example
 * ```ts
 * import { visible } from "./Text.js"
 *
 * visible("Pro\u001b[31mPlan") // "Pro\\u001b[31mPlan"
 * visible("x\ny") // "x\\u000ay"
 * ```
 *
 * @since 0.2.0
 * @category text
 */
export const visible = (text: string): string => text.replace(controls, escape)

// JSON.stringify escapes C0 controls, not DEL or C1 ones (U+009B is a CSI to some terminals)
const rawInJson = /[\u007f-\u009f]/g

/**
 * A value as JSON (`JSON.stringify(value, null, 2)`), with DEL and the C1 controls written as escapes too
 * (`\u009b`): the same JSON value, the same strings once parsed, and no control character reaches a terminal.
 *
 * @since 0.2.0
 * @category text
 */
export const json = (value: unknown): string => JSON.stringify(value, null, 2).replace(rawInJson, escape)
