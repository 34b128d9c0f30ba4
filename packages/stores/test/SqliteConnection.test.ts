/**
 * The connection under `SqliteClient` (`src/internal/sqliteConnection.ts`): values node:sqlite cannot bind are
 * refused with a `SqlError` that names the parameter, whatever way the statement is run; the statement cache gives
 * the same answers when it evicts; a failure while a stream is read ends the stream with a `SqlError`; and an error
 * of node:sqlite always becomes a `SqlError`, even one it cannot mark. Each test names the bug it guards.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Stream } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { openError, sqlError } from "../src/internal/sqliteConnection.js"
import * as SqliteClient from "../src/SqliteClient.js"

/** a client on a database in memory, open until the scope closes */
const open = (options?: Partial<SqliteClient.SqliteClientConfig>) =>
  Effect.map(Layer.build(SqliteClient.layer({ filename: ":memory:", ...options })), Context.get(SqlClient.SqlClient))

/** rows as plain objects (node:sqlite makes rows without a prototype) */
const plain = (rows: ReadonlyArray<object>) => rows.map((row) => ({ ...row }))

/** the SqlError an effect fails with */
const failure = <A, R>(effect: Effect.Effect<A, SqlError, R>) => Effect.flip(effect)

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
  })
})
