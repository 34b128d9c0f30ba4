/**
 * Vocalink modulus checking of UK sort codes and account numbers, as a service: `layerFormatOnly` checks the format
 * only, `layerFromTable` runs the checks of "Validating account numbers" with a weight table that you supply
 * (Vocalink's `valacdos.txt`, and `scsubtab.txt` for exception 5). No table ships with this package.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as internal from "./internal/modulus.js"
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
 * sort code substitutions of exception 5, and the date from which Vocalink declares the table valid.
 *
 * @since 0.1.0
 * @category models
 */
export interface ModulusTable {
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
 *
 * @since 0.1.0
 * @category errors
 */
export type ModulusTableErrorReason = internal.TableErrorReason

/**
 * @since 0.1.0
 * @category errors
 */
export class ModulusTableError extends Data.TaggedError("ModulusTableError")<{
  readonly reason: ModulusTableErrorReason
  /** 1-based line of the text that failed; 0 for the valid-from date */
  readonly line: number
  readonly message: string
}> {}

const tableError = (source: string, f: internal.TableFailure): ModulusTableError =>
  new ModulusTableError({
    reason: f.reason,
    line: f.line,
    message: f.line === 0 ? `Invalid modulus table: ${f.detail}` : `Invalid ${source}, line ${f.line}: ${f.detail}`
  })

/**
 * @since 0.1.0
 * @category models
 */
export interface TableOptions {
  /** the date from which the table is valid, as Vocalink publishes it, `YYYY-MM-DD` */
  readonly validFrom: string
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
 * const table = ModulusChecker.unsafeParseTable(
 *   "089000 089999 MOD10    0    0    0    0    0    0    7    1    3    7    1    3    7    1",
 *   { validFrom: "2024-06-03" }
 * )
 * console.log(table.rows.length) // 1
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseTable = (valacdos: string, options: TableOptions): Either.Either<ModulusTable, ModulusTableError> => {
  const validFrom = parseDate(options.validFrom)
  if (validFrom === undefined) {
    return Either.left(
      tableError("modulus table", {
        reason: "ValidFrom",
        line: 0,
        detail: `valid-from ${JSON.stringify(options.validFrom)} is not a calendar date written YYYY-MM-DD`
      })
    )
  }
  const rows = internal.parseRows(valacdos)
  if (!rows.ok) return Either.left(tableError("weight table", rows.failure))
  let substitutions: ReadonlyMap<string, string> = new Map()
  if (options.substitutions !== undefined) {
    const subs = internal.parseSubstitutions(options.substitutions)
    if (!subs.ok) return Either.left(tableError("substitution table", subs.failure))
    substitutions = subs.value
  }
  return Either.right({ validFrom, rows: rows.value, substitutions })
}

/**
 * Like {@link parseTable}, but throws the `ModulusTableError`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const unsafeParseTable = (valacdos: string, options: TableOptions): ModulusTable =>
  Either.getOrThrowWith(parseTable(valacdos, options), (e) => e)

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
export class ModulusChecker extends Context.Tag("@payrules/accounts/ModulusChecker")<
  ModulusChecker,
  {
    readonly check: (sortCode: string, accountNumber: string) => Effect.Effect<ModulusResult, UkAccount.UkAccountError>
    /** the valid-from date of the table behind the service; none for the format-only layer */
    readonly tableValidFrom: Option.Option<DateTime.Utc>
  }
>() {}

const formatOnlyResult = ModulusResult.Unchecked({
  reason: "FormatOnly",
  message: "Only the format was checked: provide ModulusChecker.layerFromTable(table) to run the modulus checks"
})

/**
 * A checker that validates the format of the sort code and the account number only, and answers `Unchecked` with
 * reason `FormatOnly`. The default: no weight table is needed.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFormatOnly: Layer.Layer<ModulusChecker> = Layer.succeed(ModulusChecker, {
  check: (sortCode, accountNumber) =>
    Either.match(UkAccount.parse(sortCode, accountNumber), {
      onLeft: Effect.fail,
      onRight: () => Effect.succeed(formatOnlyResult)
    }),
  tableValidFrom: Option.none()
})

/**
 * A checker backed by a weight table you supply (see {@link parseTable}): the standard and double alternate
 * methods, two-row checks and exceptions 1 to 14 of Vocalink's "Validating account numbers".
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFromTable = (table: ModulusTable): Layer.Layer<ModulusChecker> =>
  Layer.succeed(ModulusChecker, {
    check: (sortCode, accountNumber) =>
      Either.match(UkAccount.parse(sortCode, accountNumber), {
        onLeft: Effect.fail,
        onRight: (account) => Effect.succeed(checkWithTable(table, account))
      }),
    tableValidFrom: Option.some(table.validFrom)
  })

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
  Effect.flatMap(ModulusChecker, (checker) => checker.check(sortCode, accountNumber))
