/**
 * The request headers of GET /international-payments/{InternationalPaymentId} (Financial-grade API, FAPI), with the
 * lower-case names that HTTP libraries give them:
 *
 * - `x-fapi-financial-id` (required): the id of the account-servicing institution;
 * - `authorization` (required): the access token, decoded to a `Redacted<string>` so it never prints;
 * - `x-fapi-interaction-id`: an RFC 4122 UUID used as correlation id (any version, either case);
 * - `x-fapi-customer-last-logged-time` (`revolut`) or `x-fapi-auth-date` (`obie-3.1.11`): an RFC 7231 HTTP date;
 * - `x-fapi-customer-ip-address`: an IPv4 or IPv6 address ({@link IpAddress.parse});
 * - `x-customer-user-agent`: the end user's user agent.
 *
 * Other headers are tolerated and dropped. The response carries `x-fapi-interaction-id`: the one sent, or a fresh
 * UUID v4 ({@link interactionIdFor}). A client checks that with {@link checkResponse}: an interaction id not played
 * back is a finding next to the payment, never a failed read (D11).
 *
 * @since 0.1.0
 */
import { HttpDate } from "@payrules/iso8601"
import type * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import type * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as IpAddress from "./IpAddress.js"
import { oneOfPattern, preview } from "./internal/text.js"
import type { Profile } from "./Profile.js"

// in either case, written out: a JSON Schema `pattern` has no flags, and the document must accept what decoding does
const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$"
const UUID = new RegExp(UUID_PATTERN)

/**
 * `true` for an RFC 4122 UUID: 8-4-4-4-12 hex digits in either case, a version from 1 to 8 (RFC 4122 defines 1 to 5,
 * its successor RFC 9562 adds 6 to 8) and the RFC 4122 variant (`8`, `9`, `a` or `b`). The nil and max UUIDs are
 * not interaction ids.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isInteractionId = (s: string): boolean => UUID.test(s)

const LOWER_UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"

/**
 * The `x-fapi-interaction-id` value: an RFC 4122 UUID (see {@link isInteractionId}), kept as written. Its arbitrary
 * draws UUIDs of versions 1 to 8, in lower or upper case.
 *
 * @since 0.1.0
 * @category schemas
 */
export const InteractionId: Schema.Codec<string> = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      UUID.test(s) ||
      `x-fapi-interaction-id must be an RFC 4122 UUID such as 93bac548-d2de-4546-b106-880a5018460d, got ${JSON.stringify(preview(s))}`,
    {
      expected: "an RFC 4122 UUID",
      toJsonSchema: () => ({ pattern: UUID_PATTERN }),
      arbitraryConstraint: {
        patterns: [
          { source: `^${LOWER_UUID}$`, flags: "" },
          { source: `^${LOWER_UUID.replaceAll("a-f", "A-F").replace("89ab", "89AB")}$`, flags: "" }
        ]
      }
    }
  )
).annotate({ identifier: "InteractionId", description: "an RFC 4122 UUID used as correlation id" })

const nonEmpty = (name: string, generated?: ReadonlyArray<string>) =>
  Schema.String.check(
    Schema.makeFilter((s: string) => (s.length > 0 ? undefined : `${name} must not be empty`), {
      expected: "a non-empty string",
      toJsonSchema: () => ({ minLength: 1 }),
      arbitraryConstraint:
        generated === undefined ? { minLength: 1 } : { patterns: [{ source: oneOfPattern(generated), flags: "" }] }
    })
  )

const opt = Schema.optionalKey

const common = {
  "x-fapi-financial-id": nonEmpty("x-fapi-financial-id", [
    "001580000103UAvAAM",
    "0015800000jfwxXAAQ",
    "aspsp-1"
  ]).annotate({ description: "the id of the account-servicing institution (ASPSP) the request is issued to" }),
  authorization: Schema.RedactedFromValue(nonEmpty("authorization")).annotate({
    description: "the access token, kept as a Redacted value so that it never reaches logs"
  }),
  "x-fapi-interaction-id": opt(InteractionId),
  "x-fapi-customer-ip-address": opt(IpAddress.IpAddressString),
  "x-customer-user-agent": opt(Schema.String)
}

/**
 * The headers of the `revolut` profile, with `x-fapi-customer-last-logged-time`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Revolut = Schema.Struct({
  ...common,
  "x-fapi-customer-last-logged-time": opt(HttpDate.HttpDateFromString)
}).annotate({ identifier: "RevolutFapiHeaders", description: "FAPI request headers (revolut profile)" })

/**
 * Decoded `revolut` headers.
 *
 * @since 0.1.0
 * @category models
 */
export interface Revolut extends Schema.Schema.Type<typeof Revolut> {}

/**
 * The headers of the `obie-3.1.11` profile, with `x-fapi-auth-date`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Obie = Schema.Struct({
  ...common,
  "x-fapi-auth-date": opt(HttpDate.HttpDateFromString)
}).annotate({ identifier: "ObieFapiHeaders", description: "FAPI request headers (obie-3.1.11 profile)" })

/**
 * Decoded `obie-3.1.11` headers.
 *
 * @since 0.1.0
 * @category models
 */
export interface Obie extends Schema.Schema.Type<typeof Obie> {}

/**
 * The decoded headers of a profile.
 *
 * @since 0.1.0
 * @category models
 */
export type HeadersOf<P extends Profile> = P extends "revolut" ? Revolut : Obie

/**
 * The wire form of a profile's headers: lower-case names, string values.
 *
 * @since 0.1.0
 * @category models
 */
export type EncodedOf<P extends Profile> = P extends "revolut" ? (typeof Revolut)["Encoded"] : (typeof Obie)["Encoded"]

/**
 * The name of the header that carries the end user's last login with the third party: `x-fapi-customer-last-logged-time`
 * in `revolut`, `x-fapi-auth-date` in `obie-3.1.11`.
 *
 * @since 0.1.0
 * @category constants
 */
export const customerTimeHeader: { readonly [P in Profile]: string } = {
  revolut: "x-fapi-customer-last-logged-time",
  "obie-3.1.11": "x-fapi-auth-date"
}

/**
 * The headers Schema of a profile.
 *
 * @since 0.1.0
 * @category schemas
 */
export const schema = <P extends Profile>(profile: P): Schema.Codec<HeadersOf<P>, EncodedOf<P>> =>
  (profile === "revolut" ? Revolut : Obie) as unknown as Schema.Codec<HeadersOf<P>, EncodedOf<P>>

const decoders = {
  revolut: Schema.decodeUnknownResult(Revolut, { errors: "all" }),
  "obie-3.1.11": Schema.decodeUnknownResult(Obie, { errors: "all" })
}

/**
 * Decodes request headers (an object of lower-case names to string values, such as `request.headers` of
 * `effect/http`) in a profile, reporting every issue at the header's name.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = <P extends Profile>(
  profile: P,
  headers: unknown
): Result.Result<HeadersOf<P>, Schema.SchemaError> =>
  decoders[profile](headers) as Result.Result<HeadersOf<P>, Schema.SchemaError>

/**
 * The headers that must not reach logs or trace spans: the access token and the end user's IP address and user
 * agent (personal data). Add them to `Headers.CurrentRedactedNames` of `effect/http`, which already redacts
 * `authorization`, `cookie`, `set-cookie` and `x-api-key`:
 * `Effect.updateService(effect, Headers.CurrentRedactedNames, (names) => [...names, ...FapiHeaders.redactedHeaderNames])`.
 *
 * @since 0.1.0
 * @category constants
 */
export const redactedHeaderNames: ReadonlyArray<string> = [
  "authorization",
  "x-fapi-customer-ip-address",
  "x-customer-user-agent"
]

const HEX = "0123456789abcdef"

/**
 * A fresh UUID version 4 from effect's `Random` service (so that a test can seed it with `Random.withSeed`): 122
 * random bits, the version nibble 4 and the RFC 4122 variant.
 *
 * @since 0.1.0
 * @category constructors
 */
export const randomInteractionId: Effect.Effect<string> = Effect.map(
  Effect.all(Array.from({ length: 16 }, () => Random.nextIntBetween(0, 255))),
  (bytes) => {
    bytes[6] = (bytes[6]! & 0x0f) | 0x40
    bytes[8] = (bytes[8]! & 0x3f) | 0x80
    let out = ""
    bytes.forEach((b, i) => {
      if (i === 4 || i === 6 || i === 8 || i === 10) out += "-"
      out += HEX[b >> 4]! + HEX[b & 0x0f]!
    })
    return out
  }
)

/**
 * The `x-fapi-interaction-id` of the response: the one the request sent, as sent, when it is an RFC 4122 UUID
 * (which decoded headers guarantee); otherwise a fresh UUID v4 ({@link randomInteractionId}).
 *
 * @example
 * ```ts
 * import { FapiHeaders } from "@payrules/open-banking"
 * import { Effect } from "effect"
 *
 * const sent = "93bac548-d2de-4546-b106-880a5018460d"
 * console.log(Effect.runSync(FapiHeaders.interactionIdFor({ "x-fapi-interaction-id": sent })) === sent) // true
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const interactionIdFor = (requestHeaders: {
  readonly "x-fapi-interaction-id"?: string | undefined
}): Effect.Effect<string> => {
  const sent = requestHeaders["x-fapi-interaction-id"]
  return typeof sent === "string" && UUID.test(sent) ? Effect.succeed(sent) : randomInteractionId
}

/**
 * The end user's last login with the third party, from whichever header the profile uses.
 *
 * @since 0.1.0
 * @category getters
 */
export const customerTime = (headers: Revolut | Obie): DateTime.Utc | undefined =>
  "x-fapi-customer-last-logged-time" in headers
    ? headers["x-fapi-customer-last-logged-time"]
    : "x-fapi-auth-date" in headers
      ? headers["x-fapi-auth-date"]
      : undefined

/**
 * A rule of the response headers that a server can break while its answer stays usable.
 *
 * @since 0.1.0
 * @category response checks
 */
export type ResponseRule =
  /** the response carries no `x-fapi-interaction-id`, although the request sent one (warning) */
  | "InteractionIdNotPlayedBack"
  /** the response carries another `x-fapi-interaction-id` than the one sent (warning) */
  | "InteractionIdMismatch"

/**
 * A finding of the response headers, in the shape of `InternationalPaymentCheck.Finding` (severity, rule, path,
 * message); the path is `["headers", <header name>]`.
 *
 * @since 0.1.0
 * @category response checks
 */
export interface Finding {
  readonly severity: "error" | "warning"
  readonly rule: ResponseRule
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}

/**
 * The findings of a response's headers against the request: FAPI asks the server to play back the
 * `x-fapi-interaction-id` the request sent. A missing one is `InteractionIdNotPlayedBack`, another value
 * `InteractionIdMismatch`; both are warnings, because the body is still the resource asked for and only the
 * correlation with the bank's logs is lost. UUIDs compare without regard to case (RFC 4122). `responseHeaders` has
 * lower-case names, as `effect/http` gives them.
 *
 * @example
 * ```ts
 * import { FapiHeaders } from "@payrules/open-banking"
 *
 * const sent = "93bac548-d2de-4546-b106-880a5018460d"
 * console.log(FapiHeaders.checkResponse(sent, { "x-fapi-interaction-id": sent })) // []
 * console.log(FapiHeaders.checkResponse(sent, {}).map((f) => f.rule)) // [ "InteractionIdNotPlayedBack" ]
 * ```
 *
 * @since 0.1.0
 * @category response checks
 */
export const checkResponse = (
  sent: string,
  responseHeaders: { readonly [name: string]: string | undefined }
): ReadonlyArray<Finding> => {
  const path = ["headers", "x-fapi-interaction-id"] as const
  const played = responseHeaders["x-fapi-interaction-id"]
  if (played === undefined || played === "") {
    return [
      {
        severity: "warning",
        rule: "InteractionIdNotPlayedBack",
        path,
        message: `the response carries no x-fapi-interaction-id; the request sent ${sent}, which FAPI asks the server to play back (correlation with the bank's logs is lost, the payment is not)`
      }
    ]
  }
  if (played.toLowerCase() !== sent.toLowerCase()) {
    return [
      {
        severity: "warning",
        rule: "InteractionIdMismatch",
        path,
        message: `the response carries x-fapi-interaction-id ${JSON.stringify(preview(played))} instead of ${sent}, which the request sent (FAPI asks the server to play it back)`
      }
    ]
  }
  return []
}
