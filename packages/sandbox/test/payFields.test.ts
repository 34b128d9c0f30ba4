import { expect } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { PayFields } from "@payrules/transfers"
import { layerBlock } from "@payrules/vitest/Lazy"
import { Effect, Result, Schema } from "effect"
import { authOf, postJson, type SeedSummary, seedOf, server } from "./helpers.js"

const fields = (body: unknown, headers?: Record<string, string>) =>
  Effect.flatMap(server, (s) => postJson(`${s.urls.business}/pay/fields`, body, headers))

const decode = Schema.decodeUnknownResult(PayFields.FieldsResponse)

const byName = (seed: Pick<SeedSummary, "counterparties">, name: string) =>
  seed.counterparties.find((c) => c.name === name)!

layerBlock(() => Sandbox.layer({ seed: 9, plans: 15 }))("sandbox: POST /pay/fields", (it) => {
  it.effect("answers the field requirements of each corridor", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const account = seed.accounts[0]!.id
      const corridors = new Map<string, ReadonlyArray<string>>()
      for (const counterparty of seed.counterparties.slice(0, 4)) {
        const r = yield* fields({
          account_id: account,
          receiver: { counterparty_id: counterparty.id, account_id: counterparty.accounts[0]!.id }
        })
        expect(r.status).toBe(200)
        const response = Result.getOrThrow(decode(r.json))
        corridors.set(
          counterparty.accounts[0]!.corridor,
          response.fields.map((f) => f.name)
        )
      }
      expect(corridors.get("US-USD-SWIFT")).toEqual(
        expect.arrayContaining(["reference", "charge_bearer", "receiver.address.city"])
      )
      expect(corridors.get("IN-INR")).toEqual(["reference", "transfer_reason_code"])
    })
  )

  it.effect("404 for an unknown counterparty, account, card or source account", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const account = seed.accounts[0]!.id
      const cp = byName(seed, "Multi Method Ltd")
      const cases = [
        { account_id: account, receiver: { counterparty_id: "no-such-counterparty" } },
        { account_id: account, receiver: { counterparty_id: cp.id, account_id: "no-such-account" } },
        { account_id: account, receiver: { counterparty_id: cp.id, card_id: "no-such-card" } },
        { account_id: "no-such-source", receiver: { counterparty_id: cp.id, card_id: cp.cards[0]!.id } }
      ]
      for (const body of cases) {
        const r = yield* fields(body)
        expect(r.status).toBe(404)
        expect(r.json).toMatchObject({ code: 3404 })
      }
    })
  )

  it.effect("400 for both account_id and card_id, or no choice among several methods", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      const cp = byName(seed, "Multi Method Ltd")
      const both = yield* fields({
        account_id: seed.accounts[0]!.id,
        receiver: { counterparty_id: cp.id, account_id: cp.accounts[0]!.id, card_id: cp.cards[0]!.id }
      })
      expect(both.status).toBe(400)
      expect(both.json).toMatchObject({ code: 3000, message: expect.stringContaining("receiver") })
      const none = yield* fields({ account_id: seed.accounts[0]!.id, receiver: { counterparty_id: cp.id } })
      expect(none.status).toBe(400)
    })
  )

  it.effect(
    "bug: a key the body does not have is a 400 at its path (a misspelt receiver.card_id was dropped, and the answer was another transfer's)",
    () =>
      Effect.gen(function* () {
        const seed = yield* seedOf
        const cp = byName(seed, "Multi Method Ltd")
        const misspelt = yield* fields({
          account_id: seed.accounts[0]!.id,
          receiver: { counterparty_id: cp.id, cardId: cp.cards[0]!.id }
        })
        expect([misspelt.status, misspelt.json]).toEqual([
          400,
          { code: 3000, message: "receiver.cardId: Expected no excess property" }
        ])
        const top = yield* fields({
          account_id: seed.accounts[0]!.id,
          receiver: { counterparty_id: cp.id, card_id: cp.cards[0]!.id },
          amount: 10
        })
        expect([top.status, top.json]).toEqual([400, { code: 3000, message: "amount: Expected no excess property" }])
      })
  )

  it.effect("401 without a token", () =>
    Effect.gen(function* () {
      const seed = yield* seedOf
      expect((yield* fields({ account_id: seed.accounts[0]!.id, receiver: { counterparty_id: "x" } }, {})).status).toBe(
        401
      )
    })
  )
})

layerBlock(() => Sandbox.layer({ seed: 9, plans: 15, payFieldsLimit: { limit: 5, windowMs: 60_000 } }))(
  "sandbox: POST /pay/fields, limited",
  (it) => {
    it.effect("429 with Retry-After past the limit per tenant (all its tokens), in a sliding window", () =>
      Effect.gen(function* () {
        const s = yield* server
        const seed = yield* seedOf
        const card = (tenant: Pick<SeedSummary, "accounts" | "counterparties">) => {
          const cp = byName(tenant, "Card Only Freelancer")
          return { account_id: tenant.accounts[0]!.id, receiver: { counterparty_id: cp.id, card_id: cp.cards[0]!.id } }
        }
        const [first, second] = s.tenants[0]!.tokens
        const statuses: Array<number> = []
        for (let i = 0; i < 7; i++) {
          const token = i % 2 === 0 ? first : second
          statuses.push((yield* fields(card(seed), { authorization: `Bearer ${token}` })).status)
        }
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
        const limited = yield* fields(card(seed), authOf(s))
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
        // another tenant counts on its own
        expect((yield* fields(card(seed.tenants[1]!), authOf(s, 1))).status).toBe(200)
      })
    )
  }
)
