/**
 * `payrules simulate`: the schedule of one plan, as a table and timeline, JSON events or an SVG timeline.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as FileSystem from "@effect/platform/FileSystem"
import { Calendar, IsoDuration, OffsetDateTime } from "@payrules/iso8601"
import { PlanCheck, Schedule, SubscriptionPlan } from "@payrules/subscriptions"
import { MerchantClient } from "@payrules/transport"
import * as Clock from "effect/Clock"
import * as Console from "effect/Console"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { Apis, baseUrlOption } from "../Apis.js"
import { DemoError, describeParseError } from "../DemoError.js"
import * as Render from "../render/Schedule.js"

const decodePlan = Schema.decodeUnknownEither(SubscriptionPlan.SubscriptionPlan, { errors: "all" })

/** A plan from a JSON file (a plan object), or by id from the API (the embedded sandbox without --base-url). */
export const loadPlan = (ref: string, baseUrl: Option.Option<string>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const looksLikeFile =
      ref.endsWith(".json") || ref.includes("/") || (yield* fs.exists(ref).pipe(Effect.orElseSucceed(() => false)))
    if (looksLikeFile) {
      const text = yield* fs.readFileString(ref).pipe(
        Effect.mapError(
          (e) =>
            new DemoError({
              where: ref,
              reason: e._tag === "SystemError" && e.reason === "NotFound" ? "no such file" : e.message
            })
        )
      )
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch (e) {
        return yield* new DemoError({ where: ref, reason: `not JSON (${(e as Error).message})` })
      }
      return yield* Either.match(decodePlan(json), {
        onLeft: (e) => new DemoError({ where: ref, reason: describeParseError(e) }),
        onRight: Effect.succeed
      })
    }
    const plans = yield* Effect.provide(
      Effect.flatMap(MerchantClient.MerchantClient, (client) =>
        client.listSubscriptionPlans({ limit: 500 }).pipe(
          Stream.filter((p) => p.id === ref),
          Stream.runHead
        )
      ),
      Apis.merchant(baseUrl)
    ).pipe(
      Effect.mapError((e) => (e instanceof DemoError ? e : new DemoError({ where: "merchant API", reason: e.message })))
    )
    return yield* Option.match(plans, {
      onNone: () => Effect.fail(new DemoError({ where: "--plan", reason: `no plan with id ${ref}` })),
      onSome: Effect.succeed
    })
  })

const parseInstant = (what: string, s: string) =>
  Either.match(OffsetDateTime.parse(s), {
    onLeft: (e) => Effect.fail(new DemoError({ where: what, reason: e.message })),
    onRight: Effect.succeed
  })

const options = {
  plan: Options.text("plan").pipe(
    Options.withDescription("a plan JSON file, or the id of a plan to fetch from the API")
  ),
  variation: Options.text("variation").pipe(
    Options.optional,
    Options.withDescription("the variation id (default: the first)")
  ),
  start: Options.text("start").pipe(
    Options.optional,
    Options.withDescription("when the subscription starts, ISO 8601 with offset (default: now)")
  ),
  zone: Options.text("zone").pipe(
    Options.optional,
    Options.withDescription("IANA zone of the wall clock, e.g. Europe/London (default: UTC)")
  ),
  months: Options.integer("months").pipe(
    Options.optional,
    Options.withDescription("simulate this many months (default 24)")
  ),
  until: Options.text("until").pipe(Options.optional, Options.withDescription("simulate until this instant, ISO 8601")),
  trial: Options.text("trial").pipe(Options.optional, Options.withDescription("override the plan's trial, e.g. P14D")),
  noTrial: Options.boolean("no-trial").pipe(Options.withDescription("simulate without a trial")),
  anchor: Options.choice("anchor", ["phase-start", "subscription-start"]).pipe(
    Options.withDefault("phase-start" as const)
  ),
  format: Options.choice("format", ["table", "json", "svg"]).pipe(Options.withDefault("table" as const)),
  out: Options.text("out").pipe(
    Options.optional,
    Options.withDescription("write to this file instead of the terminal")
  ),
  baseUrl: baseUrlOption
}

type Parsed = Command.Command.ParseConfig<typeof options>

/** The events and a title, from parsed options. */
export const run = (o: Parsed) =>
  Effect.gen(function* () {
    const plan = yield* loadPlan(o.plan, o.baseUrl)
    const findings = PlanCheck.errors(PlanCheck.check(plan))
    if (findings.length > 0) {
      const f = findings[0]!
      return yield* new DemoError({ where: `${o.plan}: ${f.path.join(".")}`, reason: f.message })
    }
    const zone = Option.getOrElse(o.zone, () => "UTC")
    const startInstant = yield* Option.match(o.start, {
      onNone: () => Effect.map(Clock.currentTimeMillis, (ms) => DateTime.unsafeMake(ms)),
      onSome: (s) => parseInstant("--start", s)
    })
    const start = yield* Effect.try({
      try: () => DateTime.unsafeMakeZoned(startInstant, { timeZone: zone }),
      catch: () => new DemoError({ where: "--zone", reason: `${zone} is not an IANA time zone` })
    })
    let trial: IsoDuration.IsoDuration | "none" | undefined
    if (o.noTrial) trial = "none"
    else if (Option.isSome(o.trial)) {
      trial = yield* Either.match(Schema.decodeUnknownEither(IsoDuration.DaysOnlyFromString)(o.trial.value), {
        onLeft: (e) => Effect.fail(new DemoError({ where: "--trial", reason: describeParseError(e) })),
        onRight: Effect.succeed
      })
    }
    if (Option.isSome(o.months) && Option.isSome(o.until)) {
      return yield* new DemoError({ where: "--months/--until", reason: "give one of them, not both" })
    }
    if (Option.isSome(o.months) && o.months.value < 1) {
      return yield* new DemoError({ where: "--months", reason: "at least 1" })
    }
    const until = yield* Option.match(o.until, {
      onNone: () =>
        Either.match(Calendar.addTo(start, IsoDuration.unsafeMake({ months: Option.getOrElse(o.months, () => 24) })), {
          onLeft: (e) => Effect.fail(new DemoError({ where: "--months", reason: e.message })),
          onRight: Effect.succeed
        }),
      onSome: (s) => parseInstant("--until", s)
    })
    const events = yield* Either.match(
      Schedule.simulatePlan(plan, {
        start,
        trial,
        until,
        anchor: o.anchor,
        ...(Option.isSome(o.variation) ? { variation: o.variation.value } : {})
      }),
      {
        onLeft: (e) => Effect.fail(new DemoError({ where: o.plan, reason: e.message })),
        onRight: (it) => Effect.succeed(Array.from(it))
      }
    )
    return { plan, events, zone }
  })

const output = (o: Parsed, text: string) =>
  Option.match(o.out, {
    onNone: () => Console.log(text),
    onSome: (file) =>
      Effect.flatMap(FileSystem.FileSystem, (fs) =>
        fs.writeFileString(file, text.endsWith("\n") ? text : `${text}\n`).pipe(
          Effect.mapError((e) => new DemoError({ where: file, reason: e.message })),
          Effect.zipRight(Console.log(`wrote ${file}`))
        )
      )
  })

export const command = Command.make("simulate", options, (o) =>
  Effect.gen(function* () {
    const { events, plan, zone } = yield* run(o)
    const title = `${plan.name} (${plan.id}), ${zone}`
    switch (o.format) {
      case "json":
        return yield* output(o, JSON.stringify({ plan: plan.id, zone, events: Render.toJson(events) }, null, 2))
      case "svg":
        return yield* output(o, Render.svg(events, title))
      case "table":
        return yield* output(
          o,
          [`${title}`, "", Render.table(events), "", Render.timeline(events), "", Render.totalsLine(events)].join("\n")
        )
    }
  })
).pipe(
  Command.withDescription(
    "Simulate the billing schedule of one plan: when each cycle is billed, in which phase, for how much"
  )
)
