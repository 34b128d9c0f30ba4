/**
 * `payrules simulate`: the schedule of one plan, as a table and timeline, JSON events or an SVG timeline.
 *
 * @since 0.1.0
 */
import { Calendar, IsoDuration, OffsetDateTime } from "@payrules/iso8601"
import { PlanCheck, type Schedule, ScheduleSvg, SubscriptionPlan } from "@payrules/subscriptions"
import { MerchantClient } from "@payrules/transport"
import * as Clock from "effect/Clock"
import * as Console from "effect/Console"
import * as Command from "effect/cli/Command"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { Apis, apiFailure, baseUrlOption } from "../Apis.js"
import * as Checks from "../Checks.js"
import { CliError, describeSchemaError } from "../CliError.js"
import * as Files from "../Files.js"
import * as Flags from "../Flags.js"
import * as Render from "../render/Schedule.js"
import * as Text from "../Text.js"

const decodePlan = Schema.decodeUnknownResult(SubscriptionPlan.SubscriptionPlan, { errors: "all" })

const fail = (where: string, reason: string) => Effect.fail(new CliError({ where, reason }))

/**
 * A plan from a JSON file (a plan object), or by id from the API (the embedded sandbox without a base URL).
 *
 * @since 0.1.0
 * @category plans
 */
export const loadPlan = (ref: string, baseUrl: Option.Option<string>) =>
  Effect.gen(function* () {
    const looksLikeFile = ref.endsWith(".json") || ref.includes("/") || ref.includes("\\") || (yield* Files.exists(ref))
    if (looksLikeFile) {
      const json = yield* Files.readJson("--plan", ref)
      return yield* Result.match(decodePlan(json), {
        onFailure: (e) => fail(`--plan ${ref}`, describeSchemaError(e)),
        onSuccess: Effect.succeed
      })
    }
    const found = yield* Effect.flatMap(MerchantClient.MerchantClient, (client) =>
      client.listSubscriptionPlans({ limit: 100 }).pipe(
        Stream.filter((p) => p.id === ref),
        Stream.runHead
      )
    ).pipe(Effect.mapError(apiFailure(baseUrl)), Effect.provide(Apis.merchant(baseUrl)))
    return yield* Option.match(found, {
      onNone: () => fail(`--plan ${ref}`, "no such file, and no plan with this id (`payrules plans` lists the plans)"),
      onSome: Effect.succeed
    })
  })

/**
 * The most cycles `simulate` lists, in its table or its JSON: 100,000, an hourly plan for 11 years or a plan billed
 * every minute for 69 days (the playground lists 8,760, an hourly plan for a year). The JSON of 100,000 cycles is
 * about 30 MB; without a cap a plan billed every second over 3 months (7.9 million cycles) ran out of memory. The SVG
 * sums the amounts it has no room for, and has no cap.
 *
 * @since 0.2.0
 * @category simulation
 */
export const maxListedCycles = 100_000

const count = (n: number) => n.toLocaleString("en-US")

/**
 * The events a table or JSON lists, or, past `max` billed cycles, a failure naming the option that set the horizon,
 * with the number of cycles the plan bills up to it (`totals` counts them without walking them).
 *
 * @since 0.2.0
 * @category simulation
 */
export const listedEvents = (
  s: Pick<Settings, "horizon" | "until" | "format">,
  placed: { readonly timeline: Schedule.Timeline; readonly totals: Schedule.Totals },
  max: number = maxListedCycles
): Effect.Effect<ReadonlyArray<Schedule.Event>, CliError> => {
  const tooMany = (cycles: string) =>
    fail(
      s.horizon,
      `the plan bills ${cycles} cycles up to the horizon, and ${s.format === "json" ? "the JSON" : "the table"} lists at most ${count(max)}: give a nearer horizon (fewer --months, or an earlier --until), or --format svg`
    )
  if (placed.totals.cycles > max) return tooMany(count(placed.totals.cycles))
  return Option.match(Render.eventsUpTo(placed.timeline, s.until, max), {
    onNone: () => tooMany(`more than ${count(max)}`),
    onSome: Effect.succeed
  })
}

const anchors = ["phase-start", "subscription-start"] as const
const formats = ["table", "json", "svg"] as const

const options = {
  plan: Flags.required(
    "plan",
    "file|id",
    "a plan JSON file, or the id of a plan of the API (`payrules plans` lists them)"
  ),
  variation: Flags.optional("variation", "id", "the variation id (default: the first)"),
  start: Flags.optional("start", "date-time", "when the subscription starts, ISO 8601 with offset (default: now)"),
  zone: Flags.optional("zone", "zone", "IANA zone of the wall clock, e.g. Europe/London (default: UTC)"),
  months: Flags.optional("months", "n", "simulate this many months, 1 to 1200 (default 24)"),
  until: Flags.optional("until", "date-time", "simulate until this instant, ISO 8601 with offset, after the start"),
  trial: Flags.optional("trial", "days", "override the plan's trial, in days, e.g. P14D"),
  noTrial: Flags.toggle("no-trial", "simulate without a trial"),
  anchor: Flags.withDefault(
    "anchor",
    anchors.join("|"),
    "phase-start",
    "bill each phase from its own start (default), or on the subscription's day of the month"
  ),
  format: Flags.withDefault(
    "format",
    formats.join("|"),
    "table",
    "a table and a timeline (default), JSON events, or an SVG picture"
  ),
  out: Flags.optional("out", "file", "write to this file instead of the terminal"),
  baseUrl: baseUrlOption
}

type Parsed = Command.Command.Config.Infer<typeof options>

/**
 * What a simulation needs, every option checked and every contradiction refused.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  readonly plan: string
  readonly variation: Option.Option<string>
  readonly zone: string
  readonly start: DateTime.Zoned
  readonly until: DateTime.DateTime
  /** the option that set the end: `--until`, or `--months` (given or by default) */
  readonly horizon: "--until" | "--months"
  readonly trial: IsoDuration.IsoDuration | "none" | undefined
  readonly anchor: Schedule.Anchor
  readonly format: "table" | "json" | "svg"
  readonly out: Option.Option<string>
  readonly baseUrl: Option.Option<string>
}

const parseInstant = (option: string, s: string) =>
  Result.match(OffsetDateTime.parse(s), {
    onFailure: (e) => fail(option, e.message),
    onSuccess: Effect.succeed
  })

/**
 * Checks the options before anything runs: contradictions (`--trial` with `--no-trial`, `--months` with `--until`),
 * impossible values (`--until` not after `--start`, an unknown zone, a trial that is not whole days or ends beyond the
 * range of instants), the base URL, and the directory of `--out`.
 *
 * @since 0.1.0
 * @category checks
 */
export const settings = (o: Parsed) =>
  Effect.gen(function* () {
    const baseUrl = yield* Effect.fromResult(Checks.optionalBaseUrl(o.baseUrl))
    const format = yield* Effect.fromResult(Checks.choice("--format", o.format, formats))
    const anchor = yield* Effect.fromResult(Checks.choice("--anchor", o.anchor, anchors))
    if (o.noTrial && Option.isSome(o.trial)) {
      return yield* fail("--trial and --no-trial", "give one of them: --trial sets the trial, --no-trial removes it")
    }
    if (Option.isSome(o.months) && Option.isSome(o.until)) {
      return yield* fail("--months and --until", "give one of them: both say where the simulation ends")
    }
    let trial: IsoDuration.IsoDuration | "none" | undefined
    if (o.noTrial) trial = "none"
    else if (Option.isSome(o.trial)) {
      trial = yield* Result.match(Schema.decodeUnknownResult(IsoDuration.DaysOnlyFromString)(o.trial.value), {
        onFailure: (e) => fail("--trial", describeSchemaError(e)),
        onSuccess: Effect.succeed
      })
    }
    const months = yield* Option.match(o.months, {
      onNone: () => Effect.succeed(24),
      onSome: (s) => Effect.fromResult(Checks.wholeNumber("--months", s, { min: 1, max: 1200 }))
    })
    const zone = Option.getOrElse(o.zone, () => "UTC")
    if (Option.isNone(DateTime.zoneMakeNamed(zone))) {
      return yield* fail("--zone", `${zone} is not an IANA time zone (e.g. Europe/London, America/New_York, UTC)`)
    }
    const startInstant = yield* Option.match(o.start, {
      onNone: () => Effect.map(Clock.currentTimeMillis, (ms) => DateTime.makeUnsafe(ms)),
      onSome: (s) => parseInstant("--start", s)
    })
    const start = DateTime.makeZonedUnsafe(startInstant, { timeZone: zone })
    const until = yield* Option.match(o.until, {
      onNone: () =>
        Result.match(Calendar.addTo(start, IsoDuration.makeUnsafe({ months })), {
          onFailure: (e) => fail("--months", e.message),
          onSuccess: Effect.succeed
        }),
      onSome: (s) => parseInstant("--until", s)
    })
    if (trial !== undefined && trial !== "none" && Result.isFailure(Calendar.addTo(start, trial))) {
      return yield* fail(
        "--trial",
        `${Option.getOrElse(o.trial, () => "")}: the trial would end beyond the range of instants (about 271,821 BCE to 275,760 CE)`
      )
    }
    if (!DateTime.isGreaterThan(until, start)) {
      const startText = Option.match(o.start, {
        onNone: () => `the start (now, ${DateTime.formatIso(start)})`,
        onSome: (s) => `--start ${s}`
      })
      return yield* fail(`--until ${Option.getOrElse(o.until, () => "")}`.trimEnd(), `must be after ${startText}`)
    }
    if (Option.isSome(o.out)) yield* Files.checkWritable("--out", o.out.value)
    return {
      plan: o.plan,
      variation: o.variation,
      zone,
      start,
      until,
      horizon: Option.isSome(o.until) ? "--until" : "--months",
      trial,
      anchor,
      format,
      out: o.out,
      baseUrl
    } satisfies Settings
  })

const scheduleWhere = (s: Settings, error: Schedule.ScheduleError): string => {
  switch (error.reason) {
    case "UnknownVariation":
      return Option.match(s.variation, { onNone: () => `--plan ${s.plan}`, onSome: (v) => `--variation ${v}` })
    case "InvalidTrial":
      return "--trial"
    case "InvalidHorizon":
      return s.horizon
    case "OutOfRange":
      // the trial or a finite phase ends beyond the range of instants (the horizon plays no part): a --trial that
      // does is refused by `settings`, so what is left is the plan's trial or phases
      return `--plan ${s.plan}`
    case "InvalidPlan":
    case "UnknownPlanState":
    case "UnreadablePhases":
      return `--plan ${s.plan}`
  }
}

/**
 * The plan placed in time (its timeline and totals) and the zone, from checked settings; `listedEvents` walks its
 * events.
 *
 * @since 0.1.0
 * @category simulation
 */
export const simulate = (s: Settings) =>
  Effect.gen(function* () {
    const plan = yield* loadPlan(s.plan, s.baseUrl)
    const findings = PlanCheck.errors(PlanCheck.check(plan))
    if (findings.length > 0) {
      const f = findings[0]!
      return yield* fail(`--plan ${s.plan}: ${f.path.join(".")}`, f.message)
    }
    const options = {
      start: s.start,
      trial: s.trial,
      until: s.until,
      anchor: s.anchor,
      ...(Option.isSome(s.variation) ? { variation: s.variation.value } : {})
    }
    const { timeline, totals } = yield* Result.match(Render.place(plan, options), {
      onFailure: (e) => fail(scheduleWhere(s, e), e.message),
      onSuccess: Effect.succeed
    })
    return { plan, timeline, totals, zone: s.zone }
  })

const output = (s: Settings, text: string) =>
  Option.match(s.out, {
    onNone: () => Console.log(text),
    onSome: (file) => Effect.andThen(Files.writeText("--out", file, text), Console.log(Text.visible(`wrote ${file}`)))
  })

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("simulate", options, (o) =>
  Effect.gen(function* () {
    const s = yield* settings(o)
    const { plan, timeline, totals, zone } = yield* simulate(s)
    const title = `${plan.name} (${plan.id}), ${zone}`
    switch (s.format) {
      case "json": {
        const events = yield* listedEvents(s, { timeline, totals })
        return yield* output(s, Text.json({ plan: plan.id, zone, events: Render.toJson(events) }))
      }
      case "svg":
        return yield* output(s, ScheduleSvg.render(timeline, { until: s.until, title }))
      case "table": {
        const all = yield* listedEvents(s, { timeline, totals })
        return yield* output(
          s,
          [
            Text.visible(title),
            "",
            Render.table(all),
            "",
            Render.timeline(timeline, s.until),
            "",
            Text.visible(ScheduleSvg.totalsLine(totals))
          ].join("\n")
        )
      }
    }
  })
).pipe(
  Command.withDescription(
    "Simulate the billing schedule of one plan: when each cycle is billed, in which phase, for how much"
  )
)
