/**
 * What `compile` makes of each kind of rule (src/internal/rules.ts, names.ts): the `RuleError` a broken rule gets, with
 * its reason, field and message; how the server's bounds meet the base schema's and the schemes'; what a compiled
 * validator then says of a value that breaks a length, an option, a pattern or the currency list, through `validate`
 * and through its Schema alike.
 */
import { describe, expect, it } from "@effect/vitest"
import { SchemeLimits } from "@payrules/accounts"
import { FieldPattern, FieldValidator, RuleError } from "@payrules/transfers"
import { issuesOf as schemaIssuesOf } from "@payrules/vitest"
import { Effect, Result, Schema } from "effect"
import { base, compile, type Rule, ruleErrors } from "./support/validator.js"

const issuesOf = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<FieldValidator.Issue> =>
  Result.match(v.validate(body), { onFailure: (issues) => issues, onSuccess: () => [] })

/** what the Schema says of a body: each issue's path (dotted) and message */
const schemaSays = (v: FieldValidator.FieldValidator, body: unknown): ReadonlyArray<readonly [string, string]> => {
  const r = Schema.decodeUnknownResult(v.schema, { errors: "all" })(body)
  return Result.isSuccess(r) ? [] : schemaIssuesOf(r.failure).map((i) => [i.path.map(String).join("."), i.message])
}

/** what `validate` says of a body: each issue's path (dotted), rule and message */
const validateSays = (
  v: FieldValidator.FieldValidator,
  body: unknown
): ReadonlyArray<readonly [string, FieldValidator.Rule, string]> =>
  issuesOf(v, body).map((i) => [i.path.join("."), i.rule, i.message])

const errorsOf = (fields: ReadonlyArray<Rule>, options?: FieldValidator.Options) =>
  ruleErrors(fields, options).map((e) => [e.reason, e.field, e.message])

// ---------------------------------------------------------------------------------------------------------------------
// names and places
// ---------------------------------------------------------------------------------------------------------------------

describe("compile: a name that cannot be placed (PathConflict), saying why", () => {
  it.each<{ readonly title: string; readonly names: ReadonlyArray<string>; readonly message: string }>([
    {
      title: "a field under amount (bug: amount called a string)",
      names: ["amount.minor"],
      message: "amount.minor: amount is a number, so it has no field minor"
    },
    {
      title: "a field under a base string",
      names: ["request_id.x"],
      message: "request_id.x: request_id is a string, so it has no field x"
    },
    {
      title: "a field two levels under a server string (bug: the wrong segment named)",
      names: ["a.b", "a.b.c.d"],
      message: "a.b.c.d: a.b is a string, so it has no field c"
    },
    {
      title: "a value where an object is (bug: the object's field not named)",
      names: ["a.b", "a"],
      message: "a: a is an object (it has the field b), not a value"
    },
    {
      title: "a rule on receiver itself",
      names: ["receiver"],
      message:
        "receiver: receiver is an object of the static base schema; rules apply to its fields (receiver.counterparty_id, ...)"
    },
    {
      title: "a rule on amount",
      names: ["amount"],
      message: "amount: amount is a JSON number; length, pattern and option rules apply to strings"
    }
  ])("$title", ({ names, message }) => {
    const errors = errorsOf(names.map((name) => ({ name, required: true })))
    expect(errors).toEqual([["PathConflict", names[names.length - 1], message]])
  })
})

describe("compile: names that are not safe dotted paths (InvalidName), saying what is wrong", () => {
  const long = "a".repeat(60)
  it.each<readonly [string, string]>([
    ["", "a field name must not be empty"],
    ["a..b", '"a..b" has an empty segment (a leading, trailing or double dot)'],
    [".a", '".a" has an empty segment (a leading, trailing or double dot)'],
    ["a.b.c.d.e.f", '"a.b.c.d.e.f" has 6 levels; a field name has at most 5'],
    ["a.b-c", '"a.b-c": the segment "b-c" is not an identifier (letters, digits and _, not starting with a digit)'],
    [
      "x.__proto__",
      '"x.__proto__": the segment "__proto__" is a property of Object.prototype and could reach a prototype'
    ],
    // up to 48 characters a name is shown whole; a longer one is cut to 45 and "..."
    [
      `${"a".repeat(47)}-`,
      `"${"a".repeat(47)}-": the segment "${"a".repeat(47)}-" is not an identifier (letters, digits and _, not starting with a digit)`
    ],
    [
      `${"a".repeat(48)}-`,
      `"${"a".repeat(45)}...": the segment "${"a".repeat(45)}..." is not an identifier (letters, digits and _, not starting with a digit)`
    ],
    [`${long}..b`, `"${"a".repeat(45)}..." has an empty segment (a leading, trailing or double dot)`]
  ])("%j (bug: a wrong reason, or a long name shown whole or cut where it fits)", (name, message) => {
    expect(errorsOf([{ name, required: true }])).toEqual([["InvalidName", name, message]])
  })

  it("a bad name of the limit mapping is named as the mapping's", () => {
    expect(ruleErrors([], { limitFields: { "x..y": "Reference" } }).map((e) => [e.reason, e.field, e.message])).toEqual(
      [
        [
          "InvalidName",
          "x..y",
          'the limit mapping names a bad field: "x..y" has an empty segment (a leading, trailing or double dot)'
        ]
      ]
    )
  })
})

describe("compileUnsafe", () => {
  it("throws the first RuleError itself, with its reason and field (bug: a thrown undefined)", () => {
    const thrown = (() => {
      try {
        FieldValidator.compileUnsafe([
          { name: "a..b", required: true },
          { name: "c", required: true, validation: { min_length: -1 } }
        ])
      } catch (e) {
        return e
      }
      return undefined
    })()
    expect(thrown).toBeInstanceOf(RuleError.RuleError)
    expect(thrown).toMatchObject({ reason: "InvalidName", field: "a..b" })
  })

  it("FieldPattern.compileUnsafe throws the pattern's RuleError (bug: a thrown undefined)", () => {
    const thrown = (() => {
      try {
        FieldPattern.compileUnsafe("(a")
      } catch (e) {
        return e
      }
      return undefined
    })()
    expect(thrown).toBeInstanceOf(RuleError.RuleError)
    expect(thrown).toMatchObject({ reason: "InvalidPattern", field: undefined })
  })
})

describe("RuleError", () => {
  it.effect(
    "is caught by its tag in an Effect, as every tagged error of the library (bug: the _tag lost, so catchTag('RuleError') let it through)",
    () =>
      Effect.gen(function* () {
        const failure = Result.match(FieldPattern.compile("(a"), { onFailure: (e) => e, onSuccess: () => undefined })
        expect(failure?._tag).toBe("RuleError")
        const reason = yield* Effect.fail(failure!).pipe(
          Effect.map(() => "no failure"),
          Effect.catchTag("RuleError", (e) => Effect.succeed(e.reason))
        )
        expect(reason).toBe("InvalidPattern")
      })
  )
})

// ---------------------------------------------------------------------------------------------------------------------
// lengths
// ---------------------------------------------------------------------------------------------------------------------

describe("compile: lengths", () => {
  it("refuses a length that is not a non-negative integer, naming the key and the value", () => {
    expect(
      errorsOf([
        { name: "a", required: true, validation: { min_length: -1 } },
        { name: "b", required: true, validation: { max_length: 1.5 } }
      ])
    ).toEqual([
      ["InvalidLength", "a", "a: min_length must be a non-negative integer, not -1"],
      ["InvalidLength", "b", "b: max_length must be a non-negative integer, not 1.5"]
    ])
  })

  it("an empty range names both bounds with their sources, the base's included (bug: a source replaced)", () => {
    expect(
      errorsOf([
        { name: "account_id", required: true, validation: { max_length: 0 } },
        { name: "x", required: true, validation: { min_length: 5, max_length: 3 } }
      ])
    ).toEqual([
      [
        "EmptyIntersection",
        "account_id",
        "account_id: no length fits: the minimum is 1 (account_id must not be empty) and the maximum 0 (the server's rule)"
      ],
      [
        "EmptyIntersection",
        "x",
        "x: no length fits: the minimum is 5 (the server's rule) and the maximum 3 (the server's rule)"
      ]
    ])
  })

  it("a server bound looser than the base's does not loosen it (bug: the last bound wins)", () => {
    const v = compile([
      { name: "account_id", required: true, validation: { min_length: 0 } },
      { name: "request_id", required: true, validation: { max_length: 50 } }
    ])
    expect(validateSays(v, { ...base, account_id: "", request_id: "r".repeat(41) })).toEqual([
      ["account_id", "MinLength", "account_id must not be empty"],
      [
        "request_id",
        "MaxLength",
        "request_id must have at most 40 characters (request_id has 1 to 40 characters); it has 41"
      ]
    ])
  })

  it("a server bound equal to the base's or the scheme's keeps the first one's words (bug: the server's replaces them)", () => {
    const v = compile(
      [
        { name: "account_id", required: true, validation: { min_length: 1 } },
        { name: "request_id", required: true, validation: { max_length: 40 } },
        { name: "reference", required: true, validation: { max_length: 18 } }
      ],
      { schemes: [SchemeLimits.FasterPayments] }
    )
    expect(validateSays(v, { ...base, account_id: "", request_id: "r".repeat(41), reference: "r".repeat(19) })).toEqual(
      [
        ["account_id", "MinLength", "account_id must not be empty"],
        [
          "request_id",
          "MaxLength",
          "request_id must have at most 40 characters (request_id has 1 to 40 characters); it has 41"
        ],
        [
          "reference",
          "MaxLength",
          "reference must have at most 18 characters (FasterPayments: Faster Payments accepts only 18 characters of reference); it has 19"
        ]
      ]
    )
  })

  it('a value too short or too long is told the bound, its source and its own length in code points, by validate and the Schema alike (bug: a minimum of 1 told only "the server\'s rule")', () => {
    const v = compile([
      { name: "one", required: false, validation: { min_length: 1 } },
      { name: "three", required: false, validation: { min_length: 3, max_length: 5 } },
      { name: "single", required: false, validation: { max_length: 1 } }
    ])
    const body = { ...base, one: "", three: "😀😀", single: "ab" }
    const want = [
      ["one", "MinLength", "one must have at least 1 character (the server's rule); it has 0"],
      ["three", "MinLength", "three must have at least 3 characters (the server's rule); it has 2"],
      ["single", "MaxLength", "single must have at most 1 character (the server's rule); it has 2"]
    ] as const
    expect(validateSays(v, body)).toEqual(want)
    expect(schemaSays(v, body)).toEqual(want.map(([path, , message]) => [path, message]))
    // too long, through the Schema: MaxLength, not MinLength (bug: the two told apart by the wrong sign)
    expect(schemaSays(v, { ...base, three: "abcdef" })).toEqual([
      ["three", "three must have at most 5 characters (the server's rule); it has 6"]
    ])
    expect(schemaSays(v, { ...base, three: "abc", single: "a", one: "a" })).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// patterns
// ---------------------------------------------------------------------------------------------------------------------

describe("compile: patterns no allowed value can match (EmptyIntersection)", () => {
  it.each<{
    readonly title: string
    readonly rule: Rule
    readonly schemes: ReadonlyArray<SchemeLimits.LimitSet>
    readonly message: string
  }>([
    {
      title: "a pattern that matches nothing",
      rule: { name: "x", required: true, validation: { regex: { pattern: "[^\\x{0}-\\x{10FFFF}]", description: "" } } },
      schemes: [],
      message: 'x: no value can match the pattern "[^\\\\x{0}-\\\\x{10FFFF}]"'
    },
    {
      title: "matches of one length, above the scheme's maximum",
      rule: { name: "reference", required: true, validation: { regex: { pattern: "\\d{27}", description: "27" } } },
      schemes: [SchemeLimits.FasterPayments],
      message:
        'reference: the pattern "\\\\d{27}" matches values of 27 characters, but the length must be within 0 and 18 (FasterPayments: Faster Payments accepts only 18 characters of reference)'
    },
    {
      title: "matches of a range of lengths, below the server's minimum, with no maximum",
      rule: {
        name: "x",
        required: true,
        validation: { min_length: 10, regex: { pattern: "[a-z]{3,5}", description: "" } }
      },
      schemes: [],
      message:
        'x: the pattern "[a-z]{3,5}" matches values of 3 to 5 characters, but the length must be within 10 and no maximum'
    },
    {
      title: "matches of a range of lengths, above the server's maximum",
      rule: {
        name: "x",
        required: true,
        validation: { max_length: 2, regex: { pattern: "[a-z]{3,5}", description: "" } }
      },
      schemes: [],
      message:
        'x: the pattern "[a-z]{3,5}" matches values of 3 to 5 characters, but the length must be within 0 and 2 (the server\'s rule)'
    }
  ])("$title", ({ rule, schemes, message }) => {
    expect(errorsOf([rule], { schemes })).toEqual([["EmptyIntersection", rule.name, message]])
  })
})

describe("a value that does not match a pattern", () => {
  it("is told the server's description, or the pattern itself when the description is blank (bug: a blank message)", () => {
    const v = compile([
      { name: "empty", required: false, validation: { regex: { pattern: "[a-z]+", description: "" } } },
      { name: "blank", required: false, validation: { regex: { pattern: "[a-z]+", description: " \t " } } },
      { name: "told", required: false, validation: { regex: { pattern: "[a-z]+", description: " lower case " } } }
    ])
    const body = { ...base, empty: "A", blank: "B", told: "C" }
    const want = [
      ["empty", "Pattern", 'empty must match the pattern "[a-z]+"'],
      ["blank", "Pattern", 'blank must match the pattern "[a-z]+"'],
      ["told", "Pattern", " lower case "]
    ] as const
    expect(validateSays(v, body)).toEqual(want)
    expect(schemaSays(v, body)).toEqual(want.map(([path, , message]) => [path, message]))
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// options
// ---------------------------------------------------------------------------------------------------------------------

const letters = "abcdefghijklm".split("")

describe("compile: options", () => {
  it("a value not among them is told the list, at most 12 shown (bug: the list cut at the wrong length, or empty)", () => {
    const twelve = compile([{ name: "x", required: true, options: letters.slice(0, 12).map((value) => ({ value })) }])
    expect(validateSays(twelve, { ...base, x: "z" })).toEqual([
      ["x", "OneOf", 'x must be one of "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"']
    ])
    const thirteen = compile([{ name: "x", required: true, options: letters.map((value) => ({ value })) }])
    const message = 'x must be one of "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", ... (13 in all)'
    expect(validateSays(thirteen, { ...base, x: "z" })).toEqual([["x", "OneOf", message]])
    expect(schemaSays(thirteen, { ...base, x: "z" })).toEqual([["x", message]])
  })

  it("lists each value once, with its label and default, dropping those the other rules refuse (bug: a repeated option)", () => {
    const v = compile([
      {
        name: "x",
        required: true,
        validation: { max_length: 3 },
        options: [
          { value: "abc", description: "Alphabet", default: true },
          { value: "d", description: "" },
          { value: "abc", description: "again" },
          { value: "e", description: 5 },
          { value: "f" },
          { value: "g", default: "yes" },
          { value: "long" }
        ]
      }
    ])
    expect(v.form[0]!.options).toEqual([
      { value: "abc", label: "Alphabet", default: true },
      { value: "d", label: "d", default: false },
      { value: "e", label: "e", default: false },
      { value: "f", label: "f", default: false },
      { value: "g", label: "g", default: false }
    ])
    expect(validateSays(v, { ...base, x: "long" })).toEqual([
      ["x", "OneOf", 'x must be one of "abc", "d", "e", "f", "g"']
    ])
  })

  it("refuses options none of which passes the other rules, saying what the first one breaks", () => {
    expect(
      errorsOf([
        {
          name: "x",
          required: true,
          validation: { regex: { pattern: "[A-Z]+", description: "capitals" } },
          options: [{ value: "a" }, { value: "b1" }]
        },
        { name: "y", required: false, options: [] },
        { name: "z", required: true, validation: { max_length: 0 }, options: letters.map((value) => ({ value })) }
      ])
    ).toEqual([
      ["EmptyIntersection", "x", 'x: none of the options "a", "b1" satisfies the other rules (capitals)'],
      ["EmptyIntersection", "y", "y: the list of options is empty, so no value is allowed"],
      [
        "EmptyIntersection",
        "z",
        `z: none of the options "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", ... (13 in all) satisfies the other rules (z must have at most 0 characters (the server's rule); it has 1)`
      ]
    ])
  })

  it("refuses currency options that are not ISO 4217 codes of the list, saying why (bug: the currency's reason lost)", () => {
    expect(errorsOf([{ name: "currency", required: true, options: [{ value: "gbp" }, { value: "EURO" }] }])).toEqual([
      [
        "EmptyIntersection",
        "currency",
        'currency: none of the options "gbp", "EURO" satisfies the other rules (currency: currency codes are upper case: GBP, not gbp)'
      ]
    ])
  })
})

describe("a currency not on the list", () => {
  it("is told why, by validate and the Schema alike (bug: a bare 'not a code')", () => {
    const v = compile([])
    const body = { ...base, currency: "gbp" }
    expect(validateSays(v, body)).toEqual([
      ["currency", "Currency", "currency: currency codes are upper case: GBP, not gbp"]
    ])
    expect(schemaSays(v, body)).toEqual([["currency", "currency: currency codes are upper case: GBP, not gbp"]])
    expect(validateSays(v, { ...base, currency: "GBP" })).toEqual([])
  })
})

describe("form: labels", () => {
  it("are the last segment in words, first letter up; a segment of underscores alone stays as it is (bug: underscores kept, or a crash)", () => {
    const v = compile([
      { name: "transfer_reason_code", required: false },
      { name: "receiver.address._post__code_", required: false },
      { name: "_", required: false }
    ])
    expect(v.form.map((f) => f.label)).toEqual(["Transfer reason code", "Post code", "_"])
  })
})
