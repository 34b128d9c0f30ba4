/**
 * The field requirements POST /pay/fields answers for six kinds of payment (corridors), in the shapes the real API
 * publishes, as plain data: the sandbox of @payrules/sandbox answers them, the playground offers them as examples, a
 * test suite can compile them with `FieldValidator`.
 *
 * @since 0.2.0
 */

/**
 * A field requirement as POST /pay/fields returns it.
 *
 * @since 0.2.0
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
 * @since 0.2.0
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
 * @since 0.2.0
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
