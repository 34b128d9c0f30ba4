/**
 * `--ledger`: where the client keeps its request_id ledger. `memory` (the default) lives as long as the command;
 * `sqlite:<file>` survives it (and a crash), so a later `payrules resume` settles what was left in flight;
 * `postgres://...` is shared with other processes. A SQLite file resolves against the directory the command was
 * run in, as every path option does.
 *
 * @since 0.1.0
 */
import type { RequestLedger } from "@payrules/exchange"
import * as LedgerUrl from "@payrules/stores/LedgerUrl"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import type * as Path from "effect/Path"
import * as Result from "effect/Result"
import { CliError, mapLayerError, oneLine } from "./CliError.js"
import * as Flags from "./Flags.js"
import * as Invocation from "./Invocation.js"

/**
 * @since 0.1.0
 * @category flags
 */
export const ledgerOption = Flags.withDefault(
  "ledger",
  "where",
  "memory",
  "the request_id ledger: memory, sqlite:<file> (durable: `payrules resume` settles what a stopped command left) or postgres://user@host:port/database (shared)"
)

/**
 * A checked `--ledger`: the place, with a SQLite file made absolute against the person's directory.
 *
 * @since 0.1.0
 * @category checks
 */
export const check = (value: string): Effect.Effect<LedgerUrl.LedgerUrl, CliError, Invocation.Invocation | Path.Path> =>
  Result.match(LedgerUrl.parse(value), {
    onFailure: (e) => Effect.fail(new CliError({ where: "--ledger", reason: e.message })),
    onSuccess: (ledger) =>
      ledger._tag === "Sqlite" && ledger.filename !== ":memory:"
        ? Effect.map(Invocation.resolve(ledger.filename), (filename) => LedgerUrl.LedgerUrl.Sqlite({ filename }))
        : Effect.succeed(ledger)
  })

/**
 * The ledger at a checked place; a store that cannot be opened is a one-line `--ledger` error.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (ledger: LedgerUrl.LedgerUrl): Layer.Layer<RequestLedger.RequestLedger, CliError> =>
  LedgerUrl.layer(ledger).pipe(
    mapLayerError(
      (e) => new CliError({ where: `--ledger ${LedgerUrl.format(ledger)}`, reason: oneLine(e.message) || "failed" })
    )
  )
