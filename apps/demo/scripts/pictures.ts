/**
 * Draws the pictures of the README: the SVG timelines of the 2-hour plan over 24 months and of the 3-phase plan,
 * rendered to PNG with resvg (the renderer the tests use). Run from anywhere:
 *
 *   pnpm --filter @payrules/cli pictures
 *
 * Each SVG comes from the command line itself (`payrules simulate --format svg`), run as a process on this Node
 * (the plans by absolute path: a pnpm script's child resolves relative paths against the caller's directory).
 */
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Resvg } from "@resvg/resvg-js"

const packageDir = fileURLToPath(new URL("..", import.meta.url))

const pictures = [
  {
    file: "docs/compute-24-months.png",
    args: [
      "--plan",
      `${packageDir}test/fixtures/compute-plan.json`,
      "--start",
      "2024-01-17T09:00:00Z",
      "--zone",
      "Europe/London"
    ]
  },
  {
    file: "docs/pro-plan.png",
    args: [
      "--plan",
      `${packageDir}test/fixtures/pro-plan.json`,
      "--start",
      "2024-01-17T09:00:00Z",
      "--zone",
      "Europe/London"
    ]
  }
]

const svgOf = (args: ReadonlyArray<string>): string =>
  execFileSync(
    process.execPath,
    [
      "--conditions=@payrules/source",
      "--import",
      "tsx",
      "src/main.ts",
      "simulate",
      ...args,
      "--months",
      "24",
      "--format",
      "svg"
    ],
    { cwd: packageDir, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 }
  )

/** drawn by resvg with the machine's fonts (DejaVu Sans Mono where the named ones are missing), as the tests draw it */
const png = (svg: string): Buffer =>
  new Resvg(svg, {
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans Mono", monospaceFamily: "DejaVu Sans Mono" },
    fitTo: { mode: "original" }
  })
    .render()
    .asPng()

for (const { args, file } of pictures) {
  writeFileSync(`${packageDir}${file}`, png(svgOf(args)))
  console.log(`wrote ${file}`)
}
