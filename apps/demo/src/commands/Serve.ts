/**
 * `payrules serve`: the sandbox on its own, on 127.0.0.1, until stopped; it prints the seeded tenants and their
 * Bearer tokens. `--control-token` (or `PAYRULES_SANDBOX_CONTROL_TOKEN`) makes `/__sandbox/*` require that token.
 *
 * @since 0.1.0
 */

import * as Console from "effect/Console"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { loadSandbox, serveErrorReason } from "../Apis.js"
import * as Checks from "../Checks.js"
import { CliError, mapLayerError } from "../CliError.js"
import * as Flags from "../Flags.js"

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
      const controlToken = Option.getOrUndefined(
        Option.orElse(o.controlToken, () => Option.fromNullishOr(process.env.PAYRULES_SANDBOX_CONTROL_TOKEN))
      )
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
                    where: e._tag === "SandboxOptionsError" ? "--control-token" : `--port ${port}`,
                    reason: serveErrorReason(e)
                  })
              )
            )
          )
        )
      )
    })
).pipe(Command.withDescription("Serve the sandbox on its own (127.0.0.1) until stopped"))
