/**
 * A property-based API fuzz test of the sandbox, standing in for Schemathesis (which needs Python packages this
 * project cannot install): for every operation of the sandbox's OpenAPI documents it sends generated requests,
 * valid ones drawn from the endpoint Schemas' own arbitraries (effect's `Arbitrary.schema`), valid ones with the
 * seeded ids put in (so that they reach the success paths), and mutated or invalid ones (no or malformed credentials,
 * bodies that are not JSON or not of the Schema, garbage headers, query parameters and path segments, the wrong
 * content type). It fails on any 5xx, on any response that breaks the document (a status it does not declare, or a body
 * that does not validate, formats checked), and on any crash (a request without an answer). Deterministic: every
 * request comes from fixed seeds (effect's Arbitrary for what the Schemas generate, fast-check for the seeded ids and
 * the mutations); bounded: a fixed number of requests per operation.
 */
import { expect, layer } from "@effect/vitest"
import { BusinessApi, MerchantApi, type OpenApiDocuments, OpenBankingApi } from "@payrules/transport"
import { hostileJson } from "@payrules/vitest"
import { Arbitrary, Effect, Result, Schema, SchemaAST } from "effect"
import { HttpClientRequest } from "effect/http"
import type { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import fc from "fast-check"
import { control, withSandbox } from "./layers.js"
import { makeValidator, type SeedSummary, send, tokenOf } from "./openApi.js"

/** requests per operation: valid, valid with seeded ids, mutated */
const PER_OPERATION = { valid: 12, seeded: 14, mutated: 22 } as const
const SEED = 19

interface Wire {
  readonly pathParams: Readonly<Record<string, string>>
  readonly urlParams: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string>>
  /** the raw body text, and its content type */
  readonly body?: { readonly text: string; readonly contentType: string } | undefined
  readonly auth: string | undefined
}

interface Case extends Wire {
  readonly kind: string
}

const families: ReadonlyArray<
  readonly [OpenApiDocuments.Family, { readonly groups: Record<string, HttpApiGroup.Top> }]
> = [
  ["business", BusinessApi.BusinessApi as unknown as { readonly groups: Record<string, HttpApiGroup.Top> }],
  ["merchant", MerchantApi.MerchantApi as unknown as { readonly groups: Record<string, HttpApiGroup.Top> }],
  ["open-banking", OpenBankingApi.OpenBankingApi as unknown as { readonly groups: Record<string, HttpApiGroup.Top> }]
]

/** the Schema of an endpoint's JSON body, if it takes one */
const payloadOf = (endpoint: HttpApiEndpoint.Top): Schema.Top | undefined =>
  [...endpoint.payload.values()][0]?.schemas[0]

const endpoints = families.flatMap(([family, api]) =>
  Object.values(api.groups).flatMap((group) =>
    Object.values(group.endpoints).map((endpoint) => ({
      family,
      endpoint,
      name: endpoint.identifier,
      payload: payloadOf(endpoint),
      /** the path as the document writes it: /international-payments/{InternationalPaymentId} */
      docPath: endpoint.path.replace(/:(\w+)/g, "{$1}"),
      method: endpoint.method.toLowerCase()
    }))
  )
)

type Endpoint = (typeof endpoints)[number]

/** ASCII a header or a URL can carry (fetch refuses other header values before sending) */
const printable = (s: string) => s.replace(/[^\x20-\x7e]/g, "?")

/** an arbitrary of the encoded (wire) form of a Schema: values from the arbitrary it carries, encoded */
const wireOf = (schema: Schema.Top | undefined): Arbitrary.Arbitrary<unknown> => {
  if (schema === undefined) return Arbitrary.Constant(undefined)
  const codec = schema as unknown as Schema.Codec<unknown, unknown>
  const encode = Schema.encodeSync(codec)
  return Arbitrary.schema(codec).pipe(Arbitrary.map((value) => encode(value)))
}

const strings = (u: unknown): Record<string, string> =>
  typeof u === "object" && u !== null
    ? Object.fromEntries(
        Object.entries(u)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, Array.isArray(v) ? String(v[0] ?? "") : String(v)])
      )
    : {}

/** a lone surrogate (a URL cannot carry one) */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** the text with each lone surrogate replaced by U+FFFD, as `String.prototype.toWellFormed` does */
const wellFormed = (s: string) => s.replace(loneSurrogate, "\uFFFD")

/** a path segment that stays one segment (not empty, not a dot segment), of well-formed text */
const segment = (s: string) => (s === "" || s === "." || s === ".." ? `x${s}` : wellFormed(s))

/** valid requests, drawn from the arbitraries of the endpoint's Schemas (effect's engine) */
const validWire = (e: Endpoint, token: string): Arbitrary.Arbitrary<Wire> =>
  Arbitrary.all({
    path: wireOf(e.endpoint.params),
    urlParams: wireOf(e.endpoint.query),
    headers: wireOf(e.endpoint.headers),
    payload: wireOf(e.payload)
  }).pipe(
    Arbitrary.map(({ headers, path, payload, urlParams }) => ({
      pathParams: Object.fromEntries(Object.entries(strings(path)).map(([k, v]) => [k, segment(v)])),
      urlParams: strings(urlParams),
      headers: Object.fromEntries(Object.entries(strings(headers)).map(([k, v]) => [k, printable(v)])),
      body: payload === undefined ? undefined : { text: JSON.stringify(payload), contentType: "application/json" },
      auth: `Bearer ${token}`
    }))
  )

/**
 * valid requests with the ids of the seed, so that they reach the success paths: `base` draws the valid requests
 * (from the Schemas' arbitraries) that they start from
 */
const seededWire = (e: Endpoint, seed: SeedSummary, base: fc.Arbitrary<Wire>): fc.Arbitrary<Wire> => {
  const json = (u: unknown) => ({ text: JSON.stringify(u), contentType: "application/json" })
  switch (e.name) {
    case "getInternationalPayment":
      return fc
        .tuple(base, fc.constantFrom(...seed.payments.map((p) => p.id)), fc.uuid())
        .map(([w, id, interaction]) => ({
          ...w,
          pathParams: { InternationalPaymentId: id },
          headers: { ...w.headers, "x-fapi-financial-id": "001580000103UAvAAM", "x-fapi-interaction-id": interaction }
        }))
    case "exchange":
      return fc
        .tuple(
          base,
          fc.constantFrom(...seed.accounts),
          fc.constantFrom(...seed.accounts),
          fc.integer({ min: 1, max: 5000 }),
          fc.boolean(),
          fc.uuid()
        )
        .filter(([, from, to]) => from.currency !== to.currency)
        .map(([w, from, to, amount, sell, requestId]) => ({
          ...w,
          body: json({
            from: { account_id: from.id, currency: from.currency, ...(sell ? { amount } : {}) },
            to: { account_id: to.id, currency: to.currency, ...(sell ? {} : { amount }) },
            request_id: requestId
          })
        }))
    case "transferFieldRequirements": {
      const receivers = seed.counterparties.flatMap((c) => [
        ...c.accounts.map((a) => ({ counterparty_id: c.id, account_id: a.id })),
        ...c.cards.map((card) => ({ counterparty_id: c.id, card_id: card.id }))
      ])
      return fc
        .tuple(base, fc.constantFrom(...seed.accounts), fc.constantFrom(...receivers))
        .map(([w, account, receiver]) => ({ ...w, body: json({ account_id: account.id, receiver }) }))
    }
    case "listSubscriptionPlans":
      return fc.tuple(base, fc.integer({ min: 1, max: 500 })).map(([w, limit]) => ({
        ...w,
        urlParams: { limit: String(limit) },
        headers: { ...w.headers, "revolut-api-version": "2024-09-01" }
      }))
    default:
      return base
  }
}

/** the property names of a Struct Schema (of the headers, the query or the path) */
const fieldsOf = (schema: Schema.Top | undefined): ReadonlyArray<string> =>
  schema !== undefined && SchemaAST.isObjects(schema.ast)
    ? schema.ast.propertySignatures.flatMap((p) => (typeof p.name === "string" ? [p.name] : []))
    : []

const mutations = (e: Endpoint): ReadonlyArray<fc.Arbitrary<(w: Wire) => Case>> => {
  const declaredHeaders = fieldsOf(e.endpoint.headers)
  const noise = fc.string({ maxLength: 80 }).map(printable)
  const out: Array<fc.Arbitrary<(w: Wire) => Case>> = [
    fc.constant((w: Wire) => ({ ...w, kind: "no credentials", auth: undefined })),
    fc
      .constantFrom("Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "bearer", `Bearer ${"x".repeat(5000)}`, "Token abc")
      .map((auth) => (w: Wire) => ({ ...w, kind: "malformed credentials", auth })),
    fc.tuple(fc.string({ minLength: 1, maxLength: 30 }).map(printable), noise).map(([name, value]) => (w: Wire) => ({
      ...w,
      kind: "unknown query parameter",
      urlParams: { ...w.urlParams, [name]: value }
    }))
  ]
  if (declaredHeaders.length > 0) {
    out.push(
      fc.tuple(fc.constantFrom(...declaredHeaders), noise).map(([name, value]) => (w: Wire) => ({
        ...w,
        kind: `garbage header ${name}`,
        headers: { ...w.headers, [name]: value }
      }))
    )
  }
  if (e.endpoint.query !== undefined) {
    const names = fieldsOf(e.endpoint.query)
    out.push(
      fc.tuple(fc.constantFrom(...names), noise).map(([name, value]) => (w: Wire) => ({
        ...w,
        kind: `garbage query parameter ${name}`,
        urlParams: { ...w.urlParams, [name]: value }
      }))
    )
  }
  if (e.endpoint.params !== undefined) {
    out.push(
      fc.string({ minLength: 1, maxLength: 60 }).map((value) => (w: Wire) => ({
        ...w,
        kind: "garbage path segment",
        pathParams: Object.fromEntries(Object.keys(w.pathParams).map((k) => [k, segment(value)]))
      }))
    )
  }
  if (e.payload !== undefined) {
    const body = (text: string, contentType = "application/json") => ({ text, contentType })
    out.push(
      fc
        .string({ maxLength: 60 })
        .map((text) => (w: Wire) => ({ ...w, kind: "body not JSON", body: body(`{${text}`) })),
      hostileJson.map((u) => (w: Wire) => ({
        ...w,
        kind: "body of another shape",
        body: body(JSON.stringify(u) ?? "null")
      })),
      fc.tuple(fc.nat(), hostileJson).map(([k, u]) => (w: Wire) => {
        const parsed = w.body === undefined ? {} : (JSON.parse(w.body.text) as Record<string, unknown>)
        const keys = Object.keys(parsed)
        const key = keys.length === 0 ? "x" : keys[k % keys.length]!
        return { ...w, kind: `body field ${key} replaced`, body: body(JSON.stringify({ ...parsed, [key]: u }) ?? "{}") }
      }),
      fc.nat().map((k) => (w: Wire) => {
        const parsed = w.body === undefined ? {} : (JSON.parse(w.body.text) as Record<string, unknown>)
        const keys = Object.keys(parsed)
        const drop = keys.length === 0 ? "" : keys[k % keys.length]!
        const { [drop]: _, ...rest } = parsed
        return { ...w, kind: `body field ${drop} missing`, body: body(JSON.stringify(rest)) }
      }),
      fc.constant((w: Wire) => ({ ...w, kind: "text/plain body", body: body(w.body?.text ?? "{}", "text/plain") }))
    )
  }
  return out
}

const requestOf = (e: Endpoint, c: Case) => {
  const path = e.endpoint.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(c.pathParams[name] ?? "x"))
  const headers: Record<string, string> = { ...c.headers, ...(c.auth === undefined ? {} : { authorization: c.auth }) }
  const request = HttpClientRequest.make(e.endpoint.method as "GET")(path, { urlParams: c.urlParams, headers })
  return c.body === undefined ? request : HttpClientRequest.bodyText(request, c.body.text, c.body.contentType)
}

layer(withSandbox({ seed: SEED, plans: 120 }), { excludeTestServices: true })(
  "API fuzzing of the sandbox against its OpenAPI documents (in place of Schemathesis)",
  (it) => {
    const validator = makeValidator()

    it.effect("the fuzzed operations are exactly the operations of the documents", () =>
      Effect.sync(() => {
        const fuzzed = endpoints.map((e) => `${e.family} ${e.method} ${e.docPath}`).sort()
        const documented = validator.operations.map((o) => `${o.family} ${o.method} ${o.path}`).sort()
        expect(fuzzed).toEqual(documented)
      })
    )

    it.effect("no 5xx, no response outside the document, no crash, for every operation", () =>
      Effect.gen(function* () {
        const seed = yield* control<SeedSummary>("/seed")
        const token = tokenOf(seed)
        const failures: Array<string> = []
        const statuses = new Map<string, Set<number>>()
        for (const [n, e] of endpoints.entries()) {
          // the valid requests, from the Schemas' arbitraries (effect's engine, a fixed seed): the first are sent as
          // they are, the others are where the seeded and the mutated requests (fast-check, fixed seeds) start from
          const [valid, bases] = yield* Effect.map(
            Arbitrary.sampleEffect(validWire(e, token), {
              count: PER_OPERATION.valid + PER_OPERATION.seeded + PER_OPERATION.mutated,
              seed: SEED * 100 + n
            }),
            (wires) => [wires.slice(0, PER_OPERATION.valid), wires.slice(PER_OPERATION.valid)] as const
          )
          const base = fc.constantFrom(...bases)
          const seeded = seededWire(e, seed, base).map((w): Case => ({ ...w, kind: "valid, with seeded ids" }))
          const mutated = fc
            .tuple(fc.oneof(base, seededWire(e, seed, base)), fc.oneof(...mutations(e)))
            .map(([w, mutate]) => mutate(w))
          const cases = [
            ...valid.map((w): Case => ({ ...w, kind: "valid (from the Schemas' arbitraries)" })),
            ...fc.sample(seeded, { seed: SEED * 100 + n + 10, numRuns: PER_OPERATION.seeded }),
            ...fc.sample(mutated, { seed: SEED * 100 + n + 20, numRuns: PER_OPERATION.mutated })
          ]
          const seen = new Set<number>()
          statuses.set(e.name, seen)
          for (const c of cases) {
            const answer = yield* Effect.result(send(e.family, requestOf(e, c)))
            const what = `${e.endpoint.method} ${e.docPath} (${c.kind}): ${JSON.stringify(c).slice(0, 300)}`
            if (Result.isFailure(answer)) {
              failures.push(`${what} -> no answer: ${String(answer.failure)}`)
              continue
            }
            const r = answer.success
            seen.add(r.status)
            if (r.status >= 500) failures.push(`${what} -> ${r.status} ${r.text.slice(0, 200)}`)
            for (const problem of validator.check(e.family, e.docPath, e.method, r.status, r.body)) {
              failures.push(`${what} -> ${r.status} breaks the document: ${problem}`)
            }
          }
        }
        expect(failures).toEqual([])
        // the generated requests reach both the success and the refusal paths of every operation
        for (const [name, seen] of statuses) {
          expect(
            [...seen].some((s) => s >= 200 && s < 300),
            `${name}: ${[...seen]}`
          ).toBe(true)
          expect(
            [...seen].some((s) => s >= 400 && s < 500),
            `${name}: ${[...seen]}`
          ).toBe(true)
        }
        // and the sandbox still answers
        expect((yield* control<SeedSummary>("/seed")).payments.length).toBe(seed.payments.length)
      })
    )
  }
)
