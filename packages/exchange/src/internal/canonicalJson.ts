/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, strings and numbers as `JSON.stringify`
 * writes them. Two JSON values get the same text exactly when they are equal, whatever the order of their keys.
 *
 * @internal
 */

/**
 * `leaf` writes the values that are not plain JSON (it returns `undefined` for the others); `undefined` properties
 * are left out, as `JSON.stringify` does.
 *
 * @internal
 */
export const stringify = (value: unknown, leaf: (value: object) => string | undefined): string => {
  if (value === null) return "null"
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value)
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null"
    case "object": {
      const custom = leaf(value)
      if (custom !== undefined) return custom
      if (Array.isArray(value)) return `[${value.map((v) => stringify(v, leaf)).join(",")}]`
      const record = value as Record<string, unknown>
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort()
      return `{${keys.map((k) => `${JSON.stringify(k)}:${stringify(record[k], leaf)}`).join(",")}}`
    }
    default:
      return "null"
  }
}
