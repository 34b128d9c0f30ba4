/**
 * One Bearer scheme per API family in the sandbox's OpenAPI document. The three families' APIs each declare their
 * scheme under the same name (`bearer`); served as one API under their base paths, their operations would all require
 * that one scheme, and a page that tries a call (/docs) could hold one token for all three. This transform of the
 * document gives each family its own scheme, required by the operations under the family's base path (the path
 * itself or below it: `/business/exchange`, not `/business-reports`), and drops the schemes it renamed.
 *
 * @internal
 */

/** A family of the document: its base path and the Bearer scheme its operations require. @internal */
export interface Family {
  readonly prefix: string
  readonly scheme: string
  readonly description: string
}

type Requirement = Record<string, ReadonlyArray<string>>

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

/** whether `path` is the family's base path or a path below it */
const isUnder = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`)

type Operation = { security: ReadonlyArray<Requirement> }

/** the operations of a path item that name their security requirements */
const operationsOf = (item: unknown): ReadonlyArray<Operation> =>
  isRecord(item)
    ? Object.values(item).filter(
        (operation): operation is Operation => isRecord(operation) && Array.isArray(operation.security)
      )
    : []

/** the schemes that some operation of the document's paths requires */
const required = (paths: Record<string, unknown>): ReadonlySet<string> =>
  new Set(
    Object.values(paths).flatMap((item) =>
      operationsOf(item).flatMap((operation) => operation.security.flatMap(Object.keys))
    )
  )

/**
 * The transform (`OpenApi.Transform`) that gives each family its own scheme: it rewrites the security requirements of
 * the family's operations in the document it is given, and returns the document with the families' schemes in place of
 * those it renamed (a renamed scheme that an operation outside every family still requires stays).
 *
 * @internal
 */
export const perFamily =
  (families: ReadonlyArray<Family>) =>
  <Spec extends object>(spec: Spec): Spec => {
    const document = spec as { paths?: unknown; components?: { securitySchemes?: Record<string, unknown> } }
    const schemes: Record<string, unknown> = { ...document.components?.securitySchemes }
    const replaced = new Set<string>()
    const paths = isRecord(document.paths) ? document.paths : {}
    for (const { prefix, scheme: name, description } of families) {
      for (const [path, item] of Object.entries(paths)) {
        if (!isUnder(path, prefix)) continue
        for (const operation of operationsOf(item)) {
          operation.security = operation.security.map((requirement) => {
            const renamed: Requirement = {}
            for (const [scheme, scopes] of Object.entries(requirement)) {
              replaced.add(scheme)
              renamed[name] = scopes
            }
            return renamed
          })
        }
      }
      schemes[name] = { type: "http", scheme: "bearer", description }
    }
    const stillRequired = required(paths)
    for (const scheme of replaced) if (!stillRequired.has(scheme)) delete schemes[scheme]
    return { ...spec, components: { ...document.components, securitySchemes: schemes } }
  }
