/**
 * Where a request_id ledger lives, as one string (a command-line option, an environment variable): `memory`,
 * `sqlite:<file>` or `postgres://user:password@host:port/database`. {@link parse} reads it, {@link layer} opens it.
 *
 * The PostgreSQL driver (`@effect/sql-pg`) is an optional peer dependency: this module loads a store's module (and
 * its driver) only when its layer is built, so a program that parses ledger places, or uses memory or SQLite (on
 * Node's built-in `node:sqlite`), needs no driver.
 *
 * @since 0.1.0
 */
import { RequestLedger } from "@payrules/exchange"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"

/**
 * A ledger's place: in memory (the default, gone with the process), a SQLite file (one process, durable), or a
 * PostgreSQL database (several processes).
 *
 * @since 0.1.0
 * @category models
 */
export type LedgerUrl = Data.TaggedEnum<{
  Memory: {}
  Sqlite: { readonly filename: string }
  Postgres: { readonly url: Redacted.Redacted<string> }
}>

/**
 * Constructors and matchers of {@link LedgerUrl}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const LedgerUrl = Data.taggedEnum<LedgerUrl>()

/**
 * A ledger string that is none of the accepted forms; the message says which forms are. `input` and the message
 * show the string with its password masked (`postgres://user:***@...`).
 *
 * @since 0.1.0
 * @category errors
 */
export class LedgerUrlError extends Data.TaggedError("LedgerUrlError")<{
  readonly reason: "Empty" | "UnknownScheme" | "MissingFile" | "InvalidUrl"
  readonly path: ReadonlyArray<PropertyKey>
  readonly input: string
  readonly message: string
}> {}

const forms = "memory, sqlite:<file> or postgres://user@host:port/database"

/**
 * The text with the password of a `scheme://user:password@...` masked, whether or not it parses as a URL: everything
 * between the first `:` after `://` and the last `@` (a password may hold `@` or `/` when it does not parse).
 */
const withoutPassword = (text: string): string => {
  const start = /^\s*[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(text)?.[0].length
  if (start === undefined) return text
  const at = text.lastIndexOf("@")
  const colon = text.indexOf(":", start)
  return at > start && colon !== -1 && colon < at ? `${text.slice(0, colon)}:***${text.slice(at)}` : text
}

/**
 * Reads a ledger string: `memory`; `sqlite:<file>` (`sqlite:./payrules.db`, `sqlite:/var/lib/app/ledger.db`;
 * `sqlite::memory:` for a database that lives as long as the layer); `postgres://...` or `postgresql://...`.
 *
 * @example
 * ```ts
 * import { LedgerUrl } from "@payrules/stores"
 *
 * console.log(LedgerUrl.parseUnsafe("sqlite:./payrules.db")) // { filename: "./payrules.db", _tag: "Sqlite" }
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (input: string): Result.Result<LedgerUrl, LedgerUrlError> => {
  const text = input.trim()
  // a refused string is shown without its password: it is printed (a mistyped --ledger) and may be logged
  const fail = (reason: LedgerUrlError["reason"], why: string) => {
    const shown = withoutPassword(input)
    return Result.fail(
      new LedgerUrlError({ reason, path: [], input: shown, message: `${JSON.stringify(shown.slice(0, 200))} ${why}` })
    )
  }
  if (text === "") return fail("Empty", `is not a ledger: give ${forms}`)
  if (text === "memory") return Result.succeed(LedgerUrl.Memory())
  if (text.startsWith("sqlite:")) {
    const filename = text.slice("sqlite:".length)
    return filename === ""
      ? fail("MissingFile", "names no file: give sqlite:<file>, such as sqlite:./payrules.db")
      : Result.succeed(LedgerUrl.Sqlite({ filename }))
  }
  if (/^postgres(ql)?:\/\//.test(text)) {
    let url: URL
    try {
      url = new URL(text)
    } catch {
      return fail("InvalidUrl", "is not a URL: give postgres://user@host:port/database")
    }
    if (url.hostname === "") return fail("InvalidUrl", "names no host: give postgres://user@host:port/database")
    return Result.succeed(LedgerUrl.Postgres({ url: Redacted.make(text) }))
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1]
  return fail(
    "UnknownScheme",
    scheme === undefined ? `is not a ledger: give ${forms}` : `has the scheme ${scheme}: give ${forms}`
  )
}

/**
 * {@link parse}, throwing the `LedgerUrlError` (for constants in code).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseUnsafe = (input: string): LedgerUrl => Result.getOrThrow(parse(input))

/**
 * @deprecated Use {@link parseUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParse: (input: string) => LedgerUrl = parseUnsafe

/**
 * The string of a ledger place, with a PostgreSQL password masked.
 *
 * @since 0.1.0
 * @category formatting
 */
export const format = (ledger: LedgerUrl): string =>
  LedgerUrl.$match(ledger, {
    Memory: () => "memory",
    Sqlite: ({ filename }) => `sqlite:${filename}`,
    Postgres: ({ url }) => {
      const parsed = new URL(Redacted.value(url))
      if (parsed.password !== "") parsed.password = "***"
      return parsed.toString()
    }
  })

/**
 * A store's module, imported when its layer is built; a driver that is not installed is a `StoreFailed` error that
 * says what the store needs (the packages to install).
 */
const store = <M>(
  name: string,
  needs: string,
  load: () => Promise<M>,
  make: (module: M) => Layer.Layer<RequestLedger.RequestLedger, RequestLedger.RequestLedgerError>
): Layer.Layer<RequestLedger.RequestLedger, RequestLedger.RequestLedgerError> =>
  Layer.unwrap(
    Effect.map(
      Effect.tryPromise({
        try: load,
        catch: (cause) =>
          new RequestLedger.RequestLedgerError({
            reason: "StoreFailed",
            message: `the request ledger could not load its ${name} store (it needs ${needs}): ${
              cause instanceof Error ? cause.message : String(cause)
            }`,
            cause
          })
      }),
      make
    )
  )

/**
 * The `RequestLedger` service at that place, with its table created when missing. The store's module and its
 * driver are loaded here, when the layer is built (a missing driver fails the layer with reason `StoreFailed`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  ledger: LedgerUrl,
  options?: RequestLedger.Options
): Layer.Layer<RequestLedger.RequestLedger, RequestLedger.RequestLedgerError> =>
  LedgerUrl.$match(ledger, {
    Memory: () => RequestLedger.layerWith(options ?? {}),
    Sqlite: ({ filename }) =>
      store(
        "SQLite",
        "Node.js 22.5 or later, for node:sqlite",
        () => import("./SqliteRequestLedger.js"),
        (m) => m.layer({ ...options, filename })
      ),
    Postgres: ({ url }) =>
      store(
        "PostgreSQL",
        "@effect/sql-pg installed",
        () => import("./PgRequestLedger.js"),
        (m) => m.layer({ ...options, url })
      )
  })
