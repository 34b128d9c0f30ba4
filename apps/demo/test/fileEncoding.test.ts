import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { invalidUtf8Offset } from "../src/Files.js"
import { packageDir, payrules } from "./Harness.js"

// A file that is not UTF-8 was read with U+FFFD in place of its bad bytes: a Latin-1 payment body with the reference
// "Café" was checked as "Caf\uFFFD" and reported valid.

const fixture = (name: string) => readFileSync(join(packageDir, "test/fixtures", name))

/** a directory with the files given (their bytes as they are) */
const files = (contents: Record<string, Uint8Array | string>): string => {
  const dir = mkdtempSync(join(tmpdir(), "payrules-utf8-"))
  for (const [name, content] of Object.entries(contents)) writeFileSync(join(dir, name), content)
  return dir
}

const latin1 = (text: string) => Buffer.from(text, "latin1")

/** the draft payment without its charge bearer, with a reference, its last field */
const { charge_bearer: _, ...draft } = JSON.parse(fixture("draft-payment.json").toString("utf8")) as Record<
  string,
  unknown
>
const body = JSON.stringify({ ...draft, reference: "Caf\u00e9" })
/** where the é of the reference is in the Latin-1 file */
const e9 = latin1(body).indexOf(0xe9)
/** a /pay/fields answer that asks for a reference only */
const referenceOnly = JSON.stringify({
  fields: [{ name: "reference", required: true, validation: { max_length: 140 } }]
})

describe("files that are not UTF-8", () => {
  it.live("bug: validate-payment --body refuses a Latin-1 file, naming the flag, the file and the byte offset", () =>
    Effect.gen(function* () {
      const dir = files({ "latin1.json": latin1(body), "fields.json": referenceOnly })
      const r = yield* payrules(["validate-payment", "--fields", "fields.json", "--body", "latin1.json"], { cwd: dir })
      expect([r.code, r.stdout, r.stderr]).toEqual([
        1,
        "",
        `error: --body latin1.json: not UTF-8: the bytes at offset ${e9} (E9 22 7D, counted from 0) are not valid UTF-8; save the file as UTF-8\n`
      ])
      // the same text in UTF-8 is valid
      const utf8 = files({ "body.json": body, "fields.json": referenceOnly })
      const ok = yield* payrules(["validate-payment", "--fields", "fields.json", "--body", "body.json"], { cwd: utf8 })
      expect([ok.code, ok.stdout]).toEqual([0, "body.json: valid\n"])
    })
  )

  it.live("bug: --plan and --fields refuse a file that is not UTF-8 too; the offset is the first bad sequence", () =>
    Effect.gen(function* () {
      const plan = fixture("pro-plan.json").toString("utf8").replace('"Pro"', '"Pr\u00f6"')
      const dir = files({
        // the name in Latin-1: ö is F6, then a quote
        "plan.json": latin1(plan),
        // a sequence cut short at the end of the file
        "fields.json": Buffer.concat([fixture("swift-fields.json"), Buffer.from([0xe2, 0x82])])
      })
      const p = yield* payrules(["simulate", "--plan", "plan.json"], { cwd: dir })
      const at = Buffer.from(plan, "latin1").indexOf(0xf6)
      expect([p.code, p.stdout, p.stderr]).toEqual([
        1,
        "",
        `error: --plan plan.json: not UTF-8: the bytes at offset ${at} (F6 22 2C 0A ..., counted from 0) are not valid UTF-8; save the file as UTF-8\n`
      ])
      const f = yield* payrules(["validate-payment", "--fields", "fields.json", "--body", "plan.json"], { cwd: dir })
      const size = fixture("swift-fields.json").length
      expect(f.stderr).toBe(
        `error: --fields fields.json: not UTF-8: the bytes at offset ${size} (E2 82, counted from 0) are not valid UTF-8; save the file as UTF-8\n`
      )
    })
  )

  it.live("a UTF-8 byte order mark at the start of a file is skipped", () =>
    Effect.gen(function* () {
      const bom = Buffer.from([0xef, 0xbb, 0xbf])
      const dir = files({
        "body.json": Buffer.concat([bom, Buffer.from(body)]),
        "fields.json": Buffer.concat([bom, Buffer.from(referenceOnly)]),
        "plan.json": Buffer.concat([bom, fixture("pro-plan.json")])
      })
      const r = yield* payrules(["validate-payment", "--fields", "fields.json", "--body", "body.json"], { cwd: dir })
      expect([r.code, r.stdout]).toEqual([0, "body.json: valid\n"])
      const s = yield* payrules(["simulate", "--plan", "plan.json", "--months", "1"], { cwd: dir })
      expect([s.code, s.stdout.split("\n")[0]]).toEqual([0, "Pro (pln_pro), UTC"])
    })
  )

  it("invalidUtf8Offset: the first byte that begins no well-formed sequence", () => {
    const at = (...bytes: Array<number>) => invalidUtf8Offset(new Uint8Array(bytes))
    expect(at()).toBeUndefined()
    expect(invalidUtf8Offset(new TextEncoder().encode("a é € 😀 \u{10ffff}"))).toBeUndefined()
    expect(at(0x43, 0x61, 0x66, 0xe9)).toBe(3) // Latin-1 "Café"
    expect(at(0x61, 0x80)).toBe(1) // a continuation byte alone
    expect(at(0xc0, 0x80)).toBe(0) // an overlong NUL
    expect(at(0xe0, 0x80, 0x80)).toBe(0) // overlong
    expect(at(0xed, 0xa0, 0x80)).toBe(0) // a surrogate, U+D800
    expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(0) // past U+10FFFF
    expect(at(0xf5, 0x80, 0x80, 0x80)).toBe(0)
    expect(at(0x61, 0xe2, 0x82)).toBe(1) // cut short
    expect(at(0xe2, 0x82, 0xac, 0xff)).toBe(3)
  })

  it("invalidUtf8Offset agrees with TextDecoder's fatal UTF-8: undefined exactly when it decodes, and the bytes before decode", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
    const decodes = (bytes: Uint8Array) => {
      try {
        fatal.decode(bytes)
        return true
      } catch {
        return false
      }
    }
    // bytes mostly from UTF-8 text, with stray bytes among them
    const chunk = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 4 }).map((s) => Array.from(new TextEncoder().encode(s))),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 3 })
    )
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 8 }), (chunks) => {
        const bytes = new Uint8Array(chunks.flat())
        const offset = invalidUtf8Offset(bytes)
        expect(offset === undefined).toBe(decodes(bytes))
        if (offset !== undefined) expect(decodes(bytes.subarray(0, offset))).toBe(true)
      }),
      { numRuns: 2000, seed: 20260401 }
    )
  })
})
