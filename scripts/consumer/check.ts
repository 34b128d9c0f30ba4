/**
 * What a user's strict TypeScript project writes against the packed packages (`node scripts/packages.mjs consumer`
 * copies this file into an empty project, installs the tarballs with the lowest effect the peer ranges allow,
 * typechecks it with `strict`, `exactOptionalPropertyTypes` and `noUncheckedIndexedAccess`, and runs it). It uses at
 * least one typed API of every published package, so a declaration file that does not compile in a user's project,
 * or a type that does not survive packing, fails the check.
 */
import { AccountIdentification, Iban, SchemeLimits } from "@payrules/accounts"
import { ExchangeRequest, ExchangeState, RequestLedger } from "@payrules/exchange"
import { Calendar, IsoDuration, OffsetDateTime } from "@payrules/iso8601"
import { Currency, DecimalAmount, Money } from "@payrules/money"
import { InternationalPayment, PaymentStatus } from "@payrules/open-banking"
import { Sandbox } from "@payrules/sandbox"
import { LedgerUrl, SqliteClient } from "@payrules/stores"
import { PlanCheck, Schedule, SubscriptionPlan } from "@payrules/subscriptions"
import { FieldValidator, type PayFields } from "@payrules/transfers"
import { BusinessClient, OpenApiDocuments, PayFieldsLimiter } from "@payrules/transport"
import * as Arbitrary from "effect/Arbitrary"
import type * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"

const check = (what: string, ok: boolean): void => {
  if (!ok) throw new Error(`consumer: ${what}`)
}

// leaves: Result-returning parsers, Schemas, arbitraries
const month: Result.Result<IsoDuration.IsoDuration, IsoDuration.IsoDurationParseError> = IsoDuration.parse("P1M")
check("IsoDuration.parse", Result.isSuccess(month))
const start: DateTime.Zoned = OffsetDateTime.parseUnsafe("2024-01-31T09:00:00+01:00")
const next: Result.Result<DateTime.Zoned, Calendar.CalendarError> = Calendar.addTo(
  start,
  IsoDuration.parseUnsafe("P1M")
)
check("Calendar.addTo", Result.isSuccess(next) && OffsetDateTime.format(next.success) === "2024-02-29T09:00:00+01:00")
const gbp: Currency.CurrencyCode = Currency.makeCodeUnsafe("GBP")
const amount = DecimalAmount.parseString("104.88")
check("DecimalAmount.parseString", Result.isSuccess(amount))
check("Money.formatMinor", Result.isSuccess(Money.formatMinor(10488, gbp)))
const iban: Result.Result<Iban.Iban, Iban.IbanError> = Iban.parse("DE89 3704 0044 0532 0130 00")
check("Iban.parse", Result.isSuccess(iban))
check(
  "AccountIdentification.check",
  Result.isSuccess(
    AccountIdentification.check({ SchemeName: "UK.OBIE.IBAN", Identification: "DE89370400440532013000" })
  )
)
check(
  "SchemeLimits.maxLength",
  Option.getOrNull(SchemeLimits.maxLength("Reference")(SchemeLimits.FasterPayments)) === 18
)

// domain: Schemas decode into typed values; state machines answer Results
const decodePage = Schema.decodeUnknownResult(SubscriptionPlan.PlanListPage)
check("PlanListPage refuses junk", Result.isFailure(decodePage({ subscription_plans: 1 })))
const lenient: Result.Result<PlanCheck.CheckedPage, Schema.SchemaError> = PlanCheck.decodeAndCheck({
  subscription_plans: []
})
check("PlanCheck.decodeAndCheck", Result.isSuccess(lenient))
check("Schedule.simulateUnsafe", typeof Schedule.simulateUnsafe === "function")
const step: Result.Result<ExchangeState.State, ExchangeState.IllegalTransition> = ExchangeState.transition(
  "created",
  "completed"
)
check("ExchangeState.transition", Result.isSuccess(step))
const request = ExchangeRequest.parse({
  from: { account_id: "a", currency: "GBP", amount: 10 },
  to: { account_id: "b", currency: "EUR" },
  request_id: "consumer-1"
})
check("ExchangeRequest.parse", Result.isSuccess(request))
const status: Result.Result<PaymentStatus.Status, PaymentStatus.IllegalTransition> = PaymentStatus.transition(
  "revolut",
  "Pending",
  "AcceptedSettlementInProcess"
)
check("PaymentStatus.transition", Result.isSuccess(status))
check("InternationalPayment.limits", InternationalPayment.limits.length > 0)
const response: PayFields.FieldsResponse = { fields: [{ name: "reference", required: true }] }
const validator = FieldValidator.compile(response.fields, { schemes: [SchemeLimits.FasterPayments] })
check(
  "FieldValidator.compile",
  Result.isSuccess(validator) && Result.isFailure(validator.success.validate({ reference: "x".repeat(19) }))
)

// arbitraries of the Schemas, effect's engine
const sample = await Effect.runPromise(
  Arbitrary.sampleEffect(Arbitrary.schema(IsoDuration.IsoDurationFromString), { count: 2, seed: 1 })
)
check("Arbitrary.schema(IsoDurationFromString)", sample.length === 2)

// transport, stores and the sandbox: layers compose with the user's effect
const clientLayer = BusinessClient.layer({
  ...BusinessClient.defaults,
  baseUrl: "http://127.0.0.1:1/business",
  token: Redacted.make("token")
}).pipe(Layer.provide(RequestLedger.layer))
check("BusinessClient.layer", Layer.isLayer(clientLayer))
check("PayFieldsLimiter.layer", Layer.isLayer(PayFieldsLimiter.layer()))
check("OpenApiDocuments", OpenApiDocuments.families.length === 3)
const place: Result.Result<LedgerUrl.LedgerUrl, LedgerUrl.LedgerUrlError> = LedgerUrl.parse("sqlite::memory:")
check("LedgerUrl.parse", Result.isSuccess(place))
check("SqliteClient.layer", Layer.isLayer(SqliteClient.layer({ filename: ":memory:" })))
const running = await Sandbox.start({ seed: 1, plans: 3 })
try {
  const reasons = await fetch(`${running.urls.business}/exchange-reasons`, {
    headers: { authorization: `Bearer ${running.tenants[0]?.token ?? ""}` }
  })
  check("the sandbox answers", reasons.status === 200)
} finally {
  await running.stop()
}
console.log("consumer: the strict TypeScript program typechecks and runs against the packed packages")
