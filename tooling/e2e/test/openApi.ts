/**
 * The sandbox's OpenAPI documents as validators (ajv 8, JSON Schema 2020-12 as OpenAPI 3.1 uses it, with the
 * formats of ajv-formats checked), and raw HTTP to the sandbox with the seeded credentials.
 */
import { Sandbox } from "@payrules/sandbox"
import { OpenApiDocuments } from "@payrules/transport"
import { Ajv2020 } from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"

// ajv-formats is CommonJS: its default export is the plugin function
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

type Json = { readonly [key: string]: unknown }

/** every `format` keyword of a document */
export const formatsOf = (node: unknown, out = new Set<string>()): Set<string> => {
  if (Array.isArray(node)) for (const n of node) formatsOf(n, out)
  else if (typeof node === "object" && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "format" && typeof v === "string") out.add(v)
      else formatsOf(v, out)
    }
  }
  return out
}

const pointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1")

/** The operations of a document: path, method and the statuses it declares. */
export interface Operation {
  readonly family: OpenApiDocuments.Family
  readonly path: string
  readonly method: string
  readonly operationId: string
  readonly statuses: ReadonlyArray<string>
}

/**
 * A validator of the responses of the three documents. `check` answers the errors of a body against the schema the
 * document declares for its operation and status (as `"/instance/path: keyword message"`), or a sentence when the
 * status is not declared at all.
 */
export const makeValidator = () => {
  // strict mode off: it flags style (unknown OpenAPI keywords around the schemas), not validity; formats are checked
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true })
  addFormats(ajv)
  const documents = new Map<OpenApiDocuments.Family, Json>()
  for (const family of OpenApiDocuments.families) {
    const doc = JSON.parse(JSON.stringify(OpenApiDocuments.document(family))) as Json
    documents.set(family, doc)
    ajv.addSchema(doc, family)
  }
  const operations: Array<Operation> = []
  for (const [family, doc] of documents) {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(item)) {
        operations.push({
          family,
          path,
          method,
          operationId: String(op.operationId),
          statuses: Object.keys(op.responses as Json)
        })
      }
    }
  }
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>()
  const check = (
    family: OpenApiDocuments.Family,
    path: string,
    method: string,
    status: number,
    body: unknown
  ): ReadonlyArray<string> => {
    const op = operations.find((o) => o.family === family && o.path === path && o.method === method)
    if (op === undefined) return [`${method.toUpperCase()} ${path} is not an operation of the ${family} document`]
    if (!op.statuses.includes(String(status))) {
      return [`${method.toUpperCase()} ${path} answered ${status}, a status the document does not declare`]
    }
    const doc = documents.get(family)!
    const response = ((doc.paths as Json)[path] as Json)[method] as { responses: Record<string, Json> }
    const content = response.responses[String(status)]!.content as Record<string, { schema?: unknown }> | undefined
    if (content === undefined) return body === undefined ? [] : [`${status} declares no body, but one came`]
    const ref = `${family}#/paths/${pointer(path)}/${method}/responses/${status}/content/${pointer("application/json")}/schema`
    let validate = compiled.get(ref)
    if (validate === undefined) {
      validate = ajv.compile({ $ref: ref })
      compiled.set(ref, validate)
    }
    if (validate(body)) return []
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.keyword} ${e.message ?? ""}`.trim())
  }
  return { ajv, documents, operations, check }
}

/** What GET /__sandbox/seed says (the top level is the first tenant's data). */
export interface SeedSummary {
  readonly accounts: ReadonlyArray<{ readonly id: string; readonly currency: string; readonly institution: string }>
  readonly counterparties: ReadonlyArray<{
    readonly id: string
    readonly accounts: ReadonlyArray<{ readonly id: string; readonly corridor: string; readonly currency: string }>
    readonly cards: ReadonlyArray<{ readonly id: string }>
  }>
  readonly plans: number
  readonly payments: ReadonlyArray<{ readonly id: string; readonly status: string }>
  readonly tenants: ReadonlyArray<{ readonly id: string; readonly token: string }>
}

/** The Bearer token to call the sandbox with: its first seeded tenant's. */
export const tokenOf = (seed: SeedSummary): string => seed.tenants[0]!.token

/** A raw exchange with the sandbox: status, parsed body (or the text when it is not JSON) and headers. */
export interface Raw {
  readonly status: number
  readonly body: unknown
  readonly text: string
  readonly headers: Readonly<Record<string, string>>
}

/** Sends a request to a family's base URL and reads the answer whatever it is. */
export const send = (family: OpenApiDocuments.Family, request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function* () {
    const sandbox = yield* Sandbox.SandboxServer
    const http = yield* HttpClient.HttpClient
    const base =
      family === "open-banking"
        ? sandbox.urls.openBanking
        : family === "merchant"
          ? sandbox.urls.merchant
          : sandbox.urls.business
    const response = yield* http.execute(HttpClientRequest.prependUrl(request, base))
    const text = yield* response.text
    let body: unknown = text
    try {
      body = text === "" ? undefined : JSON.parse(text)
    } catch {
      // not JSON: kept as text, and a validator will say so
    }
    return { status: response.status, body, text, headers: response.headers } satisfies Raw
  })
