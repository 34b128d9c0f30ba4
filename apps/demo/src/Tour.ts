/**
 * `payrules tour`: the whole library against an embedded sandbox, step by step, printed for a person.
 *
 * @since 0.1.0
 */
import { ExchangeState, RequestLedger } from "@payrules/exchange"
import { Calendar, IsoDuration } from "@payrules/iso8601"
import { Money } from "@payrules/money"
import { InternationalPaymentCheck } from "@payrules/open-banking"
import { Sandbox } from "@payrules/sandbox"
import { Schedule } from "@payrules/subscriptions"
import { BusinessClient, MerchantClient, OpenBankingClient } from "@payrules/transport"
import * as BigDecimal from "effect/BigDecimal"
import * as Console from "effect/Console"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import { sandboxToken } from "./Apis.js"
import * as Render from "./render/Schedule.js"
import { payFieldsStep } from "./tour/PayFields.js"

const heading = (n: number, title: string) => Console.log(`\n[${n}] ${title}`)

/**
 * The sandbox of the tour: the 15 plans that show every phase shape, and the clients pointed at it, as its first
 * seeded tenant.
 */
const TourLive = Layer.unwrap(
  Effect.map(Effect.service(Sandbox.SandboxServer), (s) => {
    const token = sandboxToken(s)
    return Layer.mergeAll(
      MerchantClient.layer({ ...MerchantClient.defaults, baseUrl: s.urls.merchant, token }),
      BusinessClient.layer({ ...BusinessClient.defaults, baseUrl: s.urls.business, token }),
      OpenBankingClient.layer({
        ...OpenBankingClient.defaults,
        baseUrl: s.urls.openBanking,
        token,
        financialId: "001580000103UAvAAM"
      })
    )
  })
).pipe(
  Layer.provide([FetchHttpClient.layer, RequestLedger.layer]),
  Layer.provideMerge(Sandbox.layer({ seed: 2026, plans: 15 }))
)

const control = <A>(path: string, init?: RequestInit) =>
  Effect.flatMap(Effect.service(Sandbox.SandboxServer), (s) =>
    Effect.promise(
      () => fetch(`${s.urls.control}${path}`, init).then((r) => (r.status === 204 ? undefined : r.json())) as Promise<A>
    )
  )

interface Seeded {
  readonly accounts: ReadonlyArray<{ readonly id: string; readonly currency: string; readonly name: string }>
  readonly payments: ReadonlyArray<{ readonly id: string; readonly status: string }>
  readonly counterparties: ReadonlyArray<{
    readonly id: string
    readonly name: string
    readonly accounts: ReadonlyArray<{ readonly id: string; readonly corridor: string }>
  }>
}

const plansStep = Effect.gen(function* () {
  yield* heading(2, "Subscription plans, listed page by page, simulated for 24 months")
  const merchant = yield* MerchantClient.MerchantClient
  const plans = yield* merchant.listSubscriptionPlans({ limit: 5 }).pipe(Stream.runCollect)
  const log = yield* control<ReadonlyArray<{ operation: string | null }>>("/requests")
  const pages = log.filter((r) => r.operation === "listSubscriptionPlans").length
  yield* Console.log(`  ${plans.length} plans in ${pages} pages of at most 5 (each page request repeated the filters)`)
  const start = DateTime.makeZonedUnsafe("2025-01-31T09:00:00Z", { timeZone: "Europe/London" })
  const until = Calendar.addToUnsafe(start, IsoDuration.makeUnsafe({ months: 24 }))
  let cycles = 0
  let first = true
  for (const plan of plans) {
    const events = Result.match(Schedule.simulatePlan(plan, { start, until }), {
      onFailure: () => [] as Array<Schedule.Event>,
      onSuccess: (it) => Array.from(it)
    })
    cycles += events.filter((e) => e._tag === "CycleBilled").length
    if (first) {
      first = false
      yield* Console.log(`\n  ${plan.name}, first variation, from ${Render.wallClock(start)} (Europe/London):\n`)
      yield* Console.log(Render.table(events.slice(0, 9)))
      yield* Console.log(`  ... ${events.length - 9} more events\n`)
      yield* Console.log(
        Result.match(Render.place(plan, { start, until }), {
          onFailure: (e) => `  ${e.message}`,
          onSuccess: (p) => Render.timeline(p.timeline, until)
        })
      )
      yield* Console.log(`  ${Render.totalsLine(plan, { start, until })}\n`)
    } else {
      yield* Console.log(`  ${plan.name.slice(0, 42).padEnd(42)} ${Render.totalsLine(plan, { start, until })}`)
    }
  }
  return { plans: plans.length, cycles }
})

const paymentStep = Effect.gen(function* () {
  yield* heading(3, "An international payment, read with the FAPI headers and checked")
  const client = yield* OpenBankingClient.OpenBankingClient
  const { payments } = yield* control<Seeded>("/seed")
  const target = payments.find((p) => p.status === "AcceptedSettlementCompleted") ?? payments[0]!
  const { interactionId, payment } = yield* client.getInternationalPayment(target.id)
  const i = payment.Data.Initiation
  const status = payment.Data.Status
  yield* Console.log(
    `  ${payment.Data.InternationalPaymentId}: ${typeof status === "string" ? status : `${status.value} (unknown status)`}`
  )
  yield* Console.log(
    `  ${Money.format(i.InstructedAmount.Amount, i.InstructedAmount.Currency)} to ${i.CreditorAccount.Name} (${i.CreditorAccount.SchemeName})`
  )
  yield* Console.log(`  x-fapi-interaction-id ${interactionId} (sent by us, played back by the server)`)
  // the sandbox's business account pays from GBP
  const findings = InternationalPaymentCheck.check(payment, { profile: "revolut", debtorAccountCurrency: "GBP" })
  if (findings.length === 0) yield* Console.log("  checks: no findings")
  for (const f of findings) yield* Console.log(`  ${f.severity}: ${f.path.join(".")}: ${f.message}`)
  return { findings: findings.length }
})

const exchangeStep = Effect.gen(function* () {
  yield* heading(4, "An exchange through a dropped connection: retried with the same request_id, processed once")
  const business = yield* BusinessClient.BusinessClient
  const { accounts } = yield* control<Seeded>("/seed")
  const gbp = accounts.find((a) => a.currency === "GBP")!
  const eur = accounts.find((a) => a.currency === "EUR")!
  yield* control("/faults", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify([{ operation: "exchange", kind: "drop-after", count: 1 }])
  })
  const requestId = "tour-exchange-1"
  const { transaction: tx } = yield* business.exchange({
    _tag: "Sell",
    from: { account_id: gbp.id, currency: gbp.currency as never },
    to: { account_id: eur.id, currency: eur.currency as never },
    amount: BigDecimal.fromStringUnsafe("150.00"),
    request_id: requestId
  })
  const ledger =
    yield* control<ReadonlyArray<{ request_id: string; received: number; transactions: number }>>("/ledger")
  const entry = ledger.find((e) => e.request_id === requestId)!
  yield* Console.log(`  sell 150.00 GBP for EUR, request_id ${requestId}`)
  yield* Console.log(`  the first attempt was processed, then its connection dropped; the client retried`)
  yield* Console.log(
    `  the sandbox received request_id ${requestId} ${entry.received} times and created ${entry.transactions} transaction: ${tx.id} (${tx.state === undefined ? "no state" : ExchangeState.valueOf(tx.state)})`
  )
  return { received: entry.received, transactions: entry.transactions }
})

/**
 * The whole tour.
 *
 * @since 0.1.0
 * @category commands
 */
export const tour = Effect.gen(function* () {
  yield* Console.log("payrules tour: validation and simulation for payment API traffic")
  yield* heading(1, "An embedded sandbox of the three APIs, on 127.0.0.1")
  const s = yield* Sandbox.SandboxServer
  yield* Console.log(
    `  Open Banking ${s.urls.openBanking}\n  Merchant     ${s.urls.merchant}\n  Business     ${s.urls.business}`
  )
  const plans = yield* plansStep
  const payment = yield* paymentStep
  const exchange = yield* exchangeStep
  const payFields = yield* payFieldsStep
  yield* Console.log(
    `\nDone: ${plans.plans} plans simulated (${plans.cycles} cycles billed), 1 payment checked (${payment.findings} findings), 1 exchange sent ${exchange.received} times and processed ${exchange.transactions} time, ${payFields.corridors} corridors validated (${payFields.issues} issues found).`
  )
}).pipe(Effect.provide(TourLive))
