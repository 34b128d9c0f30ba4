import { describe, expect, it } from "@effect/vitest"
import { FieldPattern, FieldValidator, type RuleError } from "@payrules/transfers"
import { Result } from "effect"
import fc from "fast-check"
import { RE2JS } from "re2js"
import { patterns } from "./support/patternGrammar.js"

const compile = (p: string) => Result.getOrThrow(FieldPattern.compile(p))

describe("FieldPattern: whole-value matching", () => {
  it("matches the whole value, as Java's matches: \\d{27} means ^(?:\\d{27})$", () => {
    const p = compile("\\d{27}")
    expect(p.engine).toBe("native")
    expect(p.test("210000000003139471430009017")).toBe(true)
    expect(p.test("x210000000003139471430009017")).toBe(false)
    expect(p.test("210000000003139471430009017x")).toBe(false)
    expect(p.test("2100000000031394714300090171")).toBe(false)
    expect([p.minLength, p.maxLength]).toEqual([27, 27])
  })

  it("reads an alternation as a whole (a|ab matches ab) and keeps explicit anchors harmless", () => {
    for (const source of ["a|ab", "^a|ab$", "^(?:a|ab)$", "\\Aa|ab\\z"]) {
      const p = compile(source)
      expect([source, p.test("ab"), p.test("a"), p.test("abab")]).toEqual([source, true, true, false])
    }
  })
})

// [pattern, matching values, other values]
const semantics: ReadonlyArray<readonly [string, ReadonlyArray<string>, ReadonlyArray<string>]> = [
  // `.` excludes Java's line terminators, and counts code points
  [".", ["a", "😀", "\u00a0"], ["\n", "\r", "\u0085", "\u2028", "\u2029", "ab"]],
  ["(?s).", ["\n", "\r", "\u2028"], ["ab"]],
  // \s is Java's [ \t\n\x0B\f\r]: the vertical tab yes, a no-break space no
  ["\\s", [" ", "\t", "\n", "\u000b", "\f", "\r"], ["\u00a0", "\u2003", "x"]],
  ["\\S+", ["abc"], ["a b", "\u000b"]],
  // \d and \w are ASCII
  ["\\d+", ["0123456789"], ["\u0662", "x"]],
  ["\\w+", ["a_Z9"], ["é", "a-b"]],
  // (?i) folds ASCII letters only, as Java's default CASE_INSENSITIVE
  ["(?i)gb\\d{2}", ["GB29", "gb29", "Gb29"], ["GB2"]],
  ["(?i)é", ["é"], ["É"]],
  ["(?i)[^a]", ["b", "B"], ["a", "A"]],
  ["a(?i)b|c", ["aB", "ab", "C", "c"], ["AB"]],
  ["(?i:a)b", ["Ab", "ab"], ["AB"]],
  // Java spellings
  ["\\uD83D\\uDE00", ["😀"], ["\ud83d"]],
  ["\\u00e9\\x41\\x{1F600}\\0101\\t\\e\\cA", ["éA😀A\t\u001b\u0001"], []],
  ["\\Qa.b*\\E+", ["a.b*", "a.b**"], ["axb*"]],
  ["\\p{Alpha}{3}", ["abC"], ["ab1", "éab"]],
  ["\\p{Punct}", ["!", "~"], ["a", "¡"]],
  ["\\h\\v", [" \n", "\u00a0\u2028"], ["  "]],
  ["\\p{L}+", ["Zürich", "Ελλάδα"], ["ab1"]],
  ["\\p{IsLatin}+", ["Zürich"], ["Ελλάδα"]],
  ["\\p{Lu}\\P{Lu}", ["Ab"], ["AB"]],
  // RE2 spellings
  ["(?P<year>\\d{4})-(?<month>\\d{2})", ["2024-03"], ["2024-3"]],
  ["[[:alpha:]]+[[:^alpha:]]", ["ab1"], ["abc"]],
  ["\\pL", ["a"], ["1"]],
  ["a{", ["a{"], ["a"]],
  ["a{,3}", ["a{,3}"], ["aaa"]],
  // classes
  ["[]a]+", ["]a]"], ["b"]],
  ["[a-]+|[-b]+", ["a-", "-b"], ["ab"]],
  ["[^\\d\\s]", ["x", "é"], ["1", " "]],
  // anchors and boundaries inside (re2js)
  ["a\\bb", [], ["ab"]],
  ["a\\b b", ["a b"], ["ab"]],
  ["(?m)a$\\n^b", ["a\nb"], ["ab"]],
  ["x*$", ["", "xx"], ["xy"]]
]

describe("FieldPattern: the dialect", () => {
  it("gives the documented verdicts, on both engines", () => {
    for (const [source, yes, no] of semantics) {
      const p = compile(source)
      const re2 = RE2JS.compile(p.re2Source)
      for (const v of yes) {
        expect([source, v, p.test(v), re2.testExact(v)]).toEqual([source, v, true, true])
      }
      for (const v of no) {
        expect([source, v, p.test(v), re2.testExact(v)]).toEqual([source, v, false, false])
      }
    }
  })

  // [pattern, construct]
  const refused: ReadonlyArray<readonly [string, string]> = [
    ["(a)\\1", "backreference"],
    ["(?<n>a)\\k<n>", "backreference"],
    ["(?P<n>a)(?P=n)", "backreference"],
    ["(?=a)a", "lookahead"],
    ["a(?!b)", "lookahead"],
    ["(?<=a)b", "lookbehind"],
    ["(?<!a)b", "lookbehind"],
    ["(?>a+)b", "atomic group"],
    ["a*+", "possessive quantifier"],
    ["a++b", "possessive quantifier"],
    ["a{2}+", "possessive quantifier"],
    ["(?(1)a|b)", "conditional"],
    ["(a(?R)?b)", "recursion"],
    ["\\Gabc", "\\G"],
    ["abc\\Z", "\\Z"],
    ["a\\Rb", "\\R"],
    ["\\X", "\\X"],
    ["(?x)a b", "flag (?x)"],
    ["(?u)a", "flag (?u)"],
    ["(?U)a", "flag (?U)"],
    ["[a-z&&[^aeiou]]", "character class intersection"],
    ["[a[b]]", "nested character class"],
    ["\\p{InGreek}", "\\p{InGreek}"],
    ["\\p{javaLowerCase}", "\\p{javaLowerCase}"],
    ["\\p{NoSuchProperty}", "\\p{NoSuchProperty}"],
    ["a{1001}", "repetition count over 1000"],
    ["(a{100}){11}", "repetition count over 1000"],
    ["a".repeat(4097), "pattern length"]
  ]

  it("refuses what no linear-time engine can run, naming the construct", () => {
    for (const [source, construct] of refused) {
      const r = FieldPattern.compile(source)
      if (Result.isSuccess(r)) throw new Error(`${source} was accepted`)
      expect([source, r.failure.reason, r.failure.construct]).toEqual([source, "UnsupportedPattern", construct])
      expect(r.failure.message).toContain(construct)
    }
  })

  it("compileUnsafe throws the RuleError; unsafeCompile is its deprecated alias", () => {
    expect(FieldPattern.compileUnsafe("\\d{2}").test("12")).toBe(true)
    expect(() => FieldPattern.compileUnsafe("(a)\\1")).toThrow(/backreference/)
    expect(FieldPattern.unsafeCompile).toBe(FieldPattern.compileUnsafe)
    expect(FieldValidator.unsafeCompile).toBe(FieldValidator.compileUnsafe)
    expect(() => FieldValidator.compileUnsafe([{ name: "__proto__", required: true }])).toThrow(/Object.prototype/)
  })

  it("refuses what is not a regular expression", () => {
    for (const source of [
      "(",
      "a)",
      "[a",
      "[z-a]",
      "*a",
      "a**",
      "a{3,2}",
      "\\",
      "\\y",
      "(?",
      "(?<1a>x)",
      "\\x{110000}",
      "^*"
    ]) {
      const r = FieldPattern.compile(source)
      if (Result.isSuccess(r)) throw new Error(`${source} was accepted`)
      expect([source, r.failure.reason]).toEqual([source, "InvalidPattern"])
    }
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// hostile patterns: each runs on re2js, and a 10,000-character value gets its verdict
// ---------------------------------------------------------------------------------------------------------------------

const tenThousand = (s: string) => s.repeat(Math.ceil(10_000 / s.length)).slice(0, 10_000)
const almost = `${"a".repeat(9_999)}!`

/** [pattern, value of 10,000 characters, verdict] */
const hostile: ReadonlyArray<readonly [string, string, boolean]> = [
  ["^(a+)+$", almost, false],
  ["^(a+)+$", tenThousand("a"), true],
  ["^(a|a)*$", almost, false],
  ["^(a|a)*$", tenThousand("a"), true],
  ["^([a-zA-Z0-9]+[-. ]?)*[a-zA-Z0-9]+$", almost, false],
  ["^([a-zA-Z0-9]+[-. ]?)*[a-zA-Z0-9]+$", `${tenThousand("ab-").slice(0, 9_999)}-`, false],
  ["^([a-zA-Z0-9]+[-. ]?)*[a-zA-Z0-9]+$", tenThousand("ab-"), true],
  ["^.*a.*a.*a.*$", almost, true],
  ["^.*a.*a.*a.*$", tenThousand("b"), false],
  ["(x+x+)+y", tenThousand("x"), false],
  ["(x+x+)+y", `${"x".repeat(9_999)}y`, true],
  ["^(\\w+\\s?)*$", almost, false],
  ["^(\\w+\\s?)*$", tenThousand("ab "), true],
  ["(a|aa)+", almost, false],
  ["(a|aa)+", tenThousand("a"), true],
  ["(.*a){12}", almost, false],
  ["(.*a){12}", tenThousand("ba"), true],
  ["^(([a-z])+.)+[A-Z]([a-z])+$", almost, false],
  ["^(([a-z])+.)+[A-Z]([a-z])+$", `${"a".repeat(9_990)}Aaaaaaaaaa`, true],
  ["(\\d+)*$", `${"1".repeat(9_999)}x`, false],
  ["(\\d+)*$", tenThousand("1"), true],
  ["(a*)*b", almost, false],
  ["(a|b|ab)*c", tenThousand("ab"), false],
  ["^(a?){25}a{25}$", tenThousand("a"), false],
  ["^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", tenThousand("a@"), false]
]

describe("FieldPattern: catastrophic patterns", () => {
  it("runs every one of them on re2js, and returns the right verdict on 10,000 characters", () => {
    const patterns = new Set(hostile.map(([p]) => p))
    expect(patterns.size).toBeGreaterThanOrEqual(12)
    for (const [source, value, verdict] of hostile) {
      expect(value.length).toBe(10_000)
      const p = compile(source)
      expect([source, p.engine]).toEqual([source, "re2"])
      expect([source, p.test(value)]).toEqual([source, verdict])
    }
  })

  it("validates a 10,000-character field against each of them through the validator", () => {
    for (const [source, value, verdict] of hostile) {
      const v = FieldValidator.compileUnsafe([
        { name: "note", required: true, validation: { regex: { pattern: source, description: "hostile" } } }
      ])
      const body = {
        amount: 1,
        currency: "EUR",
        account_id: "a",
        receiver: { counterparty_id: "c" },
        request_id: "r",
        note: value
      }
      const r = v.validate(body)
      expect([source, Result.isSuccess(r)]).toEqual([source, verdict])
      if (Result.isFailure(r)) expect(r.failure).toEqual([{ path: ["note"], rule: "Pattern", message: "hostile" }])
    }
  })

  it("keeps patterns that backtrack on overlapping choices off the native engine", () => {
    const re2Only = ["a*a", "(ab|a)c", "\\d+\\d", "[a-z]+[a-z0-9]*", "(\\d{3}-)?\\d{4}", "x?x", "(a|)(a|)b", "(?:)*"]
    for (const source of re2Only) expect([source, compile(source).engine]).toEqual([source, "re2"])
  })

  it("runs the usual server patterns natively", () => {
    const natives = [
      "\\d{27}",
      "[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?",
      "^[A-Z]{4}0[A-Z0-9]{6}$",
      "^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$",
      "[A-Za-z0-9 /?:().,'+-]{1,140}",
      "GB\\d{2}[A-Z]{4}\\d{14}",
      "[0-9]{9}",
      "(?i)[a-z]{2}\\d{2}",
      "\\p{Alpha}[\\p{Alnum} ]{0,34}",
      "[A-Z0-9]{1,35}",
      "\\d{6}|\\d{8}"
    ]
    for (const source of natives) expect([source, compile(source).engine]).toEqual([source, "native"])
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// property: the native engine and re2js agree, and agree with a plain RegExp on the ASCII subset
// ---------------------------------------------------------------------------------------------------------------------

const atom = fc.constantFrom(
  "a",
  "b",
  "0",
  "[ab]",
  "[^a]",
  "[a-c0-9]",
  "\\d",
  "\\w",
  "[.]",
  "\\.",
  "x",
  // escapes and classes the first grammar left out (bug: a mutant of the parser's escapes or of the class algebra
  // that every test let through)
  "\\D",
  "\\W",
  "\\x61",
  "\\u0062",
  "[\\d_-]",
  "[^\\w]",
  "[^\\d.]",
  "[\\x30-\\x31b]",
  "[-a]",
  "[a-]",
  "[^-]",
  "[\\]\\[]",
  "é",
  "😀",
  "[é😀]",
  "[^😀]"
)
const quant = fc.constantFrom(
  "",
  "",
  "*",
  "+",
  "?",
  "{2}",
  "{0,2}",
  "{1,3}",
  "{2,}",
  "*?",
  "+?",
  "??",
  "{1,2}?",
  "{0}",
  "{1}"
)
const piece = patterns({ atom, quant, maxItems: 4, capturing: true })
const input = fc.string({
  unit: fc.constantFrom("a", "b", "c", "0", "1", ".", "x", "é", "😀", "\n", "-", "_", "[", "]"),
  maxLength: 12
})

describe("FieldPattern: engines agree", () => {
  it("for generated patterns and values: FieldPattern, re2js on the RE2 form, and RegExp(u) give one verdict", () => {
    let natives = 0
    fc.assert(
      fc.property(piece, fc.array(input, { minLength: 1, maxLength: 8 }), (source, values) => {
        const p = compile(source)
        if (p.engine === "native") natives++
        const re2 = RE2JS.compile(p.re2Source)
        const plain = new RegExp(`^(?:${source})$`, "u")
        for (const v of values) {
          const expected = plain.test(v)
          if (p.test(v) !== expected || re2.testExact(v) !== expected) {
            throw new Error(`${source} on ${JSON.stringify(v)}: expected ${expected}`)
          }
        }
      }),
      { numRuns: 1500 }
    )
    expect(natives).toBeGreaterThan(100)
  })

  it("computes length bounds that every match respects", () => {
    fc.assert(
      fc.property(piece, fc.array(input, { minLength: 1, maxLength: 8 }), (source, values) => {
        const p = compile(source)
        for (const v of values) {
          const n = [...v].length
          if (p.test(v) && (n < p.minLength || n > p.maxLength)) throw new Error(`${source} matched ${v}`)
        }
      }),
      { numRuns: 500 }
    )
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// refusals a person reads: the pattern shown (shortened when long), the field first, and why
// ---------------------------------------------------------------------------------------------------------------------

const refusalOf = (source: string): RuleError.RuleError =>
  Result.match(FieldPattern.compile(source), {
    onFailure: (e) => e,
    onSuccess: () => {
      throw new Error(`${source} compiled`)
    }
  })

describe("FieldPattern: refusals", () => {
  it("shows a refused pattern of up to 60 characters whole, and a longer one by its first 57 and '...', so a huge pattern does not flood the error (bug: the pattern echoed whole, or cut at the wrong length)", () => {
    const sixty = `(${"a".repeat(59)}`
    expect(refusalOf(sixty).message).toBe(
      `the pattern ${JSON.stringify(sixty)} is not a valid regular expression at position 0: missing ')'`
    )
    const long = `(${"a".repeat(200)}`
    expect(refusalOf(long).message).toBe(
      `the pattern ${JSON.stringify(`${long.slice(0, 57)}...`)} is not a valid regular expression at position 0: missing ')'`
    )
    // beyond 4096 characters the pattern is refused for its length, and shown as short
    const huge = refusalOf(`(${"a".repeat(100_000)}`)
    expect([huge.reason, huge.construct, huge.message]).toEqual([
      "UnsupportedPattern",
      "pattern length",
      `the pattern ${JSON.stringify(`(${"a".repeat(56)}...`)} uses pattern length, which a linear-time engine cannot run: patterns are at most 4096 characters long; this one has 100001`
    ])
  })

  it("says which construct a linear-time engine cannot run, apart from a pattern that is not valid at all (bug: the two explained alike)", () => {
    const refused = refusalOf("(a)\\1")
    expect([refused.reason, refused.construct, refused.message]).toEqual([
      "UnsupportedPattern",
      "backreference",
      'the pattern "(a)\\\\1" uses backreference, which a linear-time engine cannot run: backreferences (`\\1`) are not regular'
    ])
    const invalid = refusalOf("a{2,1}")
    expect([invalid.reason, invalid.construct, invalid.message]).toEqual([
      "InvalidPattern",
      undefined,
      'the pattern "a{2,1}" is not a valid regular expression at position 1: the repetition {2,1} has its maximum below its minimum'
    ])
  })

  it("names the field first when the pattern comes in a rule (bug: an error that does not say which field's pattern)", () => {
    const errors = Result.match(
      FieldValidator.compile([
        { name: "note", required: false, validation: { regex: { pattern: "(a)\\1", description: "x" } } }
      ]),
      { onFailure: (e) => e, onSuccess: () => [] }
    )
    expect(errors.map((e) => [e.reason, e.field, e.message])).toEqual([
      [
        "UnsupportedPattern",
        "note",
        'note: the pattern "(a)\\\\1" uses backreference, which a linear-time engine cannot run: backreferences (`\\1`) are not regular'
      ]
    ])
  })
})
