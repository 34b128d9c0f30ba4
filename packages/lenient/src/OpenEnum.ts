/**
 * Enums read from a server, open to the values a later version of the API adds (D11, issue 34). A value this release
 * knows decodes as before (the literal itself); a well-formed value it does not know decodes to `{ _tag: "Unknown",
 * value }`, which keeps the raw text, encodes back to it unchanged, and is reported as a finding by the package that
 * reads it (see {@link findUnknown}). What is not well-formed (not a string, empty, control characters, longer than
 * {@link maxLength}) is still a decoding error.
 *
 * The strict Schemas stay strict: what payrules sends, and the strict Schemas of each package, refuse an unknown value.
 *
 * @since 0.1.0
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

/**
 * A value of an enum that this version does not know, kept as it was sent.
 *
 * @since 0.1.0
 * @category models
 */
export interface Unknown {
  readonly _tag: "Unknown"
  /** the raw value, as the server sent it */
  readonly value: string
}

/**
 * An enum read from a server: one of the values this version knows, or an {@link Unknown} one.
 *
 * @since 0.1.0
 * @category models
 */
export type OpenEnum<A extends string> = A | Unknown

/**
 * @since 0.1.0
 * @category constructors
 */
export const unknown = (value: string): Unknown => ({ _tag: "Unknown", value })

/**
 * @since 0.1.0
 * @category predicates
 */
export const isUnknown = (u: unknown): u is Unknown =>
  Predicate.hasProperty(u, "_tag") &&
  u._tag === "Unknown" &&
  Predicate.hasProperty(u, "value") &&
  typeof u.value === "string"

/**
 * The value as sent: the literal itself, or the raw text of an {@link Unknown} one.
 *
 * @since 0.1.0
 * @category getters
 */
export const valueOf = <A extends string>(self: OpenEnum<A>): string => (typeof self === "string" ? self : self.value)

/**
 * The longest value read as an unknown enum value; a longer one is a decoding error (a hostile or corrupted value, not
 * a name an API would add).
 *
 * @since 0.1.0
 * @category constants
 */
export const maxLength = 128

/**
 * A well-formed enum value: 1 to {@link maxLength} visible ASCII characters (letters, digits, punctuation; no space or
 * control character), the alphabet of every enum of the three APIs.
 *
 * @since 0.1.0
 * @category constants
 */
export const wellFormed: RegExp = /^[\x21-\x7e]{1,128}$/

const wellFormedCheck = (message: string) => Schema.isPattern(wellFormed, { message })

const defaultMessage = `an enum value is 1 to ${maxLength} visible ASCII characters (no space or control character)`

/** the type side of the Unknown case: what its arbitrary draws is well-formed and none of `known` */
const UnknownValue = (known: ReadonlyArray<string>, identifier: string) => {
  const knownSet = new Set(known)
  return Schema.Struct({
    _tag: Schema.tag("Unknown"),
    value: Schema.String.check(
      wellFormedCheck(defaultMessage),
      Schema.makeFilter((s: string) => (knownSet.has(s) ? `${JSON.stringify(s)} is a known value` : undefined))
    )
  }).annotate({ identifier })
}

/**
 * The {@link Unknown} case of an enum alone, from its wire form: a well-formed string that is none of `known`. Its
 * arbitrary draws what a later version of the API could send.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UnknownFromString = (
  known: ReadonlyArray<string>,
  options?: { readonly identifier?: string }
): Schema.Codec<Unknown, string> =>
  Schema.String.check(wellFormedCheck(defaultMessage)).pipe(
    Schema.decodeTo(
      UnknownValue(known, options?.identifier ?? "UnknownEnumValue"),
      SchemaTransformation.transform({ decode: unknown, encode: (u: Unknown) => u.value })
    )
  )

/**
 * An open enum: each of `known` decodes to itself, any other well-formed string to {@link Unknown}; both encode back
 * to the text that was read. A value that is not well-formed fails with one message, at the field's own path.
 *
 * @example
 * ```ts
 * import { OpenEnum } from "@payrules/lenient"
 * import { Schema } from "effect"
 *
 * const State = OpenEnum.make(["active", "deactivated"], { identifier: "PlanState" })
 * console.log(Schema.decodeUnknownSync(State)("active")) // "active"
 * console.log(Schema.decodeUnknownSync(State)("archived")) // { _tag: "Unknown", value: "archived" }
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const make = <const L extends ReadonlyArray<string>>(
  known: L,
  options: { readonly identifier: string; readonly description?: string }
): Schema.Codec<L[number] | Unknown, string> => {
  const knownSet: ReadonlySet<string> = new Set(known)
  const message = `${options.identifier} is one of ${known.join(", ")}, or another value of 1 to ${maxLength} visible ASCII characters`
  const decode = (s: string): L[number] | Unknown => (knownSet.has(s) ? s : unknown(s))
  return Schema.String.annotate({ message })
    .check(wellFormedCheck(message))
    .pipe(
      Schema.decodeTo(
        Schema.Union([Schema.Literals(known), UnknownValue(known, `${options.identifier}Unknown`)]),
        SchemaTransformation.transform({ decode, encode: valueOf })
      )
    )
    .annotate({
      identifier: options.identifier,
      description:
        options.description ??
        `one of ${known.join(", ")}, or a value added to the API since (kept as { _tag: "Unknown", value })`
    })
}

/**
 * Where an {@link Unknown} value sits in a decoded value.
 *
 * @since 0.1.0
 * @category models
 */
export interface Found {
  readonly path: ReadonlyArray<string | number>
  readonly value: string
}

const isPlain = (u: object): boolean => {
  const proto = Object.getPrototypeOf(u)
  return proto === Object.prototype || proto === null
}

/**
 * Every {@link Unknown} value in a decoded value, with its path, in document order. It walks arrays and plain objects
 * only (a `DateTime` or `BigDecimal` holds no enum), so it is cheap on what a Schema decodes.
 *
 * @since 0.1.0
 * @category getters
 */
export const findUnknown = (value: unknown): ReadonlyArray<Found> => {
  const found: Array<Found> = []
  const walk = (u: unknown, path: Array<string | number>): void => {
    if (typeof u !== "object" || u === null) return
    if (Array.isArray(u)) {
      for (const [i, item] of u.entries()) {
        path.push(i)
        walk(item, path)
        path.pop()
      }
      return
    }
    if (!isPlain(u)) return
    if (isUnknown(u)) {
      found.push({ path: [...path], value: u.value })
      return
    }
    for (const key of Object.keys(u)) {
      path.push(key)
      walk((u as Record<string, unknown>)[key], path)
      path.pop()
    }
  }
  walk(value, [])
  return found
}

/**
 * The message of a finding about an {@link Unknown} value.
 *
 * @since 0.1.0
 * @category getters
 */
export const message = (found: Found): string => {
  const last = found.path.at(-1)
  const what = typeof last === "string" ? last : "the value"
  return `${what} ${JSON.stringify(found.value)} is not a value this version of payrules knows: read as { _tag: "Unknown", value: ${JSON.stringify(found.value)} }`
}
