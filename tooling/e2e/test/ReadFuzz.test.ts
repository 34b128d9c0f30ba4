/**
 * Issue 34, read side of the API fuzz test (ApiFuzz.test.ts fuzzes what the sandbox reads; this one fuzzes what the
 * clients read). For every answer a client reads, answers are drawn from the arbitrary of the Schema the sandbox's
 * own OpenAPI document was made from, checked valid under that document, and then changed where the document says
 * they can be: an `enum` it declares gets a value a later API could add (well-formed, unknown), and a list the reader
 * keeps item by item gets one corrupted item. The envelope always stays well-formed, so no read may fail as a whole:
 * each must return every item that decodes, report each corrupted one (index and path) and each unknown value (as a
 * finding), and read the untouched answers exactly as before. Deterministic (fixed seeds); bounded (ANSWERS per
 * operation); it prints how many items were read and how many were reported.
 */
import { describe, expect, it } from "@effect/vitest"
import { ExchangeTransaction, RequestLedger } from "@payrules/exchange"
import { InternationalPayment } from "@payrules/open-banking"
import { SubscriptionPlan } from "@payrules/subscriptions"
import { PayFields } from "@payrules/transfers"
import {
  BusinessApi,
  BusinessClient,
  MerchantApi,
  MerchantClient,
  type OpenApiDocuments,
  OpenBankingApi,
  OpenBankingClient
} from "@payrules/transport"
import { Arbitrary, BigDecimal, Effect, Layer, Result, Schema } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import type { HttpApiGroup } from "effect/http-api"
import fc from "fast-check"
import { token } from "./layers.js"
import { makeValidator } from "./openApi.js"
import { type Mutated, mutationsOf, sitesOf } from "./readFuzz.js"

/** answers per operation */
const ANSWERS = 40
const SEED = 34

type Json = { readonly [key: string]: unknown }

const apis = {
  business: BusinessApi.BusinessApi,
  merchant: MerchantApi.MerchantApi,
  "open-banking": OpenBankingApi.OpenBankingApi
} as unknown as Record<OpenApiDocuments.Family, { readonly groups: Record<string, HttpApiGroup.Top> }>

/** the operations whose answers a client reads, with the lists its reader keeps item by item */
export interface Operation {
  readonly family: OpenApiDocuments.Family
  readonly identifier: string
  readonly path: string
  readonly method: string
  readonly status: number
  /** the list sites: paths of the lists whose items are read one by one */
  readonly lists: ReadonlyArray<ReadonlyArray<string | number>>
}

export const operations: ReadonlyArray<Operation> = [
  {
    family: "merchant",
    identifier: "listSubscriptionPlans",
    path: "/api/subscription-plans",
    method: "get",
    status: 200,
    lists: [["subscription_plans"]]
  },
  {
    family: "open-banking",
    identifier: "getInternationalPayment",
    path: "/international-payments/{InternationalPaymentId}",
    method: "get",
    status: 200,
    lists: []
  },
  {
    family: "open-banking",
    identifier: "getInternationalPaymentError",
    path: "/international-payments/{InternationalPaymentId}",
    method: "get",
    status: 400,
    lists: [["Errors"]]
  },
  { family: "business", identifier: "exchange", path: "/exchange", method: "post", status: 200, lists: [] },
  {
    family: "business",
    identifier: "exchangeReasons",
    path: "/exchange-reasons",
    method: "get",
    status: 200,
    lists: [[]]
  },
  { family: "business", identifier: "transactions", path: "/transactions", method: "get", status: 200, lists: [[]] },
  {
    family: "business",
    identifier: "transferFieldRequirements",
    path: "/pay/fields",
    method: "post",
    status: 200,
    lists: [["fields"]]
  }
]

const validator = makeValidator()

/** the success Schema of an operation, from the HttpApi definition the document was made from */
const successOf = (op: Operation): Schema.Codec<unknown, unknown> => {
  if (op.status >= 400) return OpenBankingApi.OBErrorResponse1 as unknown as Schema.Codec<unknown, unknown>
  for (const group of Object.values(apis[op.family].groups)) {
    for (const endpoint of Object.values(group.endpoints)) {
      if (endpoint.path.replace(/:(\w+)/g, "{$1}") === op.path && endpoint.method.toLowerCase() === op.method) {
        const [success] = [...endpoint.success]
        if (success !== undefined) return success as unknown as Schema.Codec<unknown, unknown>
      }
    }
  }
  throw new Error(`${op.method} ${op.path}: no such operation in the ${op.family} API`)
}

const documentSchema = (op: Operation): Json => {
  const doc = validator.documents.get(op.family)! as Json
  const response = ((doc.paths as Json)[op.path] as Json)[op.method] as { responses: Record<string, Json> }
  return (response.responses[String(op.status)]!.content as Record<string, { schema: Json }>)["application/json"]!
    .schema
}

/** ANSWERS valid answers of an operation, as JSON, from the Schema's arbitrary (effect's engine, a fixed seed) */
export const answersOf = (op: Operation, index: number) =>
  Effect.map(
    Arbitrary.sampleEffect(Arbitrary.schema(successOf(op)), { count: ANSWERS, seed: SEED * 100 + index }),
    (drawn) => drawn.map((value) => JSON.parse(JSON.stringify(Schema.encodeSync(successOf(op))(value))) as unknown)
  )

/** the answers of an operation, each changed (or not) where the document allows, with what was changed */
export const mutatedAnswersOf = (op: Operation, index: number) =>
  Effect.map(answersOf(op, index), (answers) => {
    const doc = validator.documents.get(op.family)! as Json
    const schema = documentSchema(op)
    const isList = (path: ReadonlyArray<string | number>) =>
      op.lists.some((l) => l.length === path.length && l.every((k, i) => k === path[i]))
    return answers.map((body, n): Mutated & { readonly original: unknown } => {
      const sites = sitesOf(doc, schema, body, isList)
      const [mutated] = fc.sample(mutationsOf(body, sites), { seed: SEED * 1000 + index * 100 + n, numRuns: 1 })
      return { ...mutated!, original: body }
    })
  })

describe("answers drawn for the read fuzz test", () => {
  for (const [index, op] of operations.entries()) {
    it.effect(`${op.family} ${op.method} ${op.path}: valid under the document before the changes`, () =>
      Effect.gen(function* () {
        const answers = yield* answersOf(op, index)
        for (const body of answers) {
          // two formats the arbitraries draw wider than the document on purpose: durations in Temporal's grammar
          // (D1: "P1W2D", "PT1.5H", which RFC 3339's, checked by ajv-formats, refuses), and plan ids that are not
          // UUIDs one time in ten (any non-empty id is read); everything else must be as the document says
          const problems = validator
            .check(op.family, op.path, op.method, op.status, body)
            .filter((p) => !/format must match format "(duration|uuid)"$/.test(p))
          expect(problems).toEqual([])
        }
      })
    )
  }

  it.effect("the changes reach every enum and every item-kept list the documents declare for these answers", () =>
    Effect.gen(function* () {
      const changed = { unknowns: 0, corrupted: 0, untouched: 0 }
      for (const [index, op] of operations.entries()) {
        for (const m of yield* mutatedAnswersOf(op, index)) {
          changed.unknowns += m.unknowns.length
          changed.corrupted += m.corrupted.length
          if (m.unknowns.length === 0 && m.corrupted.length === 0) changed.untouched++
        }
      }
      expect(changed.unknowns).toBeGreaterThan(20)
      expect(changed.corrupted).toBeGreaterThan(20)
      expect(changed.untouched).toBeGreaterThan(5)
    })
  )
})

// -----------------------------------------------------------------------------
// the clients read the changed answers
// -----------------------------------------------------------------------------

/** what one read gave, for the tally */
interface Tally {
  readonly items: number
  readonly reported: number
  readonly unknown: number
}

const pathKey = (path: ReadonlyArray<string | number>) => JSON.stringify(path)

/**
 * The read of one changed answer: it succeeds, keeps every item not corrupted, reports each corrupted one at its index
 * and each unknown value at its path (`unknownAt` gives the paths of the unknown-value findings, `unreadableAt` the
 * list path and index of each unreadable-item finding, both from the answer as sent).
 */
const expectRead = (
  m: Mutated,
  read: {
    readonly items: number
    readonly listLength: number
    readonly unknownAt: ReadonlyArray<ReadonlyArray<string | number>>
    readonly unreadableAt: ReadonlyArray<ReadonlyArray<string | number>>
  }
): Tally => {
  const corruptedItems = m.corrupted.map((c) => [...c.path, c.index])
  expect(read.unreadableAt.map(pathKey).sort()).toEqual(corruptedItems.map(pathKey).sort())
  expect(read.items).toBe(read.listLength - m.corrupted.length)
  // an unknown value inside an item that was corrupted whole went with it
  const expectedUnknown = m.unknowns
    .filter((u) => !corruptedItems.some((item) => item.every((key, i) => u.path[i] === key)))
    .map((u) => pathKey(u.path))
  expect(read.unknownAt.map(pathKey).sort()).toEqual(expectedUnknown.sort())
  return { items: read.items, reported: read.unreadableAt.length, unknown: read.unknownAt.length }
}

/** the answer currently served (one client per operation, one answer per read), with its status */
let current: unknown = null
let status = 200
const server = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make((request) =>
    Effect.sync(() => HttpClientResponse.fromWeb(request, Response.json(current, { status })))
  )
)

const openBanking = OpenBankingClient.layer({
  ...OpenBankingClient.defaults,
  baseUrl: "http://ob.test",
  token,
  financialId: "001580000103UAvAAM"
}).pipe(Layer.provide(server))

const sumUp = (tallies: ReadonlyArray<Tally>) =>
  tallies.reduce(
    (a, t) => ({ items: a.items + t.items, reported: a.reported + t.reported, unknown: a.unknown + t.unknown }),
    {
      items: 0,
      reported: 0,
      unknown: 0
    }
  )

const keysOf = (
  findings: ReadonlyArray<{ readonly rule: string; readonly path: ReadonlyArray<PropertyKey> }>,
  rule: string
) => findings.filter((f) => f.rule === rule).map((f) => f.path as ReadonlyArray<string | number>)

const paymentEquivalence = Schema.toEquivalence(InternationalPayment.RevolutStrict)

/** an answer left as drawn: its read must be exactly what the strict Schema reads */
const untouched = (m: Mutated) => m.unknowns.length === 0 && m.corrupted.length === 0

/** the list path and index of an unreadable-item finding (its path goes on inside the item) */
const itemOf = (listPath: ReadonlyArray<string | number>) => (path: ReadonlyArray<string | number>) =>
  path.slice(0, listPath.length + 1)

const reads: Record<string, (m: Mutated) => Effect.Effect<Tally, unknown, never>> = {
  getInternationalPayment: (m) =>
    Effect.gen(function* () {
      current = m.body
      status = 200
      const client = yield* OpenBankingClient.OpenBankingClient
      const read = yield* client.getInternationalPayment("ip-1")
      if (untouched(m)) {
        // equivalence, not ===: a BigDecimal caches its normalized form once something has compared it
        const strict = Schema.decodeUnknownSync(InternationalPayment.RevolutStrict)(m.body)
        expect(paymentEquivalence(read.payment as typeof strict, strict)).toBe(true)
      }
      return expectRead(m, {
        items: 1,
        listLength: 1,
        unknownAt: keysOf(read.findings, "UnknownValue"),
        unreadableAt: []
      })
    }).pipe(Effect.provide(openBanking)),
  getInternationalPaymentError: (m) =>
    Effect.gen(function* () {
      current = m.body
      status = 400
      const client = yield* OpenBankingClient.OpenBankingClient
      // a 400 fails the call by design; what is read is its body: the Errors that decode and the others reported
      const error = yield* Effect.flip(client.getInternationalPayment("ip-1"))
      expect(error.reason).toBe("BadRequest")
      const errors = (error.body as { readonly Errors?: ReadonlyArray<unknown> } | undefined)?.Errors ?? []
      return expectRead(m, {
        items: errors.length,
        listLength: (m.body as { Errors: ReadonlyArray<unknown> }).Errors.length,
        unknownAt: keysOf(error.findings, "UnknownValue"),
        unreadableAt: keysOf(error.findings, "UnreadableItem").map(itemOf(["Errors"]))
      })
    }).pipe(Effect.provide(openBanking)),
  transferFieldRequirements: (m) =>
    Effect.gen(function* () {
      current = m.body
      status = 200
      const client = yield* BusinessClient.BusinessClient
      const read = yield* client.transferFieldRequirements({ account_id: "a", receiver: { counterparty_id: "c" } })
      if (untouched(m)) {
        expect(read.fields).toStrictEqual(Schema.decodeUnknownSync(PayFields.FieldsResponse)(m.body).fields)
      }
      return expectRead(m, {
        items: read.fields.length,
        listLength: (m.body as { fields: ReadonlyArray<unknown> }).fields.length,
        unknownAt: keysOf(read.findings, "UnknownValue"),
        unreadableAt: keysOf(read.findings, "UnreadableItem").map(itemOf(["fields"]))
      })
    }).pipe(
      Effect.provide(
        BusinessClient.layer({ ...BusinessClient.defaults, baseUrl: "http://b.test", token }).pipe(
          Layer.provide([server, RequestLedger.layer])
        )
      )
    ),
  listSubscriptionPlans: (m) =>
    Effect.gen(function* () {
      current = m.body
      status = 200
      const client = yield* MerchantClient.MerchantClient
      const page = yield* client.listSubscriptionPlansPage({})
      const sent = (m.body as { subscription_plans: ReadonlyArray<unknown> }).subscription_plans
      if (untouched(m)) {
        expect(page.subscription_plans.map(({ findings: _, ...plan }) => plan)).toStrictEqual(
          Schema.decodeUnknownSync(SubscriptionPlan.PlanListPage)(m.body).subscription_plans
        )
      }
      return expectRead(m, {
        items: page.subscription_plans.length,
        listLength: sent.length,
        unknownAt: keysOf(page.findings, "UnknownValue"),
        unreadableAt: keysOf(page.findings, "UnreadablePlan").map(itemOf(["subscription_plans"]))
      })
    }).pipe(
      Effect.provide(
        MerchantClient.layer({ ...MerchantClient.defaults, baseUrl: "http://m.test", token }).pipe(
          Layer.provide(server)
        )
      )
    ),
  exchange: (m) =>
    Effect.gen(function* () {
      current = m.body
      status = 200
      const client = yield* BusinessClient.BusinessClient
      const done = yield* client.exchange({
        _tag: "Sell",
        from: { account_id: "a", currency: "GBP" },
        to: { account_id: "b", currency: "EUR" },
        amount: BigDecimal.fromStringUnsafe("10.00")
      } as BusinessClient.ExchangeInput)
      if (untouched(m)) {
        expect(done.transaction).toStrictEqual(
          Schema.decodeUnknownSync(ExchangeTransaction.ExchangeTransaction)(m.body)
        )
      }
      return expectRead(m, {
        items: 1,
        listLength: 1,
        unknownAt: keysOf(done.findings, "UnknownValue"),
        unreadableAt: keysOf(done.findings, "UnreadableItem")
      })
    }).pipe(
      Effect.provide(
        BusinessClient.layer({ ...BusinessClient.defaults, baseUrl: "http://b.test", token }).pipe(
          Layer.provide([server, RequestLedger.layer])
        )
      )
    ),
  transactions: (m) =>
    Effect.gen(function* () {
      current = m.body
      status = 200
      const client = yield* BusinessClient.BusinessClient
      const found = yield* client.findTransactionByRequestId("fuzz-1")
      return expectRead(m, {
        items: found.transactions.length,
        listLength: (m.body as ReadonlyArray<unknown>).length,
        unknownAt: keysOf(found.findings, "UnknownValue"),
        unreadableAt: keysOf(found.findings, "UnreadableItem").map(itemOf([]))
      })
    }).pipe(
      Effect.provide(
        BusinessClient.layer({ ...BusinessClient.defaults, baseUrl: "http://b.test", token }).pipe(
          Layer.provide([server, RequestLedger.layer])
        )
      )
    ),
  exchangeReasons: (m) =>
    Effect.gen(function* () {
      current = m.body
      status = 200
      const client = yield* BusinessClient.BusinessClient
      const read = yield* client.exchangeReasons
      return expectRead(m, {
        items: read.reasons.length,
        listLength: (m.body as ReadonlyArray<unknown>).length,
        unknownAt: keysOf(read.findings, "UnknownValue"),
        unreadableAt: keysOf(read.findings, "UnreadableItem").map(itemOf([]))
      })
    }).pipe(
      Effect.provide(
        BusinessClient.layer({ ...BusinessClient.defaults, baseUrl: "http://b.test", token }).pipe(
          Layer.provide([server, RequestLedger.layer])
        )
      )
    )
}

describe("the clients read answers with unknown enum values and corrupted items (issue 34)", () => {
  const totals: Array<string> = []
  for (const [index, op] of operations.entries()) {
    const read = reads[op.identifier]
    if (read === undefined) continue
    it.effect(
      `${op.family} ${op.method} ${op.path} (${op.status}): no read of a well-formed envelope fails as a whole`,
      () =>
        Effect.gen(function* () {
          const tallies: Array<Tally> = []
          for (const m of yield* mutatedAnswersOf(op, index)) {
            const result = yield* Effect.result(read(m))
            if (Result.isFailure(result)) {
              throw new Error(
                `the read failed as a whole: ${String(result.failure)}\n${JSON.stringify(m.body).slice(0, 600)}`
              )
            }
            tallies.push(result.success)
          }
          const t = sumUp(tallies)
          totals.push(
            `${op.family} ${op.method} ${op.path} (${op.status}): ${ANSWERS} answers, ${t.items} items read, ${t.reported} reported unreadable, ${t.unknown} unknown values reported`
          )
          console.log(totals.at(-1))
        })
    )
  }
})
