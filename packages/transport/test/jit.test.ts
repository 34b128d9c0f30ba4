/**
 * The clients turn on effect's Schema JIT compiler for the answers they read (`Http.jit`): the compiled decoders must
 * answer exactly what the interpreter answers, on valid answers and on broken ones, and where dynamic code is
 * forbidden (`new Function` throws, as under a Content-Security-Policy without `unsafe-eval`) decoding must go on
 * with the interpreter.
 */
import { describe, expect, it } from "@effect/vitest"
import { ExchangeTransaction } from "@payrules/exchange"
import { InternationalPayment } from "@payrules/open-banking"
import { PayFields } from "@payrules/transfers"
import { hostileJson, issuesOf } from "@payrules/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import fc from "fast-check"
import * as Http from "../src/internal/http.js"

/** what a decoding answers, comparable: the value (as JSON text) or the issues */
const outcome = (result: Result.Result<unknown, Schema.SchemaError>) =>
  Result.isSuccess(result) ? { ok: JSON.stringify(result.success) } : { issues: issuesOf(result.failure) }

/**
 * An interpreted decoder and a compiled one of the same Schema: a copy of it (a new root, so the interpreted entry of
 * the copy is taken before the compiler is turned on for it)
 */
const both = <S extends Schema.Codec<unknown, unknown>>(schema: S) => {
  const copy = schema.annotate({ description: "a copy for the JIT test" })
  const interpreted = Schema.decodeUnknownResult(copy)
  interpreted(undefined)
  Http.jit(copy)
  return { interpreted, compiled: Schema.decodeUnknownResult(copy) }
}

const answers = [
  ["a /pay/fields answer", PayFields.FieldsResponse],
  ["an exchange transaction", ExchangeTransaction.Lenient],
  ["an international payment", InternationalPayment.RevolutLenient]
] as const

describe("the decoders the clients compile", () => {
  for (const [name, schema] of answers) {
    const encode = Schema.encodeSync(schema as Schema.Codec<unknown, unknown>)
    const { compiled, interpreted } = both(schema as Schema.Codec<unknown, unknown>)

    it.prop(
      `${name}: a valid answer decodes to the same value, compiled or interpreted`,
      [Arbitrary.schema(schema as Schema.Codec<unknown, unknown>)],
      ([value]) => {
        const wire = JSON.parse(JSON.stringify(encode(value)))
        expect(outcome(compiled(wire))).toEqual(outcome(interpreted(wire)))
        expect(Result.isSuccess(compiled(wire))).toBe(true)
      },
      { arbitrary: { runs: 50 } }
    )

    it(`${name}: a broken answer fails with the same issues, compiled or interpreted`, () => {
      fc.assert(
        fc.property(hostileJson, (junk) => {
          expect(outcome(compiled(junk))).toEqual(outcome(interpreted(junk)))
        }),
        { numRuns: 100 }
      )
    })
  }

  it("jit makes the decoder JavaScript code on its first use: more code is made than for an interpreted decoder", () => {
    const original = globalThis.Function
    let made = 0
    const counting = new Proxy(original, {
      construct: (target, args, newTarget) => {
        made++
        return Reflect.construct(target, args, newTarget)
      },
      apply: (target, self, args) => {
        made++
        return Reflect.apply(target, self, args)
      }
    })
    const answer = { fields: [{ name: "reference", required: true, validation: { max_length: 18 } }] }
    try {
      globalThis.Function = counting
      const interpreted = PayFields.FieldsResponse.annotate({ description: "never given to jit" })
      expect(Result.isSuccess(Schema.decodeUnknownResult(interpreted)(answer))).toBe(true)
      const byInterpreter = made
      made = 0
      const copy = PayFields.FieldsResponse.annotate({ description: "given to jit" })
      expect(Http.jit(copy)).toBe(copy)
      expect(Result.isSuccess(Schema.decodeUnknownResult(copy)(answer))).toBe(true)
      expect(made).toBeGreaterThan(byInterpreter)
    } finally {
      globalThis.Function = original
    }
  })

  it("where dynamic code is forbidden, the interpreter decodes as before", () => {
    const original = globalThis.Function
    const forbidden = (() => {
      throw new EvalError("Refused to evaluate a string as JavaScript: 'unsafe-eval' is not allowed")
    }) as unknown as FunctionConstructor
    const copy = PayFields.FieldsResponse.annotate({ description: "compiled where code may not be made" })
    const answer = { fields: [{ name: "reference", required: true, validation: { max_length: 18 } }] }
    try {
      globalThis.Function = forbidden
      Http.jit(copy)
      const decode = Schema.decodeUnknownResult(copy)
      expect(outcome(decode(answer))).toEqual(outcome(Schema.decodeUnknownResult(PayFields.FieldsResponse)(answer)))
      expect(Result.isFailure(decode({ fields: "none" }))).toBe(true)
    } finally {
      globalThis.Function = original
    }
  })
})
