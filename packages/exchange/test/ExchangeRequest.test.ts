import { describe, expect, it } from "@effect/vitest"
import { ExchangeRequest } from "@payrules/exchange"
import { Currency, DecimalAmount } from "@payrules/money"
import { issuesOf, schemaLaws } from "@payrules/vitest"
import { BigDecimal, Option, Result, Schema } from "effect"
import fc from "fast-check"
import { sortedJson } from "./support/sortedJson.js"

// ---------------------------------------------------------------------------------------------------------------------
// wire bodies generated here, independently of the package: keys in the specification's order
// ---------------------------------------------------------------------------------------------------------------------

interface WireSide {
  account_id: string
  currency: string
  amount?: unknown
}

interface Wire {
  from: WireSide
  to: WireSide
  reference?: unknown
  request_id: unknown
  exchange_reason_code?: string
}

type Mode = "sell" | "buy"

interface Generated {
  readonly mode: Mode
  readonly wire: Wire
  /** the exponent of the amount's currency, undefined where ISO 4217 says N.A. */
  readonly exponent: number | undefined
}

const currencies = Currency.all.map((c) => ({ code: c.code as string, exponent: Option.getOrUndefined(c.exponent) }))

const text = (min: number, max: number) => fc.string({ minLength: min, maxLength: max, unit: "binary" })

// the characters a request_id or a reference must not have, written again here: C0 and C1 controls, lone surrogates
const notInText =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** request_ids: UUIDs, or any text of 1 to 40 code points with those characters replaced */
const requestIds = fc.oneof(
  fc.uuid(),
  text(1, 40).map((s) => s.replace(notInText, "_"))
)

/** a positive decimal numeral with at most 15 significant digits and at most `exponent` decimals */
const numeral = (exponent: number | undefined) =>
  fc
    .tuple(
      fc.oneof(fc.bigInt({ min: 1n, max: 99_999n }), fc.bigInt({ min: 1n, max: 10n ** 15n - 1n })),
      fc.nat(exponent ?? 10)
    )
    .map(([digits, scale]) => DecimalAmount.toFixedString(BigDecimal.make(digits, scale)))

const generated: fc.Arbitrary<Generated> = fc
  .record({
    mode: fc.constantFrom<Mode>("sell", "buy"),
    from: fc.constantFrom(...currencies),
    to: fc.constantFrom(...currencies),
    fromAccount: fc.oneof(fc.uuid(), text(1, 30)),
    toAccount: fc.oneof(fc.uuid(), text(1, 30)),
    reference: fc.option(
      text(0, 40).map((s) => s.replace(notInText, "_")),
      { nil: undefined }
    ),
    requestId: requestIds,
    reasonCode: fc.option(fc.string(), { nil: undefined })
  })
  .filter((r) => r.from.code !== r.to.code)
  .chain((r) => {
    const exponent = r.mode === "sell" ? r.from.exponent : r.to.exponent
    return numeral(exponent).map((amountText): Generated => {
      const amount = Number(amountText)
      const side = (account_id: string, currency: string, has: boolean): WireSide =>
        has ? { account_id, currency, amount } : { account_id, currency }
      const wire: Wire = {
        from: side(r.fromAccount, r.from.code, r.mode === "sell"),
        to: side(r.toAccount, r.to.code, r.mode === "buy")
      } as Wire
      if (r.reference !== undefined) wire.reference = r.reference
      wire.request_id = r.requestId
      if (r.reasonCode !== undefined) wire.exchange_reason_code = r.reasonCode
      return { mode: r.mode, wire, exponent }
    })
  })

const clone = (w: Wire): Wire => JSON.parse(JSON.stringify(w))

const isRequest = Schema.is(Schema.toType(ExchangeRequest.ExchangeRequest))
const isSell = Schema.is(ExchangeRequest.Sell)
const isBuy = Schema.is(ExchangeRequest.Buy)

const ok = (u: unknown): ExchangeRequest.ExchangeRequest => Result.getOrThrow(ExchangeRequest.parse(u))
const encodeText = (r: ExchangeRequest.ExchangeRequest): string =>
  JSON.stringify(Result.getOrThrow(ExchangeRequest.encode(r)))
const problems = (u: unknown) =>
  Result.match(ExchangeRequest.parse(u), {
    onFailure: (e) => ExchangeRequest.issues(e).map(({ rule, path }) => ({ rule, path: path.join(".") })),
    onSuccess: () => []
  })
const messages = (u: unknown): ReadonlyArray<string> =>
  Result.match(ExchangeRequest.parse(u), {
    onFailure: (e) => issuesOf(e).map((i) => i.message),
    onSuccess: () => []
  })

const sell = {
  from: { account_id: "7998c9e4-1c8f-4c33-9b7c-7e1a9f3d9e01", currency: "GBP", amount: 100.5 },
  to: { account_id: "0f7bd9f3-5a4c-4b2a-8b57-4a6d1b0e2c11", currency: "EUR" },
  reference: "rent",
  request_id: "e0cbf84637264ee082a848b"
}

const buy = {
  from: { account_id: "a-gbp", currency: "GBP" },
  to: { account_id: "a-jpy", currency: "JPY", amount: 15000 },
  request_id: "r-2",
  exchange_reason_code: "investment"
}

describe("ExchangeRequest: valid bodies", () => {
  it("decodes a sell and a buy to the union, and encodes back to the same JSON", () => {
    const s = ok(sell)
    expect(s._tag).toBe("Sell")
    expect(ExchangeRequest.amountCurrency(s)).toBe("GBP")
    expect(BigDecimal.equals(s.amount, BigDecimal.fromStringUnsafe("100.5"))).toBe(true)
    expect(encodeText(s)).toBe(JSON.stringify(sell))
    const b = ok(buy)
    expect(b._tag).toBe("Buy")
    expect(ExchangeRequest.isBuy(b) && !ExchangeRequest.isSell(b)).toBe(true)
    expect(ExchangeRequest.amountCurrency(b)).toBe("JPY")
    expect(encodeText(b)).toBe(JSON.stringify(buy))
  })

  it("generated valid bodies decode to Sell | Buy and encode back byte for byte", () => {
    fc.assert(
      fc.property(generated, ({ mode, wire }) => {
        const decoded = ExchangeRequest.parse(JSON.parse(JSON.stringify(wire)))
        if (Result.isFailure(decoded)) throw new Error(`${JSON.stringify(wire)}: ${decoded.failure.message}`)
        const r = decoded.success
        expect(r._tag).toBe(mode === "sell" ? "Sell" : "Buy")
        expect(isRequest(r)).toBe(true)
        expect(mode === "sell" ? isSell(r) && !isBuy(r) : isBuy(r) && !isSell(r)).toBe(true)
        expect(encodeText(r)).toBe(JSON.stringify(wire))
      }),
      { numRuns: 1000 }
    )
  })

  it.prop(
    "the Schema's own arbitrary gives requests that encode and decode to the same JSON",
    [ExchangeRequest.ExchangeRequest],
    ([r]) => {
      const json = encodeText(r)
      expect(encodeText(ok(JSON.parse(json)))).toBe(json)
    },
    { arbitrary: { runs: 500 } }
  )

  it.prop(
    "the Schema's own arbitrary gives requests whose fingerprint is the canonical JSON of their body",
    [ExchangeRequest.ExchangeRequest],
    ([r]) => {
      expect(ExchangeRequest.fingerprint(r)).toBe(sortedJson(JSON.parse(encodeText(r))))
      expect(isRequest(r)).toBe(true)
    },
    { arbitrary: { runs: 300 } }
  )

  it("accepts the limits: 40-character request_id and reference, 15 significant digits, 3 decimals of KWD", () => {
    const r = ok({
      from: { account_id: "a", currency: "KWD", amount: 123456789012.345 },
      to: { account_id: "b", currency: "USD" },
      reference: "r".repeat(40),
      request_id: "😀".repeat(40)
    })
    expect(DecimalAmount.toFixedString(r.amount)).toBe("123456789012.345")
    // trailing zeros of the written number do not count (10.50 is the JSON number 10.5)
    expect(problems({ ...sell, from: { ...sell.from, amount: 10.5 } })).toEqual([])
    // currencies without a minor unit (gold) accept any scale
    expect(problems({ ...sell, from: { account_id: "a", currency: "XAU", amount: 0.0001234 } })).toEqual([])
  })

  schemaLaws("ExchangeRequest", ExchangeRequest.ExchangeRequest)
  schemaLaws("ExchangeRequest.RequestId", ExchangeRequest.RequestId)
  schemaLaws("ExchangeRequest.Sell", ExchangeRequest.Sell, { json: false })
  schemaLaws("ExchangeRequest.Buy", ExchangeRequest.Buy, { json: false })
})

describe("ExchangeRequest: fingerprint", () => {
  it("is the canonical JSON (sorted keys) of the encoded body", () => {
    fc.assert(
      fc.property(generated, ({ wire }) => {
        const r = ok(wire)
        expect(ExchangeRequest.fingerprint(r)).toBe(sortedJson(Result.getOrThrow(ExchangeRequest.encode(r))))
        expect(ExchangeRequest.fingerprint(r)).toBe(sortedJson(wire))
      }),
      { numRuns: 500 }
    )
  })

  it("does not depend on key order", () => {
    fc.assert(
      fc.property(generated, fc.infiniteStream(fc.integer()), ({ wire }, seeds) => {
        const shuffle = <A>(xs: ReadonlyArray<A>): Array<A> => {
          const it = seeds[Symbol.iterator]()
          return xs
            .map((x) => [it.next().value as number, x] as const)
            .sort((a, b) => a[0] - b[0])
            .map(([, x]) => x)
        }
        const reorder = (o: object): object =>
          Object.fromEntries(
            shuffle(Object.entries(o)).map(([k, v]) => [k, v !== null && typeof v === "object" ? reorder(v) : v])
          )
        const shuffled = reorder(wire)
        const a = ok(wire)
        const b = ok(shuffled)
        expect(ExchangeRequest.fingerprint(b)).toBe(ExchangeRequest.fingerprint(a))
        // encoding always writes the specification's order
        expect(encodeText(b)).toBe(JSON.stringify(wire))
      }),
      { numRuns: 300 }
    )
  })

  it("differs whenever the encoded bodies differ", () => {
    fc.assert(
      fc.property(generated, generated, (x, y) => {
        const a = ok(x.wire)
        const b = ok(y.wire)
        expect(ExchangeRequest.fingerprint(a) === ExchangeRequest.fingerprint(b)).toBe(encodeText(a) === encodeText(b))
      }),
      { numRuns: 500 }
    )
    const a = ok(sell)
    const moreDigits = { ...a, amount: BigDecimal.fromStringUnsafe("100.50000000000000001") }
    expect(ExchangeRequest.fingerprint(moreDigits)).not.toBe(ExchangeRequest.fingerprint(a))
    expect(ExchangeRequest.fingerprint(moreDigits)).toContain("100.50000000000000001")
  })

  it("amounts built by hand beyond the range of doubles keep their own fingerprints (bug: 1e400 and 2e400 both written as null)", () => {
    const a = ok(sell)
    const prints = ["1e400", "2e400", "1e-400", "2e-400"].map((text) =>
      ExchangeRequest.fingerprint({ ...a, amount: BigDecimal.fromStringUnsafe(text) })
    )
    expect(new Set(prints).size).toBe(4)
    for (const print of prints) expect(print).not.toMatch(/"amount":(null|0)[,}]/)
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// faults: every single mutation of a valid body is refused with its rule, at its path, and nothing else
// ---------------------------------------------------------------------------------------------------------------------

interface Fault {
  readonly name: string
  readonly applies?: (g: Generated) => boolean
  readonly apply: (w: Wire, g: Generated, text41: string) => void
  readonly rule: ExchangeRequest.Rule
  readonly path: (g: Generated) => string
}

const amountSide = (g: Generated): "from" | "to" => (g.mode === "sell" ? "from" : "to")
const otherSide = (g: Generated): "from" | "to" => (g.mode === "sell" ? "to" : "from")

const faults: ReadonlyArray<Fault> = [
  {
    name: "drop the amount",
    apply: (w, g) => delete w[amountSide(g)].amount,
    rule: "MissingAmount",
    path: () => "from.amount"
  },
  {
    name: "add a second amount",
    apply: (w, g) => {
      w[otherSide(g)].amount = 1
    },
    rule: "TwoAmounts",
    path: () => "to.amount"
  },
  {
    name: "same currency on both sides",
    apply: (w, g) => {
      w[otherSide(g)].currency = w[amountSide(g)].currency
    },
    rule: "SameCurrency",
    path: () => "to.currency"
  },
  {
    name: "one decimal more than the currency's exponent",
    applies: (g) => g.exponent !== undefined,
    apply: (w, g) => {
      w[amountSide(g)].amount = Number(
        `${Math.trunc(Number(w[amountSide(g)].amount)) % 1_000_000}.${"0".repeat(g.exponent!)}1`
      )
    },
    rule: "ScaleExceedsExponent",
    path: (g) => `${amountSide(g)}.amount`
  },
  {
    name: "amount 0",
    apply: (w, g) => {
      w[amountSide(g)].amount = 0
    },
    rule: "AmountNotPositive",
    path: (g) => `${amountSide(g)}.amount`
  },
  {
    name: "negative amount",
    apply: (w, g) => {
      w[amountSide(g)].amount = -Number(w[amountSide(g)].amount)
    },
    rule: "AmountNotPositive",
    path: (g) => `${amountSide(g)}.amount`
  },
  {
    name: "request_id of 41 characters",
    apply: (w, _, text41) => {
      w.request_id = text41
    },
    rule: "RequestIdLength",
    path: () => "request_id"
  },
  ...(
    [
      ["request_id", "RequestIdCharacters"],
      ["reference", "ReferenceCharacters"]
    ] as const
  ).flatMap(([field, rule]) =>
    (
      [
        ["NUL", "\u0000"],
        ["CR LF", "\r\n"],
        ["a tab", "\t"],
        ["DEL", "\u007f"],
        ["a C1 control (NEL)", "\u0085"],
        ["a lone high surrogate", "\ud800"],
        ["a lone low surrogate", "\udc00"]
      ] as const
    ).map(
      ([what, char]): Fault => ({
        name: `${field} with ${what}`,
        apply: (w) => {
          w[field] = `r${char}1`
        },
        rule,
        path: () => field
      })
    )
  ),
  {
    name: "empty request_id",
    apply: (w) => {
      w.request_id = ""
    },
    rule: "RequestIdLength",
    path: () => "request_id"
  },
  {
    name: "reference of 41 characters",
    apply: (w, _, text41) => {
      w.reference = text41
    },
    rule: "ReferenceLength",
    path: () => "reference"
  },
  {
    name: "amount as a string",
    apply: (w, g) => {
      w[amountSide(g)].amount = String(w[amountSide(g)].amount)
    },
    rule: "Shape",
    path: (g) => `${amountSide(g)}.amount`
  },
  {
    name: "unknown currency",
    apply: (w, g) => {
      w[amountSide(g)].currency = "ABC"
    },
    rule: "UnknownCurrency",
    path: (g) => `${amountSide(g)}.currency`
  },
  {
    name: "a float arithmetic result (0.1 + 0.2)",
    apply: (w, g) => {
      w[amountSide(g)].amount = 0.1 + 0.2
    },
    rule: "InexactAmount",
    path: (g) => `${amountSide(g)}.amount`
  }
]

describe("ExchangeRequest: faults", () => {
  it.each(faults.map((f) => [f.name, f] as const))("%s is refused with its rule and path only", (_, fault) => {
    fc.assert(
      fc.property(generated, text(41, 41), (g, text41) => {
        fc.pre(fault.applies?.(g) ?? true)
        const w = clone(g.wire)
        fault.apply(w, g, text41)
        expect(problems(w)).toEqual([{ rule: fault.rule, path: fault.path(g) }])
      }),
      { numRuns: 300 }
    )
  })

  it("messages name the rule", () => {
    const first = (u: unknown) => messages(u)[0]
    expect(first({ ...sell, from: { account_id: "a", currency: "GBP" } })).toBe(
      "the amount is missing: give from.amount to sell a known amount, or to.amount to buy one"
    )
    expect(first({ ...sell, to: { ...sell.to, amount: 1 } })).toBe(
      "the amount is given twice: give either from.amount (sell) or to.amount (buy), not both"
    )
    expect(first({ ...sell, to: { ...sell.to, currency: "GBP" } })).toContain(
      "to.currency must differ from from.currency"
    )
    expect(first({ ...sell, from: { ...sell.from, amount: 10.505 } })).toBe(
      "from.amount: 10.505 has 3 decimals but GBP has 2 (ISO 4217)"
    )
    expect(first({ ...buy, to: { ...buy.to, amount: 1.5 } })).toBe(
      "to.amount: 1.5 has 1 decimals but JPY has 0 (ISO 4217)"
    )
    expect(first({ ...sell, from: { ...sell.from, amount: 0 } })).toBe("from.amount must be greater than 0; got 0")
    expect(first({ ...sell, from: { ...sell.from, amount: -5 } })).toBe("from.amount must be greater than 0; got -5")
    expect(first({ ...sell, from: { ...sell.from, amount: 0.1 + 0.2 } })).toContain(
      "0.30000000000000004 has 17 significant digits"
    )
    expect(first({ ...sell, from: { ...sell.from, amount: "100.5" } })).toContain("an amount is a JSON number")
    expect(first({ ...sell, request_id: "" })).toBe("request_id must have 1 to 40 characters; it has 0 characters")
    expect(first({ ...sell, request_id: "x".repeat(41) })).toBe(
      "request_id must have 1 to 40 characters; it has 41 characters"
    )
    expect(first({ ...sell, reference: "x".repeat(41) })).toBe(
      "reference must have at most 40 characters; it has 41 characters"
    )
    expect(first({ ...sell, from: { ...sell.from, currency: "gbp" } })).toBe(
      "currency codes are upper case: GBP, not gbp"
    )
    expect(first({ ...sell, from: { ...sell.from, account_id: "" } })).toBe("from.account_id must not be empty")
  })

  it("reports every broken rule, each at its path", () => {
    const bad = {
      from: { account_id: "", currency: "GBP", amount: 10.505 },
      to: { account_id: "b", currency: "GBP", amount: 0 },
      reference: "x".repeat(41),
      request_id: ""
    }
    expect(problems(bad)).toEqual([
      { rule: "EmptyAccountId", path: "from.account_id" },
      { rule: "ScaleExceedsExponent", path: "from.amount" },
      { rule: "AmountNotPositive", path: "to.amount" },
      { rule: "SameCurrency", path: "to.currency" },
      { rule: "TwoAmounts", path: "to.amount" },
      { rule: "ReferenceLength", path: "reference" },
      { rule: "RequestIdLength", path: "request_id" }
    ])
    const e = Result.getOrThrow(Result.flip(ExchangeRequest.parse(bad)))
    expect(issuesOf(e).map((i) => i.path)).toEqual([
      ["from", "account_id"],
      ["from", "amount"],
      ["to", "amount"],
      ["to", "currency"],
      ["to", "amount"],
      ["reference"],
      ["request_id"]
    ])
  })

  it("refuses fields the body does not have, missing fields and wrong types, with paths", () => {
    expect(problems({ ...sell, exchange_reason: "x" })).toEqual([{ rule: "Shape", path: "exchange_reason" }])
    expect(problems({ ...sell, from: { ...sell.from, iban: "x" } })).toEqual([{ rule: "Shape", path: "from.iban" }])
    expect(problems({ ...sell, amount: 5 })).toEqual([{ rule: "Shape", path: "amount" }])
    const { request_id: _, ...noId } = sell
    expect(problems(noId)).toEqual([{ rule: "Shape", path: "request_id" }])
    expect(problems({ ...sell, request_id: 7 })).toEqual([{ rule: "Shape", path: "request_id" }])
    expect(problems({ ...sell, to: null })).toEqual([{ rule: "Shape", path: "to" }])
    expect(problems([])).toEqual([{ rule: "Shape", path: "" }])
    expect(problems({ ...sell, reference: undefined })).toEqual([{ rule: "Shape", path: "reference" }])
  })

  it("a field the body does not have in both sides is refused, not dropped (bug: a body with one in each side decoded)", () => {
    const body = { ...sell, from: { ...sell.from, iban: "GB29" }, to: { ...sell.to, bic: "NWBKGB2L" } }
    expect(Result.isFailure(ExchangeRequest.parse(body))).toBe(true)
    expect(problems(body)).toEqual([{ rule: "Shape", path: "from.iban" }])
    expect(problems({ ...body, from: sell.from })).toEqual([{ rule: "Shape", path: "to.bic" }])
  })

  it("a body of only fields it does not have names the first of them (bug: only a missing field reported)", () => {
    expect(problems({ iban: "GB29" })).toEqual([{ rule: "Shape", path: "iban" }])
    expect(problems({ iban: "GB29", from: sell.from })).toEqual([{ rule: "Shape", path: "iban" }])
  })

  const between = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
  const control = Schema.Union([between(0, 0x1f), between(0x7f, 0x9f), between(0xd800, 0xdfff)])

  it.prop(
    "a request_id with a control character or a lone surrogate is refused on both sides, at request_id",
    [ExchangeRequest.RequestId, control, between(0, 1000)],
    ([id, code, at]) => {
      const chars = [...id].slice(0, 39)
      const i = at % (chars.length + 1)
      const bad = [...chars.slice(0, i), String.fromCharCode(code), ...chars.slice(i)].join("")
      // the Schema itself refuses it
      expect(Schema.is(ExchangeRequest.RequestId)(bad)).toBe(false)
      // the sandbox's side: decoding a wire body
      expect(problems({ ...sell, request_id: bad })).toEqual([{ rule: "RequestIdCharacters", path: "request_id" }])
      // the client's side: encoding a request refuses to send it
      expect(Result.isFailure(ExchangeRequest.encode({ ...ok(sell), request_id: bad }))).toBe(true)
      // and the id without it passes
      expect(Schema.is(ExchangeRequest.RequestId)(chars.join(""))).toBe(true)
    },
    { arbitrary: { runs: 300 } }
  )

  it.prop(
    "bug: a reference with a control character or a lone surrogate is refused on both sides, at reference (it was sent and stored)",
    [Schema.String.check(Schema.isMaxLength(39)), control, between(0, 1000)],
    ([text, code, at]) => {
      const chars = [...text.replace(notInText, "_")].slice(0, 39)
      const i = at % (chars.length + 1)
      const bad = [...chars.slice(0, i), String.fromCharCode(code), ...chars.slice(i)].join("")
      expect(problems({ ...sell, reference: bad })).toEqual([{ rule: "ReferenceCharacters", path: "reference" }])
      expect(Result.isFailure(ExchangeRequest.encode({ ...ok(sell), reference: bad }))).toBe(true)
      // and the reference without it passes
      expect(problems({ ...sell, reference: chars.join("") })).toEqual([])
    },
    { arbitrary: { runs: 300 } }
  )

  it("a reference with a control character: the message says which and where", () => {
    expect(messages({ ...sell, reference: "Invoice 12\tQ3" })[0]).toBe(
      "reference must be text without control characters; it has a control character, U+0009, at character 11"
    )
    expect(messages({ ...sell, reference: "a\ud83d" })[0]).toBe(
      "reference must be text without control characters; it has a lone surrogate (UTF-8 cannot carry it), U+D83D, at character 2"
    )
  })

  it("a request_id with a control character: the message says which and where", () => {
    expect(messages({ ...sell, request_id: "a\r\nb" })[0]).toBe(
      "request_id must be text without control characters; it has a control character, U+000D, at character 2"
    )
  })

  it("encoding refuses a request built by hand that breaks a rule", () => {
    const s = ok(sell)
    const bad = (r: ExchangeRequest.ExchangeRequest) => Result.isFailure(ExchangeRequest.encode(r))
    expect(bad({ ...s, amount: BigDecimal.fromStringUnsafe("0") })).toBe(true)
    expect(bad({ ...s, amount: BigDecimal.fromStringUnsafe("10.555") })).toBe(true)
    expect(bad({ ...s, to: { ...s.to, currency: s.from.currency } })).toBe(true)
    expect(bad({ ...s, request_id: "" })).toBe(true)
    expect(bad({ ...s, amount: BigDecimal.fromStringUnsafe("1234567890123456.5") })).toBe(true)
    const e = Result.getOrThrow(
      Result.flip(ExchangeRequest.encode({ ...s, to: { ...s.to, currency: s.from.currency } }))
    )
    expect(issuesOf(e)[0]?.path).toEqual(["to", "currency"])
  })
})
