import { SubscriptionPlan } from "@payrules/subscriptions"
import { Schema } from "effect"
import fc from "fast-check"

export type PhaseWire = Schema.Codec.Encoded<typeof SubscriptionPlan.Phase>
export type VariationWire = Schema.Codec.Encoded<typeof SubscriptionPlan.Variation>

export const decodeVariation = Schema.decodeUnknownSync(SubscriptionPlan.Variation)
export const decodePlan = Schema.decodeUnknownSync(SubscriptionPlan.SubscriptionPlan)

export const variation = (phases: ReadonlyArray<Partial<PhaseWire>>, id = "var_1"): SubscriptionPlan.Variation =>
  decodeVariation({
    id,
    phases: phases.map((p, i) => ({ id: `ph_${i + 1}`, ordinal: i + 1, cycle_duration: "P1M", ...p }))
  })

/** The durations named in the issue, and random positive ones. */
export const namedDurations = ["P1M", "P1Y", "P15D", "P1W", "PT2H", "P1M15D", "PT36H"] as const

export const durationString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...namedDurations) },
  fc
    .record({
      y: fc.integer({ min: 0, max: 1 }),
      m: fc.integer({ min: 0, max: 3 }),
      w: fc.integer({ min: 0, max: 2 }),
      d: fc.integer({ min: 0, max: 20 }),
      h: fc.integer({ min: 0, max: 30 }),
      mi: fc.integer({ min: 0, max: 90 })
    })
    .filter((r) => r.y + r.m + r.w + r.d + r.h + r.mi > 0)
    .map(({ y, m, w, d, h, mi }) => {
      const date = `${y ? `${y}Y` : ""}${m ? `${m}M` : ""}${w ? `${w}W` : ""}${d ? `${d}D` : ""}`
      const time = `${h ? `${h}H` : ""}${mi ? `${mi}M` : ""}`
      return `P${date}${time ? `T${time}` : ""}`
    })
)

/** Plans of 1-5 phases in ascending ordinal; the last is endless about a third of the time. */
export const variationWire: fc.Arbitrary<VariationWire> = fc
  .record({
    phases: fc.array(
      fc.record({
        duration: durationString,
        count: fc.integer({ min: 1, max: 6 }),
        amount: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
        currency: fc.constantFrom("GBP", "EUR", "JPY")
      }),
      { minLength: 1, maxLength: 5 }
    ),
    endless: fc.boolean()
  })
  .map(({ phases, endless }) => ({
    id: "var_gen",
    phases: phases.map((p, i) => ({
      id: `ph_${i + 1}`,
      ordinal: i + 1,
      cycle_duration: p.duration,
      ...(endless && i === phases.length - 1 ? { cycle_count: null } : { cycle_count: p.count }),
      ...(p.amount === undefined ? {} : { amount: p.amount, currency: p.currency })
    }))
  }))

/** Start instants that stress the calendar: the 29th-31st, Feb 29, and inside DST transitions. */
export const startInstant: fc.Arbitrary<number> = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 2019, max: 2031 }),
      fc.integer({ min: 0, max: 11 }),
      fc.integer({ min: 29, max: 31 }),
      fc.integer({ min: 0, max: 86_399 })
    )
    .map(([y, m, d, s]) => Date.UTC(y, m, Math.min(d, new Date(Date.UTC(y, m + 1, 0)).getUTCDate())) + s * 1000),
  fc.constantFrom(Date.UTC(2024, 1, 29, 10), Date.UTC(2020, 1, 29, 23, 30), Date.UTC(2028, 1, 29)),
  // around the DST transitions of London and New York (spring and fall), +-3 hours
  fc
    .tuple(
      fc.constantFrom(
        Date.UTC(2024, 2, 31, 1),
        Date.UTC(2024, 9, 27, 1),
        Date.UTC(2024, 2, 10, 7),
        Date.UTC(2024, 10, 3, 6),
        Date.UTC(2025, 2, 30, 1),
        Date.UTC(2025, 10, 2, 6)
      ),
      fc.integer({ min: -180, max: 180 })
    )
    .map(([t, minutes]) => t + minutes * 60_000),
  fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) })
)

export const zone = fc.constantFrom("UTC", "Europe/London", "America/New_York")

/** the smallest well-formed phase, as the API sends it */
export const minimalPhase = { id: "ph", ordinal: 1, cycle_duration: "P1M" } as const

/** the smallest well-formed plan, as the API sends it: one variation of {@link minimalPhase} */
export const minimalPlan = {
  id: "pln",
  name: "Pro",
  state: "active",
  created_at: "2024-01-01T00:00:00Z",
  updated_at: "2024-01-01T00:00:00Z",
  variations: [{ id: "var", phases: [minimalPhase] }]
} as const
