/**
 * The faults of a Schema decoding as (path, message) pairs, the shape every panel lists and places in the text.
 */
import type * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import type { Path } from "./locate.js"

export interface Issue {
  readonly path: Path
  readonly message: string
}

const standard = SchemaIssue.makeFormatterStandardSchemaV1()

export const issuesOf = (error: Schema.SchemaError): ReadonlyArray<Issue> =>
  standard(error.issue).issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((segment) => {
      const key = typeof segment === "object" ? segment.key : segment
      return typeof key === "number" ? key : String(key)
    })
  }))
