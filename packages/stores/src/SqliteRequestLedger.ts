/**
 * The request_id ledger in a SQLite file (this package's `SqliteClient`, on Node's built-in `node:sqlite`: no native
 * build, no driver to install): the embedded durable ledger of one process. What it records survives a crash of the
 * process (SQLite commits every statement to its write-ahead log before answering), so a new process on the same
 * file finds the exchanges that were in flight and settles them with `BusinessClient.resumePending`.
 *
 * Several processes may open the same file on one machine (SQLite locks it), but they write one at a time; for
 * replicas, use PostgreSQL (`PgRequestLedger`).
 *
 * @since 0.1.0
 */
import { RequestLedger } from "@payrules/exchange"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as SqliteClient from "./SqliteClient.js"
import * as SqlRequestLedger from "./SqlRequestLedger.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options extends RequestLedger.Options {
  /** the database file, created when missing (relative paths resolve against the working directory) */
  readonly filename: string
}

const openFailed = (filename: string) => (cause: SqlError) =>
  new RequestLedger.RequestLedgerError({
    reason: "StoreFailed",
    message: `the request ledger could not open the SQLite file ${filename}: ${cause.message}`,
    cause
  })

/**
 * The SQLite client of the file (`SqliteClient` of this package, which is also the `SqlClient`); a file that cannot
 * be opened (its directory is missing, it is not a database) is a `RequestLedgerError` with reason `StoreFailed`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerClient = (
  filename: string
): Layer.Layer<SqliteClient.SqliteClient | SqlClient.SqlClient, RequestLedger.RequestLedgerError> =>
  Layer.effectContext(
    SqliteClient.make({ filename }).pipe(
      Effect.mapError(openFailed(filename)),
      Effect.map((client) =>
        Context.make(SqliteClient.SqliteClient, client).pipe(Context.add(SqlClient.SqlClient, client))
      )
    )
  ).pipe(Layer.provide(Reactivity.layer))

/**
 * The `RequestLedger` service in a SQLite file, with its table created when missing. The file stays open for the
 * life of the layer.
 *
 * @example
 * ```ts
 * import { SqliteRequestLedger } from "@payrules/stores"
 *
 * const ledger = SqliteRequestLedger.layer({ filename: "payrules.db" })
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<RequestLedger.RequestLedger, RequestLedger.RequestLedgerError> =>
  SqlRequestLedger.layer(options.window === undefined ? {} : { window: options.window }).pipe(
    Layer.provide(layerClient(options.filename))
  )
