/**
 * Draws the pictures of the README: the SVG timelines of the 2-hour plan over 24 months and of the 3-phase plan,
 * rendered to PNG with resvg (the renderer the tests use). Run from anywhere:
 *
 *   pnpm --filter @payrules/cli pictures
 */
import { writeFileSync } from "node:fs"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Cli from "../src/Cli.js"
import * as Invocation from "../src/Invocation.js"
import * as Output from "../src/Output.js"
import { renderPng } from "../test/Picture.js"

const packageDir = new URL("..", import.meta.url)

const pictures = [
  {
    file: "docs/compute-24-months.png",
    args: ["--plan", "test/fixtures/compute-plan.json", "--start", "2024-01-17T09:00:00Z", "--zone", "Europe/London"]
  },
  {
    file: "docs/pro-plan.png",
    args: ["--plan", "test/fixtures/pro-plan.json", "--start", "2024-01-17T09:00:00Z", "--zone", "Europe/London"]
  }
]

const svgOf = (args: ReadonlyArray<string>) =>
  Effect.suspend(() => {
    const lines: Array<string> = []
    const sink: Output.Sink = {
      color: () => false,
      write: (stream, line) => (stream === "out" ? lines.push(line) : console.error(line))
    }
    return Cli.run(["simulate", ...args, "--months", "24", "--format", "svg"]).pipe(
      Output.withSink(sink),
      Effect.flatMap((code) =>
        code === 0 ? Effect.succeed(lines.join("\n")) : Effect.dieMessage(`simulate exited with ${code}`)
      )
    )
  })

Effect.forEach(pictures, ({ args, file }) =>
  Effect.map(svgOf(args), (svg) => {
    writeFileSync(new URL(file, packageDir), renderPng(svg).png)
    console.log(`wrote ${file}`)
  })
).pipe(
  Effect.provide(Invocation.layer({ cwd: new URL(".", packageDir).pathname })),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain
)
