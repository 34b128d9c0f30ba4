/**
 * The files a command reads and writes, named by the option that gave them and resolved against the directory the
 * person ran the command in.
 *
 * @since 0.1.0
 */

import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as PathService from "effect/Path"
import type * as PlatformError from "effect/PlatformError"
import { CliError, oneLine } from "./CliError.js"
import * as Invocation from "./Invocation.js"

type Env = FileSystem.FileSystem | PathService.Path | Invocation.Invocation

const why = (e: PlatformError.PlatformError, missing: string): string => {
  const reason = e.reason
  if (reason._tag === "BadArgument") return oneLine(reason.description ?? reason.message)
  switch (reason._tag) {
    case "NotFound":
      return missing
    case "PermissionDenied":
      return "permission denied"
    case "BadResource":
      return "not a regular file"
    default:
      return oneLine(reason.description ?? reason._tag)
  }
}

/**
 * The text of the file an option names (`--plan plan.json`).
 *
 * @since 0.1.0
 * @category files
 */
export const readText = (option: string, path: string): Effect.Effect<string, CliError, Env> =>
  Effect.flatMap(Invocation.resolve(path), (absolute) =>
    Effect.flatMap(FileSystem.FileSystem, (fs) =>
      fs
        .readFileString(absolute)
        .pipe(Effect.mapError((e) => new CliError({ where: `${option} ${path}`, reason: why(e, "no such file") })))
    )
  )

/**
 * The JSON value of the file an option names.
 *
 * @since 0.1.0
 * @category files
 */
export const readJson = (option: string, path: string): Effect.Effect<unknown, CliError, Env> =>
  Effect.flatMap(readText(option, path), (text) =>
    Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (e) => new CliError({ where: `${option} ${path}`, reason: `not JSON (${(e as Error).message})` })
    })
  )

/**
 * Writes the file an option names (with a final newline); fails when its directory does not exist.
 *
 * @since 0.1.0
 * @category files
 */
export const writeText = (option: string, path: string, text: string): Effect.Effect<void, CliError, Env> =>
  Effect.flatMap(Invocation.resolve(path), (absolute) =>
    Effect.flatMap(FileSystem.FileSystem, (fs) =>
      fs
        .writeFileString(absolute, text.endsWith("\n") ? text : `${text}\n`)
        .pipe(
          Effect.mapError(
            (e) => new CliError({ where: `${option} ${path}`, reason: why(e, "its directory does not exist") })
          )
        )
    )
  )

/**
 * Whether a path names an existing file (for `--plan`, which takes a file or a plan id).
 *
 * @since 0.1.0
 * @category files
 */
export const exists = (path: string): Effect.Effect<boolean, never, Env> =>
  Effect.flatMap(Invocation.resolve(path), (absolute) =>
    Effect.flatMap(FileSystem.FileSystem, (fs) => fs.exists(absolute).pipe(Effect.orElseSucceed(() => false)))
  )

/**
 * Fails, naming the option, when the directory a file is to be written in does not exist: checked before a command
 * does its work, so that a typo in `--out` costs nothing.
 *
 * @since 0.1.0
 * @category files
 */
export const checkWritable = (option: string, path: string): Effect.Effect<void, CliError, Env> =>
  Effect.gen(function* () {
    const absolute = yield* Invocation.resolve(path)
    const fs = yield* FileSystem.FileSystem
    const p = yield* PathService.Path
    const info = yield* fs.stat(p.dirname(absolute)).pipe(Effect.option)
    if (Option.isNone(info) || info.value.type !== "Directory") {
      return yield* new CliError({ where: `${option} ${path}`, reason: "its directory does not exist" })
    }
    const target = yield* fs.stat(absolute).pipe(Effect.option)
    if (Option.isSome(target) && target.value.type === "Directory") {
      return yield* new CliError({ where: `${option} ${path}`, reason: "is a directory; give a file name" })
    }
  })
