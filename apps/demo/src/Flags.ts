/**
 * The flags of the commands, declared in one shape: a name, what its value is (shown in `--help` as
 * `--plan file|id`) and a description. Values are taken as text and checked by the command (see `Checks.ts`), so that
 * a bad value is reported with the flag's name, in our words.
 *
 * @since 0.1.0
 */
import * as Flag from "effect/cli/Flag"
import type * as Option from "effect/Option"

const text = (name: string, value: string, description: string): Flag.Flag<string> =>
  Flag.String(name).pipe(Flag.withMetavar(value), Flag.withDescription(description))

/**
 * A required flag.
 *
 * @since 0.1.0
 * @category flags
 */
export const required = (name: string, value: string, description: string): Flag.Flag<string> =>
  text(name, value, description)

/**
 * A flag that may be left out.
 *
 * @since 0.1.0
 * @category flags
 */
export const optional = (name: string, value: string, description: string): Flag.Flag<Option.Option<string>> =>
  text(name, value, description).pipe(Flag.optional)

/**
 * A flag with a default value.
 *
 * @since 0.1.0
 * @category flags
 */
export const withDefault = (name: string, value: string, fallback: string, description: string): Flag.Flag<string> =>
  text(name, value, description).pipe(Flag.withDefault(fallback))

/**
 * A flag that may be given any number of times (`--scheme Swift --scheme OpenBanking`).
 *
 * @since 0.1.0
 * @category flags
 */
export const repeated = (name: string, value: string, description: string): Flag.Flag<ReadonlyArray<string>> =>
  text(name, value, description).pipe(Flag.atLeast(1), Flag.withDefault<ReadonlyArray<string>>([]))

/**
 * A switch: true when given, false otherwise (`--no-trial`). Its name is taken as it is: no `--no-<name>` form.
 *
 * @since 0.1.0
 * @category flags
 */
export const toggle = (name: string, description: string): Flag.Flag<boolean> =>
  Flag.Boolean(name).pipe(Flag.withoutNegation, Flag.withDescription(description), Flag.withDefault(false))
