/**
 * Examples for the fields panel: the sandbox's corridors (`FieldCorridors` of `@payrules/transfers`, the shapes the real API
 * publishes) with a payment body for each, a corridor of 20 rules (the benchmark's), and rules the compiler refuses.
 */
import { FieldCorridors } from "@payrules/transfers"

export type Scheme = "FasterPayments" | "OpenBanking" | "Swift"

export const schemes: ReadonlyArray<{ readonly id: Scheme; readonly label: string }> = [
  { id: "FasterPayments", label: "Faster Payments (reference 18, end-to-end id 31)" },
  { id: "OpenBanking", label: "Open Banking (reference 35, unstructured 140)" },
  { id: "Swift", label: "SWIFT (reference 140)" }
]

export interface Preset {
  readonly id: string
  readonly label: string
  readonly fields: unknown
  readonly body: unknown
  readonly schemes: ReadonlyArray<Scheme>
}

const body = (currency: string, extra: Record<string, unknown>, receiver: Record<string, unknown> = {}) => ({
  amount: 42.5,
  currency,
  account_id: "7998c9e4-1c8f-4c33-9b7c-7e1a9f3d9e01",
  receiver: {
    counterparty_id: "0f7bd9f3-5a4c-4b2a-8b57-4a6d1b0e2c11",
    account_id: "db7c73d3-b0df-4d6f-8b74-3a2e1f0c9d8e",
    ...receiver
  },
  request_id: "e0cbf846-3726-4ee0-82a8-48b1c2d3e4f5",
  ...extra
})

const address = { street_line1: "10 Downing Street", city: "London", postcode: "SW1A 2AA", country: "GB" }

const bodies: Record<
  FieldCorridors.Corridor["id"],
  { readonly body: unknown; readonly schemes: ReadonlyArray<Scheme> }
> = {
  "GB-GBP-FPS": { body: body("GBP", { reference: "RENT MARCH FLAT 2" }), schemes: ["FasterPayments"] },
  "EU-EUR-SEPA": {
    body: body("EUR", { reference: "Invoice 2024-0017" }, { address: { country: "FR" } }),
    schemes: []
  },
  "US-USD-SWIFT": {
    body: body(
      "USD",
      { reference: "Invoice 2024/17 (March)", charge_bearer: "shared" },
      { address: { street_line1: "1 Main Street", city: "Springfield", postcode: "62701" } }
    ),
    schemes: ["Swift"]
  },
  "IN-INR": { body: body("INR", { reference: "Family support", transfer_reason_code: "family" }), schemes: [] },
  "CH-CHF-QR": { body: body("CHF", { reference: "210000000003139471430009017" }), schemes: [] },
  CARD: {
    body: {
      ...body("GBP", { reference: "Card payout" }),
      receiver: {
        counterparty_id: "0f7bd9f3-5a4c-4b2a-8b57-4a6d1b0e2c11",
        card_id: "5b1a3c9e-2d4f-4e6a-8b0c-1d2e3f4a5b6c"
      }
    },
    schemes: []
  }
}

const reasons = ["advertising", "advisor_fees", "construction", "education", "exports", "family", "salary", "software"]

/** Twenty rules of a SWIFT payment: an address, a bank, patterns, lengths, options, regulatory fields. */
const twenty = [
  {
    name: "reference",
    required: true,
    validation: {
      max_length: 140,
      regex: { pattern: "[A-Za-z0-9 /?:().,'+-]{1,140}", description: "the SWIFT character set" }
    }
  },
  {
    name: "charge_bearer",
    required: true,
    options: [{ value: "shared", default: true }, { value: "debtor" }, { value: "prefer_debtor" }]
  },
  { name: "transfer_reason_code", required: true, options: reasons.map((value) => ({ value })) },
  { name: "receiver.address.street_line1", required: true, validation: { min_length: 1, max_length: 35 } },
  { name: "receiver.address.street_line2", required: false, validation: { max_length: 35 } },
  {
    name: "receiver.address.city",
    required: true,
    validation: { max_length: 35, regex: { pattern: "[A-Za-z .'-]{1,35}", description: "letters, spaces, . ' and -" } }
  },
  { name: "receiver.address.region", required: false, validation: { max_length: 35 } },
  {
    name: "receiver.address.postcode",
    required: true,
    validation: { regex: { pattern: "[A-Z0-9 ]{3,10}", description: "3 to 10 capital letters, digits or spaces" } }
  },
  {
    name: "receiver.address.country",
    required: true,
    validation: { regex: { pattern: "[A-Z]{2}", description: "an ISO 3166 country code" } }
  },
  { name: "receiver.name", required: true, validation: { min_length: 1, max_length: 70 } },
  {
    name: "receiver.bank.bic",
    required: true,
    validation: { regex: { pattern: "[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?", description: "a BIC: 8 or 11 characters" } }
  },
  { name: "receiver.bank.name", required: false, validation: { max_length: 70 } },
  {
    name: "receiver.bank.country",
    required: true,
    validation: { regex: { pattern: "[A-Z]{2}", description: "an ISO 3166 country code" } }
  },
  {
    name: "receiver.iban",
    required: true,
    validation: {
      max_length: 34,
      regex: { pattern: "[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}", description: "an IBAN in electronic form" }
    }
  },
  {
    name: "purpose_code",
    required: false,
    validation: { regex: { pattern: "[A-Z]{4}", description: "an ISO 20022 purpose code: 4 capital letters" } }
  },
  { name: "invoice_number", required: false, validation: { min_length: 1, max_length: 35 } },
  {
    name: "invoice_date",
    required: false,
    validation: { regex: { pattern: "\\d{4}-\\d{2}-\\d{2}", description: "a date: YYYY-MM-DD" } }
  },
  {
    name: "regulatory.reporting_code",
    required: false,
    validation: { regex: { pattern: "[A-Z0-9]{3,6}", description: "3 to 6 capital letters or digits" } }
  },
  {
    name: "regulatory.tax_id",
    required: false,
    validation: { max_length: 20, regex: { pattern: "[A-Z0-9-]+", description: "capital letters, digits and -" } }
  },
  { name: "sender.reference", required: false, validation: { max_length: 16 } }
]

const twentyBody = {
  ...body("USD", {
    reference: "Invoice 2024/17 (March)",
    charge_bearer: "shared",
    transfer_reason_code: "exports",
    purpose_code: "SUPP",
    invoice_number: "INV-2024-0017",
    invoice_date: "2024-03-31",
    regulatory: { reporting_code: "EXP01" },
    sender: { reference: "PO 4471" }
  }),
  receiver: {
    counterparty_id: "0f7bd9f3-5a4c-4b2a-8b57-4a6d1b0e2c11",
    account_id: "db7c73d3-b0df-4d6f-8b74-3a2e1f0c9d8e",
    name: "Example Corp",
    iban: "DE89370400440532013000",
    address,
    bank: { bic: "DEUTDEFF", name: "Deutsche Bank", country: "DE" }
  }
}

/** a backreference (the linear-time engine cannot run it) and a name that would write onto Object.prototype */
const refused = [
  {
    name: "reference",
    required: true,
    validation: { max_length: 35, regex: { pattern: "(\\w+) \\1", description: "a word said twice" } }
  },
  { name: "__proto__.polluted", required: false, validation: { max_length: 10 } },
  { name: "invoice_number", required: false, validation: { min_length: 40, max_length: 35 } }
]

export const presets: ReadonlyArray<Preset> = [
  ...FieldCorridors.corridors.map(
    (c): Preset => ({ id: c.id, label: c.description, fields: { fields: c.fields }, ...bodies[c.id] })
  ),
  {
    id: "twenty",
    label: "SWIFT with 20 rules: address, bank, regulatory fields",
    fields: { fields: twenty },
    body: twentyBody,
    schemes: ["Swift"]
  },
  {
    id: "refused",
    label: "Rules the compiler refuses (a backreference, a hostile name)",
    fields: { fields: refused },
    body: body("GBP", { reference: "hello hello" }),
    schemes: []
  }
]

export const presetById = (id: string): Preset | undefined => presets.find((p) => p.id === id)

export const pretty = (value: unknown): string => JSON.stringify(value, null, 2)
