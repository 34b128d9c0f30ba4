/**
 * Canonical JSON written here, independently of the package's writer, as the reference of its tests: keys sorted at
 * every depth, properties that are `undefined` left out, everything else as `JSON.stringify` writes it.
 */
export const sortedJson = (u: unknown): string =>
  Array.isArray(u)
    ? `[${u.map(sortedJson).join(",")}]`
    : u !== null && typeof u === "object"
      ? `{${Object.keys(u)
          .filter((k) => (u as Record<string, unknown>)[k] !== undefined)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${sortedJson((u as Record<string, unknown>)[k])}`)
          .join(",")}}`
      : JSON.stringify(u)
