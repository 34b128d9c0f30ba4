/**
 * Issue 34, the Open Banking payment read and the /pay/fields read against a fake server (an HttpClient that answers
 * in process): a status or an enum value added to the API since, an Errors array with one corrupted item and a rule
 * list with one corrupted rule are read, with findings, never a failed read.
 */
import { describe, expect, it } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { OpenEnum } from "@payrules/lenient"
import { InternationalPayment } from "@payrules/open-banking"
import { FieldValidator } from "@payrules/transfers"
import { BusinessClient, OpenBankingApi, OpenBankingClient } from "@payrules/transport"
import { Arbitrary, Duration, Effect, Layer, Redacted, Result, Schema } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import fc from "fast-check"

const fake = (answer: (path: string) => Response) => {
  const seen: Array<string> = []
  const http = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request, url) =>
      Effect.sync(() => {
        seen.push(url.pathname)
        return HttpClientResponse.fromWeb(request, answer(url.pathname))
      })
    )
  )
  return { seen, http }
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

const token = Redacted.make("t")
const noRetry = { maxAttempts: 1, baseDelay: Duration.millis(10), maxDelay: Duration.millis(10), minSpacing: 0 }

const openBanking = (http: Layer.Layer<HttpClient.HttpClient>) =>
  Effect.provide(
    OpenBankingClient.OpenBankingClient,
    OpenBankingClient.layer({
      ...OpenBankingClient.defaults,
      baseUrl: "http://ob.test",
      token,
      financialId: "001580000103UAvAAM",
      retry: noRetry
    }).pipe(Layer.provide(http))
  )

const business = (http: Layer.Layer<HttpClient.HttpClient>) =>
  Effect.provide(
    BusinessClient.BusinessClient,
    BusinessClient.layer({ ...BusinessClient.defaults, baseUrl: "http://business.test", token, retry: noRetry }).pipe(
      Layer.provide([http, RequestLedger.layer])
    )
  )

/** a valid revolut payment as a server sends it (drawn with the arbitrary its Schema carries) */
const samplePayment = Effect.map(
  Arbitrary.sampleEffect(Arbitrary.schema(InternationalPayment.RevolutStrict), { count: 1, seed: 34 }),
  ([drawn]) => Schema.encodeSync(InternationalPayment.RevolutStrict)(drawn!)
)

type Payment = Effect.Success<typeof samplePayment>

const withData = (payment: Payment, data: object, initiation: object = {}): Payment => ({
  ...payment,
  Data: { ...payment.Data, ...data, Initiation: { ...payment.Data.Initiation, ...initiation } }
})

describe("OpenBankingClient.getInternationalPayment: values added to the API since", () => {
  it.effect("a payment in a status added since no longer fails the read: Unknown status and a finding", () =>
    Effect.gen(function* () {
      const payment = withData(yield* samplePayment, { Status: "AcceptedFundsChecked" })
      const server = fake(() => json(payment))
      const r = yield* (yield* openBanking(server.http)).getInternationalPayment("ip-1")
      expect(r.payment.Data.Status).toEqual(OpenEnum.unknown("AcceptedFundsChecked"))
      const unknown = r.findings.filter((f) => f.rule === "UnknownValue")
      expect(unknown).toHaveLength(1)
      expect(unknown[0]).toMatchObject({ severity: "warning", path: ["Data", "Status"] })
      expect(unknown[0]!.message).toContain('"AcceptedFundsChecked"')
      expect(unknown[0]!.message).toContain("the status lifecycle cannot check a move into or out of it")
    })
  )

  it.effect("an unknown ChargeBearer and an unknown account SchemeName: the payment read, one finding each", () =>
    Effect.gen(function* () {
      const sample = yield* samplePayment
      const payment = withData(
        sample,
        {},
        {
          ChargeBearer: "Shared",
          CreditorAccount: { SchemeName: "SE.BANKGIRO", Identification: "5050-1055", Name: "ACME AB" }
        }
      )
      const server = fake(() => json(payment))
      const r = yield* (yield* openBanking(server.http)).getInternationalPayment("ip-1")
      expect(r.payment.Data.Initiation.ChargeBearer).toEqual(OpenEnum.unknown("Shared"))
      expect(r.payment.Data.Initiation.CreditorAccount).toEqual({
        SchemeName: OpenEnum.unknown("SE.BANKGIRO"),
        Identification: "5050-1055",
        Name: "ACME AB"
      })
      expect(r.findings.filter((f) => f.rule === "UnknownValue").map((f) => f.path.join("."))).toEqual([
        "Data.Initiation.ChargeBearer",
        "Data.Initiation.CreditorAccount.SchemeName"
      ])
    })
  )

  it.effect("a status that is not a well-formed value is still a Decode failure", () =>
    Effect.gen(function* () {
      const payment = withData(yield* samplePayment, { Status: "" })
      const server = fake(() => json(payment))
      const e = yield* Effect.flip((yield* openBanking(server.http)).getInternationalPayment("ip-1"))
      expect(e).toMatchObject({ _tag: "OpenBankingClientError", reason: "Decode", status: 200 })
      expect(e.message).toContain("Data.Status")
    })
  )
})

describe("OpenBankingClient: error answers with a lenient Errors list", () => {
  const body = {
    Code: "400 BadRequest",
    Id: "a7b3",
    Message: "There is something wrong with the request parameters provided",
    Errors: [
      { ErrorCode: "UK.OBIE.Field.Missing", Message: "A mandatory field isn't supplied", Path: "Data.Initiation" },
      { ErrorCode: 42, Message: "a corrupted item" },
      { ErrorCode: "UK.OBIE.Resource.NotFound.SinceV4", Message: "A code added since is kept as sent" }
    ]
  }

  it.effect("one corrupted error item no longer costs the caller the error body: the others kept, one finding", () =>
    Effect.gen(function* () {
      const server = fake(() => json(body, 400))
      const e = yield* Effect.flip((yield* openBanking(server.http)).getInternationalPayment("ip-1"))
      expect(e).toMatchObject({ _tag: "OpenBankingClientError", reason: "BadRequest", status: 400 })
      expect(e.body?.Code).toBe("400 BadRequest")
      expect(e.body?.Errors.map((x) => x.ErrorCode)).toEqual([
        "UK.OBIE.Field.Missing",
        "UK.OBIE.Resource.NotFound.SinceV4"
      ])
      expect(e.findings).toEqual([
        {
          severity: "warning",
          rule: "UnreadableItem",
          path: ["Errors", 1, "ErrorCode"],
          message: expect.stringContaining("the error at Errors[1] could not be read and was left out"),
          index: 1,
          raw: { ErrorCode: 42, Message: "a corrupted item" }
        }
      ])
      expect(e.message).toBe("400: There is something wrong with the request parameters provided")
    })
  )

  it.effect("a well-formed error body has no findings; a body without the envelope has no body", () =>
    Effect.gen(function* () {
      const good = fake(() => json({ ...body, Errors: [body.Errors[0]] }, 403))
      const e = yield* Effect.flip((yield* openBanking(good.http)).getInternationalPayment("ip-1"))
      expect(e.findings).toEqual([])
      expect(e.body?.Errors).toHaveLength(1)
      const bad = fake(() => json({ error: "nope" }, 403))
      const f = yield* Effect.flip((yield* openBanking(bad.http)).getInternationalPayment("ip-1"))
      expect(f.body).toBeUndefined()
      expect(f.findings).toEqual([])
    })
  )

  it("property: one corrupted error item per list, the rest read and one finding with its index", () => {
    const item = fc.record(
      { ErrorCode: fc.string({ minLength: 1 }), Message: fc.string(), Path: fc.string(), Url: fc.string() },
      { requiredKeys: ["ErrorCode", "Message"] }
    )
    const corrupted = fc.oneof(
      fc.constantFrom(null, 1, "UK.OBIE.Field.Missing", [], true),
      fc.record({ ErrorCode: fc.integer(), Message: fc.string() }),
      fc.record({ ErrorCode: fc.string() }),
      fc.record({ ErrorCode: fc.string(), Message: fc.string(), Path: fc.integer() })
    )
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), corrupted, fc.nat(), (items, bad, at) => {
        const index = at % (items.length + 1)
        const Errors = [...items.slice(0, index), bad, ...items.slice(index)]
        const strict = Schema.decodeUnknownResult(OpenBankingApi.OBErrorResponse1)({
          Code: "400",
          Message: "m",
          Errors
        })
        expect(Result.isFailure(strict)).toBe(true)
        const envelope = Schema.decodeUnknownSync(OpenBankingClient.ErrorBodyEnvelope)({
          Code: "400",
          Message: "m",
          Errors
        })
        const read = OpenBankingClient.readErrorBody(envelope)
        expect(read.body.Errors).toEqual(items)
        expect(read.findings.map((f) => [f.index, f.path.slice(0, 2), f.raw])).toEqual([
          [index, ["Errors", index], bad]
        ])
      }),
      { seed: 34 }
    )
  })

  it("readErrorBody keeps every readable item, in order, and reports each other one with its index", () => {
    const envelope = Schema.decodeUnknownSync(OpenBankingClient.ErrorBodyEnvelope)({
      ...body,
      Errors: [null, ...body.Errors, "x"]
    })
    const read = OpenBankingClient.readErrorBody(envelope)
    expect(read.body.Errors).toHaveLength(2)
    expect(read.findings.map((f) => f.index)).toEqual([0, 2, 4])
  })
})

describe("BusinessClient.transferFieldRequirements: the /pay/fields answer read leniently", () => {
  const answer = {
    fields: [
      { name: "reference", required: true, validation: { max_length: 140 } },
      { name: "charge_bearer", required: "sometimes", options: [{ value: "shared" }] },
      {
        name: "transfer_reason_code",
        required: true,
        options: [{ value: "goods", type: "a kind added since", default: true }]
      }
    ]
  }

  it.effect("one corrupted rule no longer costs the caller the other rules: the rest read, one finding", () =>
    Effect.gen(function* () {
      const server = fake(() => json(answer))
      const read = yield* (yield* business(server.http)).transferFieldRequirements({
        account_id: "acc",
        receiver: { counterparty_id: "c" }
      })
      expect(server.seen).toEqual(["/pay/fields"])
      expect(read.fields.map((f) => f.name)).toEqual(["reference", "transfer_reason_code"])
      expect(read.fields[1]!.options?.[0]?.type).toBe("a kind added since")
      expect(read.findings).toEqual([
        {
          severity: "warning",
          rule: "UnreadableItem",
          path: ["fields", 1, "required"],
          message: expect.stringContaining("the rule at fields[1] could not be read"),
          index: 1,
          raw: answer.fields[1]
        }
      ])
      // compiling the whole read refuses the rule it could not read; its fields alone compile
      const all = FieldValidator.compile(read)
      expect(Result.isFailure(all) && all.failure.map((e) => [e.reason, e.field])).toEqual([
        ["UnreadableRule", "charge_bearer"]
      ])
      expect(Result.isSuccess(FieldValidator.compile(read.fields))).toBe(true)
    })
  )

  it.effect("an answer without a fields array is still a Decode failure", () =>
    Effect.gen(function* () {
      const server = fake(() => json({ rules: [] }))
      const e = yield* Effect.flip(
        (yield* business(server.http)).transferFieldRequirements({
          account_id: "acc",
          receiver: { counterparty_id: "c" }
        })
      )
      expect(e).toMatchObject({ _tag: "BusinessClientError", reason: "Decode" })
    })
  )
})
