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
import { renderPng } from "../test/Picture.js"

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

for (const { args, file } of pictures) {
  writeFileSync(`${packageDir}${file}`, renderPng(svgOf(args)).png)
  console.log(`wrote ${file}`)
}
