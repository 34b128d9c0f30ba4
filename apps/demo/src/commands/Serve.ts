/**
 * `payrules serve`: the sandbox on its own, on 127.0.0.1, until stopped.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import { Sandbox } from "@payrules/sandbox"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { serveErrorReason } from "../Apis.js"
import * as Checks from "../Checks.js"
import { CliError } from "../CliError.js"
import * as Flags from "../Flags.js"

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "serve",
  {
    port: Flags.withDefault("port", "port", "4010", "the port on 127.0.0.1, 0 to 65535 (0: a free one)"),
    seed: Flags.withDefault("seed", "n", "1", "the data seed: the same seed serves the same ids, plans and payments")
  },
  (o) =>
    Effect.gen(function* () {
      const port = yield* Checks.port("--port", o.port)
      const seed = yield* Checks.wholeNumber("--seed", o.seed, { min: 0, max: 2 ** 31 - 1 })
      return yield* Layer.launch(
        Layer.effectDiscard(
          Effect.flatMap(Sandbox.SandboxServer, (s) =>
            Console.log(`payrules sandbox on ${s.url} (docs ${s.urls.docs}); Ctrl-C to stop`)
          )
        ).pipe(
          Layer.provide(
            Sandbox.layer({ port, seed }).pipe(
              Layer.mapError((e) => new CliError({ where: `--port ${port}`, reason: serveErrorReason(e) }))
            )
          )
        )
      )
    })
).pipe(Command.withDescription("Serve the sandbox on its own (127.0.0.1) until stopped"))
