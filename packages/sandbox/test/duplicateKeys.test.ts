import { describe, expect, it } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Effect } from "effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { type SeedSummary, seedIn, sendIn, urlsIn } from "./helpers.js"

// Issue 31: a JSON object that names a key twice is refused by the body gate (400 in the family's error body, naming
// the key), at any depth: `{"amount":1,"amount":2}` reads as 1 to one parser and as 2 to another, so no parser of the
// sandbox gets to choose. In process: the same gate as on a socket (test/inProcessParity.test.ts compares the two).

const options = { seed: 37, plans: 15 } as const

/** a POST of a JSON text, as it is */
const post = (url: string, text: string) =>
  sendIn(HttpClientRequest.post(url).pipe(HttpClientRequest.bodyText(text, "application/json")))

const sell = (seed: SeedSummary, requestId: string) =>
  `"from":{"account_id":"${seed.accounts[0]!.id}","currency":"GBP","amount":1},"to":{"account_id":"${seed.accounts[1]!.id}","currency":"EUR"},"request_id":"${requestId}"`

const fields = (seed: SeedSummary) => {
  const card = seed.counterparties.find((c) => c.cards.length > 0 && c.accounts.length === 0)!
  return { account: seed.accounts[0]!.id, counterparty: card.id, card: card.cards[0]!.id }
}

const named = (key: string, path: string) =>
  `${path}: the key ${JSON.stringify(key)} is given twice in one object (each key of a JSON object must be unique)`

describe("a duplicated key in a body", () => {
  it.effect("POST /exchange: 400 in the business shape naming the key, at the top and nested; nothing stored", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      const seed = yield* seedIn
      const top = yield* post(`${u.business}/exchange`, `{${sell(seed, "dup-top")},"request_id":"dup-other"}`)
      expect([top.status, top.json]).toEqual([400, { code: 3000, message: named("request_id", "request_id") }])
      // "amount" twice in `from`: one parser could sell 1, another 2
      const nested = yield* post(
        `${u.business}/exchange`,
        `{"from":{"account_id":"${seed.accounts[0]!.id}","currency":"GBP","amount":1,"amount":2},"to":{"account_id":"${seed.accounts[1]!.id}","currency":"EUR"},"request_id":"dup-nested"}`
      )
      expect([nested.status, nested.json]).toEqual([400, { code: 3000, message: named("amount", "from.amount") }])
      // the same value twice is still two keys
      const same = yield* post(
        `${u.business}/exchange`,
        `{"from":{"account_id":"${seed.accounts[0]!.id}","currency":"GBP","amount":1,"amount":1},"to":{"account_id":"${seed.accounts[1]!.id}","currency":"EUR"},"request_id":"dup-same"}`
      )
      expect(same.status).toBe(400)
      expect((same.json as { message: string }).message).toContain('"amount"')
      // refused before execution: the request_ids are free, and the same bodies without the duplicate go through
      const ledger = yield* sendIn(HttpClientRequest.get(`${u.control}/ledger`))
      expect(ledger.json).toEqual([])
      expect((yield* post(`${u.business}/exchange`, `{${sell(seed, "dup-nested")}}`)).status).toBe(200)
    }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect("POST /pay/fields: 400 in the business shape naming the key, deep in the receiver", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      const f = fields(yield* seedIn)
      const ok = `{"account_id":"${f.account}","receiver":{"counterparty_id":"${f.counterparty}","card_id":"${f.card}"}}`
      expect((yield* post(`${u.business}/pay/fields`, ok)).status).toBe(200)
      const top = yield* post(
        `${u.business}/pay/fields`,
        `{"account_id":"${f.account}","receiver":{"counterparty_id":"${f.counterparty}","card_id":"${f.card}"},"account_id":"${f.account}"}`
      )
      expect([top.status, top.json]).toEqual([400, { code: 3000, message: named("account_id", "account_id") }])
      const deep = yield* post(
        `${u.business}/pay/fields`,
        `{"account_id":"${f.account}","receiver":{"counterparty_id":"${f.counterparty}","card_id":"${f.card}","card_id":"other"}}`
      )
      expect([deep.status, deep.json]).toEqual([400, { code: 3000, message: named("card_id", "receiver.card_id") }])
      // in an array, written with an escape: "\u0061" is "a"
      const escaped = yield* post(`${u.business}/pay/fields`, `{"x":[{},{"y":{"a":1,"\\u0061":2}}]}`)
      expect([escaped.status, escaped.json]).toEqual([400, { code: 3000, message: named("a", "x.1.y.a") }])
    }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )

  it.effect("a body sent to each family's paths: 400 in that family's error body, naming the key", () =>
    Effect.gen(function* () {
      const u = yield* urlsIn
      const seed = yield* seedIn
      const body = `{"data":{"amount":1,"amount":2}}`
      const business = yield* post(`${u.business}/exchange-reasons`, body)
      expect([business.status, business.json]).toEqual([400, { code: 3000, message: named("amount", "data.amount") }])
      const merchant = yield* post(`${u.merchant}/api/subscription-plans`, body)
      expect([merchant.status, merchant.json]).toEqual([
        400,
        { code: "bad_request", message: named("amount", "data.amount"), timestamp: expect.any(Number) }
      ])
      const openBanking = yield* post(`${u.openBanking}/international-payments/${seed.payments[0]!.id}`, body)
      expect([openBanking.status, openBanking.json]).toEqual([
        400,
        {
          Code: "400 Bad Request",
          Id: expect.any(String),
          Message: named("amount", "data.amount"),
          Errors: [{ ErrorCode: "UK.OBIE.Field.Invalid", Message: named("amount", "data.amount"), Path: "data.amount" }]
        }
      ])
      // and the control plane's own shape
      const faults = yield* sendIn(
        HttpClientRequest.put(`${u.control}/faults`).pipe(
          HttpClientRequest.bodyText(
            `[{"operation":"exchange","kind":"fail-before","kind":"rate-limit"}]`,
            "application/json"
          )
        )
      )
      expect([faults.status, faults.json]).toMatchObject([400, { status: 400, message: named("kind", "0.kind") }])
      expect((yield* sendIn(HttpClientRequest.get(`${u.control}/faults`))).json).toEqual([])
    }).pipe(Effect.provide(Sandbox.layerInProcess(options)))
  )
})
