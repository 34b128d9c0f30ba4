/**
 * Text fields with Open Banking's MaxNText limits, counted in Unicode code points (D6), and their arbitraries.
 *
 * @internal
 */
import { SchemeLimits } from "@payrules/accounts"
import type { LazyArbitrary } from "effect/Arbitrary"
import * as Schema from "effect/Schema"

/** The fast-check module as effect's `Arbitrary` passes it to annotations (effect's own copy). */
export type FastCheckModule = Parameters<LazyArbitrary<unknown>>[0]

/** A fast-check arbitrary of effect's copy of fast-check. */
export type Arb<A> = ReturnType<LazyArbitrary<A>>

/** An input shortened for error messages, so that a huge payload does not make a huge message. */
export const preview = (input: string): string => (input.length > 48 ? `${input.slice(0, 45)}...` : input)

const ASCII = " !#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~".split("")
const WIDE = ["é", "ß", "€", "中", "ł", "🎉", "𝄞", "Ω"]

/** Strings of `min..max` code points, mostly printable ASCII with some characters outside Latin-1 and the BMP. */
export const textArbitrary = (fc: FastCheckModule, min: number, max: number): Arb<string> =>
  fc.string({
    unit: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...ASCII) },
      { weight: 1, arbitrary: fc.constantFrom(...WIDE) }
    ),
    minLength: min,
    maxLength: max
  })

/** Strings of `min..max` characters of `alphabet`. */
export const stringOf = (fc: FastCheckModule, alphabet: string, min: number, max: number): Arb<string> =>
  fc.string({ unit: fc.constantFrom(...alphabet.split("")), minLength: min, maxLength: max })

/** Letters, digits and `-`: what opaque identifiers are usually made of. */
export const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"

/**
 * A string of `min..max` Unicode code points (Open Banking's MaxNText with minLength 1). `kind` names the limit in
 * messages (`Max35Text`); `arbitrary` replaces the default generator.
 */
export const text = (
  kind: string,
  min: number,
  max: number,
  arbitrary?: (fc: FastCheckModule) => Arb<string>
): Schema.Schema<string> =>
  Schema.String.pipe(
    Schema.filter(
      (s) => {
        const n = SchemeLimits.codePointLength(s)
        if (n >= min && n <= max) return undefined
        return n < min
          ? `expected at least ${min} character${min === 1 ? "" : "s"} (${kind}), got ${n}`
          : `expected at most ${max} characters (${kind}), got ${n}`
      },
      {
        description: `${min} to ${max} characters (${kind}, counted in Unicode code points)`,
        jsonSchema: { minLength: min, maxLength: max },
        arbitrary: () => (fc) => (arbitrary === undefined ? textArbitrary(fc, min, max) : arbitrary(fc))
      }
    )
  )
