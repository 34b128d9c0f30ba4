/**
 * The request_id ledger of `@payrules/exchange` in a SQL database, over the `SqlClient` of `effect/sql`: the layer
 * under the SQLite and PostgreSQL ledgers of this package, for an application that already has a client (its own
 * `PgClient` pool, say). The table `payrules_request_ledger` is created when missing, by a migration of
 * `effect/sql`'s migrator recorded in `payrules_migrations` (apart from the application's own migrations).
 *
 * Each row holds the request's canonical body and its SHA-256, its state (in flight, succeeded, refused, unknown),
 * the outcome as JSON, when it was registered and when it expires, and how often it was received. Every operation is
 * one statement, so processes sharing the database agree on every request_id: `register` is an
 * `INSERT ... ON CONFLICT (request_id) DO UPDATE ... RETURNING`, atomic against the primary key. Times come from
 * effect's `Clock` (so `TestClock` drives expiry in tests, and processes sharing a ledger should keep their clocks
 * in sync).
 *
 * @since 0.1.0
 */
import { RequestLedger } from "@payrules/exchange"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Migrator from "effect/sql/Migrator"
import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as sqlLedger from "./internal/sqlLedger.js"

/**
 * The table that holds the entries.
 *
 * @since 0.1.0
 * @category constants
 */
export const table: string = sqlLedger.table

/**
 * The table in which the migrator records the migrations of the payrules tables.
 *
 * @since 0.1.0
 * @category constants
 */
export const migrationsTable: string = sqlLedger.migrationsTable

/**
 * Creates the table when it is missing (and upgrades it, in later versions). On PostgreSQL, processes that start
 * together take turns under an advisory lock.
 *
 * @since 0.1.0
 * @category migrations
 */
export const migrate: Effect.Effect<void, SqlError | Migrator.MigrationError, SqlClient.SqlClient> = sqlLedger.migrate

/**
 * The ledger over the `SqlClient` of the context, after {@link migrate}. A failure of the database (or a migration)
 * is a `RequestLedgerError` with reason `StoreFailed`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options?: RequestLedger.Options
): Effect.Effect<RequestLedger.RequestLedgerService, RequestLedger.RequestLedgerError, SqlClient.SqlClient> =>
  Effect.andThen(Effect.mapError(migrate, sqlLedger.storeFailed("create its table")), sqlLedger.make(options))

/**
 * The `RequestLedger` service over the `SqlClient` of the context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options?: RequestLedger.Options
): Layer.Layer<RequestLedger.RequestLedger, RequestLedger.RequestLedgerError, SqlClient.SqlClient> =>
  Layer.effect(RequestLedger.RequestLedger, make(options))
