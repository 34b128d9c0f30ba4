/**
 * What the read fuzz test (ReadFuzz.test.ts) changes in an answer, found from the sandbox's own OpenAPI documents: each
 * `enum` the response schema declares at a place the answer fills (an enum site), and the lists whose items a reader
 * keeps one by one (a list site). The answer is walked beside its schema (`$ref`s resolved, the `anyOf` branch of the
 * value's JSON type taken), so the sites are the document's, not hand-listed.
 */
import fc from "fast-check"

type Json = { readonly [key: string]: unknown }
type Path = ReadonlyArray<string | number>

export type Site =
  | { readonly kind: "enum"; readonly path: Path; readonly values: ReadonlyArray<string> }
  | { readonly kind: "list"; readonly path: Path; readonly length: number; readonly item: Json }

const jsonType = (u: unknown): string =>
  u === null ? "null" : Array.isArray(u) ? "array" : typeof u === "number" ? "number" : typeof u

const typeMatches = (schema: Json, u: unknown): boolean => {
  const t = schema.type
  const actual = jsonType(u)
  const matches = (name: unknown) => name === actual || (name === "integer" && actual === "number")
  if (t === undefined) return true
  return Array.isArray(t) ? t.some(matches) : matches(t)
}

/**
 * The enum and list sites of `value` under `schema` (a node of `doc`). `lists` says which lists count as list sites:
 * a predicate on the list's path (the readers keep items of their top-level lists, not of the lists inside an item).
 */
export const sitesOf = (
  doc: Json,
  schema: Json,
  value: unknown,
  lists: (path: Path) => boolean
): ReadonlyArray<Site> => {
  const sites: Array<Site> = []
  const resolve = (node: Json): Json => {
    let n = node
    for (let i = 0; i < 32 && typeof n.$ref === "string"; i++) {
      const ref = n.$ref as string
      if (!ref.startsWith("#/")) throw new Error(`an external $ref: ${ref}`)
      n = ref
        .slice(2)
        .split("/")
        .reduce<unknown>((at, key) => (at as Json)[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc) as Json
    }
    return n
  }
  const walk = (node: Json, u: unknown, path: Array<string | number>): void => {
    const s = resolve(node)
    for (const key of ["anyOf", "oneOf"] as const) {
      const branches = s[key]
      if (Array.isArray(branches)) {
        const branch = (branches as ReadonlyArray<Json>).map(resolve).find((b) => typeMatches(b, u))
        if (branch !== undefined) walk(branch, u, path)
        return
      }
    }
    if (Array.isArray(s.allOf)) for (const part of s.allOf as ReadonlyArray<Json>) walk(part, u, path)
    if (Array.isArray(s.enum) && typeof u === "string" && s.enum.every((v) => typeof v === "string")) {
      sites.push({ kind: "enum", path: [...path], values: s.enum as ReadonlyArray<string> })
    }
    if (Array.isArray(u) && typeof s.items === "object" && s.items !== null) {
      const item = resolve(s.items as Json)
      if (lists(path) && u.length > 0) sites.push({ kind: "list", path: [...path], length: u.length, item })
      u.forEach((x, i) => {
        path.push(i)
        walk(item, x, path)
        path.pop()
      })
    }
    if (jsonType(u) === "object" && typeof s.properties === "object" && s.properties !== null) {
      for (const [key, sub] of Object.entries(s.properties as Record<string, Json>)) {
        if (Object.hasOwn(u as object, key)) {
          path.push(key)
          walk(sub, (u as Json)[key], path)
          path.pop()
        }
      }
    }
  }
  walk(schema, value, [])
  return sites
}

/** a copy of `value` with the value at `path` replaced */
export const setAt = (value: unknown, path: Path, replacement: unknown): unknown => {
  if (path.length === 0) return replacement
  const [head, ...rest] = path
  if (Array.isArray(value)) return value.map((x, i) => (i === head ? setAt(x, rest, replacement) : x))
  return { ...(value as Json), [head as string]: setAt((value as Json)[head as string], rest, replacement) }
}

export const getAt = (value: unknown, path: Path): unknown =>
  path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], value)

/** a well-formed enum value (1 to 128 visible ASCII characters) that is none of `known`: what a later API could add */
export const unknownValue = (known: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc
    .oneof(
      fc.constantFrom("held", "archived", "AcceptedWithChange", "UK.OBIE.Wallet", "on_hold"),
      fc.string({
        unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
        minLength: 1,
        maxLength: 128
      })
    )
    .filter((s) => !known.includes(s))

/**
 * An item no reader can take: not an object, an empty object (its required fields missing), or a required field of
 * the wrong JSON type.
 */
export const corruptedItem = (item: Json, original: unknown): fc.Arbitrary<unknown> => {
  const required = Array.isArray(item.required) ? (item.required as ReadonlyArray<string>) : []
  const wrongField =
    required.length === 0 || jsonType(original) !== "object"
      ? []
      : [
          fc.constantFrom(...required).map((key) => {
            const current = (original as Json)[key]
            return { ...(original as Json), [key]: jsonType(current) === "object" ? 42 : { corrupted: true } }
          })
        ]
  return fc.oneof(
    fc.constantFrom<unknown>(null, 42, "corrupted", [], true),
    ...(required.length > 0 ? [fc.constant({})] : []),
    ...wrongField
  )
}

/** What the fuzzer did to one answer. */
export interface Mutated {
  readonly body: unknown
  /** the enum sites given an unknown value, with that value */
  readonly unknowns: ReadonlyArray<{ readonly path: Path; readonly value: string }>
  /** the list items corrupted: the list's path and the item's index */
  readonly corrupted: ReadonlyArray<{ readonly path: Path; readonly index: number }>
}

/**
 * An arbitrary of mutations of `body`: each enum site takes an unknown value with probability 1/3, and each list site
 * has one item corrupted with probability 1/2 (the other items untouched).
 */
export const mutationsOf = (body: unknown, sites: ReadonlyArray<Site>): fc.Arbitrary<Mutated> =>
  fc
    .tuple(
      ...sites.map((site) =>
        site.kind === "enum"
          ? fc
              .oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: unknownValue(site.values), weight: 1 })
              .map((value) => ({ site, value: value as unknown, index: 0 }))
          : fc.oneof(fc.constant(null), fc.nat({ max: site.length - 1 })).chain((index) =>
              index === null
                ? fc.constant({ site, value: null as unknown, index: -1 })
                : corruptedItem(site.item, getAt(body, [...site.path, index])).map((value) => ({
                    site,
                    value,
                    index
                  }))
            )
      )
    )
    .map((choices) => {
      let out = body
      const unknowns: Array<{ path: Path; value: string }> = []
      const corrupted: Array<{ path: Path; index: number }> = []
      // corrupt items last: an item replaced whole takes the enum values changed inside it with it
      for (const { site, value } of choices) {
        if (site.kind === "enum" && value !== null) {
          out = setAt(out, site.path, value)
          unknowns.push({ path: site.path, value: value as string })
        }
      }
      for (const { index, site, value } of choices) {
        if (site.kind === "list" && index >= 0) {
          out = setAt(out, [...site.path, index], value)
          corrupted.push({ path: site.path, index })
        }
      }
      return { body: out, unknowns, corrupted }
    })
