/**
 * The sandbox's data, generated deterministically from a seed: the same seed gives the same ids, balances, plans
 * and payments.
 *
 * @internal
 */
import { PlanShapes, type SubscriptionPlan } from "@payrules/subscriptions"
import { FieldCorridors } from "@payrules/transfers"
import * as Random from "./random.js"

/** @internal */
export interface Account {
  readonly id: string
  readonly name: string
  readonly currency: string
  /** decimal string in major units */
  readonly balance: string
  /** accounts at another institution settle exchanges asynchronously (created, pending, completed) */
  readonly institution: "same" | "other"
}

/** A field requirement as POST /pay/fields returns it. @internal */
export type FieldRule = FieldCorridors.FieldRule

/** @internal */
export type Corridor = FieldCorridors.Corridor

/** @internal */
export interface CounterpartyAccount {
  readonly id: string
  readonly corridor: Corridor["id"]
  readonly country: string
  readonly currency: string
}

/** @internal */
export interface Counterparty {
  readonly id: string
  readonly name: string
  readonly accounts: ReadonlyArray<CounterpartyAccount>
  readonly cards: ReadonlyArray<{ readonly id: string; readonly last4: string }>
}

/** @internal */
export interface SeedData {
  readonly seed: number
  readonly holderCountry: string
  readonly accounts: ReadonlyArray<Account>
  readonly counterparties: ReadonlyArray<Counterparty>
  readonly corridors: ReadonlyArray<Corridor>
  readonly plans: ReadonlyArray<SubscriptionPlan.SubscriptionPlanEncoded>
  readonly exchangeReasons: ReadonlyArray<{ readonly code: string; readonly name: string }>
  /** units of each currency per 1 GBP (mid-market, fixed per seed) */
  readonly ratesPerGbp: Readonly<Record<string, string>>
}

/** The field requirements of each corridor (the shapes the real API publishes). @internal */
export const corridors: ReadonlyArray<Corridor> = FieldCorridors.corridors

const planNames = ["Starter", "Team", "Growth", "Scale", "Enterprise", "Studio", "Creator", "Plus", "Family", "Solo"]
const durations = ["P1M", "P1Y", "P15D", "P1W", "PT2H", "P1M15D", "PT36H", "P3M", "P6M", "P2W"]
const planCurrencies = ["GBP", "EUR", "USD", "JPY", "KWD", "CHF"]

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z")

type PhaseWire = SubscriptionPlan.SubscriptionPlanEncoded["variations"][number]["phases"][number]

const phase = (id: string, ordinal: number, fields: Omit<PhaseWire, "id" | "ordinal">): PhaseWire => ({
  id,
  ordinal,
  ...fields
})

/**
 * A variation with its id; the ids of its phases (written with a name: `intro`) and of their items are UUIDs keyed
 * by the variation's id and that name, as the official documents give them (`format: uuid`, D12).
 */
const variation = (id: string, phases: ReadonlyArray<PlanShapes.Phase>) => ({
  id,
  phases: phases.map((p) => ({
    ...p,
    id: Random.keyedUuid("phase", id, p.id),
    ...(p.subscription_items === undefined
      ? {}
      : {
          subscription_items: p.subscription_items.map((item, i) => ({
            id: Random.keyedUuid("item", id, p.id, i),
            ...item
          }))
        })
  }))
})

/**
 * The showcase plans (every phase shape of the specification) with this seed's ids: the ids of each plan's
 * variations are drawn before the plan's own.
 */
const showcasePlans = (random: Random.Random, createdAt: (i: number) => number) =>
  PlanShapes.plans.map((shape, i): SubscriptionPlan.SubscriptionPlanEncoded => {
    const variations = shape.variations.map((phases) => variation(random.uuid(), phases))
    const created = createdAt(i)
    return {
      id: random.uuid(),
      name: shape.name,
      state: shape.state,
      created_at: iso(created),
      updated_at: iso(created + 86_400_000),
      variations,
      ...(shape.trial_duration === undefined ? {} : { trial_duration: shape.trial_duration })
    }
  })

/**
 * The seed data. `plans` is the total number of plans (at least the 15 showcase plans; the rest are generated).
 *
 * @internal
 */
export const make = (seed: number, options: { readonly plans: number } = { plans: 1200 }): SeedData => {
  const random = Random.make(seed)
  const accountId = () => random.uuid()
  const accounts: ReadonlyArray<Account> = [
    {
      id: accountId(),
      name: "Main GBP",
      currency: "GBP",
      balance: `${random.int(200_000, 300_000)}.00`,
      institution: "same"
    },
    {
      id: accountId(),
      name: "Euro",
      currency: "EUR",
      balance: `${random.int(100_000, 150_000)}.00`,
      institution: "same"
    },
    {
      id: accountId(),
      name: "Dollar",
      currency: "USD",
      balance: `${random.int(80_000, 120_000)}.00`,
      institution: "same"
    },
    {
      id: accountId(),
      name: "Franc",
      currency: "CHF",
      balance: `${random.int(20_000, 40_000)}.00`,
      institution: "same"
    },
    {
      id: accountId(),
      name: "Rupee",
      currency: "INR",
      balance: `${random.int(4_000_000, 6_000_000)}.00`,
      institution: "same"
    },
    {
      id: accountId(),
      name: "Yen",
      currency: "JPY",
      balance: `${random.int(1_000_000, 3_000_000)}`,
      institution: "same"
    },
    { id: accountId(), name: "Savings EUR (partner bank)", currency: "EUR", balance: "5000.00", institution: "other" },
    { id: accountId(), name: "Petty cash GBP", currency: "GBP", balance: "12.50", institution: "same" }
  ]
  const counterparty = (name: string, corridorsOf: ReadonlyArray<[Corridor["id"], string, string]>, cards = 0) => ({
    id: random.uuid(),
    name,
    accounts: corridorsOf.map(([corridor, country, currency]) => ({ id: random.uuid(), corridor, country, currency })),
    cards: Array.from({ length: cards }, () => ({ id: random.uuid(), last4: String(random.int(1000, 9999)) }))
  })
  const counterparties: ReadonlyArray<Counterparty> = [
    counterparty("Acme Supplies Ltd", [["GB-GBP-FPS", "GB", "GBP"]]),
    counterparty("Société Exemple SARL", [["EU-EUR-SEPA", "FR", "EUR"]]),
    counterparty("Example Corp", [["US-USD-SWIFT", "US", "USD"]]),
    counterparty("Bharat Traders", [["IN-INR", "IN", "INR"]]),
    counterparty("Beispiel AG", [["CH-CHF-QR", "CH", "CHF"]]),
    counterparty(
      "Multi Method Ltd",
      [
        ["GB-GBP-FPS", "GB", "GBP"],
        ["EU-EUR-SEPA", "DE", "EUR"]
      ],
      1
    ),
    counterparty("Card Only Freelancer", [], 2)
  ]
  const start = Date.UTC(2022, 0, 1)
  const span = Date.UTC(2026, 9, 1) - start
  const total = Math.max(options.plans, 15)
  const createdAt = (i: number) => start + Math.floor((span * i) / total) + random.int(0, 3_600_000)
  const plans: Array<SubscriptionPlan.SubscriptionPlanEncoded> = showcasePlans(random, (i) => createdAt(i * 7))
  for (let i = plans.length; i < total; i++) {
    const currency = random.pick(planCurrencies)
    const phases = random.int(1, 3)
    const endless = random.next() < 0.6
    const created = createdAt(i)
    plans.push({
      id: random.uuid(),
      name: `${random.pick(planNames)} ${i}`,
      ...(random.next() < 0.3 ? { trial_duration: `P${random.pick([7, 14, 30])}D` } : {}),
      state: random.next() < 0.9 ? "active" : "deactivated",
      created_at: iso(created),
      updated_at: iso(created + random.int(0, 30) * 86_400_000),
      variations: [
        variation(
          random.uuid(),
          Array.from({ length: phases }, (_, k) =>
            phase(`phase_${k + 1}`, k + 1, {
              cycle_duration: random.pick(durations),
              ...(k === phases - 1 && endless ? { cycle_count: null } : { cycle_count: random.int(1, 12) }),
              amount: random.int(0, 50) * 100,
              currency
            })
          )
        )
      ]
    })
  }
  plans.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1))
  return {
    seed,
    holderCountry: "GB",
    accounts,
    counterparties,
    corridors,
    plans,
    exchangeReasons: [
      { code: "business_expenses", name: "Business expenses" },
      { code: "supplier_payment", name: "Paying a supplier" },
      { code: "investment", name: "Investment" },
      { code: "payroll", name: "Payroll" },
      { code: "intragroup", name: "Intragroup transfer" }
    ],
    ratesPerGbp: { GBP: "1", EUR: "1.17", USD: "1.27", CHF: "1.12", INR: "105.5", JPY: "190.2", KWD: "0.39" }
  }
}
