/**
 * PostgreSQL for the tests: a schema of its own for every place (`search_path` in the URL), so tests and files that
 * run at once on one server never see each other's tables.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { postgresUrl } from "@payrules/vitest/Services"
import { Effect, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"

let serial = 0

/** the URL of a new, empty schema of the test server */
export const freshSchema = Effect.gen(function* () {
  const base = yield* Effect.try(() => postgresUrl()).pipe(Effect.orDie)
  const schema = `t_${process.pid}_${serial++}_${Math.floor(performance.now())}`
  yield* Effect.scoped(
    Effect.flatMap(PgClient.make({ url: Redacted.make(base), maxConnections: 1 }), (sql) =>
      sql.unsafe(`CREATE SCHEMA ${schema}`)
    )
  ).pipe(Effect.provide(Reactivity.layer), Effect.orDie)
  const url = new URL(base)
  url.searchParams.set("options", `-c search_path=${schema}`)
  return url.toString()
})
