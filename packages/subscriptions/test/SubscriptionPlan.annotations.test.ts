import { describe, expect, it } from "@effect/vitest"
import { SubscriptionPlan } from "@payrules/subscriptions"
import { issuesOf } from "@payrules/vitest"
import { Arbitrary, Effect, Result, Schema } from "effect"
import { minimalPhase, minimalPlan } from "./fixtures.js"

type Json = { readonly [key: string]: unknown }
const documentOf = (schema: Schema.Top) => {
  const document = Schema.toJsonSchemaDocument(schema)
  return { root: document.schema as Json, defs: document.definitions as unknown as { readonly [key: string]: Json } }
}
const propertiesOf = (node: Json | undefined) => (node?.properties ?? {}) as { readonly [key: string]: Json }

/** the issues (path and message) of decoding `input` with every fault */
const issues = (schema: Schema.Top, input: unknown) =>
  Result.match(Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>)(input, { errors: "all" }), {
    onFailure: (e) => issuesOf(e).map((i) => [i.path.join("."), i.message]),
    onSuccess: () => []
  })

const phase = minimalPhase
const plan = minimalPlan

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const SLUG = /^[a-z0-9][a-z0-9_-]{0,23}$/
const ITEM_KEY = /^[a-z][a-z_]{0,11}$/

describe("SubscriptionPlan annotations users see (named after the bugs they guard)", () => {
  // -------------------------------------------------------------------------
  // the exported JSON Schema
  // -------------------------------------------------------------------------

  it("the JSON Schema of a page names its $defs by the Schemas' identifiers, strict and lenient", () => {
    const strict = documentOf(SubscriptionPlan.PlanListPage)
    expect(strict.root).toEqual({ $ref: "#/$defs/PlanListPage" })
    expect(Object.keys(strict.defs).sort()).toEqual([
      "CycleDuration",
      "OffsetDateTimeFromString",
      "Phase",
      "PlanListPage",
      "PlanState",
      "SubscriptionPlan",
      "TrialDuration",
      "Variation"
    ])
    expect(propertiesOf(strict.defs.PlanListPage).subscription_plans).toEqual({
      type: "array",
      items: { $ref: "#/$defs/SubscriptionPlan" }
    })
    expect(propertiesOf(strict.defs.SubscriptionPlan).variations).toEqual({
      type: "array",
      items: { $ref: "#/$defs/Variation" }
    })
    expect(propertiesOf(strict.defs.Variation).phases).toEqual({ type: "array", items: { $ref: "#/$defs/Phase" } })
    const lenient = documentOf(SubscriptionPlan.PlanListPageLenient)
    expect(lenient.root).toEqual({ $ref: "#/$defs/PlanListPageLenient" })
    expect(Object.keys(lenient.defs).sort()).toEqual([
      "CycleDuration",
      "OffsetDateTimeFromString",
      "PhaseLenient",
      "PlanListPageLenient",
      "PlanStateLenientEncoded",
      "SubscriptionPlanLenient",
      "TrialDuration",
      "VariationLenient"
    ])
  })

  it("the JSON Schema describes ids, phases, items and the plan's state as the README and the API do", () => {
    const { defs } = documentOf(SubscriptionPlan.PlanListPage)
    const idOf = (what: string) => ({
      type: "string",
      format: "uuid",
      description: `${what}: a UUID as the API gives it (any non-empty string is read)`
    })
    expect(propertiesOf(defs.SubscriptionPlan).id).toEqual(idOf("a plan id"))
    expect(propertiesOf(defs.Variation).id).toEqual(idOf("a variation id"))
    expect(propertiesOf(defs.Phase).id).toEqual(idOf("a phase id"))
    expect(defs.Phase!.description).toBe("a billing phase of a plan variation")
    expect(propertiesOf(defs.Phase).subscription_items).toEqual({
      type: "array",
      items: {
        type: "object",
        description: "a subscription item; its fields are not described by the specification and are kept as they are"
      }
    })
    expect(defs.PlanState).toEqual({ type: "string", enum: ["active", "deactivated"] })
    expect(propertiesOf(defs.SubscriptionPlan).state).toEqual({ $ref: "#/$defs/PlanState" })
  })

  it("the JSON Schema of the query names it PlanListQuery and describes limit (PlanListLimit) as a string of a whole number", () => {
    const { root, defs } = documentOf(SubscriptionPlan.PlanListQuery)
    expect(root).toEqual({ $ref: "#/$defs/PlanListQuery" })
    expect(propertiesOf(defs.PlanListQuery).limit).toEqual({ $ref: "#/$defs/PlanListLimit" })
    expect(defs.PlanListLimit).toEqual({
      type: "string",
      description:
        "the number of plans per page, a whole number of at least 1 (the API's default is 100, its maximum 500)"
    })
  })

  // -------------------------------------------------------------------------
  // refusals and their messages
  // -------------------------------------------------------------------------

  it("a value of the wrong type is refused with the Schema's identifier in the message", () => {
    expect(issues(SubscriptionPlan.PlanListPage, "x")).toEqual([["", "Expected PlanListPage"]])
    expect(issues(SubscriptionPlan.PlanListPageLenient, "x")).toEqual([["", "Expected PlanListPageLenient"]])
    expect(issues(SubscriptionPlan.SubscriptionPlan, "x")).toEqual([["", "Expected SubscriptionPlan"]])
    expect(issues(SubscriptionPlan.SubscriptionPlanLenient, "x")).toEqual([["", "Expected SubscriptionPlanLenient"]])
    expect(issues(SubscriptionPlan.Variation, "x")).toEqual([["", "Expected Variation"]])
    expect(issues(SubscriptionPlan.VariationLenient, "x")).toEqual([["", "Expected VariationLenient"]])
    expect(issues(SubscriptionPlan.Phase, "x")).toEqual([["", "Expected Phase"]])
    expect(issues(SubscriptionPlan.PhaseLenient, "x")).toEqual([["", "Expected PhaseLenient"]])
    expect(issues(SubscriptionPlan.PlanListQuery, "x")).toEqual([["", "Expected PlanListQuery"]])
    expect(issues(SubscriptionPlan.PlanListQuery, { limit: 50 })).toEqual([["limit", "Expected PlanListLimit"]])
  })

  it("an empty id is refused, with a message naming which id, for plans, variations and phases", () => {
    expect(
      issues(SubscriptionPlan.SubscriptionPlan, {
        ...plan,
        id: "",
        variations: [{ id: "", phases: [{ ...phase, id: "" }] }]
      })
    ).toEqual([
      ["id", "a plan id must not be empty"],
      ["variations.0.id", "a variation id must not be empty"],
      ["variations.0.phases.0.id", "a phase id must not be empty"]
    ])
    // any other string is read: the API's UUIDs, and short ids
    expect(issues(SubscriptionPlan.Phase, { ...phase, id: "x" })).toEqual([])
    expect(issues(SubscriptionPlan.Phase, { ...phase, id: "8e1c4f0a-3b5d-4c2e-9f6a-1d2b3c4d5e6f" })).toEqual([])
  })

  it("a fractional ordinal or cycle_count is refused with a message that says it must be an integer", () => {
    expect(issues(SubscriptionPlan.Phase, { ...phase, ordinal: 1.5, cycle_count: 2.5 })).toEqual([
      ["ordinal", "ordinal is an integer"],
      ["cycle_count", "cycle_count is an integer or null"]
    ])
  })

  it("a plan's state is active or deactivated: both are read, anything else is refused saying so", () => {
    for (const state of ["active", "deactivated"]) {
      expect(Schema.decodeUnknownSync(SubscriptionPlan.SubscriptionPlan)({ ...plan, state }).state).toBe(state)
    }
    expect(issues(SubscriptionPlan.SubscriptionPlan, { ...plan, state: "archived" })).toEqual([
      ["state", "state is one of active, deactivated"]
    ])
  })

  it("a subscription item that is null, a string, a number or an array is refused: an item is a JSON object", () => {
    expect(
      issues(SubscriptionPlan.Phase, { ...phase, subscription_items: [null, "sku", 1, true, [1], {}, { sku: "x" }] })
    ).toEqual([0, 1, 2, 3, 4].map((i) => [`subscription_items.${i}`, "a subscription item is a JSON object"]))
  })

  it("limit is read from 1 upwards; 0, negative and fractional limits are refused saying what limit is", () => {
    const decode = Schema.decodeUnknownSync(SubscriptionPlan.PlanListQuery)
    expect([decode({ limit: "1" }).limit, decode({ limit: "500" }).limit]).toEqual([1, 500])
    for (const limit of ["0", "-3", "1.5"]) {
      expect(issues(SubscriptionPlan.PlanListQuery, { limit })).toEqual([
        ["limit", "limit is a whole number of at least 1"]
      ])
    }
  })

  it("bug: limit is decimal digits, as the query writes an integer; what JavaScript's Number() also reads is refused", () => {
    // Number() reads all of these as 10: a limit of "0x0a" or " 10" was served 10 plans a page
    for (const limit of ["0x0a", "0b1010", "0o12", "1e1", "10.0", " 10", "10 ", "\n10", "+10", "", "Infinity"]) {
      expect([limit, issues(SubscriptionPlan.PlanListQuery, { limit })]).toEqual([
        limit,
        [["limit", "limit is a whole number of at least 1"]]
      ])
    }
    // leading zeros are still the decimal number they write
    expect(Schema.decodeUnknownSync(SubscriptionPlan.PlanListQuery)({ limit: "010" }).limit).toBe(10)
  })

  // -------------------------------------------------------------------------
  // equivalence and formatting of items
  // -------------------------------------------------------------------------

  it("Schema.toEquivalence compares subscription items by content, not by reference", () => {
    const eq = Schema.toEquivalence(SubscriptionPlan.Phase)
    const decode = Schema.decodeUnknownSync(SubscriptionPlan.Phase)
    const withItems = (items: ReadonlyArray<unknown>) => decode({ ...phase, subscription_items: items })
    expect(eq(withItems([{ sku: "a", n: [1] }]), withItems([{ sku: "a", n: [1] }]))).toBe(true)
    expect(eq(withItems([{ sku: "a" }]), withItems([{ sku: "b" }]))).toBe(false)
    const itemEq = Schema.toEquivalence(SubscriptionPlan.SubscriptionItem)
    expect([itemEq({ a: { b: null } }, { a: { b: null } }), itemEq({ a: 1 }, { a: 2 })]).toEqual([true, false])
  })

  it("Schema.toFormatter shows a subscription item as its JSON text", () => {
    expect(Schema.toFormatter(SubscriptionPlan.SubscriptionItem)({ sku: "pro", n: [1, null] })).toBe(
      '{"sku":"pro","n":[1,null]}'
    )
    const decode = Schema.decodeUnknownSync(SubscriptionPlan.Phase)
    expect(Schema.toFormatter(SubscriptionPlan.Phase)(decode({ ...phase, subscription_items: [{ a: 1 }] }))).toContain(
      '"subscription_items": [{"a":1}]'
    )
  })

  // -------------------------------------------------------------------------
  // the arbitraries users draw from (README: "Arbitraries for your own tests")
  // -------------------------------------------------------------------------

  it.effect("the arbitrary draws ids that are UUIDs nine times in ten and short slugs otherwise", () =>
    Effect.gen(function* () {
      const phases = yield* Arbitrary.sampleEffect(Arbitrary.schema(SubscriptionPlan.Phase), { count: 400, seed: 7 })
      const ids = phases.map((p) => p.id)
      const uuids = ids.filter((id) => UUID.test(id)).length
      expect(ids.filter((id) => !UUID.test(id) && !SLUG.test(id))).toEqual([])
      expect(uuids / ids.length).toBeGreaterThan(0.8)
      expect(uuids).toBeLessThan(ids.length)
    })
  )

  it.effect(
    "the arbitrary draws ordinals from 1 to 9, cycle counts from 1 to 36 or endless, items that are small JSON objects with snake_case keys",
    () =>
      Effect.gen(function* () {
        const phases = yield* Arbitrary.sampleEffect(Arbitrary.schema(SubscriptionPlan.Phase), { count: 300, seed: 11 })
        expect(phases.every((p) => Number.isInteger(p.ordinal) && p.ordinal >= 1 && p.ordinal <= 9)).toBe(true)
        expect(
          phases.every(
            (p) =>
              p.cycle_count == null || (Number.isInteger(p.cycle_count) && p.cycle_count >= 1 && p.cycle_count <= 36)
          )
        ).toBe(true)
        const items = phases.flatMap((p) => p.subscription_items ?? [])
        expect(items.length).toBeGreaterThan(50)
        const keys: Array<string> = []
        for (const item of items) {
          expect(typeof item === "object" && item !== null && !Array.isArray(item)).toBe(true)
          // what a server could send: the item survives JSON text unchanged
          expect(JSON.parse(JSON.stringify(item))).toEqual(item)
          for (const [key, value] of Object.entries(item)) {
            keys.push(key)
            if (typeof value === "object" && value !== null && !Array.isArray(value)) keys.push(...Object.keys(value))
          }
        }
        expect(keys.filter((k) => !ITEM_KEY.test(k))).toEqual([])
        const lengths = new Set(keys.map((k) => k.length))
        expect([lengths.has(1), [...lengths].some((n) => n > 2)]).toEqual([true, true])
        expect(keys.some((k) => k.length > 1 && k.slice(1).includes("_"))).toBe(true)
      })
  )

  it.effect("the arbitrary of PlanListQuery draws limits the sandbox accepts: whole numbers from 1 to 500", () =>
    Effect.gen(function* () {
      const queries = yield* Arbitrary.sampleEffect(Arbitrary.schema(SubscriptionPlan.PlanListQuery), {
        count: 300,
        seed: 3
      })
      const limits = queries.flatMap((q) => (q.limit === undefined ? [] : [q.limit]))
      expect(limits.length).toBeGreaterThan(50)
      expect(limits.filter((n) => !Number.isInteger(n) || n < 1 || n > 500)).toEqual([])
      expect(new Set(limits).size).toBeGreaterThan(20)
    })
  )
})
