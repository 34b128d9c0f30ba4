import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { ExchangeState } from "@payrules/exchange"
import { testReadme } from "@payrules/vitest"

testReadme(import.meta.url)

describe("README state diagram", () => {
  it("is ExchangeState.toMermaid()", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")
    const blocks = [...readme.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd())
    expect(blocks).toEqual([ExchangeState.toMermaid()])
  })
})
