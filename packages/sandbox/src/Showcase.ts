/**
 * What every seed of the sandbox holds, as plain data: the 15 plans that show every phase shape of the specification
 * (a trial then an intro price, 2-hour and 36-hour cycles, a month and a half, a plan without a price, two
 * variations, items, JPY and KWD amounts, a plan that stops) and the field requirements of POST /pay/fields per
 * corridor. The sandbox gives each seed its own ids; this module has no ids and imports nothing that needs Node, so
 * a browser can load it (the playground offers these plans and corridors as examples).
 *
 * @since 0.1.0
 */
import type { SubscriptionPlan } from "@payrules/subscriptions"

type PhaseWire = SubscriptionPlan.SubscriptionPlanEncoded["variations"][number]["phases"][number]

/**
 * A phase as the sandbox serves it, with its name as its id (`intro`): the sandbox replaces it with a UUID keyed by
 * the variation and the name, and gives each item an id.
 *
 * @since 0.1.0
 * @category models
 */
export type Phase = Omit<PhaseWire, "subscription_items"> & {
  readonly subscription_items?: ReadonlyArray<{ readonly [key: string]: unknown }>
}

/**
 * A plan without its ids and timestamps: its name, state, trial, and the phases of each variation.
 *
 * @since 0.1.0
 * @category models
 */
export interface Plan {
  readonly name: string
  readonly state: "active" | "deactivated"
  readonly trial_duration?: string
  readonly variations: ReadonlyArray<ReadonlyArray<Phase>>
}

const phase = (id: string, ordinal: number, fields: Omit<Phase, "id" | "ordinal">): Phase => ({
  id,
  ordinal,
  ...fields
})

const plan = (
  name: string,
  variations: ReadonlyArray<ReadonlyArray<Phase>>,
  extra: Partial<Pick<Plan, "state" | "trial_duration">> = {}
): Plan => ({ name, state: "active", variations, ...extra })

/**
 * The 15 plans of every seed, in the order the sandbox creates them.
 *
 * @since 0.1.0
 * @category data
 */
export const plans: ReadonlyArray<Plan> = [
  plan(
    "Pro (trial, intro, then monthly)",
    [
      [
        phase("intro", 1, { cycle_duration: "P1M", cycle_count: 3, amount: 499, currency: "GBP" }),
        phase("standard", 2, { cycle_duration: "P1M", cycle_count: null, amount: 999, currency: "GBP" })
      ]
    ],
    { trial_duration: "P14D" }
  ),
  plan("Annual", [[phase("yearly", 1, { cycle_duration: "P1Y", amount: 9900, currency: "GBP" })]]),
  plan("Weekly box (12 weeks, then stops)", [
    [phase("weeks", 1, { cycle_duration: "P1W", cycle_count: 12, amount: 1500, currency: "EUR" })]
  ]),
  plan("Fortnightly", [[phase("fortnight", 1, { cycle_duration: "P15D", amount: 750, currency: "EUR" })]]),
  plan("Metered compute (2-hour cycles)", [
    [phase("metered", 1, { cycle_duration: "PT2H", cycle_count: null, amount: 25, currency: "EUR" })]
  ]),
  plan("Month and a half intro", [
    [
      phase("intro", 1, { cycle_duration: "P1M15D", cycle_count: 1, amount: 0, currency: "USD" }),
      phase("monthly", 2, { cycle_duration: "P1M", amount: 1999, currency: "USD" })
    ]
  ]),
  plan("36-hour passes", [
    [phase("pass", 1, { cycle_duration: "PT36H", cycle_count: 3, amount: 300, currency: "CHF" })]
  ]),
  plan("Free tier", [[phase("free", 1, { cycle_duration: "P1M", amount: 0, currency: "GBP" })]]),
  plan("Pay what you want (no price published)", [[phase("open", 1, { cycle_duration: "P1M" })]]),
  plan(
    "Monthly or yearly",
    [
      [phase("monthly", 1, { cycle_duration: "P1M", amount: 1200, currency: "GBP" })],
      [phase("yearly", 1, { cycle_duration: "P1Y", amount: 12000, currency: "GBP" })]
    ],
    { trial_duration: "P7D" }
  ),
  plan("Legacy (deactivated)", [[phase("legacy", 1, { cycle_duration: "P1M", amount: 500, currency: "GBP" })]], {
    state: "deactivated"
  }),
  plan("Seats with items", [
    [
      phase("seats", 1, {
        cycle_duration: "P1M",
        amount: 2500,
        currency: "GBP",
        subscription_items: [
          { name: "Seat", type: "flat", amount: 500, currency: "GBP", unit: "seat", quantity: 5 },
          { name: "Priority support", type: "flat", amount: 0, currency: "GBP", unit: "month", quantity: 1 }
        ]
      })
    ]
  ]),
  plan("Yen monthly", [[phase("monthly", 1, { cycle_duration: "P1M", amount: 1500, currency: "JPY" })]]),
  plan("Dinar quarterly", [[phase("quarterly", 1, { cycle_duration: "P3M", amount: 12500, currency: "KWD" })]]),
  plan("Three phases, then stops", [
    [
      phase("launch", 1, { cycle_duration: "P1W", cycle_count: 2, amount: 100, currency: "GBP" }),
      phase("ramp", 2, { cycle_duration: "P1M", cycle_count: 2, amount: 500, currency: "GBP" }),
      phase("full", 3, { cycle_duration: "P1M", cycle_count: 6, amount: 900, currency: "GBP" })
    ]
  ])
]

/**
 * A field requirement as POST /pay/fields returns it.
 *
 * @since 0.1.0
 * @category models
 */
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

/**
 * The field requirements of one kind of payment, as the sandbox answers POST /pay/fields for it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Corridor {
  readonly id: "GB-GBP-FPS" | "EU-EUR-SEPA" | "US-USD-SWIFT" | "IN-INR" | "CH-CHF-QR" | "CARD"
  readonly description: string
  readonly fields: ReadonlyArray<FieldRule>
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

/**
 * The field requirements of each corridor (the shapes the real API publishes).
 *
 * @since 0.1.0
 * @category data
 */
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
