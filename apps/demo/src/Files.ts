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
 * over {@link maxReadBytes}, and refused when it is not UTF-8, with the offset of the first byte that is not (a
 * Latin-1 `Café` is not read as `Caf\uFFFD`). A UTF-8 byte order mark at its start is skipped, as JSON parsers may
 * (RFC 8259, section 8.1).
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
    const bytes = yield* fs
      .readFile(absolute)
      .pipe(Effect.mapError((e) => new CliError({ where, reason: describeFileError(e, "no such file") })))
    return yield* Effect.try({
      try: () => utf8.decode(bytes),
      catch: (e) => new CliError({ where, reason: describeDecodeError(e, bytes) })
    })
  })

/** UTF-8, refusing what is not (no U+FFFD in place of bad bytes); a byte order mark at the start is skipped */
const utf8 = new TextDecoder("utf-8", { fatal: true })

const describeDecodeError = (e: unknown, bytes: Uint8Array): string => {
  const code = (e as { readonly code?: unknown }).code
  if (code === "ERR_STRING_TOO_LONG") return tooLarge("over 512 MiB")
  const offset = invalidUtf8Offset(bytes)
  if (offset === undefined) return oneLine(e instanceof Error ? e.message : String(e))
  const shown = Array.from(bytes.subarray(offset, offset + 4), (b) => b.toString(16).toUpperCase().padStart(2, "0"))
  const more = offset + shown.length < bytes.length ? " ..." : ""
  return `not UTF-8: the bytes at offset ${count(offset)} (${shown.join(" ")}${more}, counted from 0) are not valid UTF-8; save the file as UTF-8`
}

/**
 * The offset (from 0) of the first byte that does not begin a well-formed UTF-8 sequence (Unicode's table 3-7: no
 * overlong forms, no surrogates, nothing past U+10FFFF, no sequence cut short), or `undefined` when every byte is
 * part of one.
 *
 * @example
 * ```ts
 * import { invalidUtf8Offset } from "./Files.js"
 *
 * invalidUtf8Offset(new Uint8Array([0x43, 0x61, 0x66, 0xe9])) // 3 (Latin-1 "Café")
 * invalidUtf8Offset(new TextEncoder().encode("Café")) // undefined
 * ```
 *
 * @since 0.2.0
 * @category files
 */
export const invalidUtf8Offset = (bytes: Uint8Array): number | undefined => {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]!
    if (b < 0x80) {
      i++
      continue
    }
    // the number of continuation bytes, and the range of the first of them
    let n: number
    let low = 0x80
    let high = 0xbf
    if (b >= 0xc2 && b <= 0xdf) n = 1
    else if (b >= 0xe0 && b <= 0xef) {
      n = 2
      if (b === 0xe0) low = 0xa0
      if (b === 0xed) high = 0x9f
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 3
      if (b === 0xf0) low = 0x90
      if (b === 0xf4) high = 0x8f
    } else return i
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k]
      if (c === undefined || c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i
    }
    i += n + 1
  }
  return undefined
}

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
