import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { InternationalPayment, PaymentStatus } from "@payrules/open-banking"
import { testReadme } from "@payrules/vitest"

testReadme(import.meta.url)

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")

describe("README", () => {
  it("the state diagrams are PaymentStatus.toMermaid of each profile", () => {
    const blocks = [...readme.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd())
    expect(blocks).toEqual([PaymentStatus.toMermaid("revolut"), PaymentStatus.toMermaid("obie-3.1.11")])
  })

  it("the limits table is InternationalPayment.limits", () => {
    const rows = [...readme.matchAll(/^\| `([A-Za-z.*]+)` +\| (\d+)\.\.(\d+) +\| (\d+)\.\.(\d+) +\|/gm)].map((m) => ({
      field: m[1],
      minLength: Number(m[2]),
      revolut: Number(m[3]),
      obie: Number(m[5])
    }))
    expect(rows).toEqual(
      InternationalPayment.limits.map((l) => ({
        field: l.field,
        minLength: l.minLength,
        revolut: l.maxLength.revolut,
        obie: l.maxLength["obie-3.1.11"]
      }))
    )
  })
})
