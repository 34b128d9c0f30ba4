/**
 * @since 0.1.0
 */

/**
 * Where a request_id ledger lives, as one string: `memory`, `sqlite:<file>`, `postgres://...`.
 *
 * @since 0.1.0
 */
export * as LedgerUrl from "./LedgerUrl.js"
/**
 * The request_id ledger in PostgreSQL: one ledger for several processes.
 *
 * @since 0.1.0
 */
export * as PgRequestLedger from "./PgRequestLedger.js"
/**
 * The limit of POST /pay/fields shared through Redis.
 *
 * @since 0.1.0
 */
export * as RedisPayFieldsLimiter from "./RedisPayFieldsLimiter.js"
/**
 * A SQLite client for `effect/sql` on Node's built-in `node:sqlite`.
 *
 * @since 0.1.0
 */
export * as SqliteClient from "./SqliteClient.js"
/**
 * The request_id ledger in a SQLite file: durable, for one process.
 *
 * @since 0.1.0
 */
export * as SqliteRequestLedger from "./SqliteRequestLedger.js"
/**
 * The request_id ledger over any `effect/sql` client.
 *
 * @since 0.1.0
 */
export * as SqlRequestLedger from "./SqlRequestLedger.js"
