/**
 * Fifteen plans that show every phase shape of the specification, as plain data without ids or timestamps: a trial
 * then an intro price, 2-hour and 36-hour cycles, a month and a half, a plan without a price, two variations, items,
 * JPY and KWD amounts, a plan that stops. The sandbox of @payrules/sandbox seeds every tenant with them (giving each
 * its own ids); the playground offers them as examples; a test suite can use them as fixtures.
 *
 * @since 0.2.0
 */
import type * as SubscriptionPlan from "./SubscriptionPlan.js"

type PhaseWire = SubscriptionPlan.SubscriptionPlanEncoded["variations"][number]["phases"][number]

/**
 * A phase as the sandbox serves it, with its name as its id (`intro`): the sandbox replaces it with a UUID keyed by
 * the variation and the name, and gives each item an id.
 *
 * @since 0.2.0
 * @category models
 */
export type Phase = Omit<PhaseWire, "subscription_items"> & {
  readonly subscription_items?: ReadonlyArray<{ readonly [key: string]: unknown }>
}

/**
 * A plan without its ids and timestamps: its name, state, trial, and the phases of each variation.
 *
 * @since 0.2.0
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
 * The 15 plans, in the order the sandbox creates them for each tenant.
 *
 * @since 0.2.0
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
