/**
 * The stored form of a ledger's `Outcome` (plain data, the transaction as `ExchangeTransaction.Lenient` reads it), and
 * the declared Schema of `Outcome` values: what `RequestLedger.OutcomeSchema` is built from.
 *
 * @internal
 */
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as ExchangeTransaction from "../ExchangeTransaction.js"
import { Outcome } from "../RequestLedger.js"

/** an outcome as plain data, the form a durable store keeps @internal */
export type Stored =
  | { readonly _tag: "Succeeded"; readonly transaction: ExchangeTransaction.Lenient }
  | { readonly _tag: "Rejected"; readonly status: number; readonly code?: number; readonly message: string }
  | { readonly _tag: "Unknown"; readonly message: string }

/** @internal */
export const fromStored = (o: Stored): Outcome => {
  switch (o._tag) {
    case "Succeeded":
      return Outcome.Succeeded({ transaction: o.transaction })
    case "Rejected":
      return Outcome.Rejected(
        o.code === undefined
          ? { status: o.status, message: o.message }
          : { status: o.status, code: o.code, message: o.message }
      )
    case "Unknown":
      return Outcome.Unknown({ message: o.message })
  }
}

/** @internal */
export const toStored = (o: Outcome): Stored => {
  switch (o._tag) {
    case "Succeeded":
      return { _tag: "Succeeded", transaction: o.transaction }
    case "Rejected":
      return o.code === undefined
        ? { _tag: "Rejected", status: o.status, message: o.message }
        : { _tag: "Rejected", status: o.status, code: o.code, message: o.message }
    case "Unknown":
      return { _tag: "Unknown", message: o.message }
  }
}

const isOutcome = (u: unknown): u is Outcome =>
  Outcome.$is("Succeeded")(u) || Outcome.$is("Rejected")(u) || Outcome.$is("Unknown")(u)

/**
 * an Outcome value; its arbitrary draws the stored forms (transactions of the lenient Schema, in states added since
 * too) and builds outcomes
 *
 * @internal
 */
export const OutcomeValue = Schema.declare(isOutcome, {
  identifier: "Outcome",
  toCodecArbitrary: () =>
    Schema.link<Outcome>()(
      Schema.Union([
        Schema.TaggedStruct("Succeeded", { transaction: Schema.toType(ExchangeTransaction.Lenient) }),
        Schema.TaggedStruct("Rejected", {
          status: Schema.Int.check(Schema.isBetween({ minimum: 400, maximum: 599 })),
          code: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1000, maximum: 9999 }))),
          message: Schema.String
        }),
        Schema.TaggedStruct("Unknown", { message: Schema.String })
      ]),
      { decode: SchemaGetter.transform(fromStored), encode: SchemaGetter.transform(toStored) }
    )
})
