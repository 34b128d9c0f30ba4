/**
 * The options of the commands, declared in one shape: a name, what its value is (shown in `--help` as
 * `--plan file|id`) and a description. Values are taken as text and checked by the command (see `Checks.ts`), so that
 * a bad value is reported with the option's name.
 *
 * @since 0.1.0
 */
import * as Options from "@effect/cli/Options"
import type * as Option from "effect/Option"

/**
 * A required option.
 *
 * @since 0.1.0
 * @category options
 */
export const required = (name: string, value: string, description: string): Options.Options<string> =>
  Options.text(name).pipe(Options.withPseudoName(value), Options.withDescription(description))

/**
 * An option that may be left out.
 *
 * @since 0.1.0
 * @category options
 */
export const optional = (name: string, value: string, description: string): Options.Options<Option.Option<string>> =>
  Options.text(name).pipe(Options.withPseudoName(value), Options.optional, Options.withDescription(description))

/**
 * An option with a default value.
 *
 * @since 0.1.0
 * @category options
 */
export const withDefault = (
  name: string,
  value: string,
  fallback: string,
  description: string
): Options.Options<string> =>
  Options.text(name).pipe(
    Options.withPseudoName(value),
    Options.withDefault(fallback),
    Options.withDescription(description)
  )
