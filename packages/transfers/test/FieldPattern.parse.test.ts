/**
 * The parser of the pattern dialect (src/internal/regexParse.ts), through `FieldPattern.compile`: each documented
 * escape, class and flag matches exactly the code points it documents (on FieldPattern and on re2js running the RE2 form
 * it emits), each refused construct is refused with its `construct`, each malformed pattern with the position of the
 * fault, and the limits hold at their edges.
 */
import { describe, expect, it } from "@effect/vitest"
import { FieldPattern } from "@payrules/transfers"
import { Result } from "effect"
import fc from "fast-check"
import { RE2JS } from "re2js"
import { expected, refusal, verdicts } from "./support/parsePatterns.js"

// ---------------------------------------------------------------------------------------------------------------------
// what each construct matches
// ---------------------------------------------------------------------------------------------------------------------

/** [pattern, values it matches, values it does not match] */
type Case = readonly [string, ReadonlyArray<string>, ReadonlyArray<string>]

const escapes: ReadonlyArray<Case> = [
  // control escapes, each its own code point
  ["\\t", ["\t"], ["t", "\n"]],
  ["\\n", ["\n"], ["n", "\r"]],
  ["\\r", ["\r"], ["r", "\n"]],
  ["\\f", ["\f"], ["f", "\r"]],
  ["\\a", ["\u0007"], ["a", "\f"]],
  ["\\e", ["\u001b"], ["e", "\u0007"]],
  // \xhh: both digits hexadecimal, at the edges of each digit range
  ["\\x09", ["\t"], ["x09"]],
  ["\\x39", ["9"], ["x39"]],
  ["\\x0A", ["\n"], ["x0A"]],
  ["\\x4F", ["O"], ["x4F"]],
  ["\\x0a", ["\n"], ["x0a"]],
  ["\\x6f", ["o"], ["x6f"]],
  ["\\xfA", ["ú"], ["xfA"]],
  ["\\x41b", ["Ab"], ["A"]],
  // \x{h...}: up to U+10FFFF, astral symbols one character
  ["\\x{41}", ["A"], ["x{41}"]],
  ["\\x{1F600}", ["😀"], ["\ud83d"]],
  ["\\x{10FFFF}", ["\u{10ffff}"], [""]],
  ["\\x{0000000a}", ["\n"], ["a"]],
  // \uhhhh, and a surrogate pair written as two escapes is one character
  ["\\u00e9", ["é"], ["e"]],
  ["\\uD83D\\uDE00", ["😀"], ["\ud83d\ude00x"]],
  ["\\uD800\\uDC00", ["\u{10000}"], [""]],
  ["\\uDBFF\\uDFFF", ["\u{10ffff}"], [""]],
  ["\\udbff\\udfff", ["\u{10ffff}"], [""]],
  ["\\uD83Dx", ["\ud83dx"], ["😀"]],
  ["\\u0041\\uDC00", ["A\udc00"], ["A"]],
  ["\\uD83D\\u0041", ["\ud83dA"], ["😀"]],
  ["\\uDC00\\uDC00", ["\udc00\udc00"], [""]],
  ["\\uE000\\uDC00", ["\ue000\udc00"], [""]],
  // \0 octal: three digits when the first is 0-3, else one or two
  ["\\0101", ["A"], ["\u00080", "0101"]],
  ["\\0377", ["ÿ"], ["\u001f7"]],
  ["\\045", ["%"], ["\u00045"]],
  ["\\0400", [" 0"], ["\u000400", "\u0100"]],
  ["\\07", ["\u0007"], ["7"]],
  ["\\00", ["\u0000"], ["0"]],
  // \cX: the control character X ^ 64
  ["\\cA", ["\u0001"], ["cA", "A"]],
  ["\\c@", ["\u0000"], ["@"]],
  ["\\c?", ["\u007f"], ["?"]],
  ["\\c\u007f", ["?"], ["\u007f"]],
  // escaped punctuation is literal
  ["\\.\\*\\{\\}\\\\", [".*{}\\"], ["a*{}\\"]],
  ["\\-\\/\\ ", ["-/ "], ["-/"]],
  // a character outside the BMP (two UTF-16 units) in the pattern, and the last BMP one
  ["😀a", ["😀a"], ["\ud83da", "😀"]],
  ["\uffffa", ["\uffffa"], ["\uffff", "a"]],
  // \Q...\E quotes everything; a quantifier after it applies to its last character
  ["\\Qa.b\\E", ["a.b"], ["axb"]],
  ["\\Qa.b", ["a.b"], ["axb"]],
  ["x\\Qab", ["xab"], ["ab", "xxab"]],
  ["\\Qa\\Eb", ["ab"], ["a\\Eb", "a"]],
  ["a\\Q\\Eb", ["ab"], ["a", "b"]],
  ["\\Qab\\E+", ["ab", "abb"], ["abab"]],
  ["\\Q\\d(\\E", ["\\d("], ["1("]]
]

const classes: ReadonlyArray<Case> = [
  // Java's predefined classes, and their complements
  ["\\h", [" ", "\t", "\u00a0", "\u3000"], ["\n", "a"]],
  ["\\H", ["a", "\n"], [" ", "\t", "\u00a0", "\u2000"]],
  ["\\v", ["\n", "\u000b", "\u2028"], [" ", "a"]],
  ["\\V", ["a", " "], ["\n", "\u000b", "\r", "\u0085", "\u2029"]],
  ["\\D", ["a", "\u0662"], ["0", "9"]],
  ["\\W", ["-", "é"], ["a", "_", "9"]],
  ["\\S", ["a"], [" ", "\u000b"]],
  // POSIX classes \p{...} (ASCII) and their negation
  ["\\p{Lower}", ["a", "z"], ["A", "é"]],
  ["\\p{Upper}", ["A", "Z"], ["a", "É"]],
  ["\\p{XDigit}+", ["09afAF"], ["g", "G"]],
  ["\\P{Alpha}", ["1", "é"], ["a", "Z"]],
  ["\\p{^Alpha}", ["1"], ["a"]],
  ["\\P{^Alpha}", ["a"], ["1"]],
  ["\\p{Blank}", [" ", "\t"], ["\n"]],
  ["\\p{Cntrl}", ["\u0000", "\u007f"], [" "]],
  // Unicode properties: one letter, braces, negation, Is, gc=, general_category=, sc=, script=
  ["\\pL", ["a", "é", "Ж"], ["1"]],
  ["\\pZ", [" ", "\u3000"], ["a"]],
  ["\\p{^L}", ["1", " "], ["a", "é"]],
  ["\\P{^L}", ["é"], ["1"]],
  ["\\P{L}", ["1"], ["é"]],
  ["\\p{IsL}", ["é"], ["1"]],
  ["\\p{gc=Lu}", ["A", "É"], ["a"]],
  ["\\p{general_category=Lu}", ["É"], ["é"]],
  ["\\p{sc=Greek}", ["α"], ["a"]],
  ["\\p{script=Greek}", ["Ω"], ["Ж"]],
  ["\\p{IsGreek}", ["α"], ["a"]],
  ["\\p{Greek}", ["α"], ["a"]],
  // classes: ranges, ']' first, '-' first or last, escapes inside
  ["[a-c]", ["a", "b", "c"], ["d", "-"]],
  ["[a-a]", ["a"], ["b", "-"]],
  ["[^]a]", ["b"], ["]", "a"]],
  ["[\\]-]+", ["]-"], ["a"]],
  ["[a\\-z]", ["a", "-", "z"], ["b"]],
  ["[\\x41-\\x43]", ["B"], ["D"]],
  ["[\\t\\n]", ["\t", "\n"], ["t"]],
  ["[\\.\\\\]", [".", "\\"], ["a"]],
  ["[\\d\\s]", ["1", " "], ["a"]],
  ["[\\h]", ["\u00a0"], ["a"]],
  ["[\\cA\\0101\\u00e9\\x{1F600}]", ["\u0001", "A", "é", "😀"], ["a"]],
  ["[&]", ["&"], ["a"]],
  ["[a&b]+", ["a&b"], ["c"]],
  ["[a&]", ["&"], ["b"]],
  // a '-' after a class is a literal, as Java's Pattern and RE2 read it (bug: `[\w-.]`, common in server patterns,
  // refused as a range from a class, and with it every rule of the server)
  ["[\\w-.]+", ["a-b.c", "-", "_"], ["/", "a b"]],
  ["[\\d-z]", ["0", "-", "z"], ["y", "a"]],
  ["[\\p{L}-z]", ["é", "-", "z"], ["1"]],
  ["[[:digit:]-a]", ["0", "-", "a"], ["b"]],
  ["[\\s-\\d]", [" ", "-", "5"], ["a"]],
  // and one after a class starts a range when another '-' follows it, as in Java: '-' to '/'
  ["[\\d--/]", ["0", "-", ".", "/"], [",", "a"]],
  // \Q...\E inside a class quotes its characters, and the class goes on after \E
  ["[\\Qa-z\\E]", ["a", "-", "z"], ["b", "E", "Q", "\\", "["]],
  ["[\\Q]\\E]", ["]"], ["a"]],
  ["[\\Q^\\Ex]", ["^", "x"], ["a", "E", "Q", "\\", "["]],
  ["[a\\Q\\E-c]", ["a", "-", "c"], ["b"]],
  // RE2's bracket classes, negated, inside larger classes
  ["[[:digit:]]", ["1"], ["a"]],
  ["[[:^digit:]x]", ["a", "x"], ["1"]],
  ["[[:xdigit:]_]", ["f", "_"], ["g"]],
  ["[[:word:]]", ["_"], ["-"]],
  // Unicode properties inside a class, with other characters, negated
  ["[\\p{Greek}a]", ["α", "a"], ["b"]],
  ["[^\\p{Greek}a]", ["b"], ["α", "a"]],
  ["[\\p{Greek}\\p{Cyrillic}]", ["α", "Ж"], ["a"]],
  ["[\\pL\\d]", ["é", "1"], ["-"]],
  ["[\\P{L}]", ["1"], ["a"]],
  ["[^\\P{L}]", ["a"], ["1"]],
  ["[\\p{Lower}1]", ["a", "1"], ["A"]]
]

const flagsAndGroups: ReadonlyArray<Case> = [
  // (?i) folds ASCII letters of literals, classes and POSIX classes
  ["(?i)a", ["a", "A"], ["b"]],
  ["(?i)[a-c]", ["B"], ["d"]],
  ["(?i)[[:lower:]]", ["A", "a"], ["1"]],
  ["(?i)[[:^lower:]]", ["1"], ["A", "a"]],
  ["(?i)\\p{Lower}", ["A"], ["1"]],
  ["(?i)\\P{Lower}", ["1"], ["A"]],
  ["(?i)\\Qab\\E", ["AB"], ["AC"]],
  ["(?i)\\x41\\u0062", ["ab"], ["a"]],
  // a flag group applies to the rest of its group, a scoped one to its body
  ["(a(?i)b)c", ["aBc"], ["aBC", "ABc"]],
  ["(?:a(?i)b|c)d", ["aBd", "Cd"], ["aBD", "ABd"]],
  ["(?i:a)b", ["Ab"], ["AB"]],
  ["(?i)a(?-i)b", ["Ab"], ["AB"]],
  ["(?i)a(?-i:b)c", ["AbC"], ["ABC"]],
  ["(?i-s).", ["a"], ["\n"]],
  ["(?is)a.", ["A\n"], ["A"]],
  ["(?s-i)a.", ["a\n"], ["A\n"]],
  ["(?si:a.)b", ["A\nb"], ["A\nB"]],
  ["(?s:.).", ["\na"], ["\n\n"]],
  ["(?s)(?i)a.", ["A\n"], ["A"]],
  ["(?i)(?s:a.)", ["A\n"], ["b\n"]],
  ["(?m)(?i)a$\\nb", ["A\nB"], ["AB"]],
  // (?m): ^ and $ at line ends
  ["(?m)a$\\n^b", ["a\nb"], ["ab"]],
  ["(?m)^a", ["a"], ["b"]],
  ["(?m:a$)\\nb", ["a\nb"], ["ab"]],
  ["(?m)(?-m)a$\\nb", [], ["a\nb"]],
  ["a$\\n^b", [], ["a\nb"]],
  // named groups, both spellings
  ["(?<n>a)b", ["ab"], ["b"]],
  ["(?P<name_1>a)", ["a"], ["b"]],
  // anchors and boundaries inside the pattern
  ["\\Aa\\z", ["a"], ["aa"]],
  ["a\\Ab", [], ["ab"]],
  ["a\\zb", [], ["ab"]],
  ["a\\Bb", ["ab"], ["a b"]],
  ["a\\B b", [], ["a b"]],
  ["\\B", [""], ["a"]],
  ["\\b", [], ["", "a"]],
  // braces that start no repetition are literal
  ["{", ["{"], [""]],
  ["a{x}", ["a{x}"], ["a"]],
  ["a{1,2", ["a{1,2"], ["a"]],
  ["a{2}{", ["aa{"], ["aa"]],
  // repetitions
  ["a{0}b", ["b"], ["ab"]],
  ["a{2,}", ["aa", "aaa"], ["a"]],
  ["a{1000}", ["a".repeat(1000)], ["a".repeat(999)]],
  ["a{1000,}", ["a".repeat(1001)], ["a".repeat(999)]],
  ["a{0,1000}", ["", "a".repeat(1000)], ["a".repeat(1001)]],
  ["a*?b+?c??", ["ab", "abbc", "b"], ["ac", "a"]],
  ["a{1,2}?", ["aa"], ["aaa"]],
  ["()*a", ["a"], ["b"]],
  ["(?:)+a", ["a"], [""]]
]

describe("FieldPattern: what each construct of the dialect matches", () => {
  it.each(escapes)(
    "%s matches the code points it documents (bug: an escape read as another character, or its digits miscounted)",
    (source, yes, no) => {
      expect(verdicts(source, yes)).toEqual(expected(yes, true))
      expect(verdicts(source, no)).toEqual(expected(no, false))
    }
  )

  it.each(classes)(
    "%s matches the code points of its class (bug: a class, a negation or a property dropped or widened)",
    (source, yes, no) => {
      expect(verdicts(source, yes)).toEqual(expected(yes, true))
      expect(verdicts(source, no)).toEqual(expected(no, false))
    }
  )

  it.each(flagsAndGroups)(
    "%s: flags, groups, anchors and repetitions as Java reads them (bug: a flag leaking out of its group)",
    (source, yes, no) => {
      expect(verdicts(source, yes)).toEqual(expected(yes, true))
      expect(verdicts(source, no)).toEqual(expected(no, false))
    }
  )
})

/**
 * The ASCII classes by their definitions in Java's `java.util.regex.Pattern` (`\p{Name}`) and RE2's syntax
 * (`[[:name:]]`), each written from the others where the documents do (Alnum is Alpha and Digit, Graph is Alnum and
 * Punct, Print is Graph and the space): [Java name, RE2 name, its code points]
 */
const between = (lo: number, hi: number) => (c: number) => c >= lo && c <= hi
const oneOf = (chars: string) => (c: number) => chars.includes(String.fromCharCode(c))
const isLower = between(0x61, 0x7a)
const isUpper = between(0x41, 0x5a)
const isDigit = between(0x30, 0x39)
const isAlpha = (c: number) => isLower(c) || isUpper(c)
const isAlnum = (c: number) => isAlpha(c) || isDigit(c)
const isPunct = oneOf("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
const isGraph = (c: number) => isAlnum(c) || isPunct(c)
const asciiClasses: ReadonlyArray<readonly [string, string, (c: number) => boolean]> = [
  ["Lower", "lower", isLower],
  ["Upper", "upper", isUpper],
  ["ASCII", "ascii", between(0x00, 0x7f)],
  ["Alpha", "alpha", isAlpha],
  ["Digit", "digit", isDigit],
  ["Alnum", "alnum", isAlnum],
  ["Punct", "punct", isPunct],
  ["Graph", "graph", isGraph],
  ["Print", "print", (c) => isGraph(c) || c === 0x20],
  ["Blank", "blank", oneOf(" \t")],
  ["Cntrl", "cntrl", (c) => between(0x00, 0x1f)(c) || c === 0x7f],
  ["XDigit", "xdigit", (c) => isDigit(c) || between(0x41, 0x46)(c) || between(0x61, 0x66)(c)],
  ["Space", "space", oneOf(" \t\n\u000b\f\r")]
]
/** U+0000 to U+00FF, and a few letters, digits, punctuation and spaces of other scripts */
const asciiClassProbes = [
  ...Array.from({ length: 0x100 }, (_, c) => String.fromCharCode(c)),
  ..."\u0100\u0130\u017f\u212a\u0660\uff10\u3000\u2028\u00bf\u2014\u{1d400}"
]

describe("FieldPattern: the ASCII classes, each name in both spellings", () => {
  it.each(asciiClasses)(
    "\\p{%s} and [[:%s:]] match exactly the code points their definitions give, and their negations the others (bug: a class missing from the table of names, refused or matching nothing)",
    (java, re2, member) => {
      const yes = asciiClassProbes.filter((s) => member(s.codePointAt(0)!))
      const no = asciiClassProbes.filter((s) => !member(s.codePointAt(0)!))
      for (const source of [`\\p{${java}}`, `[[:${re2}:]]`]) {
        expect(verdicts(source, yes)).toEqual(expected(yes, true))
        expect(verdicts(source, no)).toEqual(expected(no, false))
      }
      for (const source of [`\\P{${java}}`, `[[:^${re2}:]]`]) {
        expect(verdicts(source, yes)).toEqual(expected(yes, false))
        expect(verdicts(source, no)).toEqual(expected(no, true))
      }
    }
  )

  it("matches [[:word:]] as RE2 defines it, letters, digits and the underscore of ASCII (bug: the word class taken from \\w's table under another flag)", () => {
    const yes = asciiClassProbes.filter((s) => isAlnum(s.codePointAt(0)!) || s === "_")
    const no = asciiClassProbes.filter((s) => !yes.includes(s))
    expect(verdicts("[[:word:]]", yes)).toEqual(expected(yes, true))
    expect(verdicts("[[:word:]]", no)).toEqual(expected(no, false))
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// what is refused, and why
// ---------------------------------------------------------------------------------------------------------------------

/** [pattern, construct, a word of the explanation] */
const unsupported: ReadonlyArray<readonly [string, string, string]> = [
  ["(?=a)", "lookahead", "needs backtracking"],
  ["(?!a)", "lookahead", "needs backtracking"],
  ["(?<=a)b", "lookbehind", "needs backtracking"],
  ["(?<!a)b", "lookbehind", "needs backtracking"],
  ["(?>a)", "atomic group", "need backtracking control"],
  ["(?P=n)", "backreference", "(?P=name)"],
  ["(?P>n)", "recursion", "recursive"],
  ["(?R)", "recursion", "recursive"],
  ["(?&n)", "recursion", "recursive"],
  ["(?1)", "recursion", "recursive"],
  ["(?+1)", "recursion", "recursive"],
  ["(?-1)", "recursion", "recursive"],
  ["(?(1)a|b)", "conditional", "conditionals"],
  ["(?x)a", "flag (?x)", "comments mode"],
  ["(?ix)a", "flag (?x)", "comments mode"],
  ["(?u)a", "flag (?u)", "case folding"],
  ["(?U)a", "flag (?U)", "UNICODE_CHARACTER_CLASS"],
  ["(?d)a", "flag (?d)", "UNIX_LINES"],
  ["(?-d:a)", "flag (?d)", "UNIX_LINES"],
  ["a\\1", "backreference", "\\1"],
  ["a\\9", "backreference", "\\1"],
  ["[\\1]", "backreference", "\\1"],
  ["\\k<n>", "backreference", "\\k<name>"],
  ["\\Ga", "\\G", "previous match"],
  ["a\\Z", "\\Z", "final line terminator"],
  ["a\\R", "\\R", "linebreak"],
  ["\\X", "\\X", "grapheme clusters"],
  ["\\N{LATIN SMALL LETTER A}", "\\N{name}", "named characters"],
  ["[\\N{x}]", "\\N{name}", "named characters"],
  ["a\\b{g}", "\\b{g}", "grapheme boundaries"],
  ["a*+", "possessive quantifier", "need backtracking control"],
  ["a?+", "possessive quantifier", "need backtracking control"],
  ["(a)*+", "possessive quantifier", "need backtracking control"],
  ["a{2,3}+", "possessive quantifier", "need backtracking control"],
  ["[a[b]]", "nested character class", "classes inside classes"],
  ["[[x:alpha:]]", "nested character class", "classes inside classes"],
  ["[[:alpha]]", "nested character class", "classes inside classes"],
  ["[a&&b]", "character class intersection", "Java's class intersection"],
  ["[&&]", "character class intersection", "Java's class intersection"],
  ["\\p{InGreek}", "\\p{InGreek}", "blocks"],
  ["\\p{block=Greek}", "\\p{block=Greek}", "blocks"],
  ["\\p{blk=Greek}", "\\p{blk=Greek}", "blocks"],
  ["[\\P{InGreek}]", "\\P{InGreek}", "blocks"],
  ["\\p{javaLowerCase}", "\\p{javaLowerCase}", "java.lang.Character"],
  ["\\P{javaLetter}", "\\P{javaLetter}", "java.lang.Character"],
  ["\\p{^javaLetter}", "\\P{javaLetter}", "java.lang.Character"],
  // unknown property names, the one-letter form too
  ["\\pA", "\\p{A}", "Unicode property"],
  ["\\pa", "\\p{a}", "Unicode property"],
  ["\\pz", "\\p{z}", "Unicode property"],
  ["\\p{IsNoSuch}", "\\p{NoSuch}", "Unicode property"],
  // repetition counts
  ["a{1001}", "repetition count over 1000", "at most 1000: {1001}"],
  ["a{1001,}", "repetition count over 1000", "at most 1000: {1001,}"],
  ["a{0,1001}", "repetition count over 1000", "at most 1000: {0,1001}"],
  ["a{1001,1002}", "repetition count over 1000", "at most 1000: {1001,1002}"],
  ["(a{10}){101}", "repetition count over 1000", "nested repetitions multiply"],
  ["((a{10}){10}){11}", "repetition count over 1000", "nested repetitions multiply"],
  ["(a{2}){1000}", "repetition count over 1000", "nested repetitions multiply"],
  ["(?:x|(a{2}){501})", "repetition count over 1000", "nested repetitions multiply"],
  ["(?:(a{2}){501})?", "repetition count over 1000", "nested repetitions multiply"],
  ["x(a{2}){501}", "repetition count over 1000", "nested repetitions multiply"]
]

/** [pattern, position of the fault, a word of the explanation] */
const invalid: ReadonlyArray<readonly [string, number, string]> = [
  // ends and brackets
  ["\\", 1, "ends too early"],
  ["ab\\", 3, "ends too early"],
  ["a)", 1, "unmatched ')'"],
  ["(a))b", 3, "unmatched ')'"],
  ["x(a", 1, "missing ')'"],
  ["x(?:a", 1, "missing ')'"],
  ["x(?<n>a", 1, "missing ')'"],
  ["x(?i", 1, "missing ')'"],
  ["x(?i:a", 1, "missing ')'"],
  ["x[a", 1, "missing ']'"],
  ["x[]", 1, "missing ']'"],
  ["x[^]", 1, "missing ']'"],
  ["x[\\Q]", 1, "missing ']'"],
  // repetition of nothing, or of a repetition
  ["x|*", 2, "nothing to repeat before '*'"],
  ["+a", 0, "nothing to repeat before '+'"],
  ["?a", 0, "nothing to repeat before '?'"],
  ["(?:?)", 3, "nothing to repeat before '?'"],
  ["{2}", 0, "nothing to repeat before '{'"],
  ["x|{2,}", 2, "nothing to repeat before '{'"],
  ["a(?i)*", 5, "nothing to repeat before '*'"],
  ["a\\Q\\E*", 5, "nothing to repeat before '*'"],
  ["^*", 1, "anchor or boundary cannot be repeated"],
  ["a$+", 2, "anchor or boundary cannot be repeated"],
  ["a\\b?", 3, "anchor or boundary cannot be repeated"],
  ["(^)*", 3, "anchor or boundary cannot be repeated"],
  ["a**", 2, "cannot follow another one"],
  ["a{2}{3}", 4, "cannot follow another one"],
  ["a*??", 3, "cannot follow another one"],
  ["xa{3,2}", 2, "{3,2} has its maximum below its minimum"],
  // groups
  ["x(?", 1, "missing ')'"],
  ["x(?#c)", 1, "comments"],
  ["x(?<1a>b)", 1, "malformed group name"],
  ["x(?P", 1, "malformed group name"],
  ["x(?Pn)", 1, "malformed group name"],
  ["x(?)", 1, "empty flag group"],
  ["x(?-)", 1, "empty flag group"],
  ["x(?:)(?-:a)", 5, "empty flag group"],
  ["x(?--i)", 1, "two '-'"],
  ["x(?i-s-m)", 1, "two '-'"],
  ["x(?q)", 1, "unknown flag 'q'"],
  ["x(?i<n>a)", 1, "unknown flag '<'"],
  ["x(?i-é)", 1, "unknown flag 'é'"],
  // escapes
  ["x\\y", 1, "unknown escape \\y"],
  ["x\\é", 1, "unknown escape \\é"],
  ["x\\\u0080", 1, "unknown escape \\\u0080"],
  ["x\\E", 1, "\\E without \\Q"],
  ["x\\c", 1, "\\c must be followed by an ASCII character"],
  ["x\\cé", 1, "\\c must be followed by an ASCII character"],
  ["x\\0", 1, "octal digits"],
  ["x\\08", 1, "octal digits"],
  ["x\\0x7", 1, "octal digits"],
  ["x\\x", 1, "two hexadecimal digits"],
  ["x\\xg0", 1, "two hexadecimal digits"],
  ["x\\x0g", 1, "two hexadecimal digits"],
  ["x\\x/0", 1, "two hexadecimal digits"],
  ["x\\x:0", 1, "two hexadecimal digits"],
  ["x\\x@0", 1, "two hexadecimal digits"],
  ["x\\xG0", 1, "two hexadecimal digits"],
  ["x\\x`0", 1, "two hexadecimal digits"],
  ["x\\x0/", 1, "two hexadecimal digits"],
  ["x\\x{}", 1, "\\x{...} needs hexadecimal digits"],
  ["x\\x{g}{41}", 1, "\\x{...} needs hexadecimal digits"],
  ["x\\x{123456789}", 1, "\\x{...} needs hexadecimal digits"],
  ["x\\x{41", 1, "\\x{...} needs hexadecimal digits"],
  ["x\\x{110000}", 1, "beyond U+10FFFF"],
  ["x\\u12", 1, "four hexadecimal digits"],
  ["x\\u12g4", 1, "four hexadecimal digits"],
  ["x\\p", 1, "\\p needs a property name"],
  ["x\\p1", 1, "\\p needs a property name"],
  ["x\\p[", 1, "\\p needs a property name"],
  ["x\\p@", 1, "\\p needs a property name"],
  ["x\\p~", 1, "\\p needs a property name"],
  ["x\\p{L", 1, "\\p{ without '}'"],
  ["x\\p{}", 1, "\\p{} is not a property name"],
  ["x\\p{1L}", 1, "\\p{1L} is not a property name"],
  ["x\\p{L-x}", 1, "\\p{L-x} is not a property name"],
  ["x\\P{^}", 1, "\\p{} is not a property name"],
  ["x\\p{gc=}", 1, "\\p{gc=} is not a property name"],
  ["x\\p{gc=L=x}", 1, "\\p{gc=L=x} is not a property name"],
  ["x\\p{gc==L}", 1, "\\p{gc==L} is not a property name"],
  ["x\\p{Is=L}", 1, "\\p{Is=L} is not a property name"],
  ["x\\p{java-x}", 1, "\\p{java-x} is not a property name"],
  ["x\\p{In-x}", 1, "\\p{In-x} is not a property name"],
  // classes
  ["x[[:foo:]]", 2, "unknown class [:foo:]"],
  ["x[\\b]", 2, "anchor inside a class"],
  ["x[\\B]", 2, "anchor inside a class"],
  ["x[\\A]", 2, "anchor inside a class"],
  ["x[\\z]", 2, "anchor inside a class"],
  ["x[\\y]", 2, "unknown escape \\y in a class"],
  ["x[\\é]", 2, "unknown escape \\é in a class"],
  ["x[\\\u0080]", 2, "unknown escape \\\u0080 in a class"],
  ["x[a-", 1, "missing ']'"],
  ["x[a-\\d]", 4, "range must end with a single character"],
  ["x[a-\\Qz\\E]", 4, "range must end with a single character"],
  ["x[a-\\p{L}]", 4, "range must end with a single character"],
  ["x[z-a]", 2, "end is before its start"],
  ["x[b\\x{1F600}-a]", 3, "end is before its start"]
]

describe("FieldPattern: refusals", () => {
  it.each(unsupported)(
    "%s is refused as UnsupportedPattern naming %s (bug: a construct no linear-time engine runs let through, or misnamed)",
    (source, construct, why) => {
      const r = refusal(source)
      expect([r?.reason, r?.construct]).toEqual(["UnsupportedPattern", construct])
      expect(r?.message).toContain(why)
    }
  )

  it.each(invalid)(
    "%s is refused as InvalidPattern at position %i (bug: a malformed pattern accepted, or its fault put elsewhere)",
    (source, position, why) => {
      const r = refusal(source)
      expect([r?.reason, r?.position]).toEqual(["InvalidPattern", position])
      expect(r?.message).toContain(why)
    }
  )
})

// ---------------------------------------------------------------------------------------------------------------------
// limits
// ---------------------------------------------------------------------------------------------------------------------

describe("FieldPattern: limits at their edges", () => {
  it("accepts a pattern of 4096 characters and refuses one of 4097 (bug: the length limit off by one)", () => {
    expect(verdicts("a".repeat(4096), ["a".repeat(4096), "a".repeat(4095)])).toEqual([
      ["a".repeat(4096), true, true],
      ["a".repeat(4095), false, false]
    ])
    const r = refusal("a".repeat(4097))
    expect([r?.reason, r?.construct]).toEqual(["UnsupportedPattern", "pattern length"])
    expect(r?.message).toContain("at most 4096 characters long; this one has 4097")
  })

  it("accepts nested repetitions whose counts multiply to 1000, and unbounded or empty ones (bug: the nested product miscounted)", () => {
    for (const source of [
      "((a{10}){10}){10}",
      "(a{1000}){1}",
      "(a+){1000}",
      "(a*){1000}",
      "(a{5}){0}",
      "(?:(?:a{10}){200}){0}",
      "(a{2}){0,500}"
    ]) {
      expect([source, refusal(source)]).toEqual([source, undefined])
    }
    expect(verdicts("(a{2}){0,500}", ["a".repeat(1000), "a".repeat(1002)])).toEqual([
      ["a".repeat(1000), true, true],
      ["a".repeat(1002), false, false]
    ])
  })

  it("accepts groups nested 64 deep and refuses 65, whatever the kind of group (bug: the depth limit missed or off by one)", () => {
    for (const open of ["(", "(?:", "(?<n>", "(?P<n>", "(?i:"]) {
      const deep = (n: number) => `${open.repeat(n)}a${")".repeat(n)}`
      expect([open, refusal(deep(64))]).toEqual([open, undefined])
      const r = refusal(deep(65))
      expect([open, r?.reason, r?.construct]).toEqual([open, "UnsupportedPattern", "deep nesting"])
      expect(r?.message).toContain("more than 64 levels")
    }
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// against re2js, on the syntax the two dialects share
// ---------------------------------------------------------------------------------------------------------------------

/**
 * Pieces of patterns, valid or not, whose meaning is the same in the dialect and in RE2, each with characters it can
 * match (its own text otherwise): values made of these match the patterns often enough to compare verdicts.
 */
const tokens: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ...[
    "(",
    ")",
    "(",
    ")",
    "|",
    "$",
    "(?:",
    "(?P<n>",
    "(?<n>",
    "(?i)",
    "(?s)",
    "(?m)",
    "(?-i)",
    "(?i:",
    "(?s:",
    "(?m:"
  ].map((t) => [t, [""]] as const),
  ...["*", "+", "?", "*", "+", "?", "{2}", "{1,}", "{0,1}", "{,2}", "*?", "+?"].map((t) => [t, ["", t]] as const),
  ...["[", "]", "[", "]", "{", "}", "^", ",", "-", ":", "<", ">", "=", "!", "0", "1", "2"].map(
    (t) => [t, [t]] as const
  ),
  ...["a", "b", "A", "P", "i", "m", "s", "n"].map((t) => [t, [t, t.toLowerCase(), t.toUpperCase()]] as const),
  [".", ["a", "\n", "."]],
  ["&&", ["&"]],
  ["\\d", ["1"]],
  ["\\D", ["a"]],
  ["\\w", ["_"]],
  ["\\W", ["-"]],
  ["\\s", [" ", "\t"]],
  ["\\S", ["a"]],
  ["\\b", [""]],
  ["\\B", [""]],
  ["\\A", [""]],
  ["\\z", [""]],
  ["\\x41", ["A"]],
  ["\\x{62}", ["b"]],
  ["\\x{1F600}", ["😀"]],
  ["\\t", ["\t"]],
  ["\\n", ["\n"]],
  ["\\f", ["\f"]],
  ["\\a", ["\u0007"]],
  ["\\.", ["."]],
  ["\\[", ["["]],
  ["\\]", ["]"]],
  ["\\{", ["{"]],
  ["\\\\", ["\\"]],
  ["\\^", ["^"]],
  ["\\-", ["-"]],
  ["\\Q", [""]],
  ["\\E", [""]],
  ["\\pL", ["α"]],
  ["\\PL", ["1"]],
  ["\\p{Greek}", ["Ω"]],
  ["\\P{Greek}", ["a"]],
  ["\\p{^Greek}", ["b"]],
  ["\\pN", ["2"]],
  ["[:alpha:]", [":", "a"]],
  ["[[:digit:]]", ["0"]],
  ["[[:^alpha:]]", ["!"]]
]

/** characters of the other values: none on which the two dialects differ (`\u000b` for `\s`, `\r` for `.`, ...) */
const characters = ["a", "b", "A", "B", "0", "1", "2", "\n", "\t", "{", "}", ",", "-", ":", "[", "]", "\\", "^", "."]
const moreCharacters = ["α", "Ω", "😀", "!", "_", "&", " ", "\u0007", "\u000c"]

/**
 * Where the dialect refuses what RE2 accepts, on purpose: a repeated anchor or flag group (`^*`, `(?i)+`), Java's
 * nested classes and intersections, and `\b{` (Java's `\b{g}`).
 */
const refusedOnPurpose = (source: string, r: ReturnType<typeof refusal>): boolean =>
  r !== undefined &&
  (r.reason === "UnsupportedPattern"
    ? ["nested character class", "character class intersection", "\\b{g}"].includes(r.construct ?? "")
    : r.position !== undefined && "*+?{".includes(source[r.position] ?? ""))

describe("FieldPattern: against re2js", () => {
  it("refuses every pattern re2js refuses, and matches as re2js does the patterns both accept (bug: the parser reading a construct RE2 also has another way)", () => {
    let agreed = 0
    const other = fc.string({ unit: fc.constantFrom(...characters, ...moreCharacters), maxLength: 6 })
    const case_ = fc.array(fc.constantFrom(...tokens), { maxLength: 8 }).chain((ts) => {
      // a value made of characters each piece can match, some pieces left out or doubled
      const near = fc
        .tuple(...ts.map(([, ws]) => fc.constantFrom("", ...ws, `${ws[0]}${ws[0]}`)))
        .map((parts) => parts.join(""))
      const values = fc.array(fc.oneof({ weight: 3, arbitrary: near }, other), { minLength: 5, maxLength: 5 })
      return values.map((vs) => [ts.map(([t]) => t).join(""), vs] as const)
    })
    fc.assert(
      fc.property(case_, ([source, vs]) => {
        let re2: RE2JS | undefined
        try {
          re2 = RE2JS.compile(source)
        } catch {
          re2 = undefined
        }
        const ours = FieldPattern.compile(source)
        if (re2 === undefined) {
          if (Result.isSuccess(ours)) throw new Error(`${source}: re2js refuses it, FieldPattern compiles it`)
          return
        }
        if (Result.isFailure(ours)) {
          if (!refusedOnPurpose(source, refusal(source))) throw new Error(`${source}: ${ours.failure.message}`)
          return
        }
        for (const v of vs) {
          if (ours.success.test(v) !== re2.testExact(v)) throw new Error(`${source} on ${JSON.stringify(v)}`)
        }
        agreed++
      }),
      { numRuns: 600 }
    )
    expect(agreed).toBeGreaterThan(100)
  })
})
