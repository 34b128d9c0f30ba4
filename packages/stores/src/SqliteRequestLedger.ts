/**
 * The request_id ledger in a SQLite file (`@effect/sql-sqlite-node`, on better-sqlite3): the embedded durable
 * ledger of one process. What it records survives a crash of the process (SQLite commits every statement to its
 * write-ahead log before answering), so a new process on the same file finds the exchanges that were in flight and
 * settles them with `BusinessClient.resumePending`.
 *
 * Several processes may open the same file on one machine (SQLite locks it), but they write one at a time; for
 * replicas, use PostgreSQL (`PgRequestLedger`).
 *
 * @since 0.1.0
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { RequestLedger } from "@payrules/exchange"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlRequestLedger from "./SqlRequestLedger.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options extends RequestLedger.Options {
  /** the database file, created when missing (relative paths resolve against the working directory) */
  readonly filename: string
}

/**
 * The SQLite client of the file; a file that cannot be opened (its directory is missing, it is not a database) is a
 * `RequestLedgerError` with reason `StoreFailed`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerClient = (
  filename: string
): Layer.Layer<SqliteClient.SqliteClient | SqlClient.SqlClient, RequestLedger.RequestLedgerError> =>
  Layer.scopedContext(
    SqliteClient.make({ filename }).pipe(
      Effect.catchAllDefect((defect) =>
        Effect.fail(
          new RequestLedger.RequestLedgerError({
            reason: "StoreFailed",
            message: `the request ledger could not open the SQLite file ${filename}: ${
              defect instanceof Error ? defect.message : Cause.pretty(Cause.die(defect))
            }`,
            cause: defect
          })
        )
      ),
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
