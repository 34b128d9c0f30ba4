/**
 * A small JSON Schema draft 2020-12 validator for the keywords that the generated documents use, so that the tests
 * can check the committed schemas against payloads without a validator dependency. An unknown keyword is an error.
 */
type Schema = { readonly [key: string]: unknown } | boolean

const ANNOTATIONS = new Set(["$schema", "$id", "title", "description", "examples", "default", "format", "$comment"])
const ASSERTIONS = new Set([
  "$ref",
  "$defs",
  "allOf",
  "anyOf",
  "oneOf",
  "type",
  "enum",
  "const",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems"
])

const codePoints = (s: string) => [...s].length

const typeOf = (u: unknown): string =>
  u === null
    ? "null"
    : Array.isArray(u)
      ? "array"
      : typeof u === "number"
        ? Number.isInteger(u)
          ? "integer"
          : "number"
        : typeof u

/** the paths where `value` breaks `schema`, empty when it is valid */
export const validate = (root: Schema, value: unknown): ReadonlyArray<string> => {
  const errors: Array<string> = []
  const go = (schema: Schema, v: unknown, at: string): void => {
    if (schema === true) return
    if (schema === false) {
      errors.push(`${at}: false schema`)
      return
    }
    for (const key of Object.keys(schema)) {
      if (!ANNOTATIONS.has(key) && !ASSERTIONS.has(key)) throw new Error(`unsupported keyword ${key} at ${at}`)
    }
    const s = schema as Record<string, unknown>
    if (typeof s.$ref === "string") {
      const name = s.$ref.replace(/^#\/\$defs\//, "")
      const defs = (root as Record<string, Record<string, Schema>>).$defs
      const target = defs?.[name]
      if (target === undefined || !s.$ref.startsWith("#/$defs/")) throw new Error(`unresolved $ref ${s.$ref}`)
      go(target, v, at)
    }
    if (Array.isArray(s.allOf)) for (const sub of s.allOf) go(sub as Schema, v, at)
    if (Array.isArray(s.anyOf)) {
      const ok = s.anyOf.some((sub) => validate({ ...(root as object), ...(sub as object) }, v).length === 0)
      if (!ok) errors.push(`${at}: anyOf`)
    }
    if (typeof s.type === "string") {
      const t = typeOf(v)
      if (!(t === s.type || (s.type === "number" && t === "integer"))) {
        errors.push(`${at}: expected ${s.type}`)
        return
      }
    }
    if (Array.isArray(s.enum) && !s.enum.includes(v)) errors.push(`${at}: enum`)
    if (typeof v === "string") {
      if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(v)) errors.push(`${at}: pattern`)
      if (typeof s.minLength === "number" && codePoints(v) < s.minLength) errors.push(`${at}: minLength`)
      if (typeof s.maxLength === "number" && codePoints(v) > s.maxLength) errors.push(`${at}: maxLength`)
    }
    if (typeof v === "number") {
      if (typeof s.minimum === "number" && v < s.minimum) errors.push(`${at}: minimum`)
      if (typeof s.maximum === "number" && v > s.maximum) errors.push(`${at}: maximum`)
    }
    if (typeOf(v) === "object") {
      const o = v as Record<string, unknown>
      if (Array.isArray(s.required))
        for (const k of s.required) if (!Object.hasOwn(o, k as string)) errors.push(`${at}.${k}: required`)
      const properties = (s.properties ?? {}) as Record<string, Schema>
      for (const [k, sub] of Object.entries(properties)) if (Object.hasOwn(o, k)) go(sub, o[k], `${at}.${k}`)
      if (s.additionalProperties !== undefined) {
        for (const k of Object.keys(o))
          if (!Object.hasOwn(properties, k)) go(s.additionalProperties as Schema, o[k], `${at}.${k}`)
      }
    }
    if (Array.isArray(v)) {
      const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as ReadonlyArray<Schema>) : []
      v.forEach((item, i) => {
        if (i < prefix.length) go(prefix[i]!, item, `${at}[${i}]`)
        else if (s.items !== undefined) go(s.items as Schema, item, `${at}[${i}]`)
      })
      if (typeof s.minItems === "number" && v.length < s.minItems) errors.push(`${at}: minItems`)
      if (typeof s.maxItems === "number" && v.length > s.maxItems) errors.push(`${at}: maxItems`)
    }
  }
  go(root, value, "$")
  return errors
}
