/**
 * The gate every request body passes before a handler sees it: its size (from `Content-Length` before reading, and
 * while reading, so a chunked body is refused as soon as it passes the limit, never buffered whole), its media type,
 * its encoding (UTF-8, without a byte order mark, decoded with `fatal: true`: an invalid byte is refused, never
 * replaced), how deep it nests and whether its numbers survive parsing (see `json.ts`). What passes is parsed once,
 * and the request handed on serves that text and that value to the HttpApi decoders.
 *
 * @internal
 */
import { IncomingMessage } from "node:http"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
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
 * - `Json` (400): not JSON, nested too deep, a forbidden key or an inexact number (`issues` say where);
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

/** Reads a Node request body, stopping (and refusing) as soon as it passes `limit` bytes. */
const readNode = (source: IncomingMessage, limit: number): Effect.Effect<Uint8Array, BodyRefused> =>
  Effect.async<Uint8Array, BodyRefused>((resume) => {
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
  const source: unknown = (request as unknown as { readonly source?: unknown }).source
  if (source instanceof IncomingMessage) return readNode(source, limit)
  // in process: the body is already in memory
  return Effect.flatMap(
    Effect.mapError(request.arrayBuffer, () => unreadable(false)),
    (buffer) => (buffer.byteLength > limit ? Effect.fail(tooLarge(limit)) : Effect.succeed(new Uint8Array(buffer)))
  )
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

/** The request as the handlers see it: the body served from what the gate read, checked and parsed. */
const withBody = (
  request: HttpServerRequest.HttpServerRequest,
  bytes: Uint8Array,
  text: string,
  value: unknown
): HttpServerRequest.HttpServerRequest =>
  Object.create(request, {
    text: { value: Effect.succeed(text) },
    json: { value: Effect.succeed(value) },
    arrayBuffer: {
      value: Effect.sync(() => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
    },
    stream: { value: Stream.succeed(bytes) },
    urlParamsBody: { value: Effect.sync(() => UrlParams.fromInput(new URLSearchParams(text))) }
  }) as HttpServerRequest.HttpServerRequest

/**
 * Checks and reads the body of a request: the request to hand on (serving the checked body), or why it is refused.
 * A request without a body passes as it is.
 *
 * @internal
 */
export const gate = (
  request: HttpServerRequest.HttpServerRequest,
  limits: BodyLimits
): Effect.Effect<HttpServerRequest.HttpServerRequest, BodyRefused> =>
  Effect.gen(function* () {
    const headers = request.headers
    const length = headers["content-length"]
    const declared = length === undefined ? undefined : Number(length)
    const chunked = headers["transfer-encoding"] !== undefined
    if (!chunked && (declared === undefined || declared === 0)) return request
    if (declared !== undefined && !(declared <= limits.maxBodyBytes))
      return yield* Effect.fail(tooLarge(limits.maxBodyBytes))
    const withBodyMethod = methodsWithBody.has(request.method)
    if (withBodyMethod) {
      const problem = contentTypeProblem(headers["content-type"])
      if (problem !== undefined) {
        return yield* new BodyRefused({ reason: "MediaType", status: 415, message: problem, close: true })
      }
    }
    const bytes = yield* readAny(request, limits.maxBodyBytes)
    // a body on GET or HEAD has no meaning here: read (within the limit) and ignored
    if (!withBodyMethod) return request
    if (bytes.length === 0) return withBody(request, bytes, "", null)
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
    if (Either.isLeft(parsed)) {
      return yield* new BodyRefused({
        reason: "Json",
        status: 400,
        message: parsed.left.map((p) => p.message).join("; "),
        issues: parsed.left.map((p) => ({ path: p.path, message: p.message })),
        close: false
      })
    }
    return withBody(request, bytes, text, parsed.right)
  })
