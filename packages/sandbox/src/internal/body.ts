/**
 * The gate every request body passes before a handler sees it: its size (from `Content-Length` before reading, and
 * while reading, so a chunked body is refused as soon as it passes the limit, never buffered whole), its media type
 * and content coding (none: a gzipped body is refused, not read as text), its encoding (UTF-8, without a byte order
 * mark, decoded with `fatal: true`: an invalid byte is refused, never replaced), how deep it nests, whether its
 * numbers survive parsing and whether an object names a key twice (see `json.ts`). What passes is parsed once: the
 * handlers decode that value, and the request handed on serves that text to the HttpApi decoders of the control
 * endpoints.
 *
 * @internal
 */
import { IncomingMessage } from "node:http"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type * as Headers from "effect/http/Headers"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import type * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as UrlParams from "effect/http/UrlParams"
import * as Inspectable from "effect/Inspectable"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Json from "./json.js"

/**
 * The limits of a request body.
 *
 * @internal
 */
export interface BodyLimits {
  /** the largest body in bytes; a larger one gets 413 */
  readonly maxBodyBytes: number
  /** how deep arrays and objects may nest in a JSON body; deeper gets 400 */
  readonly maxDepth: number
}

/**
 * Why a body was refused:
 *
 * - `TooLarge` (413): over `maxBodyBytes`, declared or read;
 * - `MediaType` (415): not `application/json` (or `application/<x>+json`) in UTF-8;
 * - `Encoding` (400): not UTF-8, or with a byte order mark;
 * - `Json` (400): not JSON, nested too deep, a forbidden or duplicated key or an inexact number (`issues` say where);
 * - `Unreadable` (400): the connection failed while the body was read.
 *
 * @internal
 */
export class BodyRefused extends Data.TaggedError("BodyRefused")<{
  readonly reason: "TooLarge" | "MediaType" | "Encoding" | "Json" | "Unreadable"
  readonly status: 400 | 413 | 415
  readonly message: string
  readonly issues?: ReadonlyArray<{ readonly path: ReadonlyArray<string | number>; readonly message: string }>
  /** the body was not read to its end: the connection must close after the answer */
  readonly close: boolean
}> {}

const methodsWithBody = new Set(["POST", "PUT", "PATCH", "DELETE"])

const tooLarge = (limit: number) =>
  new BodyRefused({
    reason: "TooLarge",
    status: 413,
    message: `the request body is larger than ${limit} bytes (the limit)`,
    close: true
  })

const unreadable = (close: boolean) =>
  new BodyRefused({ reason: "Unreadable", status: 400, message: "the request body could not be read", close })

/** `application/json` or `application/<x>+json`, with no charset or UTF-8. */
const contentTypeProblem = (contentType: string | undefined): string | undefined => {
  if (contentType === undefined || contentType.trim() === "") {
    return "a request body needs Content-Type: application/json"
  }
  const [type = "", ...params] = contentType.toLowerCase().split(";")
  const media = type.trim()
  if (media !== "application/json" && !(media.startsWith("application/") && media.endsWith("+json"))) {
    return `only application/json bodies are accepted; Content-Type was ${Json.clip(contentType)}`
  }
  for (const param of params) {
    const [name = "", value = ""] = param.split("=", 2).map((s) => s.trim())
    if (name === "charset" && value.replace(/^"|"$/g, "") !== "utf-8") {
      return `a JSON body is UTF-8; Content-Type said charset=${Json.clip(value)}`
    }
  }
  return undefined
}

/**
 * Why a body's `Content-Encoding` is refused: the sandbox reads a body as it is sent, so a body in a content coding
 * (gzip, br...) would be read as something other than what the client says it sent (RFC 9110 §8.4: 415). `identity`
 * is no coding.
 */
const codingProblem = (coding: string | undefined): string | undefined =>
  coding === undefined || coding.split(",").every((c) => c.trim().toLowerCase() === "identity")
    ? undefined
    : `the request body is in the content coding ${Json.clip(coding)}: send it as it is, without Content-Encoding`

/** Reads a Node request body, stopping (and refusing) as soon as it passes `limit` bytes. */
const readNode = (source: IncomingMessage, limit: number): Effect.Effect<Uint8Array, BodyRefused> =>
  Effect.callback<Uint8Array, BodyRefused>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const cleanup = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
      source.off("close", onClose)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        cleanup()
        source.pause()
        resume(Effect.fail(tooLarge(limit)))
      } else {
        chunks.push(chunk)
      }
    }
    const onEnd = () => {
      cleanup()
      resume(Effect.succeed(Buffer.concat(chunks, size)))
    }
    const onError = () => {
      cleanup()
      resume(Effect.fail(unreadable(true)))
    }
    const onClose = () => {
      if (!source.complete) onError()
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    source.on("close", onClose)
    return Effect.sync(cleanup)
  })

const readAny = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Uint8Array, BodyRefused> => {
  const source = request.source
  if (source instanceof IncomingMessage) return readNode(source, limit)
  // in process: the client's bytes, as they are
  if (HttpClientRequest.isHttpClientRequest(source) && source.body._tag === "Uint8Array") {
    const bytes = source.body.body
    return bytes.length > limit ? Effect.fail(tooLarge(limit)) : Effect.succeed(bytes)
  }
  return Effect.flatMap(
    Effect.mapError(request.arrayBuffer, () => unreadable(false)),
    (buffer) => (buffer.byteLength > limit ? Effect.fail(tooLarge(limit)) : Effect.succeed(new Uint8Array(buffer)))
  )
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

/**
 * The request as the handlers see it: the original one, with the body served from what the gate read, checked and
 * parsed. A class of its own that delegates to the original (not an object whose prototype is the request: making
 * every request a prototype cost V8 a new hidden class per request).
 */
class CheckedRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId] = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId] = HttpIncomingMessage.TypeId
  constructor(
    readonly original: HttpServerRequest.HttpServerRequest,
    readonly bytes: Uint8Array,
    readonly checkedText: string,
    readonly value: unknown
  ) {
    super()
  }
  get source() {
    return this.original.source
  }
  get url() {
    return this.original.url
  }
  get originalUrl() {
    return this.original.originalUrl
  }
  get method() {
    return this.original.method
  }
  get cookies() {
    return this.original.cookies
  }
  get headers() {
    return this.original.headers
  }
  get remoteAddress() {
    return this.original.remoteAddress
  }
  get peerAddress() {
    return this.original.peerAddress
  }
  get protocol() {
    return this.original.protocol
  }
  get multipart() {
    return this.original.multipart
  }
  get multipartStream() {
    return this.original.multipartStream
  }
  get upgrade() {
    return this.original.upgrade
  }
  upgradeWith(options: { readonly headers?: Headers.Input | undefined }) {
    return this.original.upgradeWith(options)
  }
  modify(options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]): HttpServerRequest.HttpServerRequest {
    return new CheckedRequest(this.original.modify(options), this.bytes, this.checkedText, this.value)
  }
  get text(): Effect.Effect<string, HttpServerError.HttpServerError> {
    return Effect.succeed(this.checkedText)
  }
  get json(): Effect.Effect<Schema.Json, HttpServerError.HttpServerError> {
    return Effect.succeed(this.value as Schema.Json)
  }
  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.HttpServerError> {
    const bytes = this.bytes
    return Effect.sync(() => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
  }
  get stream(): Stream.Stream<Uint8Array, HttpServerError.HttpServerError> {
    return Stream.succeed(this.bytes)
  }
  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.HttpServerError> {
    const text = this.checkedText
    return Effect.sync(() => UrlParams.fromInput(new URLSearchParams(text)))
  }
  toJSON(): unknown {
    return this.original.toJSON()
  }
}

const withBody = (
  request: HttpServerRequest.HttpServerRequest,
  bytes: Uint8Array,
  text: string,
  value: unknown
): HttpServerRequest.HttpServerRequest => new CheckedRequest(request, bytes, text, value)

/**
 * A request that passed the gate: the request to hand on (serving the checked body) and the body's value as parsed
 * (`undefined` without a body).
 *
 * @internal
 */
export interface Gated {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly body: unknown
}

const noBody = (request: HttpServerRequest.HttpServerRequest): Gated => ({ request, body: undefined })

/**
 * Whether a request says it has a body (`Transfer-Encoding`, or a `Content-Length` other than 0): only then is there
 * something for the gate to read.
 *
 * @internal
 */
export const hasBody = (headers: HttpServerRequest.HttpServerRequest["headers"]): boolean => {
  if (headers["transfer-encoding"] !== undefined) return true
  const length = headers["content-length"]
  return length !== undefined && Number(length) !== 0
}

/**
 * Checks and reads the body of a request: the request to hand on (serving the checked body) and its parsed value, or
 * why it is refused. A request without a body passes as it is.
 *
 * @internal
 */
export const gate = (
  request: HttpServerRequest.HttpServerRequest,
  limits: BodyLimits
): Effect.Effect<Gated, BodyRefused> => {
  const headers = request.headers
  const length = headers["content-length"]
  const declared = length === undefined ? undefined : Number(length)
  const chunked = headers["transfer-encoding"] !== undefined
  // most requests have no body: no generator, no allocation but the answer
  if (!chunked && (declared === undefined || declared === 0)) return Effect.succeed(noBody(request))
  return Effect.gen(function* () {
    if (declared !== undefined && !(declared <= limits.maxBodyBytes))
      return yield* Effect.fail(tooLarge(limits.maxBodyBytes))
    const withBodyMethod = methodsWithBody.has(request.method)
    if (withBodyMethod) {
      const problem = contentTypeProblem(headers["content-type"]) ?? codingProblem(headers["content-encoding"])
      if (problem !== undefined) {
        return yield* new BodyRefused({ reason: "MediaType", status: 415, message: problem, close: true })
      }
    }
    const bytes = yield* readAny(request, limits.maxBodyBytes)
    // a body on GET or HEAD has no meaning here: read (within the limit) and ignored
    if (!withBodyMethod) return noBody(request)
    if (bytes.length === 0) return { request: withBody(request, bytes, "", null), body: undefined }
    let text: string
    try {
      text = utf8.decode(bytes)
    } catch {
      return yield* new BodyRefused({
        reason: "Encoding",
        status: 400,
        message: "the request body is not valid UTF-8 (a JSON body is UTF-8)",
        close: false
      })
    }
    if (text.charCodeAt(0) === 0xfeff) {
      return yield* new BodyRefused({
        reason: "Encoding",
        status: 400,
        message: "the request body starts with a byte order mark: JSON is UTF-8 without one (RFC 8259)",
        close: false
      })
    }
    const parsed = Json.parse(text, limits.maxDepth)
    if (Result.isFailure(parsed)) {
      return yield* new BodyRefused({
        reason: "Json",
        status: 400,
        message: parsed.failure.map((p) => p.message).join("; "),
        issues: parsed.failure.map((p) => ({ path: p.path, message: p.message })),
        close: false
      })
    }
    return { request: withBody(request, bytes, text, parsed.success), body: parsed.success }
  })
}
