import { inspect } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { FapiHeaders, type Profile } from "@payrules/open-banking"
import { hostileJson, issuesOf, schemaLaws } from "@payrules/vitest"
import { Arbitrary, Effect, Random, Redacted, Result, Schema, SchemaAST } from "effect"
import fc from "fast-check"
import { fromDocument } from "../src/internal/jsonSchema.js"
import { deleteIn, fixture, profiles, setIn } from "./helpers.js"
import { validate } from "./jsonSchemaValidator.js"

type P = Profile.Profile

const headers = (profile: P): Record<string, unknown> => fixture("headers")[profile] as Record<string, unknown>

const issues = (profile: P, u: unknown) =>
  Result.match(FapiHeaders.decode(profile, u), {
    onFailure: (e) => issuesOf(e).map((i) => ({ path: i.path, message: i.message })),
    onSuccess: () => []
  })

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("FapiHeaders.decode", () => {
  it("revolut: the fixture decodes; the token is Redacted; the last login is an HTTP date; other headers are dropped", () => {
    const h = Result.getOrThrow(FapiHeaders.decode("revolut", headers("revolut")))
    expect(h["x-fapi-financial-id"]).toBe("001580000103UAvAAM")
    expect(Redacted.value(h.authorization)).toBe("Bearer oa_prod_kM3d9rXq2vTt7yHn")
    expect(h["x-fapi-customer-last-logged-time"]?.epochMilliseconds).toBe(Date.UTC(2017, 8, 10, 19, 43, 31))
    expect(h["x-fapi-customer-ip-address"]).toBe("104.25.212.99")
    expect(Object.keys(h).sort()).toEqual([
      "authorization",
      "x-customer-user-agent",
      "x-fapi-customer-ip-address",
      "x-fapi-customer-last-logged-time",
      "x-fapi-financial-id",
      "x-fapi-interaction-id"
    ])
    expect(FapiHeaders.customerTime(h)?.epochMilliseconds).toBe(Date.UTC(2017, 8, 10, 19, 43, 31))
  })

  it("obie-3.1.11: x-fapi-auth-date instead; the interaction id is kept in the case it was sent", () => {
    const h = Result.getOrThrow(FapiHeaders.decode("obie-3.1.11", headers("obie-3.1.11")))
    expect(h["x-fapi-auth-date"]?.epochMilliseconds).toBe(Date.UTC(2017, 8, 10, 19, 43, 31))
    expect(h["x-fapi-interaction-id"]).toBe("93BAC548-D2DE-4546-B106-880A5018460D")
    expect(FapiHeaders.customerTime(h)?.epochMilliseconds).toBe(Date.UTC(2017, 8, 10, 19, 43, 31))
    // the other profile's header is unknown here, and dropped
    const mixed = Result.getOrThrow(
      FapiHeaders.decode("obie-3.1.11", { ...headers("obie-3.1.11"), "x-fapi-customer-last-logged-time": "garbage" })
    )
    expect("x-fapi-customer-last-logged-time" in mixed).toBe(false)
    expect(FapiHeaders.customerTimeHeader).toEqual({
      revolut: "x-fapi-customer-last-logged-time",
      "obie-3.1.11": "x-fapi-auth-date"
    })
  })

  it.each(profiles)("%s: x-fapi-financial-id and authorization are required and not empty", (profile) => {
    for (const name of ["x-fapi-financial-id", "authorization"]) {
      expect(issues(profile, deleteIn(headers(profile), [name]))).toEqual([{ path: [name], message: "Missing key" }])
      expect(issues(profile, setIn(headers(profile), [name], ""))).toEqual([
        { path: [name], message: `${name} must not be empty` }
      ])
    }
    const minimal = { "x-fapi-financial-id": "aspsp", authorization: "Bearer t" }
    expect(Result.isSuccess(FapiHeaders.decode(profile, minimal))).toBe(true)
  })

  it("header names are the lower-case names HTTP libraries give", () => {
    const capitalised = { "X-Fapi-Financial-Id": "aspsp", Authorization: "Bearer t" }
    expect(issues("revolut", capitalised).map((i) => i.path)).toEqual([["x-fapi-financial-id"], ["authorization"]])
  })

  it.each(profiles)("%s: the token never prints", (profile) => {
    const h = Result.getOrThrow(FapiHeaders.decode(profile, headers(profile)))
    const token = Redacted.value(h.authorization)
    expect(String(h.authorization)).toBe("<redacted>")
    expect(JSON.stringify(h)).not.toContain(token)
    expect(inspect(h, { depth: 5 })).not.toContain(token)
  })

  it.each([
    "93bac548-d2de-4546-b106-880a5018460d",
    "93BAC548-D2DE-4546-B106-880A5018460D",
    "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
    "6fa459ea-ee8a-3ca4-894e-db77e160355e",
    "886313e1-3b8a-5372-9b90-0c9aee199e5d",
    "018f4a3c-7d2e-7cc1-b2a4-4f1d2c3b4a59",
    "1ef21d2f-1207-6660-8c4f-419efbd44d48"
  ])("x-fapi-interaction-id %s is a UUID", (id) => {
    expect(FapiHeaders.isInteractionId(id)).toBe(true)
    expect(issues("revolut", setIn(headers("revolut"), ["x-fapi-interaction-id"], id))).toEqual([])
  })

  it.each([
    "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    "93bac548-d2de-0546-b106-880a5018460d",
    "93bac548-d2de-9546-b106-880a5018460d",
    "93bac548-d2de-4546-c106-880a5018460d",
    "93bac548d2de4546b106880a5018460d",
    "{93bac548-d2de-4546-b106-880a5018460d}",
    "93bac548-d2de-4546-b106-880a5018460",
    "93bac548-d2de-4546-b106-880a5018460g",
    "93bac548-d2de-4546-b106-880a5018460d0",
    " 93bac548-d2de-4546-b106-880a5018460d",
    ""
  ])("x-fapi-interaction-id %j is refused", (id) => {
    expect(FapiHeaders.isInteractionId(id)).toBe(false)
    const [issue] = issues("obie-3.1.11", setIn(headers("obie-3.1.11"), ["x-fapi-interaction-id"], id))
    expect(issue?.path).toEqual(["x-fapi-interaction-id"])
    expect(issue?.message).toContain("must be an RFC 4122 UUID")
  })

  it.each(profiles)("%s: the customer time is an RFC 7231 IMF-fixdate", (profile) => {
    const name = FapiHeaders.customerTimeHeader[profile]
    for (const bad of [
      "Mon, 10 Sep 2017 19:43:31 GMT",
      "Sunday, 10-Sep-17 19:43:31 GMT",
      "2017-09-10T19:43:31Z",
      "Sun, 10 Sep 2017 19:43:31 UTC"
    ]) {
      const [issue] = issues(profile, setIn(headers(profile), [name], bad))
      expect(issue?.path).toEqual([name])
      expect(issue?.message).toContain("Invalid HTTP date")
    }
  })

  it.each(profiles)("%s: the customer IP address is a strict IPv4 or IPv6 address", (profile) => {
    for (const good of ["10.0.0.1", "2001:db8::1", "::ffff:192.0.2.1", "2001:DB8:0:0:8:800:200C:417A"]) {
      expect(issues(profile, setIn(headers(profile), ["x-fapi-customer-ip-address"], good))).toEqual([])
    }
    for (const bad of ["010.0.0.1", "fe80::1%eth0", "[::1]", "1.2.3.4:443", "localhost", "1.2.3"]) {
      const [issue] = issues(profile, setIn(headers(profile), ["x-fapi-customer-ip-address"], bad))
      expect(issue?.path).toEqual(["x-fapi-customer-ip-address"])
      expect(issue?.message).toContain("Invalid IP address")
    }
  })

  it.each(profiles)("%s: every issue is reported", (profile) => {
    const bad = {
      authorization: "",
      "x-fapi-interaction-id": "nope",
      "x-fapi-customer-ip-address": "300.1.1.1",
      [FapiHeaders.customerTimeHeader[profile]]: "yesterday"
    }
    expect(
      issues(profile, bad)
        .map((i) => i.path[0])
        .sort()
    ).toEqual(
      [
        "authorization",
        FapiHeaders.customerTimeHeader[profile],
        "x-fapi-customer-ip-address",
        "x-fapi-financial-id",
        "x-fapi-interaction-id"
      ].sort()
    )
  })
})

describe("FapiHeaders.interactionIdFor", () => {
  it.effect("plays back the interaction id that was sent, as sent", () =>
    Effect.gen(function* () {
      expect(
        yield* FapiHeaders.interactionIdFor({ "x-fapi-interaction-id": "93BAC548-D2DE-4546-B106-880A5018460D" })
      ).toBe("93BAC548-D2DE-4546-B106-880A5018460D")
      const decoded = Result.getOrThrow(FapiHeaders.decode("revolut", headers("revolut")))
      expect(yield* FapiHeaders.interactionIdFor(decoded)).toBe("93bac548-d2de-4546-b106-880a5018460d")
    })
  )

  it.effect("otherwise makes a fresh UUID v4 (also when what was sent is not a UUID)", () =>
    Effect.gen(function* () {
      for (const sent of [
        {},
        { "x-fapi-interaction-id": undefined },
        { "x-fapi-interaction-id": "" },
        { "x-fapi-interaction-id": "abc" }
      ]) {
        const id = yield* FapiHeaders.interactionIdFor(sent)
        expect(id).toMatch(V4)
        expect(FapiHeaders.isInteractionId(id)).toBe(true)
      }
    })
  )

  it.effect("the fresh id comes from the Random service: a seed makes it reproducible", () =>
    Effect.gen(function* () {
      const withSeed = (seed: string) => FapiHeaders.interactionIdFor({}).pipe(Random.withSeed(seed))
      const a = yield* withSeed("payrules")
      expect(yield* withSeed("payrules")).toBe(a)
      expect(yield* withSeed("another seed")).not.toBe(a)
      expect(a).toMatch(V4)
    })
  )

  it.effect("fresh ids are always version 4 with the RFC 4122 variant, and distinct", () =>
    Effect.gen(function* () {
      const ids = new Set<string>()
      for (let seed = 0; seed < 500; seed++) {
        const id = yield* FapiHeaders.randomInteractionId.pipe(Random.withSeed(seed))
        expect(id).toMatch(V4)
        ids.add(id)
      }
      expect(ids.size).toBe(500)
    })
  )
})

describe("FapiHeaders: the JSON Schema of the headers (what an OpenAPI document of the request shows)", () => {
  const documentOf = (profile: P) => fromDocument(Schema.toJsonSchemaDocument(FapiHeaders.schema(profile)))

  it.each(profiles)(
    "%s: refuses what decoding refuses (bug: a header the decoder refuses shown as valid)",
    (profile) => {
      const doc = documentOf(profile)
      const sent = setIn(headers(profile), ["x-fapi-interaction-id"], "93bac548-d2de-4546-b106-880a5018460d")
      expect(validate(doc, sent)).toEqual([])
      for (const id of ["93bac548-d2de-0546-b106-880a5018460d", "93bac548-d2de-4546-c106-880a5018460d", "nope"]) {
        expect(validate(doc, setIn(sent, ["x-fapi-interaction-id"], id))).toEqual(["$.x-fapi-interaction-id: pattern"])
      }
      expect(validate(doc, {})).toEqual(["$.x-fapi-financial-id: required", "$.authorization: required"])
      expect(validate(doc, setIn(sent, ["x-fapi-financial-id"], ""))).toEqual(["$.x-fapi-financial-id: minLength"])
    }
  )

  it.each(profiles)(
    "%s: accepts what decoding accepts, an upper-case interaction id too (bug: the pattern lost the regex's i flag)",
    (profile) => {
      const doc = documentOf(profile)
      for (const id of ["93BAC548-D2DE-4546-B106-880A5018460D", "93bac548-D2DE-4546-b106-880A5018460d"]) {
        const sent = setIn(headers(profile), ["x-fapi-interaction-id"], id)
        expect(Schema.decodeUnknownResult(FapiHeaders.schema(profile))(sent)._tag).toBe("Success")
        expect(validate(doc, sent)).toEqual([])
      }
    }
  )

  it.each(profiles)("%s: names and describes the headers", (profile) => {
    const doc = documentOf(profile) as {
      $ref: string
      $defs: Record<string, { description?: string; properties?: Record<string, { description?: string }> }>
    }
    const name = profile === "revolut" ? "RevolutFapiHeaders" : "ObieFapiHeaders"
    expect(doc.$ref).toBe(`#/$defs/${name}`)
    expect(doc.$defs[name]?.description).toBe(`FAPI request headers (${profile} profile)`)
    expect(doc.$defs[name]?.properties?.["x-fapi-financial-id"]?.description).toBe(
      "the id of the account-servicing institution (ASPSP) the request is issued to"
    )
    expect(doc.$defs.InteractionId?.description).toBe("an RFC 4122 UUID used as correlation id")
    // the token's description is on its Schema (the document shows a Redacted value's encoded side)
    expect(SchemaAST.resolveDescription(FapiHeaders.Revolut.fields.authorization.ast)).toBe(
      "the access token, kept as a Redacted value so that it never reaches logs"
    )
  })

  it.effect("the arbitrary draws the example institution ids", () =>
    Effect.gen(function* () {
      const drawn = yield* Arbitrary.sampleEffect(Arbitrary.schema(FapiHeaders.Obie), { count: 60, seed: 4, size: 40 })
      expect(new Set(drawn.map((h) => h["x-fapi-financial-id"]))).toEqual(
        new Set(["001580000103UAvAAM", "0015800000jfwxXAAQ", "aspsp-1"])
      )
    })
  )
})

describe("FapiHeaders: what the generators give", () => {
  /** the characters seen at each position of the ids */
  const positions = (ids: ReadonlyArray<string>) =>
    Array.from({ length: 36 }, (_, i) => [...new Set(ids.map((id) => id[i]!.toLowerCase()))].sort().join(""))

  it.effect("every one of the 122 random bits of a fresh id varies (bug: a nibble stuck at one value)", () =>
    Effect.gen(function* () {
      const ids: Array<string> = []
      for (let seed = 0; seed < 500; seed++)
        ids.push(yield* FapiHeaders.randomInteractionId.pipe(Random.withSeed(seed)))
      const seen = positions(ids)
      seen.forEach((chars, i) => {
        if ([8, 13, 18, 23].includes(i)) expect(chars, `position ${i}`).toBe("-")
        else if (i === 14) expect(chars, "the version").toBe("4")
        else if (i === 19) expect(chars, "the variant").toBe("89ab")
        else expect(chars, `position ${i}`).toBe("0123456789abcdef")
      })
    })
  )

  it.effect(
    "InteractionId's arbitrary draws UUIDs of versions 1 to 8 and the RFC 4122 variant, in lower and upper case",
    () =>
      Effect.gen(function* () {
        const ids = yield* Arbitrary.sampleEffect(Arbitrary.schema(FapiHeaders.InteractionId), { count: 400, seed: 3 })
        expect(ids.every(FapiHeaders.isInteractionId)).toBe(true)
        expect(ids.some((id) => id === id.toLowerCase() && /[a-f]/.test(id))).toBe(true)
        expect(ids.some((id) => id === id.toUpperCase() && /[A-F]/.test(id))).toBe(true)
        const seen = positions(ids)
        expect([seen[14], seen[19]]).toEqual(["12345678", "89ab"])
      })
  )
})

describe("FapiHeaders.redactedHeaderNames", () => {
  it("names the token, the IP address and the user agent, in lower case", () => {
    expect(FapiHeaders.redactedHeaderNames).toEqual([
      "authorization",
      "x-fapi-customer-ip-address",
      "x-customer-user-agent"
    ])
    for (const name of FapiHeaders.redactedHeaderNames) expect(name).toBe(name.toLowerCase())
  })
})

describe("FapiHeaders: properties", () => {
  schemaLaws("FapiHeaders.Revolut", FapiHeaders.Revolut)
  schemaLaws("FapiHeaders.Obie", FapiHeaders.Obie)
  schemaLaws("FapiHeaders.InteractionId", FapiHeaders.InteractionId)

  it("decoding never throws", () => {
    const mutated = fc
      .tuple(
        fc.constantFrom(...profiles),
        fc.constantFrom("authorization", "x-fapi-interaction-id", "x-fapi-auth-date", "x-fapi-customer-ip-address"),
        hostileJson
      )
      .map(([profile, name, value]) => setIn(headers(profile), [name], value))
    fc.assert(
      fc.property(fc.oneof(hostileJson, mutated), (u) => {
        for (const profile of profiles) {
          const r = FapiHeaders.decode(profile, u)
          if (Result.isFailure(r)) expect(issuesOf(r.failure).length).toBeGreaterThan(0)
        }
      }),
      { numRuns: 500 }
    )
  })
})

describe("FapiHeaders.checkResponse (D11: an interaction id not played back is a finding, not a failed read)", () => {
  const sent = "93bac548-d2de-4546-b106-880a5018460d"
  const at = ["headers", "x-fapi-interaction-id"]

  it("played back: no finding (UUIDs compare without regard to case)", () => {
    expect(FapiHeaders.checkResponse(sent, { "x-fapi-interaction-id": sent })).toEqual([])
    expect(FapiHeaders.checkResponse(sent, { "x-fapi-interaction-id": sent.toUpperCase() })).toEqual([])
  })

  it("missing or empty: InteractionIdNotPlayedBack, a warning at the header", () => {
    for (const headers of [{}, { "x-fapi-interaction-id": "" }]) {
      const [f, ...rest] = FapiHeaders.checkResponse(sent, headers)
      expect(rest).toEqual([])
      expect(f).toMatchObject({ severity: "warning", rule: "InteractionIdNotPlayedBack", path: at })
      expect(f!.message).toContain(sent)
    }
  })

  it("another value: InteractionIdMismatch, a warning that names both", () => {
    const other = "0f8e1f6c-3a4b-4c5d-9e6f-7a8b9c0d1e2f"
    const [f] = FapiHeaders.checkResponse(sent, { "x-fapi-interaction-id": other })
    expect(f).toMatchObject({ severity: "warning", rule: "InteractionIdMismatch", path: at })
    expect(f!.message).toContain(other)
    expect(f!.message).toContain(sent)
  })

  it.prop(
    "property: the id sent, played back in any case, never gives a finding; any other value always gives one",
    [FapiHeaders.InteractionId, Schema.String.check(Schema.isMaxLength(60)), Schema.Boolean],
    ([sentId, other, upper]) => {
      const back = upper ? sentId.toUpperCase() : sentId.toLowerCase()
      const same = FapiHeaders.checkResponse(sentId, { "x-fapi-interaction-id": back })
      const differs = FapiHeaders.checkResponse(sentId, { "x-fapi-interaction-id": other })
      return same.length === 0 && (other.toLowerCase() === sentId.toLowerCase() || differs.length === 1)
    },
    { arbitrary: { runs: 200 } }
  )

  it.effect.prop(
    "property: interactionIdFor plays back every interaction id the request sends, as sent",
    [FapiHeaders.InteractionId],
    ([sent]) =>
      Effect.map(FapiHeaders.interactionIdFor({ "x-fapi-interaction-id": sent }), (played) => played === sent),
    { arbitrary: { runs: 200 } }
  )
})
