import { describe, expect, it } from "@effect/vitest"
import { OpenEnum } from "@payrules/lenient"
import { SubscriptionPlan } from "@payrules/subscriptions"
import { MerchantClient } from "@payrules/transport"
import { Duration, Effect, Exit, Layer, Logger, Option, Redacted, Schema, Stream } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"

// Issue 34: the merchant client reads a page as a later version of the API may send it. A plan in a state added since
// is kept with an unknown state and a finding; a plan it cannot decode is reported with its index, path and raw value;
// the listing goes on past such a page. The server is faked in process (as in ReadClients.test.ts).

const server = (answer: (url: URL) => Response) => {
  const seen: Array<string> = []
  const http = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request, url) =>
      Effect.suspend(() => {
        seen.push(`${url.pathname}${url.search}`)
        return Effect.succeed(HttpClientResponse.fromWeb(request, answer(url)))
      })
    )
  )
  return { seen, http }
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

const noRetry = { maxAttempts: 1, baseDelay: Duration.millis(10), maxDelay: Duration.millis(10), minSpacing: 0 }

const merchant = (http: Layer.Layer<HttpClient.HttpClient>) =>
  Effect.provide(
    MerchantClient.MerchantClient,
    MerchantClient.layer({
      ...MerchantClient.defaults,
      baseUrl: "http://merchant.test",
      token: Redacted.make("t"),
      retry: noRetry
    }).pipe(Layer.provide(http))
  )

const plan = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  name: `Plan ${id}`,
  state: "active",
  created_at: "2025-04-01T00:00:00Z",
  updated_at: "2025-04-01T00:00:00Z",
  variations: [
    {
      id: `${id}-v`,
      phases: [{ id: `${id}-p`, ordinal: 1, cycle_duration: "P1M", amount: 1500, currency: "GBP" }]
    }
  ],
  ...overrides
})

const undecodable = plan("bad", {
  variations: [{ id: "bad-v", phases: [{ id: "bad-p", ordinal: 1, cycle_duration: "P0.5Y" }] }]
})

/** two pages: the first with a plan in a state added since and an undecodable plan, the second clean */
const twoPages = () =>
  server((url) =>
    url.searchParams.get("page_token") === "p2"
      ? json({ subscription_plans: [plan("d")], next_page_token: null })
      : json({
          subscription_plans: [plan("a"), plan("b", { state: "archived" }), undecodable, plan("c")],
          next_page_token: "p2"
        })
  )

describe("MerchantClient reads pages a later API may send (issue 34)", () => {
  it.effect("a plan in a state added since (archived) no longer costs the caller the page", () =>
    Effect.gen(function* () {
      const fake = server(() => json({ subscription_plans: [plan("a"), plan("b", { state: "archived" })] }))
      const client = yield* merchant(fake.http)
      const page = yield* client.listSubscriptionPlansPage({})
      expect(page.subscription_plans.map((p) => [p.id, p.state])).toEqual([
        ["a", "active"],
        ["b", { _tag: "Unknown", value: "archived" }]
      ])
      expect(page.findings).toEqual([
        {
          severity: "warning",
          rule: "UnknownValue",
          path: ["subscription_plans", 1, "state"],
          message: expect.stringContaining('"archived"'),
          raw: "archived"
        }
      ])
      expect(page.subscription_plans[0]!.findings).toEqual([])
      expect(page.subscription_plans[1]!.findings.map((f) => [f.rule, f.path.join(".")])).toEqual([
        ["UnknownValue", "state"]
      ])
      // encoded back with the lenient Schema, the state is the text the server sent
      expect(Schema.encodeSync(SubscriptionPlan.SubscriptionPlanLenient)(page.subscription_plans[1]!).state).toBe(
        "archived"
      )
    })
  )

  it.effect("a page with one undecodable plan reads as the others plus a finding naming its index and path", () =>
    Effect.gen(function* () {
      const fake = twoPages()
      const client = yield* merchant(fake.http)
      const page = yield* client.listSubscriptionPlansPage({})
      expect(page.next_page_token).toBe("p2")
      expect(page.subscription_plans.map((p) => p.id)).toEqual(["a", "b", "c"])
      expect(page.findings.map((f) => [f.severity, f.rule, f.path.join(".")])).toEqual([
        ["warning", "UnknownValue", "subscription_plans.1.state"],
        ["error", "UnreadablePlan", "subscription_plans.2.variations.0.phases.0.cycle_duration"]
      ])
      const unreadable = page.findings[1]!
      expect(unreadable.raw).toEqual(undecodable)
      expect(unreadable.message).toContain('plan 2 (id "bad")')
    })
  )

  it.effect("the listing keeps paginating past a page with a bad plan, and logs the plan it left out", () =>
    Effect.gen(function* () {
      const fake = twoPages()
      const client = yield* merchant(fake.http)
      const pages = yield* Stream.runCollect(client.listSubscriptionPlanPages({ limit: 4 }))
      expect([...pages].map((p) => p.subscription_plans.map((plan) => plan.id))).toEqual([["a", "b", "c"], ["d"]])
      expect([...pages].map((p) => p.findings.map((f) => f.rule))).toEqual([["UnknownValue", "UnreadablePlan"], []])
      expect(fake.seen).toEqual(["/api/subscription-plans?limit=4", "/api/subscription-plans?limit=4&page_token=p2"])

      const logged: Array<string> = []
      const logger = Logger.make((options) => {
        logged.push(Logger.formatSimple.log(options))
      })
      const plans = yield* Stream.runCollect(client.listSubscriptionPlans()).pipe(
        Effect.provide(Logger.layer([logger]))
      )
      expect([...plans].map((p) => [p.id, p.findings.map((f) => f.rule)])).toEqual([
        ["a", []],
        ["b", ["UnknownValue"]],
        ["c", []],
        ["d", []]
      ])
      expect(logged).toHaveLength(1)
      expect(logged[0]).toContain('plan 2 (id \\"bad\\") could not be read')
    })
  )

  it.effect("an envelope that is not well-formed is still a Decode failure", () =>
    Effect.gen(function* () {
      const fake = server(() => json({ subscription_plans: { a: plan("a") } }))
      const client = yield* merchant(fake.http)
      const exit = yield* Effect.exit(client.listSubscriptionPlansPage({}))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(Option.getOrUndefined(Exit.findErrorOption(exit))).toMatchObject({
        _tag: "MerchantClientError",
        reason: "Decode"
      })
    })
  )

  it.effect.prop(
    "every well-formed state added since reads through the client as Unknown with its finding",
    [OpenEnum.UnknownFromString(SubscriptionPlan.PlanState.literals)],
    ([unknown]) =>
      Effect.gen(function* () {
        const fake = server(() => json({ subscription_plans: [plan("a", { state: unknown.value }), plan("b")] }))
        const client = yield* merchant(fake.http)
        const page = yield* client.listSubscriptionPlansPage({})
        expect(page.subscription_plans.map((p) => p.state)).toEqual([unknown, "active"])
        expect(page.findings.map((f) => [f.rule, f.path.join("."), f.raw])).toEqual([
          ["UnknownValue", "subscription_plans.0.state", unknown.value]
        ])
      }),
    { arbitrary: { runs: 30 } }
  )
})
