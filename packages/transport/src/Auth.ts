/**
 * The bearer token of a request, as the APIs' security middleware hands it to a handler.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as Redacted from "effect/Redacted"

/**
 * The access token of the request being handled (from `Authorization: Bearer ...`). Redacted: it never reaches a
 * log or a span by accident.
 *
 * @since 0.1.0
 * @category services
 */
export class BearerToken extends Context.Service<BearerToken, Redacted.Redacted<string>>()(
  "@payrules/transport/BearerToken"
) {}
