/**
 * One HTTP exchange of a client: send, read the status and the body (up to a size limit), decode the success body
 * with the operation's Schema, or classify the failure. Retries (with `Retry-After` up to a cap), deadlines, rate
 * limits and idempotency are layered on top, per operation.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Stream from "effect/Stream"
import * as SchemaJITCompiler from "effect/schema/SchemaJITCompiler"
import {
  ambiguousStatus,
  clip,
  detailOf,
  type Failure,
  maxRawLength,
  reasonOfStatus,
  replayedHeader,
  retryAfterOf
} from "./httpFailure.js"
import { defaultMaxResponseBytes, defaultMaxRetryAfter } from "./httpPolicy.js"

export * from "./httpFailure.js"
export * from "./httpPolicy.js"

/** @internal */
export interface Answer<A> {
  readonly value: A
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** the server answered with the stored result of an earlier identical request */
  readonly replayed: boolean
}

type Body = { readonly _tag: "Text"; readonly text: string } | { readonly _tag: "TooLarge"; readonly head: string }

/**
 * The body as text, reading no more than `limit` bytes: a `Content-Length` over the limit is refused before reading,
 * and a body without one is read chunk by chunk until it passes the limit.
 */
const readBody = <E>(
  response: HttpClientResponse.HttpClientResponse,
  limit: number,
  onError: (e: unknown) => E
): Effect.Effect<Body, E> => {
  const declared = response.headers["content-length"]
  if (declared !== undefined && /^\d+$/.test(declared)) {
    return Number(declared) > limit
      ? Effect.succeed({ _tag: "TooLarge", head: "" })
      : Effect.mapBoth(response.text, { onFailure: onError, onSuccess: (text) => ({ _tag: "Text", text }) })
  }
  return Effect.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let size = 0
    let over = false
    return Stream.runForEachWhile(response.stream, (chunk) =>
      Effect.sync(() => {
        size += chunk.length
        if (size > limit) over = true
        else chunks.push(chunk)
        return !over
      })
    ).pipe(
      Effect.andThen(Effect.suspend(() => Stream.mkString(Stream.decodeText(Stream.fromIterable(chunks))))),
      Effect.mapError(onError),
      Effect.map(
        (text): Body => (over ? { _tag: "TooLarge", head: text.slice(0, maxRawLength) } : { _tag: "Text", text })
      )
    )
  })
}

const standardIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** the path (dotted, `(body)` at the top) and the message of the first issue of a decoding failure @internal */
export const firstIssue = (error: Schema.SchemaError): { readonly path: string; readonly message: string } => {
  const issue = standardIssues(error.issue).issues[0]
  const path = (issue?.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment))
  return { path: path.length === 0 ? "(body)" : path.join("."), message: issue?.message ?? error.message }
}

const compiled = new WeakSet<SchemaAST.AST>()

/**
 * Turns on effect's Schema JIT compiler for the decoder of an answer a client reads on every call: the decoder is
 * compiled to JavaScript on first use, which reads a /pay/fields answer about 11 times as fast, a transaction 1.5
 * times, a payment 1.6 times (tooling/e2e/bench/decode.ts). Where dynamic code is forbidden (`new Function` throws,
 * as under a Content-Security-Policy without `unsafe-eval`) effect keeps the interpreter, with the same results.
 * Called by the clients' constructors, never at import: importing the package changes nothing.
 *
 * @internal
 */
export const jit = <S extends Schema.Top>(schema: S): S => {
  if (!compiled.has(schema.ast)) {
    compiled.add(schema.ast)
    SchemaJITCompiler.enable(schema.ast)
  }
  return schema
}

/**
 * Sends one request and decodes the answer. A 2xx body is decoded with `success` (a Schema, or a decoder made from
 * Schemas, such as a lenient read that tries the strict Schema first); any other status is a `Failure`
 * with the raw body (at most {@link maxRawLength} characters) and, when it matches, the body decoded with
 * `errorBody`. A body over `maxResponseBytes` (default 1 MiB) is a `ResponseTooLarge` failure, read no further; a
 * `Retry-After` over `maxRetryAfter` (default 60 s) makes the failure final. Never throws: a body that is not JSON or
 * does not match is a `Decode` failure with the path and the message of the first issue.
 *
 * @internal
 */
export const send = <A, I, EA, EI>(
  request: HttpClientRequest.HttpClientRequest,
  options: {
    readonly timeout: Duration.Input
    readonly success: Schema.Codec<A, I> | ((input: unknown) => Result.Result<A, Schema.SchemaError>)
    readonly errorBody: Schema.Codec<EA, EI>
    readonly maxResponseBytes?: number | undefined
    readonly maxRetryAfter?: Duration.Input | undefined
  }
): Effect.Effect<Answer<A>, Failure, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const limit = options.maxResponseBytes ?? defaultMaxResponseBytes
    const transport = (message: string, sent = true): Failure => ({
      reason: "Transport",
      status: undefined,
      raw: undefined,
      body: undefined,
      retryAfter: undefined,
      headers: {},
      message,
      // a request that never left (a URL that does not parse, a body that does not encode) was not processed
      ambiguous: sent,
      retryable: sent
    })
    const received = yield* HttpClient.withScope(client)
      .execute(request)
      .pipe(
        Effect.flatMap((response) =>
          Effect.map(
            readBody(response, limit, (e) => transport(`the response could not be read: ${String(e)}`)),
            (body) => ({ response, body })
          )
        ),
        Effect.scoped,
        Effect.timeoutOrElse({
          duration: options.timeout,
          orElse: () =>
            Effect.fail(transport(`no answer within ${Duration.format(Duration.fromInputUnsafe(options.timeout))}`))
        }),
        Effect.mapError(
          (e): Failure =>
            HttpClientError.isHttpClientError(e)
              ? transport(
                  `the request failed: ${e.message}`,
                  e.reason._tag !== "InvalidUrlError" && e.reason._tag !== "EncodeError"
                )
              : e
        )
      )
    const { response, body: read } = received
    const headers = response.headers as Readonly<Record<string, string>>
    const replayed = headers[replayedHeader]?.trim().toLowerCase() === "true"
    // the server processed the request: a success, or a server error that may come after processing
    const processed = (response.status >= 200 && response.status < 300) || ambiguousStatus(response.status)
    if (read._tag === "TooLarge") {
      return yield* Effect.fail<Failure>({
        reason: "ResponseTooLarge",
        status: response.status,
        raw: read.head === "" ? undefined : read.head,
        body: undefined,
        retryAfter: undefined,
        headers,
        message: `${response.status}: the response body is larger than ${limit} bytes${
          headers["content-length"] === undefined ? "" : ` (Content-Length ${headers["content-length"]})`
        }; it was not read`,
        ambiguous: processed,
        replayed,
        retryable: false
      })
    }
    const text = read.text
    let json: unknown
    let parsed = true
    try {
      json = text === "" ? undefined : JSON.parse(text)
    } catch {
      parsed = false
    }
    if (response.status >= 200 && response.status < 300) {
      const undecodable = (message: string): Failure => ({
        reason: "Decode",
        status: response.status,
        raw: clip(text),
        body: undefined,
        retryAfter: undefined,
        headers,
        message,
        // the server processed the request (a 2xx): what it did is in the answer the client cannot read
        ambiguous: true,
        replayed
      })
      if (!parsed) return yield* Effect.fail(undecodable("the response body is not JSON"))
      // the first issue is what the failure reports: decoding stops there (and takes the compiled decoder, see `jit`)
      const decoded = Schema.isSchema(options.success)
        ? Schema.decodeUnknownResult(options.success)(json)
        : options.success(json)
      if (Result.isFailure(decoded)) {
        const issue = firstIssue(decoded.failure)
        return yield* Effect.fail(
          undecodable(`the response does not match the schema at ${issue.path}: ${issue.message}`)
        )
      }
      return { value: decoded.success, status: response.status, headers, replayed }
    }
    const now = yield* Clock.currentTimeMillis
    const body = parsed ? Option.getOrUndefined(Schema.decodeUnknownOption(options.errorBody)(json)) : undefined
    const detail = detailOf(
      response.status,
      typeof body === "object" && body !== null && "message" in body && typeof body.message === "string"
        ? body.message
        : typeof body === "object" && body !== null && "Message" in body && typeof body.Message === "string"
          ? body.Message
          : text.slice(0, 200)
    )
    const retryAfter = retryAfterOf(headers["retry-after"], now)
    const cap = Duration.fromInputUnsafe(options.maxRetryAfter ?? defaultMaxRetryAfter)
    const tooLong = retryAfter !== undefined && Duration.isGreaterThan(retryAfter, cap)
    return yield* Effect.fail<Failure>({
      reason: reasonOfStatus(response.status),
      status: response.status,
      raw: clip(text),
      body,
      retryAfter,
      headers,
      message: tooLong
        ? `${response.status}: ${detail}; the server asks to wait ${Duration.format(retryAfter)}, longer than this client waits (maxRetryAfter ${Duration.format(cap)})`
        : `${response.status}: ${detail}`,
      ambiguous: !replayed && ambiguousStatus(response.status),
      replayed,
      ...(tooLong ? { retryable: false } : {})
    })
  })
