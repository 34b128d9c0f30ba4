/**
 * The connection under `SqliteClient`: one `node:sqlite` `DatabaseSync`, its prepared statements cached by SQL text,
 * values bound as parameters, and every error of `node:sqlite` turned into a `SqlError`.
 *
 * @internal
 */

import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { hasProperty } from "effect/Predicate"
import * as Stream from "effect/Stream"
import { SafeIntegers } from "effect/sql/SqlClient"
import type { Connection } from "effect/sql/SqlConnection"
import {
  ConnectionError,
  classifySqliteError,
  SqlError,
  type SqlErrorReason,
  SqlSyntaxError,
  UnknownError
} from "effect/sql/SqlError"

type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

/** the SQLite message of a cause (what `node:sqlite` throws is an `Error` with `code`, `errcode` and `errstr`) */
const detailOf = (cause: unknown): string =>
  hasProperty(cause, "message") && typeof cause.message === "string" ? cause.message : String(cause)

const reasonOf = (cause: unknown, message: string, operation: string): SqlErrorReason => {
  const errcode = hasProperty(cause, "errcode") && typeof cause.errcode === "number" ? cause.errcode : undefined
  if (errcode === undefined) {
    // not from SQLite itself: a value that cannot be bound, an integer too large for a number, a closed database
    return new UnknownError({ cause, message, operation })
  }
  // SQLITE_ERROR is SQLite's generic code: its syntax errors say so in the message only
  if ((errcode & 0xff) === 1 && /syntax error|incomplete input/.test(detailOf(cause))) {
    return new SqlSyntaxError({ cause, message, operation })
  }
  // `classifySqliteError` reads the extended result code from `errno` (better-sqlite3 and bun name it so);
  // node:sqlite calls it `errcode`
  if (!hasProperty(cause, "errno")) {
    if (!Object.isExtensible(cause)) return new UnknownError({ cause, message, operation })
    Object.defineProperty(cause, "errno", { value: errcode, enumerable: false, configurable: true })
  }
  return classifySqliteError(cause, { message, operation })
}

/**
 * A `SqlError` for a failure of `node:sqlite`; its message is `what` followed by SQLite's own message.
 *
 * @internal
 */
export const sqlError = (cause: unknown, what: string, operation: string): SqlError =>
  new SqlError({ reason: reasonOf(cause, `${what}: ${detailOf(cause)}`, operation) })

/**
 * A `SqlError` for a database that could not be opened: a `ConnectionError` unless SQLite says more precisely what
 * went wrong (a lock held too long, no permission).
 *
 * @internal
 */
export const openError = (cause: unknown, filename: string): SqlError => {
  const message = `Failed to open SQLite database ${filename}: ${detailOf(cause)}`
  const reason = reasonOf(cause, message, "open")
  return new SqlError({
    reason: reason._tag === "UnknownError" ? new ConnectionError({ cause, message, operation: "open" }) : reason
  })
}

/**
 * One value as `node:sqlite` binds it. Safe integers bind as SQLite INTEGERs (node:sqlite binds every number as a
 * REAL, so `1` would be stored as `1.0` in a column without a type and `json_object('n', ?)` would give `1.0`); other
 * numbers as REALs; `undefined` as NULL; a `Date` as its ISO 8601 text (SQLite's date format). Anything else that
 * node:sqlite cannot bind is refused: an object must never reach node:sqlite, which would read it as a map of named
 * parameters and silently bind nothing.
 */
const bindValue = (value: unknown, index: number): SQLInputValue => {
  switch (typeof value) {
    case "string":
      if (cutsTextAtNul && value.includes("\u0000")) {
        throw new TypeError(
          `Cannot bind text with a NUL character to SQLite parameter ${index + 1}: node:sqlite of Node ${process.versions.node} stores it whole but reads it back cut at the NUL (Node 24 reads it whole)`
        )
      }
      return value
    case "bigint":
      return value
    case "number":
      return Number.isSafeInteger(value) ? BigInt(value) : value
    case "boolean":
      return value ? 1n : 0n
    case "undefined":
      return null
    case "object":
      if (value === null) return null
      // a typed array (Uint8Array, Buffer) or a DataView: its bytes
      if (ArrayBuffer.isView(value)) return value as NodeJS.ArrayBufferView
      if (value instanceof Date) return value.toISOString()
      break
  }
  throw new TypeError(
    `Cannot bind a value of type ${value === null ? "null" : typeof value} (${Object.prototype.toString.call(value)}) to SQLite parameter ${index + 1}`
  )
}

/**
 * Whether this Node's node:sqlite reads text cut at its first NUL character (Node 22 does; Node 24 does not): text that
 * it would not give back whole is refused when bound, rather than stored and read back shortened. Found out once per
 * process, on the first connection.
 */
let cutsTextAtNul = false
let probed = false
const probeTextAtNul = (db: DatabaseSync) => {
  if (probed) return
  probed = true
  const row = db.prepare("SELECT 'a' || char(0) || 'b' AS s").get() as { readonly s?: unknown } | undefined
  cutsTextAtNul = row?.s !== "a\u0000b"
}

const bindAll = (params: ReadonlyArray<unknown>): Array<SQLInputValue> => {
  const binds: Array<SQLInputValue> = new Array(params.length)
  for (let i = 0; i < params.length; i++) {
    binds[i] = bindValue(params[i], i)
  }
  return binds
}

/**
 * whitespace, semicolons and comments: what may follow the one statement of a SQL text (a block comment ends at its
 * first `*\/`, or unclosed at the end of the text: it never runs on over a statement)
 */
const blankTail = /^(?:\s|;|--[^\n]*(?:\n|$)|\/\*(?:[^*]|\*(?!\/))*(?:\*\/|$))*$/

interface Prepared {
  readonly statement: StatementSync
  /** whether the statement returns rows (a SELECT, a PRAGMA with a result, a statement with RETURNING) */
  readonly reader: boolean
}

const prepare = (db: DatabaseSync, sql: string): Prepared => {
  const statement = db.prepare(sql)
  // node:sqlite compiles the first statement of the text and silently drops the rest
  const source = statement.sourceSQL
  if (sql.startsWith(source) && !blankTail.test(sql.slice(source.length))) {
    throw new Error(
      "the SQL text holds more than one statement (node:sqlite would run only the first); run them one at a time"
    )
  }
  return { statement, reader: statement.columns().length > 0 }
}

/**
 * The prepared statements of a database, the `capacity` most recently used ones kept by SQL text (none when
 * `capacity` is 0); the others are finalized by the garbage collector or when the database closes.
 */
const makePrepareCache = (db: DatabaseSync, capacity: number) => {
  const cache = new Map<string, Prepared>()
  return (sql: string): Prepared => {
    const hit = cache.get(sql)
    if (hit !== undefined) {
      // most recently used last: Map keeps insertion order
      cache.delete(sql)
      cache.set(sql, hit)
      return hit
    }
    const prepared = prepare(db, sql)
    if (capacity > 0) {
      if (cache.size >= capacity) {
        const oldest = cache.keys().next()
        if (oldest.done !== true) cache.delete(oldest.value)
      }
      cache.set(sql, prepared)
    }
    return prepared
  }
}

type Mode = "rows" | "raw" | "values"

const runPrepared = (
  { reader, statement }: Prepared,
  params: ReadonlyArray<unknown>,
  mode: Mode,
  safeIntegers: boolean
): unknown => {
  statement.setReadBigInts(safeIntegers)
  statement.setReturnArrays(mode === "values")
  const binds = bindAll(params)
  if (reader) {
    return statement.all(...binds)
  }
  const result = statement.run(...binds)
  return mode === "raw" ? { changes: result.changes, lastInsertRowid: result.lastInsertRowid } : []
}

/** rows read from a streamed statement before they go downstream as one chunk */
const STREAM_CHUNK = 128

/**
 * The `Connection` of `SqliteClient` over an open database. Statements run synchronously (node:sqlite is
 * synchronous); the client lets one fiber at a time use the connection.
 *
 * @internal
 */
export const makeConnection = (db: DatabaseSync, options: { readonly prepareCacheSize: number }): Connection => {
  probeTextAtNul(db)
  const cached = makePrepareCache(db, options.prepareCacheSize)
  const fresh = (sql: string) => prepare(db, sql)

  // what `runPrepared` returns for `mode`: rows (objects or arrays), or a summary of the changes for `raw`
  const execute = <A>(
    lookup: (sql: string) => Prepared,
    sql: string,
    params: ReadonlyArray<unknown>,
    mode: Mode,
    operation: string
  ): Effect.Effect<A, SqlError> =>
    Effect.withFiber((fiber) => {
      let prepared: Prepared
      try {
        prepared = lookup(sql)
      } catch (cause) {
        return Effect.fail(sqlError(cause, "Failed to prepare statement", operation))
      }
      try {
        return Effect.succeed(runPrepared(prepared, params, mode, Context.get(fiber.context, SafeIntegers)) as A)
      } catch (cause) {
        return Effect.fail(sqlError(cause, "Failed to execute statement", operation))
      }
    })

  const rows = (effect: Effect.Effect<ReadonlyArray<object>, SqlError>, transformRows: TransformRows) =>
    transformRows === undefined ? effect : Effect.map(effect, transformRows)

  const stream = (sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) =>
    Stream.unwrap(
      Effect.map(
        Effect.acquireRelease(
          Effect.withFiber((fiber) => {
            try {
              // a statement of its own: the cached one may be needed while this one is half read
              const { statement } = fresh(sql)
              statement.setReadBigInts(Context.get(fiber.context, SafeIntegers))
              statement.setReturnArrays(false)
              return Effect.succeed(statement.iterate(...bindAll(params)))
            } catch (cause) {
              return Effect.fail(sqlError(cause, "Failed to execute statement", "executeStream"))
            }
          }),
          // resets the statement, which ends its read transaction, also when the stream stops early
          (iterator) => Effect.sync(() => iterator.return?.())
        ),
        (iterator) =>
          Stream.paginate(undefined, () =>
            Effect.try({
              try: () => {
                const chunk: Array<object> = []
                while (chunk.length < STREAM_CHUNK) {
                  const next = iterator.next()
                  if (next.done === true) {
                    return [transformRows ? transformRows(chunk) : chunk, Option.none()] as const
                  }
                  chunk.push(next.value)
                }
                return [transformRows ? transformRows(chunk) : chunk, Option.some(undefined)] as const
              },
              catch: (cause) => sqlError(cause, "Failed to execute statement", "executeStream")
            })
          )
      )
    )

  return {
    execute: (sql, params, transformRows) =>
      rows(execute<ReadonlyArray<object>>(cached, sql, params, "rows", "execute"), transformRows),
    executeRaw: (sql, params) => execute<unknown>(cached, sql, params, "raw", "executeRaw"),
    executeValues: (sql, params) =>
      execute<ReadonlyArray<ReadonlyArray<unknown>>>(cached, sql, params, "values", "executeValues"),
    executeValuesUnprepared: (sql, params) =>
      execute<ReadonlyArray<ReadonlyArray<unknown>>>(fresh, sql, params, "values", "executeValuesUnprepared"),
    executeUnprepared: (sql, params, transformRows) =>
      rows(execute<ReadonlyArray<object>>(fresh, sql, params, "rows", "executeUnprepared"), transformRows),
    executeStream: stream
  }
}
