import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { OpenApiDocuments } from "@payrules/transport"

describe("committed OpenAPI documents", () => {
  it.each(OpenApiDocuments.families.map((f) => [f] as const))("openapi/%s.json is up to date", (family) => {
    const committed = readFileSync(new URL(`../openapi/${family}.json`, import.meta.url), "utf8")
    expect(committed, `openapi/${family}.json is stale: run pnpm --filter @payrules/transport generate:openapi`).toBe(
      OpenApiDocuments.render(family)
    )
  })

  it("every committed document is one of the families, and each family has one", () => {
    const committed = readdirSync(new URL("../openapi/", import.meta.url)).filter((f) => f.endsWith(".json"))
    expect(OpenApiDocuments.families.map((f) => `${f}.json`).sort()).toEqual(committed.sort())
  })

  it("documents every declared error status of every operation", () => {
    const business = OpenApiDocuments.document("business")
    expect(Object.keys(business.paths["/exchange"]?.post?.responses ?? {}).sort()).toEqual([
      "200",
      "400",
      "401",
      "413",
      "415",
      "429",
      "503"
    ])
    const merchant = OpenApiDocuments.document("merchant")
    expect(Object.keys(merchant.paths["/api/subscription-plans"]?.get?.responses ?? {}).sort()).toEqual([
      "200",
      "400",
      "401"
    ])
  })
})
