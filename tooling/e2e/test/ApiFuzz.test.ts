/**
 * A property-based API fuzz test of the sandbox, standing in for Schemathesis (which needs Python packages this
 * project cannot install): for every operation of the sandbox's OpenAPI documents it sends generated requests,
 * valid ones drawn from the endpoint Schemas' own arbitraries (`Arbitrary.make`), valid ones with the seeded ids
 * put in (so that they reach the success paths), and mutated or invalid ones (no or malformed credentials, bodies
 * that are not JSON or not of the Schema, garbage headers, query parameters and path segments, the wrong content
 * type). It fails on any 5xx, on any response that breaks the document (a status it does not declare, or a body
 * that does not validate, formats checked), and on any crash (a request without an answer). Deterministic: every
 * request comes from a fixed fast-check seed; bounded: a fixed number of requests per operation.
 */
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { expect, layer } from "@effect/vitest"
import { BusinessApi, MerchantApi, type OpenApiDocuments, OpenBankingApi } from "@payrules/transport"
import { hostileJson } from "@payrules/vitest"
import { Arbitrary, Effect, FastCheck as fc, Option, Schema } from "effect"
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

type AnyEndpoint = HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
type AnySchema = Schema.Schema<unknown, unknown, never>

const families: ReadonlyArray<
  readonly [OpenApiDocuments.Family, { readonly groups: Record<string, HttpApiGroup.HttpApiGroup.Any> }]
> = [
  ["business", BusinessApi.BusinessApi],
  ["merchant", MerchantApi.MerchantApi],
  ["open-banking", OpenBankingApi.OpenBankingApi]
]

const endpoints = families.flatMap(([family, api]) =>
  Object.values(api.groups).flatMap((group) =>
    Object.values((group as unknown as { endpoints: Record<string, AnyEndpoint> }).endpoints).map((endpoint) => ({
      family,
      endpoint,
      /** the path as the document writes it: /international-payments/{InternationalPaymentId} */
      docPath: endpoint.path.replace(/:(\w+)/g, "{$1}"),
      method: endpoint.method.toLowerCase()
    }))
  )
)

/** ASCII a header or a URL can carry (fetch refuses other header values before sending) */
const printable = (s: string) => s.replace(/[^\x20-\x7e]/g, "?")

/** an arbitrary of the encoded (wire) form of a Schema, from its own arbitrary */
const wireOf = (schema: Option.Option<Schema.Schema.All>): fc.Arbitrary<unknown> =>
  Option.match(schema, {
    onNone: () => fc.constant(undefined),
    onSome: (s) => {
      const typed = s as unknown as AnySchema
      const encode = Schema.encodeSync(typed)
      return Arbitrary.make(typed).map((value) => encode(value))
    }
  })

const strings = (u: unknown): Record<string, string> =>
  typeof u === "object" && u !== null
    ? Object.fromEntries(
        Object.entries(u)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, Array.isArray(v) ? String(v[0] ?? "") : String(v)])
      )
    : {}

/** a path segment that stays one segment (not empty, not a dot segment) */
const segment = (s: string) => (s === "" || s === "." || s === ".." ? `x${s}` : s)

const validWire = (e: (typeof endpoints)[number], token: string): fc.Arbitrary<Wire> =>
  fc
    .record({
      path: wireOf(e.endpoint.pathSchema),
      urlParams: wireOf(e.endpoint.urlParamsSchema),
      headers: wireOf(e.endpoint.headersSchema),
      payload: wireOf(e.endpoint.payloadSchema)
    })
    .map(({ headers, path, payload, urlParams }) => ({
      pathParams: Object.fromEntries(Object.entries(strings(path)).map(([k, v]) => [k, segment(v)])),
      urlParams: strings(urlParams),
      headers: Object.fromEntries(Object.entries(strings(headers)).map(([k, v]) => [k, printable(v)])),
      body: payload === undefined ? undefined : { text: JSON.stringify(payload), contentType: "application/json" },
      auth: `Bearer ${token}`
    }))

/** valid requests with the ids of the seed, so that they reach the success paths */
const seededWire = (e: (typeof endpoints)[number], seed: SeedSummary, token: string): fc.Arbitrary<Wire> => {
  const base = validWire(e, token)
  const json = (u: unknown) => ({ text: JSON.stringify(u), contentType: "application/json" })
  switch (e.endpoint.name) {
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

const mutations = (e: (typeof endpoints)[number]): ReadonlyArray<fc.Arbitrary<(w: Wire) => Case>> => {
  const declaredHeaders = Option.match(e.endpoint.headersSchema, {
    onNone: () => [] as Array<string>,
    onSome: (s) => Object.keys((s as unknown as { fields?: Record<string, unknown> }).fields ?? {})
  })
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
  if (Option.isSome(e.endpoint.urlParamsSchema)) {
    const names = Object.keys((e.endpoint.urlParamsSchema.value as unknown as { fields: object }).fields)
    out.push(
      fc.tuple(fc.constantFrom(...names), noise).map(([name, value]) => (w: Wire) => ({
        ...w,
        kind: `garbage query parameter ${name}`,
        urlParams: { ...w.urlParams, [name]: value }
      }))
    )
  }
  if (Option.isSome(e.endpoint.pathSchema)) {
    out.push(
      fc.string({ minLength: 1, maxLength: 60 }).map((value) => (w: Wire) => ({
        ...w,
        kind: "garbage path segment",
        pathParams: Object.fromEntries(Object.keys(w.pathParams).map((k) => [k, segment(value)]))
      }))
    )
  }
  if (Option.isSome(e.endpoint.payloadSchema)) {
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

const requestOf = (e: (typeof endpoints)[number], c: Case) => {
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
          const valid = validWire(e, token).map((w): Case => ({ ...w, kind: "valid (from the Schemas' arbitraries)" }))
          const seeded = seededWire(e, seed, token).map((w): Case => ({ ...w, kind: "valid, with seeded ids" }))
          const mutated = fc
            .tuple(fc.oneof(validWire(e, token), seededWire(e, seed, token)), fc.oneof(...mutations(e)))
            .map(([w, mutate]) => mutate(w))
          const cases = [
            ...fc.sample(valid, { seed: SEED * 100 + n, numRuns: PER_OPERATION.valid }),
            ...fc.sample(seeded, { seed: SEED * 100 + n + 10, numRuns: PER_OPERATION.seeded }),
            ...fc.sample(mutated, { seed: SEED * 100 + n + 20, numRuns: PER_OPERATION.mutated })
          ]
          const seen = new Set<number>()
          statuses.set(e.endpoint.name, seen)
          for (const c of cases) {
            const answer = yield* Effect.either(send(e.family, requestOf(e, c)))
            const what = `${e.endpoint.method} ${e.docPath} (${c.kind}): ${JSON.stringify(c).slice(0, 300)}`
            if (answer._tag === "Left") {
              failures.push(`${what} -> no answer: ${String(answer.left)}`)
              continue
            }
            const r = answer.right
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
