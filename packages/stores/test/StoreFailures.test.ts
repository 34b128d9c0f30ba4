/**
 * What the stores do when their store fails: a SQLite file that cannot be opened, a migration that cannot run, a
 * table that is gone, a row that does not decode; a Redis that cannot be reached, a URL that does not parse, a
 * `RateLimiterStore` that fails. Each failure is the package's own error (`RequestLedgerError` or
 * `PayFieldsLimiterError`, reason `StoreFailed`) that says what could not be done and why, and never shows a
 * password. Each test names the bug it guards.
 */
import { createHash } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inspect } from "node:util"
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { describe, expect, it } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { PayFieldsLimiter } from "@payrules/transport"
import { redisUrl } from "@payrules/vitest/Services"
import { Context, Duration, Effect, Layer, Option, Redacted } from "effect"
import * as RateLimiter from "effect/persistence/RateLimiter"
import * as SqlClient from "effect/sql/SqlClient"
import { TestClock } from "effect/testing"
import { vi } from "vitest"
import * as LedgerUrl from "../src/LedgerUrl.js"
import * as RedisPayFieldsLimiter from "../src/RedisPayFieldsLimiter.js"
import * as SqliteClient from "../src/SqliteClient.js"
import * as SqliteRequestLedger from "../src/SqliteRequestLedger.js"
import * as SqlRequestLedger from "../src/SqlRequestLedger.js"
import { request } from "./ledgerContract.js"

/** a directory of its own under the system's temporary directory, removed when the scope closes */
const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "payrules-store-failures-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/** the error building `layer` fails with (a defect fails the test) */
const buildFailure = <A, E>(layer: Layer.Layer<A, E>) => Effect.scoped(Effect.flip(Layer.build(layer)))

/**
 * `f` on a fresh copy of LedgerUrl's modules in which importing `specifier` throws `why`, as a module that is not
 * installed does; the mock is gone and the modules are fresh again afterwards
 */
const withoutModule = <A, E, R>(
  specifier: string,
  why: string,
  f: (fresh: typeof LedgerUrl) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.promise(() => {
    vi.resetModules()
    vi.doMock(specifier, () => {
      throw new Error(why)
    })
    return import("../src/LedgerUrl.js")
  }).pipe(
    Effect.flatMap(f),
    Effect.ensuring(
      Effect.sync(() => {
        vi.doUnmock(specifier)
        vi.resetModules()
      })
    )
  )

/** what every RequestLedgerError of a failed store is */
const expectStoreFailed = (error: RequestLedger.RequestLedgerError, message: string, requestId?: string) => {
  expect(error).toBeInstanceOf(RequestLedger.RequestLedgerError)
  expect(error._tag).toBe("RequestLedgerError")
  expect(error.reason).toBe("StoreFailed")
  expect(error.requestId).toBe(requestId)
  expect(error.message.startsWith(message), error.message).toBe(true)
}

describe("SQLite ledger: a file that cannot be opened", () => {
  it.effect(
    "fails the layer with StoreFailed naming the file, when its directory is missing (bug: a SqlError, or a message without the file)",
    () =>
      Effect.gen(function* () {
        const dir = yield* tempDir
        const filename = join(dir, "no-such-directory", "ledger.db")
        const error = yield* buildFailure(SqliteRequestLedger.layer({ filename }))
        expectStoreFailed(error, `the request ledger could not open the SQLite file ${filename}: `)
        expect(error.message).toContain("unable to open database file")
        expect(error.cause).toMatchObject({ _tag: "SqlError" })
        // the client alone fails the same way
        const client = yield* buildFailure(SqliteRequestLedger.layerClient(filename))
        expect(client.message).toBe(error.message)
      })
  )

  it.effect("fails LedgerUrl's SQLite layer the same way (bug: a ledger place that dies instead of failing)", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const filename = join(dir, "missing", "ledger.db")
      const error = yield* buildFailure(LedgerUrl.layer(LedgerUrl.parseUnsafe(`sqlite:${filename}`)))
      expectStoreFailed(error, `the request ledger could not open the SQLite file ${filename}: `)
    })
  )
})

describe("LedgerUrl: a store whose driver is missing", () => {
  it.effect(
    "fails the PostgreSQL layer with StoreFailed saying what to install (bug: a defect from a failed import)",
    () =>
      // a fresh copy of the modules, with @effect/sql-pg as it is when it is not installed
      withoutModule("@effect/sql-pg/PgClient", "Cannot find package '@effect/sql-pg'", (Fresh) =>
        Effect.gen(function* () {
          const error = yield* buildFailure(Fresh.layer(Fresh.parseUnsafe("postgres://u:secret@127.0.0.1:1/db")))
          expect(error).toMatchObject({ _tag: "RequestLedgerError", reason: "StoreFailed" })
          // the import's own words (vitest's, here: a module whose loading throws)
          expect(error.cause).toBeInstanceOf(Error)
          expect(error.message).toBe(
            `the request ledger could not load its PostgreSQL store (it needs @effect/sql-pg installed): ${(error.cause as Error).message}`
          )
          expect((error.cause as Error).message).not.toBe("")
          expect(error.message).not.toContain("secret")
        })
      )
  )
})

describe("SQLite ledger: a Node without node:sqlite", () => {
  it.effect("fails the layer with StoreFailed saying which Node it needs (bug: a defect from the failed import)", () =>
    // a fresh copy of the modules, with node:sqlite as it is on a Node older than 22.5
    withoutModule("node:sqlite", "No such built-in module: node:sqlite", (Fresh) =>
      Effect.gen(function* () {
        const error = yield* buildFailure(Fresh.layer(Fresh.parseUnsafe("sqlite::memory:")))
        expect(error).toMatchObject({ _tag: "RequestLedgerError", reason: "StoreFailed" })
        expect(error.message).toBe(
          "the request ledger could not open the SQLite file :memory:: node:sqlite is not available (it needs Node.js 22.5 or later)"
        )
        expect(error.cause).toMatchObject({ _tag: "SqlError", reason: { _tag: "ConnectionError", operation: "open" } })
      })
    )
  )
})

describe("SQL ledger: a migration that cannot run", () => {
  it.effect(
    "fails with StoreFailed when the table exists already, not made by the ledger (bug: the migration's error escapes untagged)",
    () =>
      Effect.gen(function* () {
        const dir = yield* tempDir
        const filename = join(dir, "taken.db")
        // an application's own table of that name, with no record in the migrations table
        yield* Effect.scoped(
          Effect.flatMap(Layer.build(SqliteClient.layer({ filename })), (context) => {
            const sql = Context.get(context, SqlClient.SqlClient)
            return sql.unsafe(`CREATE TABLE ${SqlRequestLedger.table} (id INTEGER)`)
          })
        )
        const error = yield* buildFailure(SqliteRequestLedger.layer({ filename }))
        expectStoreFailed(error, `the request ledger could not create its table: `)
        expect(error.message).toContain('Migration "1_request_ledger" failed')
        expect(error.cause).toMatchObject({ _tag: "MigrationError", kind: "Failed" })
      })
  )

  it.effect(
    "fails with StoreFailed when the database cannot be written (bug: a SqlError instead of the ledger's error)",
    () =>
      Effect.gen(function* () {
        const dir = yield* tempDir
        const filename = join(dir, "readonly.db")
        // an empty file is an empty database; read-only, the migrations table cannot be created
        writeFileSync(filename, "")
        const error = yield* buildFailure(
          SqlRequestLedger.layer().pipe(Layer.provide(Layer.orDie(SqliteClient.layer({ filename, readonly: true }))))
        )
        expectStoreFailed(error, `the request ledger could not create its table: `)
        expect(error.message).toContain("readonly database")
        expect(error.cause).toMatchObject({ _tag: "SqlError" })
      })
  )
})

/** a ledger over a SQLite database in memory, with its client (to break the table under it) */
const ledgerAndSql = Effect.gen(function* () {
  const context = yield* Layer.build(
    SqlRequestLedger.layer().pipe(Layer.provideMerge(SqliteClient.layer({ filename: ":memory:" })))
  )
  return { ledger: Context.get(context, RequestLedger.RequestLedger), sql: Context.get(context, SqlClient.SqlClient) }
})

describe("SQL ledger: a table it cannot read", () => {
  it.effect(
    "fails every operation with StoreFailed naming it, once the table is gone (bug: a SqlError, or the wrong operation named)",
    () =>
      Effect.gen(function* () {
        const { ledger, sql } = yield* ledgerAndSql
        yield* ledger.register(request("r-1"))
        yield* sql.unsafe(`DROP TABLE ${SqlRequestLedger.table}`)
        const cases: ReadonlyArray<
          readonly [Effect.Effect<unknown, RequestLedger.RequestLedgerError>, string, string | undefined]
        > = [
          [ledger.register(request("r-2")), "register", "r-2"],
          [ledger.complete("r-1", RequestLedger.Outcome.Unknown({ message: "timeout" })), "record an outcome", "r-1"],
          [ledger.release("r-1"), "release", "r-1"],
          [ledger.lookup("r-1"), "look up", "r-1"],
          [ledger.entries, "list its entries", undefined],
          [ledger.pending, "list its pending entries", undefined],
          [ledger.prune, "prune", undefined]
        ]
        for (const [operation, what, requestId] of cases) {
          const error = yield* Effect.flip(operation)
          expectStoreFailed(error, `the request ledger could not ${what}: `, requestId)
          expect(error.message).toContain(`no such table: ${SqlRequestLedger.table}`)
          expect(error.cause).toMatchObject({ _tag: "SqlError" })
        }
      })
  )

  it.effect(
    "fails with StoreFailed when a row does not decode, naming the request_id (bug: a broken row read as an entry, or a defect)",
    () =>
      Effect.gen(function* () {
        const { ledger, sql } = yield* ledgerAndSql
        yield* ledger.register(request("r-1"))
        yield* ledger.register(request("r-2"))
        yield* sql.unsafe(`UPDATE ${SqlRequestLedger.table} SET outcome = 'not JSON' WHERE request_id = 'r-1'`)
        const lookup = yield* Effect.flip(ledger.lookup("r-1"))
        expectStoreFailed(lookup, "the request ledger could not read an entry: ", "r-1")
        expect(lookup.cause).toMatchObject({ _tag: "SchemaError" })
        // registering it again: the row the upsert returns does not decode either, and is not called a failure to register
        const register = yield* Effect.flip(ledger.register(request("r-1")))
        expectStoreFailed(register, "the request ledger could not read an entry: ", "r-1")
        const entries = yield* Effect.flip(ledger.entries)
        expectStoreFailed(entries, "the request ledger could not read an entry: ")
        // the other rows are still read
        expect(Option.map(yield* ledger.lookup("r-2"), (entry) => entry.requestId)).toStrictEqual(Option.some("r-2"))
        // a time that is not a number
        yield* sql.unsafe(`UPDATE ${SqlRequestLedger.table} SET received = 'many' WHERE request_id = 'r-2'`)
        expectStoreFailed(yield* Effect.flip(ledger.pending), "the request ledger could not read an entry: ")
      })
  )
})

describe("SQL ledger: what it stores and what it refuses", () => {
  it.effect("refuses to complete an id it does not hold, quoting the id (bug: an empty or unquoted message)", () =>
    Effect.gen(function* () {
      const { ledger } = yield* ledgerAndSql
      const error = yield* Effect.flip(ledger.complete('r "9"', RequestLedger.Outcome.Unknown({ message: "timeout" })))
      expect(error).toMatchObject({ _tag: "RequestLedgerError", reason: "NotRegistered", requestId: 'r "9"' })
      expect(error.message).toBe('request_id "r \\"9\\"" is not in the ledger (never registered, released, or expired)')
    })
  )

  it.effect(
    "stores the SHA-256 of the body in hex beside it (bug: another digest, which processes of another version would not match)",
    () =>
      Effect.gen(function* () {
        const { ledger, sql } = yield* ledgerAndSql
        yield* ledger.register(request("r-1"))
        const rows = yield* sql<{
          body: string
          body_sha256: unknown
        }>`SELECT body, body_sha256 FROM ${sql(SqlRequestLedger.table)}`
        expect(rows).toHaveLength(1)
        expect(rows[0]!.body_sha256).toBe(createHash("sha256").update(rows[0]!.body).digest("hex"))
      })
  )

  it.effect(
    "drops expired rows from the table every 8 new ids (bug: a table that grows for ever, or a DELETE per registration)",
    () =>
      Effect.gen(function* () {
        const { ledger, sql } = yield* ledgerAndSql
        const count = Effect.map(
          sql<{ n: number }>`SELECT count(*) AS n FROM ${sql(SqlRequestLedger.table)}`,
          (rows) => rows[0]!.n
        )
        for (let i = 0; i < 8; i++) yield* ledger.register(request(`old-${i}`))
        yield* TestClock.adjust("25 hours")
        // a sweep every 8 new ids (not a DELETE per id): the 8 expired ones are still there after 7 more, gone after 8
        for (let i = 0; i < 7; i++) yield* ledger.register(request(`new-${i}`))
        expect(yield* count).toBe(15)
        yield* ledger.register(request("new-7"))
        expect(yield* count).toBe(8)
        expect((yield* ledger.entries).map((entry) => entry.requestId)).toStrictEqual(
          Array.from({ length: 8 }, (_, i) => `new-${i}`)
        )
      })
  )
})

/** a RateLimiterStore whose fixed window fails with `error` (token buckets are not used by the limiter) */
const failingStore = (error: RateLimiter.RateLimiterError) =>
  Layer.succeed(
    RateLimiter.RateLimiterStore,
    RateLimiter.RateLimiterStore.of({
      fixedWindow: () => Effect.fail(error),
      tokenBucket: () => Effect.die("the limiter uses the fixed window"),
      adaptiveConsume: () => Effect.die("not used"),
      adaptiveFeedback: () => Effect.die("not used")
    })
  )

/** the limiter of `make` over `store` */
const limiterOver = (
  store: Layer.Layer<RateLimiter.RateLimiterStore>,
  options: Parameters<typeof RedisPayFieldsLimiter.make>[0] = {}
) => RedisPayFieldsLimiter.make(options).pipe(Effect.provide(RateLimiter.layer.pipe(Layer.provide(store))))

const storeError = (cause: unknown) =>
  new RateLimiter.RateLimiterError({
    reason: new RateLimiter.RateLimitStoreError({
      message: "Failed to execute fixedWindow rate limiting command",
      cause
    })
  })

const readFailed =
  "the shared limit of POST /pay/fields could not be read from Redis: Failed to execute fixedWindow rate limiting command"

describe("RedisPayFieldsLimiter.make: a store that fails", () => {
  it.effect(
    "fails take with StoreFailed and the driver's words (bug: a RateLimiterError escapes, or the cause is lost)",
    () =>
      Effect.gen(function* () {
        const failure = storeError(new Error("READONLY You can't write against a read only replica."))
        const limiter = yield* limiterOver(failingStore(failure))
        const error = yield* Effect.flip(limiter.take)
        expect(error).toBeInstanceOf(PayFieldsLimiter.PayFieldsLimiterError)
        expect(error._tag).toBe("PayFieldsLimiterError")
        expect(error.reason).toBe("StoreFailed")
        expect(error.message).toBe(`${readFailed} (READONLY You can't write against a read only replica.)`)
        expect(error.cause).toBe(failure)
      })
  )

  it.effect(
    'says what failed however the driver says it: a nameless error, a string, nothing (bug: "()" or "(undefined)" in the message)',
    () =>
      Effect.gen(function* () {
        const aborted = new Error("")
        aborted.name = "AbortError"
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [aborted, `${readFailed} (AbortError)`],
          ["connection lost", `${readFailed} (connection lost)`],
          [undefined, readFailed]
        ]
        for (const [cause, message] of cases) {
          const limiter = yield* limiterOver(failingStore(storeError(cause)))
          const error = yield* Effect.flip(limiter.take)
          expect(error.reason).toBe("StoreFailed")
          expect(error.message).toBe(message)
        }
      })
  )

  it.effect(
    "asks the store for the fixed window of parametersFor, under the key given (bug: the wrong algorithm, key or rate)",
    () =>
      Effect.gen(function* () {
        const asked: Array<{ readonly key: string; readonly tokens: number; readonly refillRate: number }> = []
        const recording = Layer.succeed(
          RateLimiter.RateLimiterStore,
          RateLimiter.RateLimiterStore.of({
            fixedWindow: (options) =>
              Effect.sync(() => {
                asked.push({
                  key: options.key,
                  tokens: options.tokens,
                  refillRate: Duration.toMillis(options.refillRate)
                })
                // the first request of a run: no wait
                return [1, Duration.toMillis(options.refillRate)] as const
              }),
            tokenBucket: () => Effect.die("the limiter uses the fixed window"),
            adaptiveConsume: () => Effect.die("not used"),
            adaptiveFeedback: () => Effect.die("not used")
          })
        )
        yield* (yield* limiterOver(recording)).take
        yield* (yield* limiterOver(recording, {
          key: "pay-fields:account-7",
          limit: { limit: 45, window: "1 second" },
          margin: 0
        })).take
        expect(asked).toStrictEqual([
          // 450 a minute with a 1-second margin: 10 every 1,390 ms
          { key: PayFieldsLimiter.defaultKey, tokens: 1, refillRate: 139 },
          // 45 a second, no margin: 1 every 23 ms
          { key: "pay-fields:account-7", tokens: 1, refillRate: 23 }
        ])
      })
  )
})

/** a port of 127.0.0.1 that nothing listens on (one the system gave and was closed again) */
const closedPort = Effect.callback<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

describe("RedisPayFieldsLimiter.layerRedis: a Redis that cannot be had", () => {
  it.effect(
    "fails at once with StoreFailed when nothing listens, the password masked (bug: the password in the message, or a wait for ever)",
    () =>
      Effect.gen(function* () {
        const port = yield* closedPort
        const cases: ReadonlyArray<readonly [string | Redacted.Redacted, string]> = [
          [`redis://:secret@127.0.0.1:${port}`, `redis://:***@127.0.0.1:${port}`],
          [Redacted.make(`redis://default:secret@127.0.0.1:${port}/2`), `redis://default:***@127.0.0.1:${port}/2`],
          [`redis://127.0.0.1:${port}`, `redis://127.0.0.1:${port}`]
        ]
        for (const [url, shown] of cases) {
          const error = yield* buildFailure(RedisPayFieldsLimiter.layerRedis(url))
          expect(error).toBeInstanceOf(PayFieldsLimiter.PayFieldsLimiterError)
          expect(error.reason).toBe("StoreFailed")
          expect(error.message).toBe(
            `the shared limit of POST /pay/fields could not connect to Redis at ${shown}: connect ECONNREFUSED 127.0.0.1:${port}`
          )
          expect(error.message).not.toContain("secret")
        }
        // the limiter's layer fails the same way
        const limiter = yield* buildFailure(RedisPayFieldsLimiter.layer({ url: `redis://:secret@127.0.0.1:${port}` }))
        expect(limiter.reason).toBe("StoreFailed")
        expect(limiter.message).toContain(`redis://:***@127.0.0.1:${port}`)
      })
  )

  it.effect(
    "fails with StoreFailed for a URL that does not parse, and does not quote it (bug: a defect, or the text shown)",
    () =>
      Effect.gen(function* () {
        const error = yield* buildFailure(RedisPayFieldsLimiter.layerRedis("not a url :secret@"))
        expect(error.reason).toBe("StoreFailed")
        expect(error.message).toBe(
          "the shared limit of POST /pay/fields could not connect to Redis at <not a URL>: Invalid URL"
        )
        // nor anywhere in the error as logged (node's TypeError keeps the URL in its `input`)
        expect(inspect(error, { depth: Number.POSITIVE_INFINITY })).not.toContain("secret")
        // a URL of another scheme: masked too
        const http = yield* buildFailure(RedisPayFieldsLimiter.layerRedis(Redacted.make("http://:secret@127.0.0.1:1")))
        expect(http.reason).toBe("StoreFailed")
        expect(http.message).toBe(
          "the shared limit of POST /pay/fields could not connect to Redis at http://:***@127.0.0.1:1/: Invalid protocol"
        )
        expect(inspect(http, { depth: Number.POSITIVE_INFINITY })).not.toContain("secret")
      })
  )
})

describe("RedisPayFieldsLimiter.redisOptions", () => {
  it("gives the client the URL in clear, a 5-second connect timeout and no offline queue (bug: a permit queued for ever while Redis is down)", () => {
    const options = RedisPayFieldsLimiter.redisOptions(Redacted.make("redis://:secret@127.0.0.1:6379"))
    expect(options).toStrictEqual({
      url: "redis://:secret@127.0.0.1:6379",
      socket: { connectTimeout: 5_000 },
      disableOfflineQueue: true
    })
    expect(RedisPayFieldsLimiter.redisOptions("redis://h:1").url).toBe("redis://h:1")
  })
})

describe("RedisPayFieldsLimiter.layer on Redis", () => {
  it.effect(
    "counts under the prefix and key given, or payrules:ratelimit: and pay-fields (bug: processes that do not share a counter)",
    () =>
      Effect.gen(function* () {
        const url = redisUrl()
        const key = `store-failures-${process.pid}-${Date.now()}`
        const take = (options: Omit<RedisPayFieldsLimiter.Options, "url">) =>
          Effect.scoped(
            Effect.flatMap(
              Effect.map(
                Layer.build(RedisPayFieldsLimiter.layer({ url, ...options })),
                Context.get(PayFieldsLimiter.PayFieldsLimiter)
              ),
              (limiter) => limiter.take
            )
          )
        yield* take({ key })
        yield* take({ key, prefix: "test:limits:" })
        const redis = yield* Effect.map(
          Layer.build(RedisPayFieldsLimiter.layerRedis(url)),
          Context.get(NodeRedis.NodeRedis)
        )
        const ttls = yield* redis.use((client) =>
          Promise.all([client.pTTL(`payrules:ratelimit:${key}`), client.pTTL(`test:limits:${key}`)])
        )
        // both counters exist, each with the time to live of its window
        for (const ttl of ttls) {
          expect(ttl).toBeGreaterThan(0)
          expect(ttl).toBeLessThanOrEqual(1_390)
        }
        yield* redis.use((client) => client.del([`payrules:ratelimit:${key}`, `test:limits:${key}`]))
      })
  )
})
