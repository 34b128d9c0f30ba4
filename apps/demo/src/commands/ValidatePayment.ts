/**
 * `payrules validate-payment`: a payment body against the field rules of POST /pay/fields and scheme limits.
 *
 * @since 0.1.0
 */
import { SchemeLimits } from "@payrules/accounts"
import { FieldValidator, PayFields } from "@payrules/transfers"
import * as Console from "effect/Console"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Checks from "../Checks.js"
import { CliError, describeSchemaError } from "../CliError.js"
import * as Files from "../Files.js"
import * as Flags from "../Flags.js"
import { visible } from "../Text.js"

const schemes = {
  FasterPayments: SchemeLimits.FasterPayments,
  OpenBanking: SchemeLimits.OpenBanking,
  Swift: SchemeLimits.Swift
}

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "validate-payment",
  {
    fields: Flags.required("fields", "file", "the POST /pay/fields response (JSON file)"),
    body: Flags.required("body", "file", "the payment body to check (JSON file)"),
    scheme: Flags.repeated("scheme", "FasterPayments|OpenBanking|Swift", "scheme limits to apply as well (repeatable)")
  },
  (o) =>
    Effect.gen(function* () {
      const names = yield* Effect.forEach(o.scheme, (s) =>
        Effect.fromResult(Checks.choice("--scheme", s, ["FasterPayments", "OpenBanking", "Swift"]))
      )
      // read as a client reads the answer (D11): the envelope strictly, the rules one by one; a rule that cannot be
      // read is an UnreadableRule error of the compiler below, named with its index, never left out in silence
      const response = yield* Effect.fromResult(
        PayFields.decodeLenient(yield* Files.readJson("--fields", o.fields))
      ).pipe(Effect.mapError((e) => new CliError({ where: `--fields ${o.fields}`, reason: describeSchemaError(e) })))
      const body = yield* Files.readJson("--body", o.body)
      const validator = FieldValidator.compile(response, { schemes: names.map((s) => schemes[s]) })
      if (Result.isFailure(validator)) {
        return yield* new CliError({
          where: `--fields ${o.fields}`,
          reason: validator.failure.map((e) => e.message).join("; ")
        })
      }
      const result = validator.success.validate(body)
      if (Result.isSuccess(result)) return yield* Console.log(visible(`${o.body}: valid`))
      for (const issue of result.failure)
        yield* Console.log(visible(`${issue.path.join(".") || "(body)"}: ${issue.rule}: ${issue.message}`))
      return yield* new CliError({ where: `--body ${o.body}`, reason: `${result.failure.length} issue(s)` })
    })
).pipe(Command.withDescription("Check a payment body against the field rules of POST /pay/fields and scheme limits"))
