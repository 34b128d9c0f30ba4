import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

/**
 * The error schema of one HTTP status for a family error class: the wire body decodes to the class with that
 * status, and a value of the class with that status encodes to the wire body (a value with another status does not
 * match it). Endpoints declare one per status (the status is the schema's `httpApiStatus` annotation), so the server
 * picks the status from the value and the OpenAPI document lists every status with its body.
 *
 * @internal
 */
export const atStatus = <Self extends { readonly status: number }, SE, W, WE>(
  self: Schema.Codec<Self, SE>,
  wire: Schema.Codec<W, WE>,
  status: number,
  fromWire: (body: W, status: number) => Self,
  toWire: (error: Self) => W
): Schema.Codec<Self, WE> =>
  wire.pipe(
    Schema.decodeTo(
      Schema.toType(self).check(
        Schema.makeFilter((e: Self) => e.status === status || `a status of ${status}, not ${e.status}`)
      ),
      SchemaTransformation.transform({ decode: (body: W) => fromWire(body, status), encode: toWire })
    ),
    HttpApiSchema.status(status)
  )

/**
 * One schema per status, made once: the endpoints and the security middleware of a family share the instance of a
 * status, so that a status declared twice (401 by an endpoint and by the middleware) is one response.
 *
 * @internal
 */
export const cachedByStatus = <S>(make: (status: number) => S): ((status: number) => S) => {
  const cache = new Map<number, S>()
  return (status) => {
    let schema = cache.get(status)
    if (schema === undefined) {
      schema = make(status)
      cache.set(status, schema)
    }
    return schema
  }
}
