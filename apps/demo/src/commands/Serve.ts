/**
 * `payrules serve`: the sandbox on its own, on 127.0.0.1, until stopped; it prints the seeded tenants and their
 * Bearer tokens. `--control-token` (or `PAYRULES_SANDBOX_CONTROL_TOKEN`, unless set to nothing) makes `/__sandbox/*`
 * require that token; a token that cannot be one is reported as the flag's or the variable's, whichever gave it.
 *
 * @since 0.1.0
 */

import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { loadSandbox, serveErrorReason } from "../Apis.js"
import * as Checks from "../Checks.js"
import { CliError, mapLayerError } from "../CliError.js"
import * as Flags from "../Flags.js"

const controlTokenEnv = "PAYRULES_SANDBOX_CONTROL_TOKEN"

/** the control token from the environment: a variable set to nothing counts as not set, as for the sandbox's bin */
const controlTokenVariable: Effect.Effect<Option.Option<string>> = Config.option(Config.String(controlTokenEnv)).pipe(
  Effect.map(Option.filter((token) => token !== "")),
  Effect.orElseSucceed(() => Option.none())
)

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "serve",
  {
    port: Flags.withDefault("port", "port", "4010", "the port on 127.0.0.1, 0 to 65535 (0: a free one)"),
    seed: Flags.withDefault("seed", "n", "1", "the data seed: the same seed serves the same ids, plans and payments"),
    controlToken: Flags.optional(
      "control-token",
      "token",
      "the Bearer token /__sandbox/* then requires (default: PAYRULES_SANDBOX_CONTROL_TOKEN; without one, open on 127.0.0.1)"
    )
  },
  (o) =>
    Effect.gen(function* () {
      const port = yield* Effect.fromResult(Checks.port("--port", o.port))
      const seed = yield* Effect.fromResult(Checks.wholeNumber("--seed", o.seed, { min: 0, max: 2 ** 31 - 1 }))
      const Sandbox = yield* loadSandbox
      const fromEnvironment = yield* controlTokenVariable
      const given = Option.isSome(o.controlToken)
        ? Option.some({ where: "--control-token", token: o.controlToken.value })
        : Option.map(fromEnvironment, (token) => ({ where: controlTokenEnv, token }))
      const controlToken = Option.getOrUndefined(Option.map(given, (g) => g.token))
      return yield* Layer.launch(
        Layer.effectDiscard(
          Effect.flatMap(Effect.service(Sandbox.SandboxServer), (s) =>
            Console.log(
              [
                `payrules sandbox on ${s.url} (docs ${s.urls.docs}); Ctrl-C to stop`,
                "Tenants (Authorization: Bearer <token>):",
                ...Sandbox.formatTenants(s.tenants)
              ].join("\n")
            )
          )
        ).pipe(
          Layer.provide(
            Sandbox.layer({ port, seed, controlToken }).pipe(
              mapLayerError(
                (e) =>
                  new CliError({
                    where:
                      e._tag === "SandboxOptionsError"
                        ? Option.match(given, { onNone: () => "--control-token", onSome: (g) => g.where })
                        : `--port ${port}`,
                    reason: serveErrorReason(e)
                  })
              )
            )
          )
        )
      )
    })
).pipe(Command.withDescription("Serve the sandbox on its own (127.0.0.1) until stopped"))
