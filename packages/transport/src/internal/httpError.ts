import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"

/**
 * The error schema of one HTTP status for a family error class: the wire body decodes to the class with that
 * status, and a value of the class with that status encodes to the wire body. Endpoints declare one per status, so
 * the server picks the status from the value and the OpenAPI document lists every status with its body.
 *
 * @internal
 */
export const atStatus = <Self extends { readonly status: number }, SI, W, WI>(
  self: Schema.Schema<Self, SI, never>,
  wire: Schema.Schema<W, WI, never>,
  status: number,
  fromWire: (body: W, status: number) => Self,
  toWire: (error: Self) => W
): Schema.Schema<Self, WI, never> =>
  Schema.transform(wire, Schema.typeSchema(self).pipe(Schema.filter((e) => e.status === status)), {
    strict: true,
    decode: (body) => fromWire(body, status),
    encode: toWire
  }).annotations(HttpApiSchema.annotations({ status }))
