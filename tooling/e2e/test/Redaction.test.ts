import { inspect } from "node:util"
import { expect, layer } from "@effect/vitest"
import { RequestLedger } from "@payrules/exchange"
import { Sandbox } from "@payrules/sandbox"
import { BusinessClient, MerchantClient, OpenBankingClient } from "@payrules/transport"
import { BigDecimal, Cause, Duration, Effect, Exit, Layer, Logger, Redacted, Stream, Tracer } from "effect"
import { constTrue } from "effect/Function"
import { FetchHttpClient, HttpClient } from "effect/http"

const show = (u: unknown) => inspect(u, { depth: 12 })

import { control, fastRetry, type Seed, tenantToken, withSandbox } from "./layers.js"

/** everything the run produced that could carry text: log lines, span names, attributes and events */
const capture = () => {
  const texts: Array<string> = []
  const spans: Array<Tracer.Span> = []
  // what the default loggers print: text and structured JSON
  const logger = Logger.make((options) => {
    texts.push(Logger.formatSimple.log(options), JSON.stringify(Logger.formatStructured.log(options)))
  })
  const tracer = (native: Tracer.Tracer) =>
    Tracer.make({
      span: (options) => {
        const span = native.span(options)
        spans.push(span)
        return span
      },
      ...(native.context === undefined ? {} : { context: native.context })
    })
  const dump = () => [
    ...texts,
    ...spans.flatMap((s) => [
      s.name,
      show(Object.fromEntries(s.attributes)),
      // what an exporter sends of the end of a span: the status and, for a failure, the pretty cause
      s.status._tag === "Ended" && Exit.isFailure(s.status.exit) ? Cause.pretty(s.status.exit.cause) : s.status._tag,
      ...("events" in s ? [show((s as unknown as { events: unknown }).events)] : [])
    ])
  ]
  return { logger, tracer, dump, spans }
}

layer(withSandbox({ seed: 51, plans: 30 }), { excludeTestServices: true })("the access token", (it) => {
  it.effect("never appears in logs, spans or error messages", () =>
    Effect.gen(function* () {
      const s = yield* Sandbox.SandboxServer
      const token = tenantToken(s)
      const secret = Redacted.value(token)
      const { dump, logger, spans, tracer } = capture()
      const native = yield* Effect.tracer
      const seed = yield* control<Seed & { readonly payments: ReadonlyArray<{ readonly id: string }> }>("/seed")
      const run = Effect.gen(function* () {
        const business = yield* BusinessClient.BusinessClient
        const merchant = yield* MerchantClient.MerchantClient
        const openBanking = yield* OpenBankingClient.OpenBankingClient
        const customer = { ipAddress: "203.0.113.77", userAgent: "SecretAgent/7.1 (customer)" }
        const results: ReadonlyArray<Exit.Exit<unknown, unknown>> = [
          yield* Effect.exit(
            business.exchange({
              _tag: "Sell",
              from: { account_id: seed.accounts[0]!.id, currency: "GBP" as never },
              to: { account_id: seed.accounts[1]!.id, currency: "EUR" as never },
              amount: BigDecimal.fromStringUnsafe("1")
            })
          ),
          yield* Effect.exit(
            business.exchange({
              _tag: "Sell",
              from: { account_id: seed.accounts[0]!.id, currency: "GBP" as never },
              to: { account_id: seed.accounts[1]!.id, currency: "EUR" as never },
              amount: BigDecimal.fromStringUnsafe("999999")
            })
          ),
          yield* Effect.exit(merchant.listSubscriptionPlans({ limit: 10 }).pipe(Stream.runDrain)),
          yield* Effect.exit(merchant.listSubscriptionPlansPage({ page_token: "forged" })),
          yield* Effect.exit(openBanking.getInternationalPayment(seed.payments[0]!.id, { customer })),
          yield* Effect.exit(openBanking.getInternationalPayment("ip_unknown", { customer }))
        ]
        for (const exit of results) {
          yield* Effect.logError("call finished", exit)
          if (Exit.isFailure(exit)) yield* Effect.logWarning(Cause.squash(exit.cause))
        }
        return results
      })
      const unreachable = BusinessClient.layer({
        ...BusinessClient.defaults,
        baseUrl: "http://127.0.0.1:9",
        token,
        timeout: Duration.millis(500),
        retry: fastRetry
      }).pipe(Layer.provide([FetchHttpClient.layer, RequestLedger.layer]))
      // every header on the client spans: effect 3 recorded them all, effect 4 records none unless asked to; with all
      // of them there, the Authorization header must be there redacted
      const observed = <A, E, R>(self: Effect.Effect<A, E, R>) =>
        self.pipe(
          Effect.withTracer(tracer(native)),
          Effect.provideService(HttpClient.TracerHeaderFilter, constTrue),
          Effect.provide(Logger.layer([logger]))
        )
      const failures = yield* Effect.gen(function* () {
        const offline = yield* BusinessClient.BusinessClient
        const exit: Exit.Exit<unknown, unknown> = yield* Effect.exit(offline.exchangeReasons)
        yield* Effect.logError("offline", exit)
        return exit
      }).pipe(Effect.provide(unreachable), observed)
      const results = yield* observed(run)
      const errors = [...results, failures].flatMap((exit) => (Exit.isFailure(exit) ? [Cause.squash(exit.cause)] : []))
      expect(errors.length).toBeGreaterThanOrEqual(3)
      const everything = [
        ...dump(),
        ...errors.flatMap((e) => [
          String(e),
          JSON.stringify(e, (_, v) => (typeof v === "bigint" ? String(v) : v)),
          show(e),
          (e as Error).message
        ])
      ]
      expect(spans.length).toBeGreaterThan(3)
      for (const customerSecret of ["203.0.113.77", "SecretAgent/7.1"]) {
        expect(everything.join("\n")).not.toContain(customerSecret)
      }
      const leaks = everything
        .join("\n")
        .split("\n")
        .flatMap((line, i, all) => (line.includes(secret) ? [all.slice(Math.max(0, i - 12), i + 1).join("\n")] : []))
      expect(leaks).toEqual([])
      // the header itself is there, redacted
      expect(everything.join("\n")).toContain("<redacted>")
      expect(s.url).toBeDefined()
    })
  )
})
