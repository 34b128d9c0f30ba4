/**
 * A SQLite client for `effect/sql` on Node's built-in `node:sqlite` (`DatabaseSync`, Node 22.5 and later; no native
 * build): `SqliteClient.layer({ filename })` provides `SqlClient.SqlClient` for a database file (or `:memory:`), so
 * `sql` statements, `sql.withTransaction` (savepoints when nested), `Migrator`, `SqlSchema` and `SqlResolver` work on
 * it as on any `effect/sql` driver.
 *
 * The file is opened with the settings of a durable ledger: WAL journal mode (readers do not block the writer), a
 * 5 second busy timeout (a process that finds the file locked by another waits for the lock instead of failing at
 * once), `synchronous = FULL` (a committed transaction survives a crash of the process and of the machine), and
 * transactions that begin with `BEGIN IMMEDIATE` (they take the write lock first, so two processes never both read
 * and then fail to upgrade to writing). Each of these is an option.
 *
 * One connection serves the client: statements run one at a time, and a transaction holds the connection until it
 * ends (other fibers wait for it). node:sqlite is synchronous: a statement, and a wait for another process's lock,
 * blocks the event loop while it runs. Within one process, share one client per file: a second client on the same
 * file that waits for the first one's lock waits its whole busy timeout, because the first cannot go on meanwhile.
 *
 * @since 0.1.0
 */

import type { DatabaseSync } from "node:sqlite"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Reactivity from "effect/reactivity/Reactivity"
import type * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as SqlClient from "effect/sql/SqlClient"
import { ConnectionError, SqlError } from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"
import { makeConnection, openError } from "./internal/sqliteConnection.js"

/**
 * The runtime mark of a `SqliteClient`.
 *
 * @since 0.1.0
 * @category type IDs
 */
export const TypeId: TypeId = "~@payrules/stores/SqliteClient"

/**
 * The type of the mark of a `SqliteClient`.
 *
 * @since 0.1.0
 * @category type IDs
 */
export type TypeId = "~@payrules/stores/SqliteClient"

/**
 * A `SqlClient` on a SQLite database, with the configuration it was made with.
 *
 * Integers read as JavaScript numbers; an integer beyond `Number.MAX_SAFE_INTEGER` fails the statement with a
 * `SqlError` unless `SqlClient.SafeIntegers` is provided as `true`, which reads every integer as a `bigint`.
 * Parameters bind as SQLite values: strings as TEXT, safe integers and bigints as INTEGER, other numbers as REAL,
 * `Uint8Array`s (any `ArrayBufferView`) as BLOB, `null` and `undefined` as NULL, booleans as 1 and 0, a `Date` as
 * its ISO 8601 text; any other value fails the statement with a `SqlError`. Rows are objects without a prototype
 * (as node:sqlite makes them).
 *
 * @since 0.1.0
 * @category models
 */
export interface SqliteClient extends SqlClient.SqlClient {
  readonly [TypeId]: TypeId
  readonly config: SqliteClientConfig
  /** Not supported by SQLite */
  readonly updateValues: never
}

/**
 * The service of the SQLite client (`layer` provides it together with `SqlClient.SqlClient`).
 *
 * @since 0.1.0
 * @category services
 */
export const SqliteClient: Context.Service<SqliteClient, SqliteClient> = Context.Service<SqliteClient>(
  "@payrules/stores/SqliteClient"
)

/**
 * How BEGIN starts a transaction: `IMMEDIATE` takes the write lock at once (waiting up to the busy timeout for
 * another process's), `DEFERRED` at the first write (which fails at once, not after the busy timeout, if another
 * process wrote in between), `EXCLUSIVE` also keeps readers of other processes out (as IMMEDIATE in WAL mode).
 *
 * @since 0.1.0
 * @category models
 */
export type TransactionMode = "DEFERRED" | "IMMEDIATE" | "EXCLUSIVE"

/**
 * The options of a client.
 *
 * @since 0.1.0
 * @category models
 */
export interface SqliteClientConfig {
  /**
   * The database file, created when missing (its directory must exist); relative paths resolve against the working
   * directory. `:memory:` is a database in memory, private to the client and gone when it closes.
   */
  readonly filename: string
  /** Open the file read-only (it must exist); default `false`. */
  readonly readonly?: boolean | undefined
  /**
   * How long a statement waits for a lock that another connection holds before it fails with a `SqlError`
   * (reason `LockTimeoutError`); default 5 seconds (at most 2^31 - 1 ms).
   */
  readonly busyTimeout?: Duration.Input | undefined
  /**
   * Keep the journal mode of the file (a new file: a rollback journal) instead of switching it to WAL, which lets
   * readers go on while one connection writes; default `false` (WAL). A read-only client never switches it.
   */
  readonly disableWAL?: boolean | undefined
  /**
   * `PRAGMA synchronous`: `FULL` (the default) syncs the write-ahead log at every commit, so a commit survives a
   * power loss; `NORMAL` syncs less and may lose the last commits on a power loss (never on a crash of the process).
   */
  readonly synchronous?: "OFF" | "NORMAL" | "FULL" | "EXTRA" | undefined
  /**
   * How `sql.withTransaction` begins: default `IMMEDIATE` (`DEFERRED` for a read-only client). `SqlClient.BeginTransaction`
   * overrides it for one transaction.
   */
  readonly transactionMode?: TransactionMode | undefined
  /** How many prepared statements to keep, by SQL text (least recently used go first); default 200, 0 keeps none. */
  readonly prepareCacheSize?: number | undefined
  /** Attributes added to the span of every statement (`db.system.name` is `sqlite`). */
  readonly spanAttributes?: Record<string, unknown> | undefined
  /** Renames the column names of the rows read (`String.camelCase`-like functions). */
  readonly transformResultNames?: ((str: string) => string) | undefined
  /** Renames the identifiers written through `sql(name)`, `sql.insert`, `sql.update`. */
  readonly transformQueryNames?: ((str: string) => string) | undefined
}

const defaultBusyTimeout = Duration.seconds(5)
const defaultPrepareCacheSize = 200

const loadSqlite = Effect.tryPromise({
  try: () => import("node:sqlite"),
  catch: (cause) =>
    new SqlError({
      reason: new ConnectionError({
        cause,
        message: "node:sqlite is not available (it needs Node.js 22.5 or later)",
        operation: "open"
      })
    })
})

const busyTimeoutMillis = (input: Duration.Input | undefined): number =>
  Math.min(2 ** 31 - 1, Math.max(0, Math.round(Duration.toMillis(input ?? defaultBusyTimeout))))

const open = (sqlite: typeof import("node:sqlite"), options: SqliteClientConfig) =>
  Effect.try({
    try: () => {
      // the busy timeout before anything reads the file: switching a new file to WAL takes a lock too
      const db = new sqlite.DatabaseSync(options.filename, {
        readOnly: options.readonly ?? false,
        timeout: busyTimeoutMillis(options.busyTimeout)
      })
      try {
        // these read the file (SQLite reads the schema before either pragma): a file that is not a database fails
        // here, not at the first statement
        if (options.readonly !== true && options.disableWAL !== true) {
          db.exec("PRAGMA journal_mode = WAL")
        }
        db.exec(`PRAGMA synchronous = ${options.synchronous ?? "FULL"}`)
        return db
      } catch (cause) {
        closeQuietly(db)
        throw cause
      }
    },
    catch: (cause) => openError(cause, options.filename)
  })

const closeQuietly = (db: DatabaseSync): void => {
  try {
    if (db.isOpen) db.close()
  } catch {
    // closing a database that is already closed: nothing left to release
  }
}

/**
 * A client on the database file of `options.filename`, opened now and closed when the scope closes. A file that
 * cannot be opened (its directory is missing, it is not a database, it is locked beyond the busy timeout) fails
 * with a `SqlError` (reason `ConnectionError` unless SQLite tells more).
 *
 * @example
 * ```ts
 * import * as Effect from "effect/Effect"
 * import * as Reactivity from "effect/reactivity/Reactivity"
 * import { SqliteClient } from "@payrules/stores"
 *
 * const program = Effect.gen(function* () {
 *   const sql = yield* SqliteClient.make({ filename: ":memory:" })
 *   yield* sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`
 *   return yield* sql<{ id: number }>`INSERT INTO t (name) VALUES (${"a"}) RETURNING id`
 * }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: SqliteClientConfig
): Effect.Effect<SqliteClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function* () {
    const sqlite = yield* loadSqlite
    const db = yield* Effect.acquireRelease(open(sqlite, options), (db) => Effect.sync(() => closeQuietly(db)))
    const connection = makeConnection(db, {
      prepareCacheSize: Math.max(0, Math.floor(options.prepareCacheSize ?? defaultPrepareCacheSize))
    })
    const acquirers = SqlClient.makeSqliteAcquirers({
      connection: Effect.succeed(connection),
      semaphore: yield* Semaphore.make(1),
      isTransaction: () => db.isTransaction
    })
    const transactionMode = options.transactionMode ?? (options.readonly === true ? "DEFERRED" : "IMMEDIATE")
    const client = yield* SqlClient.make({
      driver: "sqlite-node",
      acquirer: acquirers.acquirer,
      borrower: acquirers.borrower,
      transactionAcquirer: acquirers.transactionAcquirer,
      onCommitFailure: acquirers.onCommitFailure,
      isTransaction: acquirers.isTransaction,
      compiler: Statement.makeCompilerSqlite(options.transformQueryNames),
      transformRows: options.transformResultNames
        ? Statement.defaultTransforms(options.transformResultNames).array
        : undefined,
      spanAttributes: [
        ...(options.spanAttributes ? Object.entries(options.spanAttributes) : []),
        ["db.system.name", "sqlite"]
      ],
      // SQLite prepares BEGIN, COMMIT, ROLLBACK and savepoints like any statement: they join the statement cache
      prepareTransactionControls: true,
      beginTransaction: `BEGIN ${transactionMode}`,
      releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`
    })
    return Object.assign(client, { [TypeId]: TypeId, config: options }) as SqliteClient
  })

/**
 * `SqliteClient` and `SqlClient.SqlClient` on the database file of `options.filename`, open for the life of the
 * layer; the layer fails with a `SqlError` when the file cannot be opened (see {@link make}).
 *
 * @example
 * ```ts
 * import { SqliteClient } from "@payrules/stores"
 *
 * const SqlLive = SqliteClient.layer({ filename: "payrules.db" })
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: SqliteClientConfig): Layer.Layer<SqliteClient | SqlClient.SqlClient, SqlError> =>
  layerFrom(make(options))

/**
 * {@link layer} with its options read from `Config` (e.g. `{ filename: Config.string("LEDGER_FILE") }`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Wrap<SqliteClientConfig>
): Layer.Layer<SqliteClient | SqlClient.SqlClient, Config.ConfigError | SqlError> =>
  layerFrom(Effect.flatMap(Config.unwrap(config), make))

const layerFrom = <E>(
  acquire: Effect.Effect<SqliteClient, E, Scope.Scope | Reactivity.Reactivity>
): Layer.Layer<SqliteClient | SqlClient.SqlClient, E> =>
  Layer.effectContext(
    Effect.map(acquire, (client) => Context.make(SqliteClient, client).pipe(Context.add(SqlClient.SqlClient, client)))
  ).pipe(Layer.provide(Reactivity.layer))
