/**
 * Text fields with Open Banking's MaxNText limits, counted in Unicode code points (D6), and what their arbitraries
 * draw.
 *
 * @internal
 */
import { SchemeLimits } from "@payrules/accounts"
import * as Schema from "effect/Schema"

/** An input shortened for error messages, so that a huge payload does not make a huge message. */
export const preview = (input: string): string => (input.length > 48 ? `${input.slice(0, 45)}...` : input)

/** Letters, digits and `-`: what opaque identifiers are usually made of (a regular expression class). */
export const ID_CHARACTERS = "[A-Za-z0-9-]"

/** Escapes a string for a regular expression. */
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A regular expression group that matches one of `values`. */
export const alternatives = (values: ReadonlyArray<string>): string => `(?:${values.map(escape).join("|")})`

/**
 * A regular expression source that matches exactly one of `values`: the generation hint of a field whose arbitrary
 * draws from a list (scheme names, countries).
 */
export const oneOfPattern = (values: ReadonlyArray<string>): string => `^${alternatives(values)}$`

/**
 * A string of `min..max` Unicode code points (Open Banking's MaxNText with minLength 1). `kind` names the limit in
 * messages (`Max35Text`). Its arbitrary draws `min..max` code points, printable ASCII and characters outside the BMP,
 * or, with `pattern`, strings of that regular expression source (opaque ids, scheme names): a hint for generation
 * only, the check stays the length.
 */
export const text = (kind: string, min: number, max: number, pattern?: string): Schema.Codec<string> =>
  Schema.String.check(
    Schema.makeFilter(
      (s: string) => {
        // a string of `length` UTF-16 units has between length / 2 and length code points: most are decided without
        // counting them
        if (s.length <= max && s.length >= 2 * min) return undefined
        const n = SchemeLimits.codePointLength(s)
        if (n >= min && n <= max) return undefined
        return n < min
          ? `expected at least ${min} character${min === 1 ? "" : "s"} (${kind}), got ${n}`
          : `expected at most ${max} characters (${kind}), got ${n}`
      },
      {
        expected: `${min} to ${max} characters (${kind})`,
        description: `${min} to ${max} characters (${kind}, counted in Unicode code points)`,
        toJsonSchema: () => ({ minLength: min, maxLength: max }),
        arbitraryConstraint:
          pattern === undefined
            ? { minCodePoints: min, maxCodePoints: max }
            : { minCodePoints: min, maxCodePoints: max, patterns: [{ source: pattern, flags: "" }] }
      }
    )
  )
