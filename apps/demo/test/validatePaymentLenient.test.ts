/**
 * Issue 34: `validate-payment` reads the /pay/fields answer as a client does (`PayFields.decodeLenient`); a rule
 * the server got wrong is named, with its index, as a rule the validator cannot be built without.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { payrules } from "./Harness.js"

describe("payrules validate-payment with a rule that cannot be read", () => {
  it.live("names the unreadable rule and its index instead of failing on the whole answer's shape", () =>
    Effect.gen(function* () {
      const r = yield* payrules([
        "validate-payment",
        "--fields",
        "test/fixtures/swift-fields-unreadable.json",
        "--body",
        "test/fixtures/draft-payment.json"
      ])
      expect(r.code).toBe(1)
      expect(r.stdout).toBe("")
      expect(r.stderr).toContain(
        "error: --fields test/fixtures/swift-fields-unreadable.json: fields[1] (charge_bearer)"
      )
      expect(r.stderr).toContain("the rule could not be read")
    })
  )
})
