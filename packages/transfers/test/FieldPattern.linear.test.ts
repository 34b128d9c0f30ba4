/**
 * The linearity proof (src/internal/regexLinear.ts) that picks the engine of a pattern: the native `RegExp` only for
 * patterns a backtracking engine runs in linear time, re2js with the reason for every other one. Anchors at the edges
 * of the pattern or of a top-level branch always hold for a whole-value match and do not keep a pattern off the native
 * engine; anchors anywhere else do.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { RE2JS } from "re2js"
import { deterministic, render, rxArbitrary } from "./support/parseDeterminism.js"
import { compiled, expected, verdicts } from "./support/parsePatterns.js"

const property = "a Unicode property class (its tables are RE2's)"
const anchor = "an anchor or word boundary inside the pattern"
const emptyAlternatives = "more than one alternative that can match the empty string"
const emptyRepeat = "a repetition of something that can be empty"
const nested = "nested quantifiers"
const sameStart = "alternatives that can start with the same character"
const continues = "a repetition that can continue with the character that may follow it"

/** [pattern, engine, re2Reason, values it matches, values it does not match] */
const verdictsOf: ReadonlyArray<
  readonly [string, "native" | "re2", string | undefined, ReadonlyArray<string>, ReadonlyArray<string>]
> = [
  // anchors at the edges are dropped: native, and the same matches
  ["^a$", "native", undefined, ["a"], ["", "aa"]],
  ["\\Aa\\z", "native", undefined, ["a"], ["aa"]],
  ["(?m)^a$", "native", undefined, ["a"], ["a\n", "\na"]],
  ["(?m)^a", "native", undefined, ["a"], ["ba"]],
  ["(?m)a$", "native", undefined, ["a"], ["ab"]],
  ["^a", "native", undefined, ["a"], ["ba"]],
  ["a$", "native", undefined, ["a"], ["ab"]],
  ["^^a$$", "native", undefined, ["a"], [""]],
  ["^^", "native", undefined, [""], ["a"]],
  ["$$", "native", undefined, [""], ["a"]],
  ["^", "native", undefined, [""], ["a", "undefined"]],
  ["$", "native", undefined, [""], ["a", "undefined"]],
  ["\\A", "native", undefined, [""], ["a"]],
  ["(?m)$", "native", undefined, [""], ["a"]],
  ["^$", "native", undefined, [""], ["a"]],
  ["^|a", "native", undefined, ["", "a"], ["b"]],
  ["a|$", "native", undefined, ["", "a"], ["b"]],
  ["^a|b$", "native", undefined, ["a", "b"], ["ab"]],
  ["(^a|b$)", "native", undefined, ["a", "b"], ["ab"]],
  ["^(?:a|ab)$", "native", undefined, ["a", "ab"], ["b", "aab"]],
  ["^(?:\\d{1,3}|\\d{1,3}x)$", "native", undefined, ["12", "12x"], ["x"]],
  // anchors and boundaries anywhere else: re2js
  ["a^", "re2", anchor, [], ["a", ""]],
  ["$a", "re2", anchor, [], ["a", ""]],
  ["x(^a|b)", "re2", anchor, ["xb"], ["xa"]],
  ["x(?:a\\z|c)", "re2", anchor, ["xa", "xc"], ["xac"]],
  ["\\b", "re2", anchor, [], ["", "a"]],
  ["\\B", "re2", anchor, [""], ["a"]],
  ["\\b!", "re2", anchor, [], ["!"]],
  ["!\\B", "re2", anchor, ["!"], []],
  ["\\ba", "re2", anchor, ["a"], ["b"]],
  ["a\\b", "re2", anchor, ["a"], ["b"]],
  // Unicode properties: RE2's tables
  ["\\pL", "re2", property, ["é"], ["1"]],
  ["x(?:\\pL|1)", "re2", property, ["xé", "x1"], ["x2"]],
  ["[\\p{Greek}a]", "re2", property, ["α"], ["b"]],
  // repetitions of what can be empty
  ["(?:a|)*", "re2", emptyRepeat, ["", "aa"], ["b"]],
  ["(?:a*)*", "re2", emptyRepeat, ["", "aa"], ["b"]],
  ["(?:a?)?", "re2", emptyRepeat, ["", "a"], ["aa"]],
  ["(?:a|)?", "re2", emptyRepeat, ["", "a"], ["aa"]],
  ["(?:)*", "re2", emptyRepeat, [""], ["a"]],
  ["(?:a{0})+", "re2", emptyRepeat, [""], ["a"]],
  // alternatives
  ["x(?:a?|b?)", "re2", emptyAlternatives, ["x", "xa", "xb"], ["xab"]],
  ["x(?:a|b?)", "native", undefined, ["x", "xa", "xb"], ["xab"]],
  ["x(?:a|b)", "native", undefined, ["xa", "xb"], ["x"]],
  ["x(?:a||b)", "native", undefined, ["x", "xa"], ["xab"]],
  ["x(?:a|)", "native", undefined, ["x", "xa"], ["xaa"]],
  ["x(?:a|a)", "re2", sameStart, ["xa"], ["x"]],
  ["x(?:ab|ac)", "re2", sameStart, ["xab", "xac"], ["xa"]],
  ["x(?:a|)a", "re2", sameStart, ["xa", "xaa"], ["x"]],
  ["x(?:[ab]|[bc])", "re2", sameStart, ["xa", "xc"], ["xd"]],
  ["a|a", "native", undefined, ["a"], ["aa"]],
  ["(a|ab)", "native", undefined, ["a", "ab"], ["b"]],
  ["a?|b?", "native", undefined, ["", "a", "b"], ["ab"]],
  // nested quantifiers
  ["(?:ab+)*", "re2", nested, ["", "abb", "abab"], ["ba"]],
  ["(?:a|b+)*", "re2", nested, ["", "abba"], ["c"]],
  ["(?:a(?:b+){1})*", "re2", nested, ["abab"], ["aa"]],
  ["(?:a{1,2}b){2}", "re2", nested, ["abaab"], ["ab"]],
  ["(?:a+)+", "re2", nested, ["aaa"], [""]],
  ["(?:ab+)?", "native", undefined, ["", "abbb"], ["a"]],
  ["(?:a{2}b)*", "native", undefined, ["", "aabaab"], ["ab"]],
  ["(?:a{2}b){3}", "native", undefined, ["aabaabaab"], ["aab"]],
  // a repetition and what follows it
  ["a*a", "re2", continues, ["a", "aaa"], [""]],
  ["a?b*a", "re2", continues, ["a", "aa", "aba", "bba"], ["ab"]],
  ["(?:(?:x|)y)*y", "re2", continues, ["y", "xyy", "yyxyy"], ["x"]],
  ["a{1,3}a", "re2", continues, ["aa", "aaaa"], ["a", "aaaaa"]],
  ["\\d+\\d", "re2", continues, ["12"], ["1"]],
  ["(?:b(?:b|))*", "re2", sameStart, ["", "bbb"], ["a"]],
  ["(?:xy)*y", "native", undefined, ["y", "xyxyy"], ["xy"]],
  ["(?:a{0}b)*a", "native", undefined, ["a", "bba"], ["ab"]],
  ["x?x{0}", "native", undefined, ["", "x"], ["xx"]],
  ["(?:aa?)?", "native", undefined, ["", "a", "aa"], ["aaa"]],
  ["b?a+b", "native", undefined, ["ab", "baab"], ["bb"]],
  ["a+b?", "native", undefined, ["a", "aab"], ["b"]],
  ["a{2,3}b", "native", undefined, ["aab", "aaab"], ["ab", "aaaab"]],
  ["(?:ab){1,2}a", "re2", continues, ["aba", "ababa"], ["a", "abab"]],
  ["(?:ab){1,2}b", "native", undefined, ["abb", "ababb"], ["b"]],
  ["a{0}", "native", undefined, [""], ["a"]],
  ["x(?:a?){0}y", "native", undefined, ["xy"], ["xay"]],
  ["x(?:a){0}a", "native", undefined, ["xa"], ["xaa"]],
  ["\\d{1,13}(?:\\.\\d{1,5})?", "native", undefined, ["12.5", "1"], ["1."]]
]

describe("FieldPattern: the engine of a pattern", () => {
  it.each(verdictsOf)(
    "%s runs on %s (%s), with the same matches on both engines (bug: a linear pattern sent to re2js, or a backtracking one run natively)",
    (source, engine, reason, yes, no) => {
      const p = compiled(source)
      expect([p.engine, p.re2Reason, p.ecmaSource === undefined]).toEqual([engine, reason, engine === "re2"])
      expect(verdicts(source, yes)).toEqual(expected(yes, true))
      expect(verdicts(source, no)).toEqual(expected(no, false))
    }
  )

  it("runs a generated pattern natively only when a backtracking engine runs it in linear time, and then gives re2js's verdicts (bug: a pattern whose choices overlap judged linear)", () => {
    let natives = 0
    let others = 0
    const values = fc.array(
      fc.string({ unit: fc.constantFrom("a", "b", "c", "x", "0", "1", "5", "-", "é"), maxLength: 8 }),
      { minLength: 1, maxLength: 6 }
    )
    fc.assert(
      fc.property(rxArbitrary(), values, (rx, vs) => {
        const source = render(rx)
        const p = compiled(source)
        if (p.engine === "re2") {
          others++
          return
        }
        natives++
        if (!deterministic(rx)) throw new Error(`${source} runs natively, but a backtracking engine may not be linear`)
        const re2 = RE2JS.compile(`(?:${source})`)
        for (const v of vs) {
          if (p.test(v) !== re2.testExact(v)) throw new Error(`${source} on ${JSON.stringify(v)}`)
        }
      }),
      { numRuns: 400 }
    )
    expect(natives).toBeGreaterThan(60)
    expect(others).toBeGreaterThan(60)
  })
})
