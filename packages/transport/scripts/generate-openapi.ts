/**
 * Writes openapi/<family>.json from the HttpApi definitions:
 *
 *   pnpm --filter @payrules/transport generate:openapi
 */
import { writeFileSync } from "node:fs"
import { OpenApiDocuments } from "@payrules/transport"

for (const family of OpenApiDocuments.families) {
  const file = new URL(`../openapi/${family}.json`, import.meta.url)
  writeFileSync(file, OpenApiDocuments.render(family))
  console.log(`wrote openapi/${family}.json`)
}
