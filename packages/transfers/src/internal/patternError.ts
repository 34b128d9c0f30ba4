import * as RuleError from "../RuleError.js"
import type { Failure } from "./regexParse.js"

/** A pattern failure as the `RuleError` of a field (or of a pattern compiled on its own). */
export const failureToError = (source: string, field: string | undefined, f: Failure): RuleError.RuleError => {
  const shown = source.length > 60 ? `${source.slice(0, 57)}...` : source
  return RuleError.make(
    f.reason,
    field,
    `${field === undefined ? "" : `${field}: `}${
      f.reason === "UnsupportedPattern"
        ? `the pattern ${JSON.stringify(shown)} uses ${f.construct}, which a linear-time engine cannot run: ${f.detail}`
        : `the pattern ${JSON.stringify(shown)} is not a valid regular expression at position ${f.position}: ${f.detail}`
    }`,
    f.construct
  )
}
