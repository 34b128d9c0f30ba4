import { describe, expect, it } from "@effect/vitest"
import { SandboxApi } from "@payrules/sandbox"
import * as OpenApi from "effect/http-api/OpenApi"
import * as OpenApiSecurity from "../src/internal/openApiSecurity.js"
import { lazily } from "./helpers.js"

// The sandbox's OpenAPI document (served as /openapi.json's source and rendered by /docs) gives each family its own
// Bearer scheme: a page that tries a call holds one token per family and sends the right one. Checked on the document
// itself (the browser test in docsBrowser.test.ts checks the page), and on the transform with documents effect never
// writes (a base path that is the prefix of another, a path item that is not an object, scopes).

type Document = {
  readonly paths: Record<
    string,
    Record<string, { readonly security?: ReadonlyArray<Record<string, ReadonlyArray<string>>> }>
  >
  readonly components: { readonly securitySchemes: Record<string, unknown> }
}

const families = [
  { name: "openBanking", api: "Open Banking API" },
  { name: "merchant", api: "merchant API" },
  { name: "business", api: "business API" }
] as const

describe("sandbox: the OpenAPI document's security", () => {
  // made in the tests, not when the file loads (see @payrules/vitest/Lazy)
  const document = lazily(() => OpenApi.fromApi(SandboxApi.SandboxApi) as unknown as Document)

  it("declares one Bearer scheme per family, described for that family's tokens, and no shared one", () => {
    expect(Object.keys(document().components.securitySchemes).sort()).toEqual(
      Object.values(SandboxApi.securitySchemes).sort()
    )
    for (const { name, api } of families) {
      const scheme = document().components.securitySchemes[SandboxApi.securitySchemes[name]] as Record<string, string>
      expect(scheme.type).toBe("http")
      expect(scheme.scheme).toBe("bearer")
      expect(scheme.description).toContain(api)
      expect(scheme.description).toContain("GET /__sandbox/seed")
    }
  })

  it("has every operation of a family require that family's scheme, and the control endpoints none", () => {
    const seen = new Set<string>()
    for (const [path, item] of Object.entries(document().paths)) {
      const family = families.find(({ name }) => path.startsWith(`${SandboxApi.basePaths[name]}/`))
      for (const [method, operation] of Object.entries(item)) {
        if (family === undefined) {
          expect(path.startsWith("/__sandbox/"), path).toBe(true)
          expect(operation.security ?? [], `${method} ${path}`).toEqual([])
        } else {
          expect(operation.security, `${method} ${path}`).toEqual([{ [SandboxApi.securitySchemes[family.name]]: [] }])
          seen.add(family.name)
        }
      }
    }
    expect([...seen].sort()).toEqual(families.map(({ name }) => name).sort())
  })
})

describe("sandbox: OpenApiSecurity.perFamily", () => {
  const perFamily = <Spec extends object>(spec: Spec): Spec =>
    OpenApiSecurity.perFamily([
      { prefix: "/business", scheme: "BusinessBearer", description: "business tokens" },
      { prefix: "/merchant", scheme: "MerchantBearer", description: "merchant tokens" }
    ])(spec)
  const bearer = { type: "http", scheme: "bearer" }
  const apiKey = { type: "apiKey", in: "header", name: "x-api-key" }

  it("renames a requirement at a base path and below it, not under a path that merely starts with its text", () => {
    const spec = perFamily({
      paths: {
        "/business": { get: { security: [{ bearer: [] }] } },
        "/business/exchange": { post: { security: [{ bearer: [] }] }, get: { security: [{ bearer: [] }] } },
        "/business-reports/daily": { get: { security: [{ bearer: [] }] } },
        "/merchant/api/subscription-plans": { get: { security: [{ bearer: [] }] } }
      },
      components: { securitySchemes: { bearer } }
    }) as unknown as Document
    expect(spec.paths["/business"]?.get?.security).toEqual([{ BusinessBearer: [] }])
    expect(spec.paths["/business/exchange"]?.post?.security).toEqual([{ BusinessBearer: [] }])
    expect(spec.paths["/business/exchange"]?.get?.security).toEqual([{ BusinessBearer: [] }])
    expect(spec.paths["/merchant/api/subscription-plans"]?.get?.security).toEqual([{ MerchantBearer: [] }])
    // outside every family: its requirement, and so the scheme it names, stay
    expect(spec.paths["/business-reports/daily"]?.get?.security).toEqual([{ bearer: [] }])
    expect(spec.components.securitySchemes).toEqual({
      BusinessBearer: { ...bearer, description: "business tokens" },
      MerchantBearer: { ...bearer, description: "merchant tokens" },
      bearer
    })
  })

  it("drops a scheme it renamed everywhere, keeps the others, and keeps each requirement's scopes", () => {
    const spec = perFamily({
      paths: {
        "/business/exchange": { post: { security: [{ bearer: ["write"] }, { key: [] }] } },
        "/status": { get: { security: [{ key: [] }] } }
      },
      components: { securitySchemes: { bearer, key: apiKey }, schemas: { Amount: { type: "string" } } }
    }) as unknown as Document & { components: { schemas: unknown } }
    // each requirement of an operation stays an alternative, under the family's scheme with its scopes
    expect(spec.paths["/business/exchange"]?.post?.security).toEqual([
      { BusinessBearer: ["write"] },
      { BusinessBearer: [] }
    ])
    expect(spec.paths["/status"]?.get?.security).toEqual([{ key: [] }])
    expect(spec.components.securitySchemes).toEqual({
      key: apiKey,
      BusinessBearer: { ...bearer, description: "business tokens" },
      MerchantBearer: { ...bearer, description: "merchant tokens" }
    })
    // the rest of the components and of the document stay as they were
    expect(spec.components.schemas).toEqual({ Amount: { type: "string" } })
  })

  it("passes over what is not an operation with requirements: a null path item, parameters, an open operation", () => {
    const parameters = [{ name: "id", in: "path" }]
    const spec = perFamily({
      openapi: "3.1.0",
      paths: {
        "/business/null": null,
        "/business/text": "not an item",
        "/business/exchange": { parameters, summary: "exchange", post: {}, get: { security: [] } }
      }
    }) as unknown as Document & { openapi: string }
    expect(spec.openapi).toBe("3.1.0")
    expect(spec.paths["/business/null"]).toBeNull()
    expect(spec.paths["/business/exchange"]).toEqual({
      parameters,
      summary: "exchange",
      post: {},
      get: { security: [] }
    })
    // a document without components gets the families' schemes
    expect(Object.keys(spec.components.securitySchemes)).toEqual(["BusinessBearer", "MerchantBearer"])
  })

  it("gives a document without paths the families' schemes and nothing else", () => {
    expect(perFamily({ info: { title: "t" } })).toEqual({
      info: { title: "t" },
      components: {
        securitySchemes: {
          BusinessBearer: { ...bearer, description: "business tokens" },
          MerchantBearer: { ...bearer, description: "merchant tokens" }
        }
      }
    })
  })
})
