/**
 * The connection under `SqliteClient` (`src/internal/sqliteConnection.ts`): values node:sqlite cannot bind are
 * refused with a `SqlError` that names the parameter, whatever way the statement is run; the statement cache gives
 * the same answers when it evicts; a failure while a stream is read ends the stream with a `SqlError`; and an error
 * of node:sqlite always becomes a `SqlError`, even one it cannot mark. Each test names the bug it guards.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { describe, expect, it, vi } from "@effect/vitest"
import { Config, Context, Effect, Layer, Stream } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { makeConnection, openError, sqlError } from "../src/internal/sqliteConnection.js"
import * as SqliteClient from "../src/SqliteClient.js"

/** a client on a database in memory, open until the scope closes */
const open = (options?: Partial<SqliteClient.SqliteClientConfig>) =>
  Effect.map(Layer.build(SqliteClient.layer({ filename: ":memory:", ...options })), Context.get(SqlClient.SqlClient))

/** a directory of its own under the system's temporary directory, removed when the scope closes */
const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "payrules-sqlite-connection-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/** rows as plain objects (node:sqlite makes rows without a prototype) */
const plain = (rows: ReadonlyArray<object>) => rows.map((row) => ({ ...row }))

/** the SqlError an effect fails with */
const failure = <A, R>(effect: Effect.Effect<A, SqlError, R>) => Effect.flip(effect)

/** every `prepare` of node:sqlite, counted while the scope is open */
const countPrepares = Effect.acquireRelease(
  Effect.sync(() => vi.spyOn(DatabaseSync.prototype, "prepare")),
  (spy) => Effect.sync(() => spy.mockRestore())
)

/** a database in memory, closed when the scope closes */
const memoryDatabase = Effect.acquireRelease(
  Effect.sync(() => new DatabaseSync(":memory:")),
  (db) => Effect.sync(() => db.close())
)

/**
 * A connection as `SqliteClient` makes it, on a database in memory, and `prepares()`: the statements prepared since it
 * was made (the first connection of the process prepares a probe, `probeTextAtNul`, which is left out).
 */
const connectionOf = (prepareCacheSize: number) =>
  Effect.gen(function* () {
    const spy = yield* countPrepares
    const connection = makeConnection(yield* memoryDatabase, { prepareCacheSize })
    spy.mockClear()
    return { connection, prepares: () => spy.mock.calls.length }
  })

describe("SqliteClient: values node:sqlite cannot bind", () => {
  it.effect(
    "refuses a function, a symbol, a plain object, an array or a Map, naming its type and parameter (bug: bound as nothing, or the wrong parameter named)",
    () =>
      Effect.gen(function* () {
        const sql = yield* open()
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [() => 1, "function ([object Function])"],
          [Symbol("s"), "symbol ([object Symbol])"],
          [{ a: 1 }, "object ([object Object])"],
          [[1, 2], "object ([object Array])"],
          [new Map([["a", 1]]), "object ([object Map])"]
        ]
        for (const [value, type] of cases) {
          const error = yield* failure(sql.unsafe("SELECT ? AS a, ? AS b", [1, value]))
          expect(error._tag).toBe("SqlError")
          expect(error.reason._tag).toBe("UnknownError")
          expect(error.message).toBe(
            `Failed to execute statement: Cannot bind a value of type ${type} to SQLite parameter 2`
          )
          expect(error.reason.cause).toBeInstanceOf(TypeError)
        }
        // the first parameter is 1
        const first = yield* failure(sql.unsafe("SELECT ? AS a", [() => 1]))
        expect(first.message).toContain("to SQLite parameter 1")
        // and the client goes on
        expect(plain(yield* sql`SELECT ${null} AS n, ${false} AS f`)).toStrictEqual([{ n: null, f: 0 }])
      })
  )

  it.effect(
    "refuses them the same way in every mode, naming the operation (bug: a mode that binds without checking)",
    () =>
      Effect.gen(function* () {
        const sql = yield* open()
        const bad = { not: "a value" }
        const cases: ReadonlyArray<readonly [Effect.Effect<unknown, SqlError>, string]> = [
          [sql`SELECT ${bad} AS x`, "execute"],
          [sql`SELECT ${bad} AS x`.raw, "executeRaw"],
          [sql`SELECT ${bad} AS x`.values, "executeValues"],
          [sql`SELECT ${bad} AS x`.valuesUnprepared, "executeValuesUnprepared"],
          [sql`SELECT ${bad} AS x`.unprepared, "executeUnprepared"],
          [Stream.runCollect(sql`SELECT ${bad} AS x`.stream), "executeStream"]
        ]
        for (const [effect, operation] of cases) {
          const error = yield* failure(effect)
          expect(error.reason.operation, operation).toBe(operation)
          expect(error.message).toBe(
            "Failed to execute statement: Cannot bind a value of type object ([object Object]) to SQLite parameter 1"
          )
        }
      })
  )

  it.effect(
    "fails a statement that does not compile as a failure to prepare, in every mode (bug: a defect, or a message that blames the execution)",
    () =>
      Effect.gen(function* () {
        const sql = yield* open()
        const cases: ReadonlyArray<readonly [Effect.Effect<unknown, SqlError>, string]> = [
          [sql`SELECT * FROM nowhere`, "execute"],
          [sql`SELECT * FROM nowhere`.raw, "executeRaw"],
          [sql`SELECT * FROM nowhere`.values, "executeValues"],
          [sql`SELECT * FROM nowhere`.valuesUnprepared, "executeValuesUnprepared"],
          [sql`SELECT * FROM nowhere`.unprepared, "executeUnprepared"]
        ]
        for (const [effect, operation] of cases) {
          const error = yield* failure(effect)
          expect(error.reason.operation, operation).toBe(operation)
          expect(error.message).toBe("Failed to prepare statement: no such table: nowhere")
          // SQLite's generic error code, without a syntax error: not called one
          expect(error.reason._tag).toBe("UnknownError")
        }
        const streamed = yield* failure(Stream.runCollect(sql`SELECT * FROM nowhere`.stream))
        expect(streamed.reason.operation).toBe("executeStream")
        expect(streamed.message).toContain("no such table: nowhere")
      })
  )
})

describe("SqliteClient: the statement cache", () => {
  it.effect(
    "answers every statement right when more distinct statements run than it holds (bug: an evicted statement run in place of another)",
    () =>
      Effect.gen(function* () {
        for (const prepareCacheSize of [1, 2, 3]) {
          const sql = yield* open({ prepareCacheSize })
          yield* sql`CREATE TABLE t (n INTEGER PRIMARY KEY, name TEXT NOT NULL)`
          yield* sql`INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four')`
          const statements = [
            (n: number) => sql`SELECT name FROM t WHERE n = ${n}`,
            (n: number) => sql`SELECT n * 10 AS ten FROM t WHERE n = ${n}`,
            (n: number) => sql`SELECT upper(name) AS up FROM t WHERE n = ${n}`,
            (n: number) => sql`SELECT count(*) AS below FROM t WHERE n < ${n}`
          ]
          const names = ["one", "two", "three", "four"]
          // each statement again and again, in an order that evicts every one of them from a small cache
          for (const order of [
            [0, 1, 2, 3],
            [3, 2, 1, 0],
            [0, 0, 2, 0, 3, 1, 1, 3]
          ]) {
            for (const [i, which] of order.entries()) {
              const n = (i % 4) + 1
              const [row] = yield* statements[which]!(n)
              const expected = [
                { name: names[n - 1] },
                { ten: n * 10 },
                { up: names[n - 1]!.toUpperCase() },
                { below: n - 1 }
              ][which]
              expect({ ...row }, `cache of ${prepareCacheSize}, statement ${which}`).toStrictEqual(expected)
            }
          }
          // a cached statement read as values, then as rows again
          expect(yield* sql`SELECT name FROM t WHERE n = ${2}`.values).toStrictEqual([["two"]])
          expect(plain(yield* sql`SELECT name FROM t WHERE n = ${2}`)).toStrictEqual([{ name: "two" }])
        }
      })
  )
})

describe("SqliteClient: what the statement cache keeps", () => {
  it.effect(
    "prepares a statement once while it is among the most recently used, and again once evicted (bug: a cache that keeps nothing, evicts the most recently used, or grows past its size)",
    () =>
      Effect.gen(function* () {
        const { connection, prepares: prepared } = yield* connectionOf(2)
        const run = (name: string) => connection.execute(`SELECT '${name}' AS s`, [], undefined)
        // the statement run, then how many statements have been prepared so far; the cache holds two
        const steps: ReadonlyArray<readonly [string, number]> = [
          ["A", 1],
          ["A", 1], // kept
          ["B", 2],
          ["A", 2], // kept, and now the most recently used
          ["C", 3], // evicts B, the least recently used (not A, the older one)
          ["A", 3],
          ["B", 4], // evicted before: prepared again, evicting C
          ["C", 5], // evicting A
          ["B", 5],
          ["C", 5]
        ]
        for (const [i, [name, prepares]] of steps.entries()) {
          expect(plain(yield* run(name)), `step ${i + 1}`).toStrictEqual([{ s: name }])
          expect(prepared(), `prepared after step ${i + 1} (${name})`).toBe(prepares)
        }
        // the other modes of execution share the cache
        expect(yield* connection.executeValues("SELECT 'C' AS s", [])).toStrictEqual([["C"]])
        expect(plain((yield* connection.executeRaw("SELECT 'B' AS s", [])) as ReadonlyArray<object>)).toStrictEqual([
          { s: "B" }
        ])
        expect(prepared()).toBe(5)
      })
  )

  it.effect("keeps nothing with a size of 0 (bug: a cache of 0 that keeps every statement)", () =>
    Effect.gen(function* () {
      const { connection, prepares } = yield* connectionOf(0)
      for (let i = 1; i <= 3; i++) {
        expect(plain(yield* connection.execute("SELECT 1 AS one", [], undefined))).toStrictEqual([{ one: 1 }])
        expect(prepares()).toBe(i)
      }
    })
  )

  it.effect(
    "prepares unprepared statements and streams anew, leaving the cache as it was (bug: a stream sharing a statement that another read resets, or an unprepared statement that evicts the cached ones)",
    () =>
      Effect.gen(function* () {
        const { connection, prepares } = yield* connectionOf(1)
        yield* connection.execute("SELECT 1 AS one", [], undefined)
        expect(prepares()).toBe(1)
        expect(plain(yield* connection.executeUnprepared("SELECT 2 AS two", [], undefined))).toStrictEqual([{ two: 2 }])
        expect(yield* connection.executeValuesUnprepared("SELECT 1 AS one", [])).toStrictEqual([[1]])
        expect(
          plain(yield* Stream.runCollect(connection.executeStream("SELECT 1 AS one", [], undefined)))
        ).toStrictEqual([{ one: 1 }])
        expect(prepares()).toBe(4)
        // the cached statement is still the one kept
        yield* connection.execute("SELECT 1 AS one", [], undefined)
        expect(prepares()).toBe(4)
      })
  )

  it.effect(
    "finds out once per process whether node:sqlite cuts text at a NUL (bug: a probe on every connection)",
    () =>
      Effect.gen(function* () {
        const spy = yield* countPrepares
        makeConnection(yield* memoryDatabase, { prepareCacheSize: 1 })
        spy.mockClear()
        makeConnection(yield* memoryDatabase, { prepareCacheSize: 1 })
        expect(spy.mock.calls).toStrictEqual([])
      })
  )
})

describe("SqliteClient: its statement cache", () => {
  it.effect(
    "keeps 200 statements by default, none with a size of 0 or less, and the whole part of a fraction (bug: a size read wrong, or no cache by default)",
    () =>
      Effect.gen(function* () {
        const spy = yield* countPrepares
        /** how many statements running `names` in turn prepares on a client of `options` */
        const prepares = (options: Partial<SqliteClient.SqliteClientConfig>, names: ReadonlyArray<string>) =>
          Effect.gen(function* () {
            const sql = yield* open(options)
            spy.mockClear()
            for (const name of names) {
              expect(plain(yield* sql.unsafe(`SELECT '${name}' AS s`))).toStrictEqual([{ s: name }])
            }
            return spy.mock.calls.length
          })
        const twice = ["A", "B", "C", "A", "B", "C"]
        expect(yield* prepares({}, twice)).toBe(3)
        // 200 by default: the first of 200 statements is still kept, the first of 201 is not
        const distinct = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`)
        expect(yield* prepares({}, [...distinct(200), "s0"])).toBe(200)
        expect(yield* prepares({}, [...distinct(201), "s0"])).toBe(202)
        expect(yield* prepares({ prepareCacheSize: 3 }, twice)).toBe(3)
        expect(yield* prepares({ prepareCacheSize: 0 }, twice)).toBe(6)
        expect(yield* prepares({ prepareCacheSize: -5 }, twice)).toBe(6)
        expect(yield* prepares({ prepareCacheSize: 1.9 }, ["A", "A", "B", "A"])).toBe(3)
      }).pipe(Effect.scoped)
  )

  it.effect(
    "keeps the statements that begin and commit a transaction (bug: BEGIN and COMMIT prepared for every transaction)",
    () =>
      Effect.gen(function* () {
        const spy = yield* countPrepares
        const sql = yield* open()
        yield* sql`CREATE TABLE t (n INTEGER)`
        const write = (n: number) => sql.withTransaction(sql`INSERT INTO t VALUES (${n})`)
        yield* write(1)
        spy.mockClear()
        yield* write(2)
        expect(spy.mock.calls.map(([text]) => text)).toStrictEqual([])
        expect(plain(yield* sql`SELECT n FROM t ORDER BY n`)).toStrictEqual([{ n: 1 }, { n: 2 }])
      }).pipe(Effect.scoped)
  )
})

describe("SqliteClient: a stream that fails while it is read", () => {
  it.effect("ends the stream with a SqlError of executeStream (bug: a defect, or rows after the failure)", () =>
    Effect.gen(function* () {
      const sql = yield* open()
      yield* sql`CREATE TABLE big (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`
      yield* sql`INSERT INTO big VALUES (1, 1), (2, 9007199254740993), (3, 3)`
      // the second row is beyond Number.MAX_SAFE_INTEGER: reading it fails
      const error = yield* failure(Stream.runCollect(sql`SELECT n FROM big ORDER BY id`.stream))
      expect(error._tag).toBe("SqlError")
      expect(error.reason.operation).toBe("executeStream")
      expect(error.message.startsWith("Failed to execute statement: ")).toBe(true)
      expect(error.message).toContain("too large")
      // with SafeIntegers, the same stream reads every row
      const rows = yield* Stream.runCollect(sql`SELECT n FROM big ORDER BY id`.stream).pipe(
        Effect.provideService(SqlClient.SafeIntegers, true)
      )
      expect(plain(rows)).toStrictEqual([{ n: 1n }, { n: 9007199254740993n }, { n: 3n }])
    })
  )
})

describe("sqlError and openError", () => {
  it("turn an error that cannot be marked (frozen) into a SqlError instead of throwing (bug: a TypeError from defineProperty)", () => {
    const frozen = Object.freeze(
      Object.assign(new Error("database is locked"), { errcode: 5, errstr: "database is locked" })
    )
    const error = sqlError(frozen, "Failed to execute statement", "execute")
    expect(error._tag).toBe("SqlError")
    expect(error.reason._tag).toBe("UnknownError")
    expect(error.message).toBe("Failed to execute statement: database is locked")
    expect(error.reason.cause).toBe(frozen)
    expect(error.reason.operation).toBe("execute")
    // the same error, not frozen, is classified by its code
    const busy = sqlError(Object.assign(new Error("database is locked"), { errcode: 5 }), "Failed", "execute")
    expect(busy.reason._tag).toBe("LockTimeoutError")
  })

  it("open: a ConnectionError naming the file unless SQLite says more (bug: the file left out of the message)", () => {
    const unknown = openError(new Error("no such thing"), "/tmp/x.db")
    expect(unknown.reason._tag).toBe("ConnectionError")
    expect(unknown.reason.operation).toBe("open")
    expect(unknown.message).toBe("Failed to open SQLite database /tmp/x.db: no such thing")
    const locked = openError(Object.assign(new Error("database is locked"), { errcode: 5 }), "/tmp/x.db")
    expect(locked.reason._tag).toBe("LockTimeoutError")
    expect(locked.message).toBe("Failed to open SQLite database /tmp/x.db: database is locked")
    // a thrown value that is not an Error
    expect(sqlError("boom", "Failed to execute statement", "execute").message).toBe("Failed to execute statement: boom")
    // a message that is not text, a code that is not a number: not read as such
    expect(sqlError({ message: 42 }, "Failed", "execute").message).toBe("Failed: [object Object]")
    const textCode = sqlError(Object.assign(new Error('near "x": syntax error'), { errcode: "1" }), "Failed", "execute")
    expect(textCode.reason._tag).toBe("UnknownError")
  })
})

describe("SqliteClient: SQL text and values", () => {
  it.effect(
    "accepts comments after the one statement and refuses a statement after a comment, and reads text with a NUL character whole (bug: a harmless tail refused, a second statement silently dropped, or text cut at its NUL)",
    () =>
      Effect.gen(function* () {
        const sql = yield* open()
        for (const text of [
          "SELECT 1 AS one; -- a comment at the very end",
          "SELECT 1 AS one; /* a comment of several words */",
          "SELECT 1 AS one; /* a comment never closed",
          "SELECT 1 AS one;\n\t; -- two\n/* and */ ;"
        ]) {
          expect(plain(yield* sql.unsafe(text)), text).toStrictEqual([{ one: 1 }])
        }
        expect(plain(yield* sql.unsafe("SELECT 1 AS one; /**/ /***/ /* a */ -- b"))).toStrictEqual([{ one: 1 }])
        // a second statement after a comment: refused, never dropped (node:sqlite would run the first only)
        yield* sql`CREATE TABLE kept (n INTEGER)`
        yield* sql`INSERT INTO kept VALUES (${1})`
        for (const text of [
          "SELECT 1; /* then */ SELECT 2",
          "INSERT INTO kept VALUES (2); /* and then */ DELETE FROM kept",
          "SELECT 1; /* one */ /* two */ DELETE FROM kept /* end",
          "SELECT 1; -- a line\nDELETE FROM kept"
        ]) {
          const twice = yield* failure(sql.unsafe(text))
          expect(twice.message, text).toContain("more than one statement")
        }
        expect(plain(yield* sql`SELECT n FROM kept`)).toStrictEqual([{ n: 1 }])
        // Node 24's node:sqlite reads text whole; Node 22's cuts it at the NUL, so it is refused there
        const nul = sql`SELECT ${"a\u0000b"} AS s, length(${"a\u0000b"}) AS n`
        if (Number(process.versions.node.split(".")[0]) >= 24) {
          expect(plain(yield* nul)).toStrictEqual([{ s: "a\u0000b", n: 1 }])
        } else {
          expect((yield* failure(nul)).message).toContain("Cannot bind text with a NUL character to SQLite parameter 1")
        }
      })
  )

  it.effect(
    "releases a stream's statement when it stops early (bug: the table stays locked by a half-read statement)",
    () =>
      Effect.gen(function* () {
        const sql = yield* open()
        yield* sql`CREATE TABLE many (n INTEGER)`
        yield* sql`WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 300) INSERT INTO many SELECT n FROM s`
        const two = yield* Stream.runCollect(Stream.take(sql`SELECT n FROM many ORDER BY n`.stream, 2))
        expect(plain(two)).toStrictEqual([{ n: 1 }, { n: 2 }])
        // a statement still reading would make this fail with "database table is locked"
        yield* sql`DROP TABLE many`
      })
  )
})

describe("SqliteClient: the file and its locks", () => {
  it.effect("closes the file when the layer ends, leaving no write-ahead log behind (bug: a file left open)", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const filename = join(dir, "closed.db")
      yield* Effect.scoped(
        Effect.gen(function* () {
          const sql = yield* open({ filename })
          yield* sql`CREATE TABLE t (n INTEGER)`
          yield* sql`INSERT INTO t VALUES (${1})`
          expect(existsSync(`${filename}-wal`)).toBe(true)
        })
      )
      // the last connection to close checkpoints the log and removes it
      expect(existsSync(`${filename}-wal`)).toBe(false)
      expect(existsSync(filename)).toBe(true)
    })
  )

  it.effect(
    "begins a writer's transactions IMMEDIATE and a reader's DEFERRED (bug: a transaction that reads first and then cannot write, or a reader that locks writers out)",
    () =>
      Effect.gen(function* () {
        const dir = yield* tempDir
        const filename = join(dir, "modes.db")
        const a = yield* open({ filename })
        // no busy timeout: a lock held by another connection fails at once
        const b = yield* open({ filename, busyTimeout: 0 })
        const reader = yield* open({ filename, readonly: true })
        yield* a`CREATE TABLE t (n INTEGER)`
        // a's transaction has only read, yet holds the write lock
        const locked = yield* a.withTransaction(
          Effect.andThen(a`SELECT count(*) AS c FROM t`, failure(b`INSERT INTO t VALUES (${1})`))
        )
        expect(locked.reason._tag).toBe("LockTimeoutError")
        // the reader's transaction leaves writers alone
        yield* reader.withTransaction(
          Effect.andThen(reader`SELECT count(*) AS c FROM t`, b`INSERT INTO t VALUES (${2})`)
        )
        // an explicit mode
        const deferred = yield* open({ filename, transactionMode: "DEFERRED" })
        yield* deferred.withTransaction(
          Effect.andThen(deferred`SELECT count(*) AS c FROM t`, b`INSERT INTO t VALUES (${3})`)
        )
        expect(plain(yield* a`SELECT n FROM t ORDER BY n`)).toStrictEqual([{ n: 2 }, { n: 3 }])
      })
  )

  it.effect("caps a busy timeout beyond SQLite's range at 2^31 - 1 ms (bug: a long timeout that fails the open)", () =>
    Effect.gen(function* () {
      const sql = yield* open({ busyTimeout: "30 days" })
      expect(plain(yield* sql`PRAGMA busy_timeout`)).toStrictEqual([{ timeout: 2 ** 31 - 1 }])
    })
  )

  it.effect("layerConfig reads the options from Config (bug: a layer that ignores its configuration)", () =>
    Effect.gen(function* () {
      const context = yield* Layer.build(
        SqliteClient.layerConfig({ filename: Config.succeed(":memory:"), busyTimeout: Config.succeed("3 seconds") })
      )
      const sql = Context.get(context, SqliteClient.SqliteClient)
      expect(sql.config.filename).toBe(":memory:")
      expect(plain(yield* sql`PRAGMA busy_timeout`)).toStrictEqual([{ timeout: 3000 }])
    })
  )
})
