/**
 * The sandbox's data, generated deterministically from a seed: the same seed gives the same ids, balances, plans
 * and payments.
 *
 * @internal
 */
import type { SubscriptionPlan } from "@payrules/subscriptions"
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
export interface FieldRule {
  readonly name: string
  readonly required: boolean
  readonly validation?: {
    readonly min_length?: number
    readonly max_length?: number
    readonly regex?: { readonly pattern: string; readonly description: string }
  }
  readonly options?: ReadonlyArray<{
    readonly value: string
    readonly default?: boolean
    readonly description?: string
  }>
}

/** @internal */
export interface Corridor {
  readonly id: "GB-GBP-FPS" | "EU-EUR-SEPA" | "US-USD-SWIFT" | "IN-INR" | "CH-CHF-QR" | "CARD"
  readonly description: string
  readonly fields: ReadonlyArray<FieldRule>
}

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

const transferReasons = [
  ["advertising", "Advertising"],
  ["advisor_fees", "Advisor fees"],
  ["business_insurance", "Business insurance"],
  ["construction", "Construction"],
  ["delivery_fees", "Delivery fees"],
  ["education", "Education"],
  ["exports", "Exports"],
  ["family", "Family maintenance"],
  ["fund_investment", "Fund investment"],
  ["hotel", "Hotel"],
  ["salary", "Salary"],
  ["software", "Software"]
] as const

/** The field requirements of each corridor (the shapes the real API publishes). @internal */
export const corridors: ReadonlyArray<Corridor> = [
  {
    id: "GB-GBP-FPS",
    description: "GB bank account in GBP, sent through Faster Payments",
    fields: [
      {
        name: "reference",
        required: false,
        validation: {
          max_length: 35,
          regex: { pattern: "[A-Za-z0-9 /.&-]*", description: "Letters, digits, spaces and / . & - only" }
        }
      }
    ]
  },
  {
    id: "EU-EUR-SEPA",
    description: "EUR bank account in the SEPA zone",
    fields: [
      { name: "reference", required: false, validation: { max_length: 140 } },
      {
        name: "receiver.address.country",
        required: true,
        validation: {
          min_length: 2,
          max_length: 2,
          regex: { pattern: "[A-Z]{2}", description: "ISO 3166 country code" }
        }
      }
    ]
  },
  {
    id: "US-USD-SWIFT",
    description: "USD bank account abroad, sent through SWIFT",
    fields: [
      { name: "reference", required: true, validation: { max_length: 140 } },
      {
        name: "charge_bearer",
        required: true,
        options: [
          { value: "shared", default: true, description: "Fees are shared" },
          { value: "debtor", description: "You pay all fees" },
          { value: "prefer_debtor", description: "You pay all fees where possible" }
        ]
      },
      { name: "receiver.address.street_line1", required: true, validation: { min_length: 1, max_length: 100 } },
      { name: "receiver.address.city", required: true, validation: { min_length: 1, max_length: 50 } },
      {
        name: "receiver.address.postcode",
        required: true,
        validation: {
          max_length: 12,
          regex: { pattern: "[A-Za-z0-9 -]+", description: "Letters, digits, spaces, hyphens" }
        }
      }
    ]
  },
  {
    id: "IN-INR",
    description: "INR bank account in India",
    fields: [
      { name: "reference", required: true, validation: { max_length: 30 } },
      {
        name: "transfer_reason_code",
        required: true,
        options: transferReasons.map(([value, description]) => ({ value, description }))
      }
    ]
  },
  {
    id: "CH-CHF-QR",
    description: "CHF account paid with a Swiss QR reference",
    fields: [
      {
        name: "reference",
        required: true,
        validation: {
          min_length: 27,
          max_length: 27,
          regex: { pattern: "\\d{27}", description: "A QR reference: 27 digits" }
        }
      }
    ]
  },
  {
    id: "CARD",
    description: "Card transfer",
    fields: [{ name: "reference", required: false, validation: { max_length: 18 } }]
  }
]

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
const variation = (id: string, phases: ReadonlyArray<PhaseWire>) => ({
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

/** Hand-written plans covering every phase shape of the specification. @internal */
const showcasePlans = (random: Random.Random, createdAt: (i: number) => number) => {
  const plan = (
    i: number,
    name: string,
    variations: SubscriptionPlan.SubscriptionPlanEncoded["variations"],
    extra: Partial<SubscriptionPlan.SubscriptionPlanEncoded> = {}
  ): SubscriptionPlan.SubscriptionPlanEncoded => ({
    id: random.uuid(),
    name,
    state: "active",
    created_at: iso(createdAt(i)),
    updated_at: iso(createdAt(i) + 86_400_000),
    variations,
    ...extra
  })
  const v = (phases: ReadonlyArray<PhaseWire>) => variation(random.uuid(), phases)
  return [
    plan(
      0,
      "Pro (trial, intro, then monthly)",
      [
        v([
          phase("intro", 1, { cycle_duration: "P1M", cycle_count: 3, amount: 499, currency: "GBP" }),
          phase("standard", 2, { cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" })
        ])
      ],
      { trial_duration: "P14D" }
    ),
    plan(1, "Annual", [v([phase("yearly", 1, { cycle_duration: "P1Y", amount: 9900, currency: "GBP" })])]),
    plan(2, "Weekly box (12 weeks, then stops)", [
      v([phase("weeks", 1, { cycle_duration: "P1W", cycle_count: 12, amount: 1500, currency: "EUR" })])
    ]),
    plan(3, "Fortnightly", [v([phase("fortnight", 1, { cycle_duration: "P15D", amount: 750, currency: "EUR" })])]),
    plan(4, "Metered compute (2-hour cycles)", [
      v([phase("metered", 1, { cycle_duration: "PT2H", cycle_count: null, amount: 25, currency: "EUR" })])
    ]),
    plan(5, "Month and a half intro", [
      v([
        phase("intro", 1, { cycle_duration: "P1M15D", cycle_count: 1, amount: 0, currency: "USD" }),
        phase("monthly", 2, { cycle_duration: "P1M", amount: 1999, currency: "USD" })
      ])
    ]),
    plan(6, "36-hour passes", [
      v([phase("pass", 1, { cycle_duration: "PT36H", cycle_count: 3, amount: 300, currency: "CHF" })])
    ]),
    plan(7, "Free tier", [v([phase("free", 1, { cycle_duration: "P1M", amount: 0, currency: "GBP" })])]),
    plan(8, "Pay what you want (no price published)", [v([phase("open", 1, { cycle_duration: "P1M" })])]),
    plan(
      9,
      "Monthly or yearly",
      [
        v([phase("monthly", 1, { cycle_duration: "P1M", amount: 1200, currency: "GBP" })]),
        v([phase("yearly", 1, { cycle_duration: "P1Y", amount: 12000, currency: "GBP" })])
      ],
      { trial_duration: "P7D" }
    ),
    plan(
      10,
      "Legacy (deactivated)",
      [v([phase("legacy", 1, { cycle_duration: "P1M", amount: 500, currency: "GBP" })])],
      {
        state: "deactivated"
      }
    ),
    plan(11, "Seats with items", [
      v([
        phase("seats", 1, {
          cycle_duration: "P1M",
          amount: 2500,
          currency: "GBP",
          subscription_items: [
            { name: "Seat", type: "flat", amount: 500, currency: "GBP", unit: "seat", quantity: 5 },
            { name: "Priority support", type: "flat", amount: 0, currency: "GBP", unit: "month", quantity: 1 }
          ]
        })
      ])
    ]),
    plan(12, "Yen monthly", [v([phase("monthly", 1, { cycle_duration: "P1M", amount: 1500, currency: "JPY" })])]),
    plan(13, "Dinar quarterly", [
      v([phase("quarterly", 1, { cycle_duration: "P3M", amount: 12500, currency: "KWD" })])
    ]),
    plan(14, "Three phases, then stops", [
      v([
        phase("launch", 1, { cycle_duration: "P1W", cycle_count: 2, amount: 100, currency: "GBP" }),
        phase("ramp", 2, { cycle_duration: "P1M", cycle_count: 2, amount: 500, currency: "GBP" }),
        phase("full", 3, { cycle_duration: "P1M", cycle_count: 6, amount: 900, currency: "GBP" })
      ])
    ])
  ]
}

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
    plans.push({
      id: random.uuid(),
      name: `${random.pick(planNames)} ${i}`,
      ...(random.next() < 0.3 ? { trial_duration: `P${random.pick([7, 14, 30])}D` } : {}),
      state: random.next() < 0.9 ? "active" : "deactivated",
      created_at: iso(createdAt(i)),
      updated_at: iso(createdAt(i) + random.int(0, 30) * 86_400_000),
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
