/**
 * Raw HTTP/1.1 over node:net for the hostile-input suites: requests exactly as written (smuggling, bad encodings,
 * slow clients, header floods), and what came back, read without trusting it.
 */
import * as net from "node:net"
import { Sandbox } from "@payrules/sandbox"
import { Effect } from "effect"
import { type SeedSummary, tokenOf } from "./openApi.js"

/** The one place the suites get their credentials: the first seeded tenant's Bearer token. */
export const credentialsOf = (seed: SeedSummary): string => `Bearer ${tokenOf(seed)}`

/** What a suite knows of the sandbox it attacks: its port, its seed and the Authorization of a normal request. */
export interface Env {
  readonly port: number
  readonly seed: SeedSummary
  readonly auth: string
}

/** The sandbox of a suite, over a socket, with the limits below; its seed read over a raw connection. */
export const sandboxEnv: Effect.Effect<Env, never, Sandbox.SandboxServer> = Effect.gen(function* () {
  const server = yield* Sandbox.SandboxServer
  const answer = yield* send(server.port, [head("GET /__sandbox/seed HTTP/1.1", [["Host", "sandbox"]])])
  const seed = JSON.parse(answer.body) as SeedSummary
  return { port: server.port, seed, auth: credentialsOf(seed) }
})

/** The default body limits; limits of time small enough that slow-client cases end in milliseconds. */
export const limits: Sandbox.Options["limits"] = {
  maxHeaderBytes: 8 * 1024,
  headersTimeoutMs: 300,
  requestTimeoutMs: 400,
  keepAliveTimeoutMs: 300,
  maxConnections: 24
}

/** What came back on a connection. */
export interface Answer {
  /** undefined when the connection closed without an answer */
  readonly status: number | undefined
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** the server closed the connection */
  readonly closed: boolean
}

const parse = (raw: Buffer, closed: boolean): Answer | undefined => {
  const end = raw.indexOf("\r\n\r\n")
  if (end === -1) return closed ? { status: undefined, headers: {}, body: raw.toString("latin1"), closed } : undefined
  const head = raw.subarray(0, end).toString("latin1").split("\r\n")
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? "")?.[1])
  const headers: Record<string, string> = {}
  for (const line of head.slice(1)) {
    const colon = line.indexOf(":")
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = headers["content-length"]
  const body = raw.subarray(end + 4)
  if (length !== undefined && body.length >= Number(length)) {
    return { status, headers, body: body.subarray(0, Number(length)).toString("utf8"), closed }
  }
  return closed ? { status, headers, body: body.toString("utf8"), closed } : undefined
}

/**
 * Sends the parts in order (a function part is called with the socket, to write slowly) and resolves with the first
 * answer, once complete (by its Content-Length) or once the server closes the connection.
 */
export const send = (
  port: number,
  parts: ReadonlyArray<string | Buffer | ((socket: net.Socket) => void)>
): Effect.Effect<Answer> =>
  Effect.callback<Answer>((resume) => {
    const socket = net.connect(port, "127.0.0.1")
    const chunks: Array<Buffer> = []
    let done = false
    const finish = (answer: Answer) => {
      if (done) return
      done = true
      socket.destroy()
      resume(Effect.succeed(answer))
    }
    socket.on("data", (d) => {
      chunks.push(d)
      const answer = parse(Buffer.concat(chunks), false)
      if (answer !== undefined) finish(answer)
    })
    socket.on("close", () => finish(parse(Buffer.concat(chunks), true)!))
    // a server that closes while the client still writes resets the connection: what was read still counts
    socket.on("error", () => {})
    socket.on("connect", () => {
      for (const part of parts) {
        if (typeof part === "function") part(socket)
        else socket.write(part)
      }
    })
    return Effect.sync(() => socket.destroy())
  })

/**
 * Opens a connection and resolves once it is established, with an effect that sends the parts and reads the answer
 * as {@link send} does.
 */
export const open = (port: number): Effect.Effect<(parts: ReadonlyArray<string | Buffer>) => Effect.Effect<Answer>> =>
  Effect.callback<(parts: ReadonlyArray<string | Buffer>) => Effect.Effect<Answer>>((resume) => {
    const socket = net.connect(port, "127.0.0.1")
    const chunks: Array<Buffer> = []
    let closed = false
    const waiting: Array<() => void> = []
    socket.on("data", (d) => {
      chunks.push(d)
      for (const w of waiting.splice(0)) w()
    })
    socket.on("close", () => {
      closed = true
      for (const w of waiting.splice(0)) w()
    })
    socket.on("error", () => {})
    socket.on("connect", () =>
      resume(
        Effect.succeed((parts) =>
          Effect.callback<Answer>((done) => {
            const check = () => {
              const answer = parse(Buffer.concat(chunks), closed)
              if (answer === undefined) waiting.push(check)
              else {
                socket.destroy()
                done(Effect.succeed(answer))
              }
            }
            if (!closed) for (const part of parts) socket.write(part)
            check()
            return Effect.sync(() => socket.destroy())
          })
        )
      )
    )
    return Effect.sync(() => socket.destroy())
  })

/** A request head with CRLF line ends; `Connection: close` unless the headers say otherwise. */
export const head = (requestLine: string, headers: ReadonlyArray<readonly [string, string]>): string => {
  const all = headers.some(([n]) => n.toLowerCase() === "connection") ? headers : [...headers, ["Connection", "close"]]
  return `${requestLine}\r\n${all.map(([n, v]) => `${n}: ${v}`).join("\r\n")}\r\n\r\n`
}

/** A request with a body of known length. */
export const withBody = (
  requestLine: string,
  headers: ReadonlyArray<readonly [string, string]>,
  body: string | Buffer
): Array<string | Buffer> => {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body
  return [head(requestLine, [...headers, ["Content-Length", String(bytes.length)]]), bytes]
}

/** Whether a body reads like a leak of the server's insides: a stack frame, a source path, a Node internal. */
export const leaks = (body: string): boolean =>
  /\n\s+at |\bat [\w.<>]+ \(|\.ts:\d+|\.js:\d+|node:internal|\/work\/|node_modules|RangeError|TypeError/.test(body)

/** A sandbox on an ephemeral port with the suite's limits, for the scope. */
export const sandbox = Sandbox.make({ seed: 3, plans: 15, limits })
