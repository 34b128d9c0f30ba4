/**
 * The version of the command line, read from its package.json (one level above both `src/` and `dist/`), so that
 * `--version`, the help page and the published package say the same.
 *
 * @since 0.1.0
 */
import { readFileSync } from "node:fs"

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  readonly name: string
  readonly version: string
}

/**
 * @since 0.1.0
 * @category constants
 */
export const version: string = manifest.version

/**
 * @since 0.1.0
 * @category constants
 */
export const packageName: string = manifest.name
