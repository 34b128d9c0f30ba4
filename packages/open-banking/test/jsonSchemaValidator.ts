/**
 * The committed documents are checked with ajv's draft 2020-12 validator: errors as "$.path: keyword" (a missing
 * property as "$.path.Name: required").
 */
import { Ajv2020 } from "ajv/dist/2020.js"

// strict mode off: it flags style (a `required` in an `allOf` branch, `maximum` beside a `type` elsewhere), not validity
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false })
const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>()

export const validate = (schema: { readonly [key: string]: unknown }, value: unknown): ReadonlyArray<string> => {
  let check = compiled.get(schema)
  if (check === undefined) {
    check = ajv.compile(schema)
    compiled.set(schema, check)
  }
  if (check(value)) return []
  return (check.errors ?? []).map((e) => {
    const path = e.instancePath
      .split("/")
      .slice(1)
      .map((s) => `.${s}`)
      .join("")
    const missing =
      e.keyword === "required" ? `.${String((e.params as { missingProperty: string }).missingProperty)}` : ""
    return `$${path}${missing}: ${e.keyword}`
  })
}
