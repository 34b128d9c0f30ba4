/**
 * Writes the JSON Schema (draft 2020-12) of each profile's international payment response, strict mode, to
 * schemas/international-payment.<profile>.json. Run with `pnpm --filter @payrules/open-banking generate:schemas`;
 * test/JsonSchema.test.ts fails when a committed file differs from what this script would write.
 */
import { writeFileSync } from "node:fs"
import { InternationalPayment, Profile } from "@payrules/open-banking"

for (const profile of Profile.profiles) {
  const url = new URL(`../schemas/international-payment.${profile}.json`, import.meta.url)
  writeFileSync(url, `${JSON.stringify(InternationalPayment.jsonSchema(profile), null, 2)}\n`)
  console.log(`wrote ${url.pathname}`)
}
