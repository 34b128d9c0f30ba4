/**
 * The /pay/fields step of the tour: the field requirements of two corridors, compiled into validators with the
 * scheme limits, and a draft payment validated against each.
 */
import { SchemeLimits } from "@payrules/accounts"
import { Sandbox } from "@payrules/sandbox"
import { FieldValidator } from "@payrules/transfers"
import { BusinessClient } from "@payrules/transport"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"

interface Seeded {
  readonly accounts: ReadonlyArray<{ readonly id: string; readonly currency: string }>
  readonly counterparties: ReadonlyArray<{
    readonly id: string
    readonly name: string
    readonly accounts: ReadonlyArray<{ readonly id: string; readonly corridor: string; readonly currency: string }>
  }>
}

const corridors = [
  { corridor: "GB-GBP-FPS", label: "GB, GBP, Faster Payments", schemes: [SchemeLimits.FasterPayments] },
  { corridor: "US-USD-SWIFT", label: "US, USD, SWIFT", schemes: [SchemeLimits.Swift] }
] as const

/**
 * Step 5 of the tour: two corridors' field requirements, compiled with scheme limits, and a draft payment checked.
 *
 * @since 0.1.0
 * @category commands
 */
export const payFieldsStep = Effect.gen(function* () {
  yield* Console.log("\n[5] Transfer field requirements of two corridors, compiled and checked against a draft payment")
  const business = yield* BusinessClient.BusinessClient
  const server = yield* Sandbox.SandboxServer
  const seed = (yield* Effect.promise(() => fetch(`${server.urls.control}/seed`).then((r) => r.json()))) as Seeded
  const source = seed.accounts[0]!
  let issues = 0
  for (const { corridor, label, schemes } of corridors) {
    const counterparty = seed.counterparties.find((c) => c.accounts.some((a) => a.corridor === corridor))!
    const account = counterparty.accounts.find((a) => a.corridor === corridor)!
    const { fields } = yield* business.transferFieldRequirements({
      account_id: source.id,
      receiver: { counterparty_id: counterparty.id, account_id: account.id }
    })
    yield* Console.log(`\n  ${label} (${counterparty.name}): ${fields.length} field rule(s) from the server`)
    const validator = FieldValidator.compile(fields, { schemes })
    if (Result.isFailure(validator)) {
      for (const e of validator.failure) yield* Console.log(`  rule error: ${e.message}`)
      continue
    }
    for (const f of validator.success.form) {
      const limits = [
        f.minLength === undefined ? "" : `min ${f.minLength}`,
        f.maxLength === undefined ? "" : `max ${f.maxLength}`
      ]
        .filter((s) => s !== "")
        .join(", ")
      const offered = f.options ?? []
      const options =
        offered.length > 0
          ? ` one of ${offered.map((o) => (o.default ? `${o.value} (default)` : o.value)).join(", ")}`
          : ""
      yield* Console.log(
        `    ${f.name.padEnd(30)} ${f.required ? "required" : "optional"}${limits === "" ? "" : `, ${limits}`}${options}`
      )
    }
    // a draft that a person might type: a reference too long for Faster Payments, a charge bearer that is not offered
    const draft = {
      amount: 120.5,
      currency: account.currency,
      account_id: source.id,
      receiver: { counterparty_id: counterparty.id, account_id: account.id, address: { city: "Springfield" } },
      request_id: `draft-${corridor}`,
      reference: "Invoice 2024-0117 for consulting services",
      charge_bearer: "sender"
    }
    const result = validator.success.validate(draft)
    if (Result.isSuccess(result)) {
      yield* Console.log("  draft payment: valid")
    } else {
      yield* Console.log(`  draft payment: ${result.failure.length} issue(s)`)
      for (const issue of result.failure)
        yield* Console.log(`    ${issue.path.join(".") || "(body)"}: ${issue.message}`)
      issues += result.failure.length
    }
  }
  return { corridors: corridors.length, issues }
})
