/**
 * Test helpers shared by the payrules packages: the laws every wire Schema must satisfy, and fixture loading.
 *
 * @since 0.0.0
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { pathToFileURL } from "node:url"
import { format } from "node:util"
import * as Arbitrary from "effect/Arbitrary"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { describe, expect, it, vi } from "vitest"

/**
 * @since 0.0.0
 */
export interface LawOptions<A = unknown> {
  /** fast-check runs per law (default 200) */
  readonly numRuns?: number
  /** the encoded side is JSON: also round-trip through `JSON.stringify` / `JSON.parse` (default true) */
  readonly json?: boolean
  /** extra hostile inputs for the "never throws" law */
  readonly junk?: FastCheck.Arbitrary<unknown>
  /**
   * the values the laws are checked on, when `Arbitrary.make(schema)` draws structures too large to check often
   * (a page of plans of variations of phases); they must still satisfy the Schema, which the first law checks
   */
  readonly arbitrary?: FastCheck.Arbitrary<A>
}

/**
 * Inputs that look like JSON payloads gone wrong: any JSON value, objects with prototype keys, huge strings and
 * numbers that are not finite.
 *
 * @since 0.0.0
 */
export const hostileJson: FastCheck.Arbitrary<unknown> = FastCheck.oneof(
  FastCheck.anything(),
  FastCheck.jsonValue(),
  FastCheck.constantFrom<unknown>(
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
 * The decoded issues of a ParseError, each with a path and a message.
 *
 * @since 0.0.0
 */
export const issuesOf = (error: ParseResult.ParseError): ReadonlyArray<ParseResult.ArrayFormatterIssue> =>
  ParseResult.ArrayFormatter.formatErrorSync(error)

/**
 * Registers the law tests of a Schema: its arbitrary produces values that satisfy `Schema.is`; `decode(encode(a))`
 * is equivalent to `a` (also through JSON text); decoding arbitrary input never throws, and failures carry issues
 * with a path and a message.
 *
 * @since 0.0.0
 */
export const schemaLaws = <A, I>(name: string, schema: Schema.Schema<A, I, never>, options?: LawOptions<A>): void => {
  const numRuns = options?.numRuns ?? 200
  const json = options?.json ?? true
  describe(`${name} laws`, () => {
    const arb = options?.arbitrary ?? Arbitrary.make(schema)
    const is = Schema.is(schema)
    const equivalence = Schema.equivalence(schema)
    const encode = Schema.encodeEither(schema)
    const decode = Schema.decodeUnknownEither(schema)

    it("generated values satisfy Schema.is", () => {
      FastCheck.assert(
        FastCheck.property(arb, (a) => is(a)),
        { numRuns }
      )
    })

    it("decode(encode(a)) is equivalent to a", () => {
      FastCheck.assert(
        FastCheck.property(arb, (a) => {
          const encoded = encode(a)
          if (Either.isLeft(encoded)) throw new Error(`encode failed: ${encoded.left.message}`)
          const wire = json ? JSON.parse(JSON.stringify(encoded.right)) : encoded.right
          const decoded = decode(wire)
          if (Either.isLeft(decoded)) throw new Error(`decode failed: ${decoded.left.message}`)
          return equivalence(decoded.right, a)
        }),
        { numRuns }
      )
    })

    it("decoding arbitrary input never throws; failures have paths and messages", () => {
      const junk = options?.junk ? FastCheck.oneof(hostileJson, options.junk) : hostileJson
      FastCheck.assert(
        FastCheck.property(junk, (u) => {
          const result = decode(u)
          if (Either.isLeft(result)) {
            const issues = issuesOf(result.left)
            expect(issues.length).toBeGreaterThan(0)
            for (const issue of issues) {
              expect(Array.isArray(issue.path)).toBe(true)
              expect(issue.message.length).toBeGreaterThan(0)
            }
          }
          return true
        }),
        { numRuns }
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
