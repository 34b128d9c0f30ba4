/**
 * The files a command reads and writes, named by the option that gave them and resolved against the directory the
 * person ran the command in.
 *
 * @since 0.1.0
 */

import * as ByteSize from "effect/ByteSize"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as PathService from "effect/Path"
import type * as PlatformError from "effect/PlatformError"
import { CliError, describeSystemError, oneLine } from "./CliError.js"
import * as Invocation from "./Invocation.js"

type Env = FileSystem.FileSystem | PathService.Path | Invocation.Invocation

/**
 * The largest file a command reads (`--plan`, `--fields`, `--body`): 16 MiB. Plans, field rules and payment bodies
 * are a few kilobytes; Node.js reads no file over 2 GiB and holds no string over 512 MiB, and a file that size would
 * take gigabytes to parse. A larger file is refused from its size, before it is read.
 *
 * @since 0.2.0
 * @category files
 */
export const maxReadBytes = 16 * 1024 * 1024

const count = (n: bigint | number) => n.toLocaleString("en-US")

const tooLarge = (size: string) => `the file is ${size}; at most ${count(maxReadBytes)} bytes (16 MiB) are read`

/**
 * Why a file could not be read or written, in a person's words: the system's description with its code
 * (`no space left on device (ENOSPC)`), `missing` when there is no such file or directory, or the size of a file
 * too large to read.
 *
 * @since 0.2.0
 * @category files
 */
export const describeFileError = (e: PlatformError.PlatformError, missing: string): string => {
  const reason = e.reason
  const cause = reason.cause as { readonly code?: unknown; readonly message?: unknown } | undefined
  switch (cause?.code) {
    case "ERR_FS_FILE_TOO_LARGE":
      return tooLarge("over 2 GiB")
    case "ERR_STRING_TOO_LONG":
      return tooLarge("over 512 MiB")
  }
  if (reason._tag === "NotFound") return missing
  if (reason._tag === "PermissionDenied") return "permission denied"
  if (reason._tag === "BadResource") return "not a regular file"
  const system = describeSystemError(cause)
  if (system !== undefined) return system
  if (reason._tag === "BadArgument") return oneLine(reason.description ?? reason.message)
  return oneLine(reason.description ?? (typeof cause?.message === "string" ? cause.message : reason._tag))
}

/**
 * The text of the file an option names (`--plan plan.json`): refused from its size, before it is read, when it is
 * over {@link maxReadBytes}.
 *
 * @since 0.1.0
 * @category files
 */
export const readText = (option: string, path: string): Effect.Effect<string, CliError, Env> =>
  Effect.gen(function* () {
    const absolute = yield* Invocation.resolve(path)
    const fs = yield* FileSystem.FileSystem
    const where = `${option} ${path}`
    const info = yield* fs.stat(absolute).pipe(Effect.option)
    if (Option.isSome(info) && ByteSize.toBigInt(info.value.size) > BigInt(maxReadBytes)) {
      return yield* new CliError({ where, reason: tooLarge(`${count(ByteSize.toBigInt(info.value.size))} bytes`) })
    }
    return yield* fs
      .readFileString(absolute)
      .pipe(Effect.mapError((e) => new CliError({ where, reason: describeFileError(e, "no such file") })))
  })

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
            (e) =>
              new CliError({ where: `${option} ${path}`, reason: describeFileError(e, "its directory does not exist") })
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
