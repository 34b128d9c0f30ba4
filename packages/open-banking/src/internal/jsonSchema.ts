/**
 * Turns what `Schema.toJsonSchemaDocument` emits into a JSON Schema draft 2020-12 document that admits unknown
 * properties.
 *
 * @internal
 */
import type * as JsonSchema from "effect/JsonSchema"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
const DRAFT_07 = "http://json-schema.org/draft-07/schema#"

/**
 * One JSON object from an effect `JsonSchema.Document` (its root schema, `$schema`, and its definitions under `$defs`
 * in draft 2020-12 or `definitions` in draft-07).
 */
export const fromDocument = (
  document: JsonSchema.Document<"draft-2020-12"> | JsonSchema.Document<"draft-07">
): { readonly [key: string]: unknown } => {
  const draft07 = document.dialect === "draft-07"
  const defs =
    Object.keys(document.definitions).length === 0 ? {} : { [draft07 ? "definitions" : "$defs"]: document.definitions }
  return { $schema: draft07 ? DRAFT_07 : DRAFT_2020_12, ...document.schema, ...defs }
}

const isObject = (u: unknown): u is { readonly [key: string]: unknown } =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Rewrites one node: `definitions` becomes `$defs` and `#/definitions/...` references `#/$defs/...` (draft-07 output),
 * a draft-07 tuple (`items` as an array, `additionalItems`) becomes `prefixItems` / `items`, and
 * `additionalProperties: false` is dropped from objects with `properties`, because the decoders tolerate (and drop)
 * fields they do not know; an empty `required` is left out.
 */
const rewrite = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(rewrite)
  if (!isObject(node)) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === "additionalProperties" && value === false && "properties" in node) continue
    if (key === "required" && Array.isArray(value) && value.length === 0) continue
    if (key === "$ref" && typeof value === "string") {
      out.$ref = value.replace(/^#\/definitions\//, "#/$defs/")
      continue
    }
    if (key === "definitions") {
      out.$defs = rewrite(value)
      continue
    }
    if (key === "items" && Array.isArray(value)) {
      out.prefixItems = rewrite(value)
      continue
    }
    if (key === "additionalItems") {
      out.items = rewrite(value)
      continue
    }
    out[key] = rewrite(value)
  }
  return out
}

/**
 * A draft 2020-12 document from a JSON Schema object of draft 2020-12 or draft-07 (see {@link fromDocument}), with a
 * title and a description, keys in a stable order: `$schema`, `title`, `description`, `$ref`, the rest, `$defs`.
 */
export const toDraft202012 = (
  document: object,
  about: { readonly title: string; readonly description: string }
): { readonly [key: string]: Json } => {
  const rewritten = rewrite(document) as Record<string, Json>
  const { $defs, $ref, $schema: _ignored, ...rest } = rewritten
  return {
    $schema: DRAFT_2020_12,
    title: about.title,
    description: about.description,
    ...($ref === undefined ? {} : { $ref }),
    ...rest,
    ...($defs === undefined ? {} : { $defs })
  }
}
