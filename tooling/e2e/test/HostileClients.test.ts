/**
 * Hostile clients against a real sandbox over a socket (issue 15): headers or a body that never finish or trickle in
 * a byte at a time, idle kept-alive connections, more connections than the cap, pipelined requests. The sandbox runs
 * with limits of a few hundred milliseconds (configured, as a deployment would set seconds), so every case ends as
 * soon as the server enforces its limit; no case waits on a clock of its own.
 */
import * as net from "node:net"
import { expect, layer } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Context, Effect, Fiber, Layer } from "effect"
import { type Answer, type Env, head, leaks, limits, open, sandboxEnv, send } from "./hostile.js"

class Suite extends Context.Service<Suite, Env>()("HostileClients/Suite") {}

const suite = Layer.effect(Suite, sandboxEnv).pipe(Layer.provide(Sandbox.layer({ seed: 3, plans: 15, limits })))

/** writes `text` one byte per `everyMs` until the connection closes */
const trickle =
  (text: string, everyMs = 20) =>
  (socket: net.Socket) => {
    let i = 0
    const timer = setInterval(() => {
      if (i >= text.length || socket.destroyed) return clearInterval(timer)
      socket.write(text[i++]!)
    }, everyMs)
    socket.on("close", () => clearInterval(timer))
  }

const normal = (env: Env) =>
  send(env.port, [
    head("GET /business/exchange-reasons HTTP/1.1", [
      ["Host", "sandbox"],
      ["Authorization", env.auth]
    ])
  ])

const postHead = (env: Env, length: number) =>
  `POST /business/exchange HTTP/1.1\r\nHost: sandbox\r\nAuthorization: ${env.auth}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`

const refused = (answer: Answer, status: number) => {
  expect(answer.status).toBe(status)
  expect(answer.closed).toBe(true)
  expect(leaks(answer.body)).toBe(false)
  expect(answer.body.length).toBeLessThan(1024)
}

layer(suite, { excludeTestServices: true })("hostile clients over a socket", (it) => {
  it.effect("headers that stop half way: 408, connection closed", () =>
    Effect.gen(function* () {
      const env = yield* Suite
      refused(yield* send(env.port, ["GET /business/exchange-reasons HTTP/1.1\r\nHost: sand"]), 408)
      expect((yield* normal(env)).status).toBe(200)
    })
  )

  it.effect("a connection that sends nothing: closed after the headers timeout", () =>
    Effect.gen(function* () {
      const env = yield* Suite
      const answer = yield* send(env.port, [])
      expect(answer.closed).toBe(true)
      expect(answer.status === undefined || answer.status === 408).toBe(true)
      expect((yield* normal(env)).status).toBe(200)
    })
  )

  it.effect("headers trickled a byte at a time (slowloris): 408", () =>
    Effect.gen(function* () {
      const env = yield* Suite
      const text = `GET /business/exchange-reasons HTTP/1.1\r\nHost: sandbox\r\n${"X-Slow: 1\r\n".repeat(100)}\r\n`
      refused(yield* send(env.port, [trickle(text)]), 408)
      expect((yield* normal(env)).status).toBe(200)
    })
  )

  it.effect("a body that stops half way: 408", () =>
    Effect.gen(function* () {
      const env = yield* Suite
      refused(yield* send(env.port, [postHead(env, 100), '{"from":']), 408)
      expect((yield* normal(env)).status).toBe(200)
    })
  )

  it.effect("a body trickled a byte at a time: 408, not held for minutes", () =>
    Effect.gen(function* () {
      const env = yield* Suite
      const body = JSON.stringify({ request_id: "x".repeat(400) })
      refused(yield* send(env.port, [postHead(env, body.length), trickle(body)]), 408)
      expect((yield* normal(env)).status).toBe(200)
    })
  )

  it.effect("a chunked body that never ends: 408", () =>
    Effect.gen(function* () {
      const env = yield* Suite
      const answer = yield* send(env.port, [
        `POST /business/exchange HTTP/1.1\r\nHost: sandbox\r\nAuthorization: ${env.auth}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        "5\r\n[1,2,\r\n"
      ])
      refused(answer, 408)
      expect((yield* normal(env)).status).toBe(200)
    })
  )

  it.effect("an idle kept-alive connection is closed after the keep-alive timeout", () =>
    Effect.gen(function* () {
      const env = yield* Suite
      // one request kept alive, then silence: the server ends the connection itself
      const read = yield* Effect.callback<string>((resume) => {
        const socket = net.connect(env.port, "127.0.0.1")
        let text = ""
        socket.on("data", (d) => {
          text += d.toString("latin1")
        })
        socket.on("error", () => {})
        socket.on("close", () => resume(Effect.succeed(text)))
        socket.on("connect", () =>
          socket.write(
            head("GET /business/exchange-reasons HTTP/1.1", [
              ["Host", "sandbox"],
              ["Authorization", env.auth],
              ["Connection", "keep-alive"]
            ])
          )
        )
        return Effect.sync(() => socket.destroy())
      })
      expect(read.match(/HTTP\/1\.1 /g)).toEqual(["HTTP/1.1 "])
      expect(read.startsWith("HTTP/1.1 200")).toBe(true)
    })
  )

  it.effect("pipelined requests, the last of them hostile: the first is answered and the server stays up", () =>
    Effect.gen(function* () {
      const env = yield* Suite
      const one = head("GET /business/exchange-reasons HTTP/1.1", [
        ["Host", "sandbox"],
        ["Authorization", env.auth],
        ["Connection", "keep-alive"]
      ])
      const answer = yield* send(env.port, [`${one}${one}GET /business/../x HTTP/1.1\r\nHost: s\r\n\r\n`])
      expect(answer.status).toBe(200)
      expect((yield* normal(env)).status).toBe(200)
    })
  )

  it.effect(
    "more connections than the cap: the extra one is closed unanswered, the others time out, then all is well",
    () =>
      Effect.gen(function* () {
        const env = yield* Suite
        const cap = limits!.maxConnections!
        // `cap` connections, established (and so accepted first) before the extra one, each with half a head: they hold
        // every slot until the headers timeout
        const holders = yield* Effect.forEach(Array.from({ length: cap }), () => open(env.port), {
          concurrency: "unbounded"
        })
        const fiber = yield* Effect.forkChild(
          Effect.forEach(holders, (sendOn) => sendOn(["GET /business/exchange-reasons HTTP/1.1\r\nHost: s"]), {
            concurrency: "unbounded"
          })
        )
        const extra = yield* send(env.port, [
          head("GET /business/exchange-reasons HTTP/1.1", [
            ["Host", "sandbox"],
            ["Authorization", env.auth]
          ])
        ])
        expect(extra.status).toBeUndefined()
        expect(extra.closed).toBe(true)
        const held = yield* Fiber.join(fiber)
        for (const answer of held) expect(answer.status).toBe(408)
        expect((yield* normal(env)).status).toBe(200)
      })
  )
})
