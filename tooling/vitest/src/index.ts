/**
 * Test helpers shared by the payrules packages: the laws every wire Schema must satisfy, and fixture loading.
 *
 * @since 0.0.0
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { pathToFileURL } from "node:url"
import { format } from "node:util"
import { it as effectIt } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import fc from "fast-check"
import { describe, expect, it, vi } from "vitest"
import { lazyArbitrary } from "./Lazy.js"

/**
 * @since 0.0.0
 */
export interface LawOptions<A = unknown> {
  /** runs per law (default 200) */
  readonly numRuns?: number
  /** the encoded side is JSON: also round-trip through `JSON.stringify` / `JSON.parse` (default true) */
  readonly json?: boolean
  /** extra hostile inputs for the "never throws" law (fast-check: the hostile inputs are a grammar of their own) */
  readonly junk?: fc.Arbitrary<unknown>
  /**
   * the values the laws are checked on, when `Arbitrary.schema(schema)` draws structures too large to check often
   * (a page of plans of variations of phases); they must still satisfy the Schema, which the first law checks
   */
  readonly arbitrary?: Arbitrary.Arbitrary<A>
}

/**
 * Inputs that look like JSON payloads gone wrong: any JSON value, objects with prototype keys, huge strings and
 * numbers that are not finite.
 *
 * @since 0.0.0
 */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything(),
  fc.jsonValue(),
  fc.constantFrom<unknown>(
    JSON.parse('{"__proto__": {"polluted": true}}'),
    { constructor: { prototype: { polluted: true } } },
    "x".repeat(100_000),
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -0,
    [],
    null,
    undefined,
    Symbol("s"),
    BigInt(10) ** BigInt(30)
  )
)

/**
 * One issue of a failed decoding: where (the path into the input) and what.
 *
 * @since 0.0.0
 */
export interface Issue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const standardIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * The issues of a SchemaError, each with a path and a message.
 *
 * @since 0.0.0
 */
export const issuesOf = (error: Schema.SchemaError): ReadonlyArray<Issue> =>
  standardIssues(error.issue).issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment))
  }))

/**
 * Registers the law tests of a Schema: its arbitrary (effect's `Arbitrary.schema`, what users get) produces values
 * that satisfy `Schema.is`; `decode(encode(a))` is equivalent to `a` (also through JSON text); decoding arbitrary
 * input never throws, and failures carry issues with a path and a message.
 *
 * @since 0.0.0
 */
export const schemaLaws = <S extends Schema.Codec<unknown, unknown, never, never>>(
  name: string,
  schema: S,
  options?: LawOptions<S["Type"]>
): void => {
  const runs = options?.numRuns ?? 200
  const json = options?.json ?? true
  describe(`${name} laws`, () => {
    // made when the first law draws from it, not when the file loads (see ./Lazy.ts)
    const arb = lazyArbitrary(() => options?.arbitrary ?? Arbitrary.schema(schema))
    const is = Schema.is(schema)
    const equivalence = Schema.toEquivalence(schema)
    const encode = Schema.encodeResult(schema)
    const decode = Schema.decodeUnknownResult(schema)

    effectIt.prop("generated values satisfy Schema.is", [arb], ([a]) => is(a), { arbitrary: { runs } })

    effectIt.prop(
      "decode(encode(a)) is equivalent to a",
      [arb],
      ([a]) => {
        const encoded = encode(a)
        if (Result.isFailure(encoded)) throw new Error(`encode failed: ${encoded.failure.message}`)
        const wire = json ? JSON.parse(JSON.stringify(encoded.success)) : encoded.success
        const decoded = decode(wire)
        if (Result.isFailure(decoded)) throw new Error(`decode failed: ${decoded.failure.message}`)
        return equivalence(decoded.success, a)
      },
      { arbitrary: { runs } }
    )

    it("decoding arbitrary input never throws; failures have paths and messages", () => {
      const junk = options?.junk ? fc.oneof(hostileJson, options.junk) : hostileJson
      fc.assert(
        fc.property(junk, (u) => {
          const result = decode(u)
          if (Result.isFailure(result)) {
            const issues = issuesOf(result.failure)
            expect(issues.length).toBeGreaterThan(0)
            for (const issue of issues) {
              expect(Array.isArray(issue.path)).toBe(true)
              expect(issue.message.length).toBeGreaterThan(0)
            }
          }
          return true
        }),
        { numRuns: runs }
      )
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })
  })
}

/**
 * Reads a JSON fixture relative to a test file: `readFixture(import.meta.url, "fixtures/x.json")`.
 *
 * @since 0.0.0
 */
export const readFixture = <A = unknown>(base: string, relative: string): A =>
  JSON.parse(readFileSync(new URL(relative, base), "utf8")) as A

/**
 * @since 0.0.0
 */
export interface ReadmeExample {
  readonly index: number
  readonly code: string
  /** the ```text block right after the code, if any: what the example prints */
  readonly output: string | undefined
}

/**
 * The ```ts examples of a README, each with the ```text block that follows it (its expected output).
 *
 * @since 0.0.0
 */
export const readmeExamples = (markdown: string): ReadonlyArray<ReadmeExample> => {
  const fence = /```(\w+)[^\n]*\n([\s\S]*?)```/g
  const blocks: Array<{ lang: string; body: string; start: number; end: number }> = []
  for (const m of markdown.matchAll(fence)) {
    blocks.push({ lang: m[1]!, body: m[2]!, start: m.index!, end: m.index! + m[0].length })
  }
  const examples: Array<ReadmeExample> = []
  blocks.forEach((b, i) => {
    if (b.lang !== "ts" && b.lang !== "typescript") return
    const next = blocks[i + 1]
    const between = next === undefined ? "" : markdown.slice(b.end, next.start)
    const output = next !== undefined && next.lang === "text" && between.split("\n").length <= 4 ? next.body : undefined
    examples.push({ index: examples.length, code: b.body, output })
  })
  return examples
}

/**
 * Registers one test per ```ts example of a package README: the example runs as a module of the package (so
 * `@payrules/*` imports resolve), and what it prints with `console.log` must equal the ```text block after it.
 *
 * @since 0.0.0
 */
export const testReadme = (testFileUrl: string, readme = "../README.md"): void => {
  const readmeUrl = new URL(readme, testFileUrl)
  const examples = readmeExamples(readFileSync(readmeUrl, "utf8"))
  describe(`README examples (${readme})`, () => {
    it("has at least one example", () => {
      expect(examples.length).toBeGreaterThan(0)
    })
    for (const example of examples) {
      it(`example ${example.index + 1} runs${example.output === undefined ? "" : " and prints what the README shows"}`, async () => {
        const dir = new URL("./.readme/", testFileUrl)
        mkdirSync(dir, { recursive: true })
        const file = new URL(`example-${example.index + 1}.ts`, dir)
        writeFileSync(file, example.code)
        const lines: Array<string> = []
        const spy = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => {
          lines.push(format(...args))
        })
        try {
          await import(/* @vite-ignore */ `${pathToFileURL(file.pathname).href}?t=${Date.now()}`)
        } finally {
          spy.mockRestore()
        }
        if (example.output !== undefined) {
          expect(lines.join("\n").trimEnd()).toBe(example.output.trimEnd())
        }
      })
    }
  })
}
