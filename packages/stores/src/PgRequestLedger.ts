/**
 * The request_id ledger in PostgreSQL (`@effect/sql-pg`, a PostgreSQL client in plain JavaScript): one ledger shared by every process of a service, its
 * replicas included. Two processes that register the same request_id at once get one `New` and one `Replay` (or
 * `Conflict`): `register` is one `INSERT ... ON CONFLICT (request_id) DO UPDATE ... RETURNING`, which PostgreSQL runs
 * atomically against the primary key, locking the row it updates.
 *
 * @since 0.1.0
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import type { RequestLedger } from "@payrules/exchange"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import { storeFailed } from "./internal/sqlLedger.js"
import * as SqlRequestLedger from "./SqlRequestLedger.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options extends RequestLedger.Options {
  /** `postgres://user:password@host:port/database` (a `Redacted` keeps the password out of logs) */
  readonly url: string | Redacted.Redacted
  /** the size of the connection pool (default 10) */
  readonly maxConnections?: number | undefined
  /** how long to wait for the server when connecting (default 5 seconds) */
  readonly connectTimeout?: Duration.Input | undefined
}

/**
 * The `RequestLedger` service in PostgreSQL, over a pool of its own, with its table created when missing.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<RequestLedger.RequestLedger, RequestLedger.RequestLedgerError> =>
  SqlRequestLedger.layer(options.window === undefined ? {} : { window: options.window }).pipe(
    Layer.provide(
      Layer.effectContext(
        PgClient.make({
          url: Redacted.isRedacted(options.url) ? options.url : Redacted.make(options.url),
          maxConnections: options.maxConnections,
          connectTimeout: options.connectTimeout,
          applicationName: "@payrules/stores"
        }).pipe(
          Effect.mapError(storeFailed("connect to PostgreSQL")),
          Effect.map((client) => Context.make(PgClient.PgClient, client).pipe(Context.add(SqlClient.SqlClient, client)))
        )
      ).pipe(Layer.provide(Reactivity.layer))
    )
  )
