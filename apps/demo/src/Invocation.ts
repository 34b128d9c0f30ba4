/**
 * How the command line was invoked: the directory that relative paths (`--plan`, `--out`, `--fields`, ...) resolve
 * against, and the arguments as the person typed them.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Path from "effect/Path"

/**
 * @since 0.1.0
 * @category models
 */
export interface Invocation {
  /** the directory the person ran the command in */
  readonly cwd: string
  /**
   * whether a person is at a terminal: standard input and standard output both a TTY (what `--wizard` needs to ask
   * its questions); not when absent
   */
  readonly interactive?: boolean | undefined
}

/**
 * @since 0.1.0
 * @category services
 */
export const Invocation: Context.Service<Invocation, Invocation> =
  Context.Service<Invocation>("@payrules/cli/Invocation")

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (invocation: Invocation): Layer.Layer<Invocation> => Layer.succeed(Invocation, invocation)

/** The names of the scripts of this repository that run the command line: the root's and the package's own. */
const ownPackages: ReadonlySet<string> = new Set(["payrules", "@payrules/cli"])

/**
 * The directory the person ran the command in. A package manager runs a script in its package's directory and keeps
 * the caller's directory in `INIT_CWD`; that is the one to use when the script is one of this repository's
 * (`pnpm payrules ...` from the root, `pnpm --filter @payrules/cli start`), so that paths mean what they mean in the
 * caller's shell. Anywhere else (the installed `payrules` command, `npx payrules`, a script of another package, which
 * its author wrote relative to that package) it is the process's working directory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const workingDirectory = (env: Readonly<Record<string, string | undefined>>, cwd: string): string => {
  const init = env.INIT_CWD
  const ownScript =
    env.npm_lifecycle_event !== undefined && env.npm_package_name !== undefined && ownPackages.has(env.npm_package_name)
  return ownScript && init !== undefined && init !== "" ? init : cwd
}

/**
 * The arguments after the program: pnpm passes a literal `--` on (`pnpm start -- --help`), which is not an
 * argument of ours, so a leading one is dropped.
 *
 * @since 0.1.0
 * @category constructors
 */
export const userArguments = (args: ReadonlyArray<string>): ReadonlyArray<string> =>
  args[0] === "--" ? args.slice(1) : args

/**
 * A path as the person typed it, made absolute against the directory they ran the command in.
 *
 * @since 0.1.0
 * @category paths
 */
export const resolve = (path: string): Effect.Effect<string, never, Invocation | Path.Path> =>
  Effect.zipWith(Invocation, Path.Path, (invocation, p) => p.resolve(invocation.cwd, path))
