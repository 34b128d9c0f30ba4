import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { assert, describe, it } from "@effect/vitest"
import { layerBlock } from "@payrules/vitest/Lazy"
import * as Tracing from "@payrules/vitest/Tracing"
import { Context, Effect, Exit, Layer, Stream } from "effect"
import type { NonEmptyReadonlyArray } from "effect/Array"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import { isSqlError, type SqlError } from "effect/sql/SqlError"
import * as SqliteClient from "../src/SqliteClient.js"

/** a directory of its own under the system's temporary directory, removed with everything in it when the scope closes */
const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "payrules-sqlite-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/** a client open until the scope closes (the layer, as an application uses it) */
const open = (options: SqliteClient.SqliteClientConfig) =>
  Effect.map(Layer.build(SqliteClient.layer(options)), Context.get(SqliteClient.SqliteClient))

/** the SqlError an effect fails with */
const failure = <A, R>(effect: Effect.Effect<A, SqlError, R>) =>
  Effect.map(Effect.flip(effect), (error) => {
    assert.isTrue(isSqlError(error))
    return error
  })

/** a row of the value round trip */
type Value = {
  readonly id: number
  readonly i: number
  readonly r: number
  readonly t: string | null
  readonly b: Uint8Array | null
  readonly any_value: number | string | null
}

/** rows as plain objects (node:sqlite makes rows without a prototype) */
const plain = (rows: ReadonlyArray<object>) => rows.map((row) => ({ ...row }))

// built in the block's first test, not in a beforeAll (see @payrules/vitest/Lazy)
layerBlock(() => SqliteClient.layer({ filename: ":memory:" }))("SqliteClient in memory", (it) => {
  it.effect("provides SqliteClient and SqlClient, the same client", () =>
    Effect.gen(function* () {
      const sqlite = yield* SqliteClient.SqliteClient
      const sql = yield* SqlClient.SqlClient
      assert.strictEqual(sqlite, sql)
      assert.strictEqual(sqlite[SqliteClient.TypeId], SqliteClient.TypeId)
      assert.strictEqual(sqlite.config.filename, ":memory:")
      assert.strictEqual(sql.driver, "sqlite-node")
      assert.strictEqual(sql.onDialectOrElse({ sqlite: () => "sqlite", orElse: () => "other" }), "sqlite")
    })
  )

  it.effect("creates a table, inserts and selects with parameters", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      assert.deepStrictEqual(
        yield* sql`CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER)`,
        []
      )
      assert.deepStrictEqual(yield* sql`INSERT INTO people (name, age) VALUES (${"Ada"}, ${36})`, [])
      yield* sql`INSERT INTO people ${sql.insert([
        { name: "Grace", age: 85 },
        { name: "Robert'); DROP TABLE people; --", age: null }
      ])}`
      const rows = yield* sql<{ id: number; name: string; age: number | null }>`SELECT id, name, age FROM people
WHERE age > ${40} OR name = ${"Robert'); DROP TABLE people; --"} ORDER BY id`
      assert.deepStrictEqual(plain(rows), [
        { id: 2, name: "Grace", age: 85 },
        { id: 3, name: "Robert'); DROP TABLE people; --", age: null }
      ])
      const inList = yield* sql`SELECT name FROM ${sql("people")} WHERE ${sql.in("id", [1, 3])} ORDER BY id`
      assert.deepStrictEqual(plain(inList), [{ name: "Ada" }, { name: "Robert'); DROP TABLE people; --" }])
      // the same SQL text again, from the statement cache, with other values
      const [ada] = yield* sql`SELECT name FROM people WHERE id = ${1}`
      const [grace] = yield* sql`SELECT name FROM people WHERE id = ${2}`
      assert.deepStrictEqual([ada?.["name"], grace?.["name"]], ["Ada", "Grace"])
    })
  )

  it.effect("returns the rows of RETURNING from INSERT, UPDATE and DELETE", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE ret (id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER NOT NULL DEFAULT 0)`
      const inserted = yield* sql`INSERT INTO ret (name) VALUES (${"a"}), (${"b"}) RETURNING id, name, n`
      assert.deepStrictEqual(plain(inserted), [
        { id: 1, name: "a", n: 0 },
        { id: 2, name: "b", n: 0 }
      ])
      const updated = yield* sql`UPDATE ret SET n = n + ${5} WHERE name = ${"b"} RETURNING id, n`
      assert.deepStrictEqual(plain(updated), [{ id: 2, n: 5 }])
      const deleted = yield* sql`DELETE FROM ret WHERE id = ${1} RETURNING name`
      assert.deepStrictEqual(plain(deleted), [{ name: "a" }])
      assert.deepStrictEqual(yield* sql`DELETE FROM ret WHERE id = ${99} RETURNING name`, [])
      // an upsert with RETURNING, as the request ledger writes
      const upserted = yield* sql`INSERT INTO ret AS r (id, name) VALUES (${2}, ${"b2"})
ON CONFLICT (id) DO UPDATE SET n = r.n + 1 RETURNING id, name, n`
      assert.deepStrictEqual(plain(upserted), [{ id: 2, name: "b", n: 6 }])
    })
  )

  it.effect("commits a transaction", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE tx_commit (id INTEGER PRIMARY KEY, name TEXT)`
      const result = yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`INSERT INTO tx_commit (name) VALUES (${"a"})`
          yield* sql`INSERT INTO tx_commit (name) VALUES (${"b"})`
          // inside the transaction, its own writes are visible
          return yield* sql`SELECT count(*) AS n FROM tx_commit`
        })
      )
      assert.deepStrictEqual(plain(result), [{ n: 2 }])
      assert.deepStrictEqual(plain(yield* sql`SELECT name FROM tx_commit ORDER BY id`), [{ name: "a" }, { name: "b" }])
    })
  )

  it.effect("rolls a transaction back when it fails, and keeps its error", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE tx_rollback (id INTEGER PRIMARY KEY, name TEXT)`
      yield* sql`INSERT INTO tx_rollback (name) VALUES (${"before"})`
      const exit = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            yield* sql`INSERT INTO tx_rollback (name) VALUES (${"inside"})`
            yield* sql`UPDATE tx_rollback SET name = ${"changed"} WHERE name = ${"before"}`
            return yield* Effect.fail("boom" as const)
          })
        )
        .pipe(Effect.exit)
      assert.deepStrictEqual(exit, Exit.fail("boom"))
      assert.deepStrictEqual(plain(yield* sql`SELECT name FROM tx_rollback`), [{ name: "before" }])
      // a failing statement rolls back the statements before it as well
      const error = yield* failure(
        sql.withTransaction(
          Effect.andThen(
            sql`INSERT INTO tx_rollback (name) VALUES (${"inside"})`,
            sql`INSERT INTO tx_rollback (id, name) VALUES (${1}, ${"duplicate id"})`
          )
        )
      )
      assert.strictEqual(error.reason._tag, "ConstraintError")
      assert.deepStrictEqual(plain(yield* sql`SELECT name FROM tx_rollback`), [{ name: "before" }])
    })
  )

  it.effect("nests transactions as savepoints: an inner failure undoes the inner writes only", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE tx_nested (name TEXT)`
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`INSERT INTO tx_nested VALUES (${"outer 1"})`
          const inner = yield* sql
            .withTransaction(
              Effect.andThen(sql`INSERT INTO tx_nested VALUES (${"inner, rolled back"})`, Effect.fail("inner boom"))
            )
            .pipe(Effect.exit)
          assert.deepStrictEqual(inner, Exit.fail("inner boom"))
          yield* sql.withTransaction(sql`INSERT INTO tx_nested VALUES (${"inner, kept"})`)
          // two levels deep
          yield* sql.withTransaction(
            sql
              .withTransaction(
                Effect.andThen(sql`INSERT INTO tx_nested VALUES (${"deep, rolled back"})`, Effect.fail("deep boom"))
              )
              .pipe(Effect.ignore)
          )
          yield* sql`INSERT INTO tx_nested VALUES (${"outer 2"})`
        })
      )
      assert.deepStrictEqual(plain(yield* sql`SELECT name FROM tx_nested`), [
        { name: "outer 1" },
        { name: "inner, kept" },
        { name: "outer 2" }
      ])
      // an outer failure undoes the committed savepoints too
      yield* sql
        .withTransaction(
          Effect.andThen(sql.withTransaction(sql`INSERT INTO tx_nested VALUES (${"gone"})`), Effect.fail("outer boom"))
        )
        .pipe(Effect.ignore)
      assert.deepStrictEqual(yield* sql`SELECT name FROM tx_nested WHERE name = ${"gone"}`, [])
    })
  )

  it.effect("runs concurrent transactions one after the other on the one connection", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`
      yield* sql`INSERT INTO counter VALUES (1, 0)`
      // read, yield to the other fibers, write: without isolation some increments would be lost
      const increment = sql.withTransaction(
        Effect.gen(function* () {
          const [row] = yield* sql<{ n: number }>`SELECT n FROM counter WHERE id = 1`
          yield* Effect.yieldNow
          yield* sql`UPDATE counter SET n = ${row!.n + 1} WHERE id = 1`
        })
      )
      yield* Effect.all(
        Array.from({ length: 20 }, () => increment),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(plain(yield* sql`SELECT n FROM counter`), [{ n: 20 }])
    })
  )

  it.effect("fails a bad statement with a SqlError that has SQLite's message", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const syntax = yield* failure(sql`SELEC 1`)
      assert.strictEqual(syntax._tag, "SqlError")
      assert.strictEqual(syntax.reason._tag, "SqlSyntaxError")
      assert.include(syntax.message, 'near "SELEC": syntax error')
      assert.instanceOf(syntax.reason.cause, Error)

      const missing = yield* failure(sql`SELECT * FROM no_such_table`)
      assert.include(missing.message, "no such table: no_such_table")

      yield* sql`CREATE TABLE uniq (code TEXT UNIQUE)`
      yield* sql`INSERT INTO uniq VALUES (${"x"})`
      const duplicate = yield* failure(sql`INSERT INTO uniq VALUES (${"x"})`)
      assert.strictEqual(duplicate.reason._tag, "UniqueViolation")
      assert.include(duplicate.message, "UNIQUE constraint failed: uniq.code")

      // node:sqlite would run only the first statement of the text: refused instead
      const twoStatements = yield* failure(sql.unsafe("SELECT 1; SELECT 2"))
      assert.include(twoStatements.message, "more than one statement")
      assert.deepStrictEqual(plain(yield* sql.unsafe("SELECT 1 AS one; -- a comment\n")), [{ one: 1 }])

      // an object is not a value: never handed to node:sqlite, which would take it for named parameters
      const objectParameter = yield* failure(sql`SELECT ${{ a: 1 }} AS x`)
      assert.include(objectParameter.message, "Cannot bind a value of type object")
      // the client goes on after its errors
      assert.deepStrictEqual(plain(yield* sql`SELECT ${1} AS ok`), [{ ok: 1 }])
    })
  )

  it.effect("reads values, raw results, unprepared statements and streams", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE modes (id INTEGER PRIMARY KEY, name TEXT)`
      assert.deepStrictEqual(yield* sql`INSERT INTO modes (name) VALUES (${"a"})`.raw, {
        changes: 1,
        lastInsertRowid: 1
      })
      assert.deepStrictEqual(yield* sql`INSERT INTO modes (name) VALUES (${"b"}), (${"c"})`.raw, {
        changes: 2,
        lastInsertRowid: 3
      })
      assert.deepStrictEqual(plain((yield* sql`SELECT * FROM modes WHERE id = ${1}`.raw) as ReadonlyArray<object>), [
        { id: 1, name: "a" }
      ])
      assert.deepStrictEqual(yield* sql`SELECT id, name FROM modes ORDER BY id`.values, [
        [1, "a"],
        [2, "b"],
        [3, "c"]
      ])
      // the same SQL as rows again: the cached statement is back to objects
      assert.deepStrictEqual(plain(yield* sql`SELECT id, name FROM modes ORDER BY id`), [
        { id: 1, name: "a" },
        { id: 2, name: "b" },
        { id: 3, name: "c" }
      ])
      assert.deepStrictEqual(yield* sql`SELECT name FROM modes WHERE id > ${1} ORDER BY id`.valuesUnprepared, [
        ["b"],
        ["c"]
      ])
      assert.deepStrictEqual(plain(yield* sql`SELECT name FROM modes WHERE id = ${3}`.unprepared), [{ name: "c" }])
      // more rows than one chunk of the stream
      const streamed = yield* Stream.runCollect(
        sql<{ n: number }>`WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${300})
SELECT n FROM s`.stream
      )
      assert.strictEqual(streamed.length, 300)
      assert.deepStrictEqual({ ...streamed[299] }, { n: 300 })
      // a stream stopped early releases the connection
      const firstTwo = yield* Stream.runCollect(Stream.take(sql`SELECT id FROM modes ORDER BY id`.stream, 2))
      assert.deepStrictEqual(plain(firstTwo), [{ id: 1 }, { id: 2 }])
      assert.deepStrictEqual(plain(yield* sql`SELECT count(*) AS n FROM modes`), [{ n: 3 }])
      const failed = yield* failure(Stream.runCollect(sql`SELECT * FROM no_such_table`.stream))
      assert.include(failed.message, "no such table")
    })
  )

  it.effect("text with a NUL character: read back whole, or refused where node:sqlite would cut it (Node 22)", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE nul_text (id INTEGER PRIMARY KEY, t TEXT)`
      // what this Node's node:sqlite gives back for a text with a NUL that SQLite holds whole
      const [probe] = yield* sql`SELECT 'a' || char(0) || 'b' AS s, hex('a' || char(0) || 'b') AS h`
      assert.strictEqual(probe?.["h"], "610062")
      const text = "before \u0000 after"
      if (probe?.["s"] === "a\u0000b") {
        yield* sql`INSERT INTO nul_text ${sql.insert({ id: 1, t: text })}`
        assert.deepStrictEqual(plain(yield* sql`SELECT t FROM nul_text`), [{ t: text }])
      } else {
        const refused = yield* failure(sql`INSERT INTO nul_text ${sql.insert({ id: 1, t: text })}`)
        assert.include(refused.message, "NUL")
        assert.deepStrictEqual(plain(yield* sql`SELECT t FROM nul_text`), [])
      }
    })
  )

  it.effect("round-trips integers (large ones as bigints), reals, text, blobs and null", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE vals (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB, any_value)`
      const values: NonEmptyReadonlyArray<Value> = [
        { id: 1, i: 0, r: 0.1 + 0.2, t: "", b: new Uint8Array([]), any_value: null },
        {
          id: 2,
          i: -1,
          r: -1.5,
          t: "Zürich ✓ 𝄞 日本 end",
          b: new Uint8Array([0, 1, 127, 128, 255]),
          any_value: 7
        },
        { id: 3, i: Number.MAX_SAFE_INTEGER, r: 1e300, t: 'it\'s "quoted"', b: null, any_value: 2.5 },
        {
          id: 4,
          i: Number.MIN_SAFE_INTEGER,
          r: -0.000001,
          t: null,
          b: new Uint8Array(4096).fill(7),
          any_value: "text"
        }
      ]
      yield* sql`INSERT INTO vals ${sql.insert(values)}`
      yield* sql`INSERT INTO vals (id, i) VALUES (${5}, ${9223372036854775807n}), (${6}, ${-9223372036854775808n})`
      const rows = yield* sql`SELECT * FROM vals WHERE id <= ${4} ORDER BY id`
      assert.deepStrictEqual(
        rows.map((row) => ({ ...row, b: row["b"] === null ? null : Array.from(row["b"] as Uint8Array) })),
        values.map((row) => ({ ...row, b: row.b === null ? null : Array.from(row.b) }))
      )
      assert.instanceOf(rows[1]?.["b"], Uint8Array)
      // integers are bound as INTEGER (node:sqlite alone would bind every number as REAL), other numbers as REAL
      assert.deepStrictEqual(
        plain(
          yield* sql`SELECT typeof(any_value) AS t FROM vals WHERE id IN (2, 3) ORDER BY id
`
        ),
        [{ t: "integer" }, { t: "real" }]
      )
      assert.deepStrictEqual(plain(yield* sql`SELECT json_object('n', ${100}, 'x', ${1.5}, 'ok', ${true}) AS j`), [
        { j: '{"n":100,"x":1.5,"ok":1}' }
      ])
      // beyond Number.MAX_SAFE_INTEGER: bigints with SafeIntegers, a SqlError without
      const big = yield* sql`SELECT id, i FROM vals WHERE id >= ${5} ORDER BY id`.pipe(
        Effect.provideService(SqlClient.SafeIntegers, true)
      )
      assert.deepStrictEqual(plain(big), [
        { id: 5n, i: 9223372036854775807n },
        { id: 6n, i: -9223372036854775808n }
      ])
      const tooLarge = yield* failure(sql`SELECT i FROM vals WHERE id = ${5}`)
      assert.include(tooLarge.message, "too large")
      // undefined binds as NULL, a Date as its ISO 8601 text
      const [row] = yield* sql`SELECT ${undefined} AS u, ${new Date("2026-01-02T03:04:05.678Z")} AS d`
      assert.deepStrictEqual({ ...row }, { u: null, d: "2026-01-02T03:04:05.678Z" })
    })
  )
})

describe("SqliteClient options", () => {
  it.effect("renames columns and identifiers with transformResultNames and transformQueryNames", () =>
    Effect.gen(function* () {
      const sql = yield* open({
        filename: ":memory:",
        transformQueryNames: (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        transformResultNames: (name) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
      })
      yield* sql`CREATE TABLE t (request_id TEXT, expires_at INTEGER)`
      yield* sql`INSERT INTO t ${sql.insert({ requestId: "r1", expiresAt: 10 })}`
      assert.deepStrictEqual(plain(yield* sql`SELECT ${sql("requestId")}, expires_at FROM t`), [
        { requestId: "r1", expiresAt: 10 }
      ])
      assert.deepStrictEqual(plain(yield* sql`SELECT request_id FROM t`.withoutTransform), [{ request_id: "r1" }])
    })
  )

  it.effect(
    "gives every statement's span the attributes of spanAttributes and db.system.name sqlite (bug: attributes dropped, or the system left out)",
    () =>
      Effect.gen(function* () {
        const { spans, tracer } = Tracing.recording()
        const statementSpans = () =>
          spans
            .filter((span) => span.attributes.has("db.query.text"))
            .map((span) => Object.fromEntries(span.attributes))
        const sql = yield* open({ filename: ":memory:", spanAttributes: { "service.name": "ledger", tier: 2 } })
        yield* Effect.withTracer(sql`SELECT ${1} AS one`, tracer)
        const [span] = statementSpans()
        assert.strictEqual(span?.["db.system.name"], "sqlite")
        assert.strictEqual(span?.["service.name"], "ledger")
        assert.strictEqual(span?.tier, 2)
        // without spanAttributes, the system alone
        spans.length = 0
        const plainClient = yield* open({ filename: ":memory:" })
        yield* Effect.withTracer(plainClient`SELECT ${1} AS one`, tracer)
        const [bare] = statementSpans()
        assert.strictEqual(bare?.["db.system.name"], "sqlite")
        assert.isFalse(bare !== undefined && "service.name" in bare)
      })
  )

  it.effect("works without a statement cache", () =>
    Effect.gen(function* () {
      const sql = yield* open({ filename: ":memory:", prepareCacheSize: 0 })
      yield* sql`CREATE TABLE t (n INTEGER)`
      yield* sql.withTransaction(Effect.forEach([1, 2, 3], (n) => sql`INSERT INTO t VALUES (${n})`, { discard: true }))
      assert.deepStrictEqual(plain(yield* sql`SELECT sum(n) AS s FROM t`), [{ s: 6 }])
    })
  )
})

describe("SqliteClient on a file", () => {
  it.effect("opens a file with WAL, a busy timeout and synchronous FULL by default", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const sql = yield* open({ filename: join(dir, "defaults.db") })
      assert.deepStrictEqual(plain(yield* sql`PRAGMA journal_mode`), [{ journal_mode: "wal" }])
      assert.deepStrictEqual(plain(yield* sql`PRAGMA busy_timeout`), [{ timeout: 5000 }])
      assert.deepStrictEqual(plain(yield* sql`PRAGMA synchronous`), [{ synchronous: 2 }])
      const custom = yield* open({
        filename: join(dir, "custom.db"),
        disableWAL: true,
        busyTimeout: "250 millis",
        synchronous: "NORMAL"
      })
      assert.deepStrictEqual(plain(yield* custom`PRAGMA journal_mode`), [{ journal_mode: "delete" }])
      assert.deepStrictEqual(plain(yield* custom`PRAGMA busy_timeout`), [{ timeout: 250 }])
      assert.deepStrictEqual(plain(yield* custom`PRAGMA synchronous`), [{ synchronous: 1 }])
    })
  )

  it.effect("keeps what was committed after the file is closed and opened again", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const filename = join(dir, "durable.db")
      yield* Effect.scoped(
        Effect.gen(function* () {
          const sql = yield* open({ filename })
          yield* sql`CREATE TABLE ledger (request_id TEXT PRIMARY KEY, amount INTEGER NOT NULL)`
          yield* sql.withTransaction(sql`INSERT INTO ledger VALUES (${"r1"}, ${100}), (${"r2"}, ${250})`)
          yield* sql
            .withTransaction(
              Effect.andThen(sql`INSERT INTO ledger VALUES (${"r3"}, ${1})`, Effect.fail("not this one"))
            )
            .pipe(Effect.ignore)
        })
      )
      const sql = yield* open({ filename })
      assert.deepStrictEqual(plain(yield* sql`SELECT * FROM ledger ORDER BY request_id`), [
        { request_id: "r1", amount: 100 },
        { request_id: "r2", amount: 250 }
      ])
      // and a read-only client reads it, and cannot write
      const reader = yield* open({ filename, readonly: true })
      assert.deepStrictEqual(plain(yield* reader`SELECT count(*) AS n FROM ledger`), [{ n: 2 }])
      const readonly = yield* failure(reader`INSERT INTO ledger VALUES (${"r4"}, ${4})`)
      assert.include(readonly.message, "readonly database")
    })
  )

  it.effect("fails with a SqlError when the file's directory is missing", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const filename = join(dir, "missing", "ledger.db")
      const error = yield* failure(open({ filename }))
      assert.strictEqual(error.reason._tag, "ConnectionError")
      assert.strictEqual(error.reason.operation, "open")
      assert.include(error.message, filename)
      assert.include(error.message, "unable to open database file")
      // make fails the same way
      const fromMake = yield* failure(SqliteClient.make({ filename }).pipe(Effect.provide(Reactivity.layer)))
      assert.include(fromMake.message, "unable to open database file")
    })
  )

  it.effect("fails with a SqlError when the file is not a database", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const filename = join(dir, "not-a-database.db")
      writeFileSync(filename, "this is a text file, not a SQLite database\n".repeat(200))
      const error = yield* failure(open({ filename }))
      assert.strictEqual(error.reason.operation, "open")
      assert.include(error.message, "file is not a database")
      const readonly = yield* failure(open({ filename, readonly: true }))
      assert.include(readonly.message, "file is not a database")
      // without the switch to WAL, whatever the synchronous mode
      for (const synchronous of ["OFF", "NORMAL", "FULL", "EXTRA"] as const) {
        const kept = yield* failure(open({ filename, disableWAL: true, synchronous }))
        assert.strictEqual(kept.reason.operation, "open", synchronous)
        assert.include(kept.message, "file is not a database", synchronous)
      }
    })
  )

  it.effect("lets two clients on one file (WAL) see each other's committed rows", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const filename = join(dir, "shared.db")
      const a = yield* open({ filename })
      const b = yield* open({ filename })
      yield* a`CREATE TABLE shared (id INTEGER PRIMARY KEY, writer TEXT NOT NULL)`
      yield* a`INSERT INTO shared (writer) VALUES (${"a"})`
      assert.deepStrictEqual(plain(yield* b`SELECT id, writer FROM shared`), [{ id: 1, writer: "a" }])
      yield* b.withTransaction(b`INSERT INTO shared (writer) VALUES (${"b"})`)
      assert.deepStrictEqual(plain(yield* a`SELECT id, writer FROM shared ORDER BY id`), [
        { id: 1, writer: "a" },
        { id: 2, writer: "b" }
      ])
      // a reader of one client is not blocked by the open write transaction of the other, and does not see it
      yield* a.withTransaction(
        Effect.gen(function* () {
          yield* a`INSERT INTO shared (writer) VALUES (${"a, pending"})`
          assert.deepStrictEqual(plain(yield* b`SELECT count(*) AS n FROM shared`), [{ n: 2 }])
        })
      )
      assert.deepStrictEqual(plain(yield* b`SELECT count(*) AS n FROM shared`), [{ n: 3 }])
    })
  )

  it.effect("fails a write with LockTimeoutError when another client holds the lock beyond the busy timeout", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const filename = join(dir, "locked.db")
      const a = yield* open({ filename })
      // a short busy timeout: in one process, b's wait blocks the event loop, so a cannot commit meanwhile
      const b = yield* open({ filename, busyTimeout: "50 millis" })
      yield* a`CREATE TABLE t (n INTEGER)`
      const error = yield* a.withTransaction(
        Effect.andThen(a`INSERT INTO t VALUES (${1})`, failure(b`INSERT INTO t VALUES (${2})`))
      )
      assert.strictEqual(error.reason._tag, "LockTimeoutError")
      assert.isTrue(error.isRetryable)
      assert.include(error.message, "database is locked")
      // once a has committed, b writes
      yield* b.withTransaction(b`INSERT INTO t VALUES (${2})`)
      assert.deepStrictEqual(plain(yield* a`SELECT n FROM t ORDER BY n`), [{ n: 1 }, { n: 2 }])
    })
  )

  it.live("lets processes on one file wait for each other's lock instead of failing", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const filename = join(dir, "processes.db")
      const sql = yield* open({ filename })
      yield* sql`CREATE TABLE seq (n INTEGER PRIMARY KEY, writer TEXT NOT NULL)`
      // each transaction reads the last number and writes the next: two processes interleaving them would write
      // one number twice (a primary key violation), and a deferred transaction's upgrade to writing would fail at once
      const results = yield* Effect.all([writer(filename, "p1", 100), writer(filename, "p2", 100)], {
        concurrency: "unbounded"
      })
      assert.deepStrictEqual(results, [
        { code: 0, stderr: "" },
        { code: 0, stderr: "" }
      ])
      assert.deepStrictEqual(plain(yield* sql`SELECT count(*) AS n, max(n) AS last FROM seq`), [{ n: 200, last: 200 }])
      assert.deepStrictEqual(plain(yield* sql`SELECT writer, count(*) AS n FROM seq GROUP BY writer ORDER BY writer`), [
        { writer: "p1", n: 100 },
        { writer: "p2", n: 100 }
      ])
    })
  )
})

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const clientModule = pathToFileURL(join(packageDir, "src", "SqliteClient.ts")).href

/** a Node process that runs `count` transactions on `filename`, each appending the next number of table `seq` */
const writer = (filename: string, name: string, count: number) =>
  Effect.callback<{ code: number | null; stderr: string }>((resume) => {
    const program = `
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
const SqliteClient = await import(${JSON.stringify(clientModule)})
const program = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (let i = 0; i < ${count}; i++) {
    yield* sql.withTransaction(Effect.gen(function* () {
      const [row] = yield* sql\`SELECT coalesce(max(n), 0) AS last FROM seq\`
      yield* sql\`INSERT INTO seq (n, writer) VALUES (\${row.last + 1}, \${${JSON.stringify(name)}})\`
    }))
  }
}).pipe(Effect.provide(SqliteClient.layer({ filename: ${JSON.stringify(filename)} })))
await Effect.runPromise(program)
`
    const child = spawn(
      process.execPath,
      ["--no-warnings", "--import", "tsx", "--input-type=module", "--eval", program],
      { cwd: packageDir, stdio: ["ignore", "ignore", "pipe"] }
    )
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
    })
    child.on("error", (error) => resume(Effect.die(error)))
    child.on("close", (code) => resume(Effect.succeed({ code, stderr })))
    return Effect.sync(() => child.kill())
  })
