/**
 * The request_id ledger over an `effect/sql` client (SQLite or PostgreSQL): one table, one row per request_id, and
 * every operation one statement, so two processes sharing a database agree: `register` is a single
 * `INSERT ... ON CONFLICT (request_id) DO UPDATE ... RETURNING`, which the database runs atomically against the
 * primary key (PostgreSQL locks the row it updates; SQLite holds its write lock for the statement).
 *
 * @internal
 */
import { createHash } from "node:crypto"
import { ExchangeRequest, RequestLedger } from "@payrules/exchange"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"

/** @internal */
export const table = "payrules_request_ledger"

/** the migrations of the payrules tables, apart from an application's own (`effect_sql_migrations`) @internal */
export const migrationsTable = "payrules_migrations"

/**
 * Expired entries are dropped as new ids arrive, as the in-memory ledger does (8 per new id), in one statement every
 * `SWEEP_EVERY` new ids of a ledger (up to `SWEEP_EVERY * 8`), which spares most registrations a round trip.
 *
 * @internal
 */
export const SWEEP_EVERY = 8

const SWEEP = 8 * SWEEP_EVERY

/** @internal */
export const migrations: Record<string, Effect.Effect<void, SqlError, SqlClient.SqlClient>> = {
  "1_request_ledger": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`CREATE TABLE ${table} (
  request_id TEXT PRIMARY KEY NOT NULL,
  body_sha256 TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in-flight', 'succeeded', 'refused', 'unknown')),
  outcome TEXT,
  registered_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  received INTEGER NOT NULL,
  conflicts INTEGER NOT NULL
)`)
    yield* sql.unsafe(`CREATE INDEX ${table}_expires_at ON ${table} (expires_at)`)
    yield* sql.unsafe(
      `CREATE INDEX ${table}_pending ON ${table} (registered_at) WHERE state IN ('in-flight', 'unknown')`
    )
  })
}

/**
 * Runs the migrations. On PostgreSQL, processes that start together take turns: a transaction-scoped advisory lock
 * guards the creation of the migrations table (the migrator's own check-then-create would race), and the migrator
 * then locks that table while it runs.
 *
 * @internal
 */
export const migrate: Effect.Effect<void, SqlError | Migrator.MigrationError, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.onDialectOrElse({
      pg: () =>
        sql.withTransaction(
          Effect.andThen(
            sql.unsafe(`SELECT pg_advisory_xact_lock(${advisoryKey})`),
            sql.unsafe(`CREATE TABLE IF NOT EXISTS ${migrationsTable} (
  migration_id integer primary key,
  created_at timestamp with time zone not null default now(),
  name text not null
)`)
          )
        ),
      orElse: () => Effect.void
    })
    yield* Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: migrationsTable })
  }
)

/** a fixed key of the advisory lock that guards the migrations (any 64-bit number no one else uses) */
const advisoryKey = 7_236_071_112_901

/** a BIGINT read as a `bigint` (epoch milliseconds and counts stay far below 2^53) */
const NumberFromBigInt = Schema.BigInt.pipe(
  Schema.decodeTo(Schema.Number, SchemaTransformation.transform({ decode: Number, encode: BigInt }))
)

/** epoch milliseconds and counts: numbers from SQLite, BIGINT as a `bigint` from PostgreSQL (as text from some drivers) */
const Millis = Schema.Union([Schema.Number, NumberFromBigInt, Schema.NumberFromString])

/** the outcome as stored: its JSON text */
const StoredOutcome = Schema.fromJsonString(RequestLedger.OutcomeSchema)

const Row = Schema.Struct({
  request_id: Schema.String,
  body: Schema.String,
  state: Schema.Literals(["in-flight", "succeeded", "refused", "unknown"]),
  outcome: Schema.NullOr(StoredOutcome),
  registered_at: Millis,
  expires_at: Millis,
  received: Millis,
  conflicts: Millis
})

const decodeRow = Schema.decodeUnknownResult(Row)

const encodeOutcome = Schema.encodeEffect(StoredOutcome)

const decodeMillis = Schema.decodeUnknownOption(Millis)

const columns = "request_id, body, state, outcome, registered_at, expires_at, received, conflicts"

const hash = (body: string) => createHash("sha256").update(body).digest("hex")

/** A `StoreFailed` error of the ledger: what it could not do, and why (the cause's message). @internal */
export const storeFailed =
  (what: string, requestId?: string) => (cause: SqlError | Schema.SchemaError | Migrator.MigrationError) =>
    new RequestLedger.RequestLedgerError({
      reason: "StoreFailed",
      requestId,
      message: `the request ledger could not ${what}: ${cause.message}`,
      cause
    })

/**
 * The ledger over the `SqlClient` of the context, whose table exists ({@link migrate}).
 *
 * @internal
 */
export const make = (options?: RequestLedger.Options) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const windowMillis = Duration.toMillis(options?.window ?? RequestLedger.defaultWindow)
    const skipLocked = sql.onDialectOrElse({ pg: () => " FOR UPDATE SKIP LOCKED", orElse: () => "" })
    let registered = 0

    const toEntry = (row: unknown, requestId?: string) =>
      Result.match(decodeRow(row), {
        onFailure: (e) => Effect.fail(storeFailed("read an entry", requestId)(e)),
        onSuccess: (r): Effect.Effect<RequestLedger.Entry, RequestLedger.RequestLedgerError> =>
          Effect.succeed({
            requestId: r.request_id,
            fingerprint: r.body,
            registeredAt: r.registered_at,
            expiresAt: r.expires_at,
            outcome: Option.fromNullishOr(r.outcome),
            state: r.state,
            received: r.received,
            conflicts: r.conflicts
          })
      })
    const toEntries = (rows: ReadonlyArray<unknown>) => Effect.forEach(rows, (row) => toEntry(row))

    const register = (request: ExchangeRequest.ExchangeRequest) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const requestId = request.request_id
        const body = ExchangeRequest.fingerprint(request)
        const expired = sql`l.expires_at <= ${now}`
        const rows = yield* sql`INSERT INTO ${sql(table)} AS l
  (request_id, body_sha256, body, state, outcome, registered_at, expires_at, received, conflicts)
VALUES (${requestId}, ${hash(body)}, ${body}, 'in-flight', NULL, ${now}, ${now + windowMillis}, 1, 0)
ON CONFLICT (request_id) DO UPDATE SET
  body_sha256 = CASE WHEN ${expired} THEN excluded.body_sha256 ELSE l.body_sha256 END,
  body = CASE WHEN ${expired} THEN excluded.body ELSE l.body END,
  state = CASE WHEN ${expired} THEN excluded.state ELSE l.state END,
  outcome = CASE WHEN ${expired} THEN NULL ELSE l.outcome END,
  registered_at = CASE WHEN ${expired} THEN excluded.registered_at ELSE l.registered_at END,
  expires_at = CASE WHEN ${expired} THEN excluded.expires_at ELSE l.expires_at END,
  received = CASE WHEN ${expired} THEN 1 ELSE l.received + 1 END,
  conflicts = CASE WHEN ${expired} THEN 0 WHEN l.body_sha256 = excluded.body_sha256 THEN l.conflicts
    ELSE l.conflicts + 1 END
RETURNING ${sql.literal(columns)}`
        const entry = yield* toEntry(rows[0], requestId)
        if (entry.received === 1) {
          // a new (or renewed) id: now and then, drop the expired entries that came due since
          if (++registered % SWEEP_EVERY === 0) {
            yield* sql`DELETE FROM ${sql(table)} WHERE request_id IN (
  SELECT request_id FROM ${sql(table)} WHERE expires_at <= ${now} AND request_id <> ${requestId}
  ORDER BY expires_at LIMIT ${SWEEP}${sql.literal(skipLocked)})`
          }
          return RequestLedger.Registration.New({ entry })
        }
        return entry.fingerprint === body
          ? RequestLedger.Registration.Replay({ entry, outcome: entry.outcome })
          : RequestLedger.Registration.Conflict({
              requestId,
              recorded: entry.fingerprint,
              given: body,
              message: RequestLedger.conflictMessage(requestId)
            })
      }).pipe(Effect.mapError((e) => (e._tag === "SqlError" ? storeFailed("register", request.request_id)(e) : e)))

    const complete = (requestId: string, outcome: RequestLedger.Outcome) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const stored = yield* Effect.mapError(encodeOutcome(outcome), storeFailed("record an outcome", requestId))
        const rows = yield* sql`UPDATE ${sql(table)}
SET state = ${RequestLedger.stateOf(Option.some(outcome))}, outcome = ${stored}
WHERE request_id = ${requestId} AND expires_at > ${now}
RETURNING ${sql.literal(columns)}`.pipe(Effect.mapError(storeFailed("record an outcome", requestId)))
        if (rows.length === 0) {
          return yield* new RequestLedger.RequestLedgerError({
            reason: "NotRegistered",
            requestId,
            message: `request_id ${JSON.stringify(requestId)} is not in the ledger (never registered, released, or expired)`
          })
        }
        return yield* toEntry(rows[0], requestId)
      })

    const release = (requestId: string) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sql<{
          readonly expires_at: unknown
        }>`DELETE FROM ${sql(table)} WHERE request_id = ${requestId} RETURNING expires_at`
        return rows.some((r) => Option.exists(decodeMillis(r.expires_at), (at) => at > now))
      }).pipe(Effect.mapError(storeFailed("release", requestId)))

    const lookup = (requestId: string) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sql`SELECT ${sql.literal(columns)} FROM ${sql(table)}
WHERE request_id = ${requestId} AND expires_at > ${now}`.pipe(Effect.mapError(storeFailed("look up", requestId)))
        return rows.length === 0 ? Option.none() : Option.some(yield* toEntry(rows[0], requestId))
      })

    const entries = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const rows = yield* sql`SELECT ${sql.literal(columns)} FROM ${sql(table)}
WHERE expires_at > ${now} ORDER BY registered_at, request_id`.pipe(Effect.mapError(storeFailed("list its entries")))
      return yield* toEntries(rows)
    })

    const pending = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const rows = yield* sql`SELECT ${sql.literal(columns)} FROM ${sql(table)}
WHERE state IN ('in-flight', 'unknown') AND expires_at > ${now}
ORDER BY registered_at, request_id`.pipe(Effect.mapError(storeFailed("list its pending entries")))
      return yield* toEntries(rows)
    })

    const prune = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const rows = yield* sql`DELETE FROM ${sql(table)} WHERE expires_at <= ${now} RETURNING request_id`.pipe(
        Effect.mapError(storeFailed("prune"))
      )
      return rows.length
    })

    const service: RequestLedger.RequestLedgerService = {
      register,
      complete,
      release,
      lookup,
      entries,
      pending,
      prune
    }
    return service
  })
