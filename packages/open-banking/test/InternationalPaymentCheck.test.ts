import { describe, expect, it } from "@effect/vitest"
import { Currency } from "@payrules/money"
import { InternationalPayment, InternationalPaymentCheck, type Profile } from "@payrules/open-banking"
import { Result } from "effect"
import fc from "fast-check"
import { deleteIn, fixture, full, type Path, profiles, setIn } from "./helpers.js"

type P = Profile.Profile

const INITIATION = ["Data", "Initiation"] as const
const RATE = ["Data", "ExchangeRateInformation"] as const
const INITIATION_RATE = [...INITIATION, "ExchangeRateInformation"] as const

const decoded = (profile: P, u: unknown) =>
  Result.getOrThrow(InternationalPayment.decode(profile, u, { mode: "lenient" }))

const findings = (profile: P, u: unknown, options?: InternationalPaymentCheck.Options) =>
  InternationalPaymentCheck.check(decoded(profile, u), { profile, ...options }).map((f) => [
    f.severity,
    f.rule,
    f.path.join(".")
  ])

/** the full fixture with GBP throughout, paid to a UK sort code account: no findings at all */
const clean = (profile: P): Record<string, unknown> => {
  let body: Record<string, unknown> = full(profile)
  const edits: ReadonlyArray<readonly [Path, unknown]> = [
    [[...INITIATION, "CurrencyOfTransfer"], "EUR"],
    [[...INITIATION, "InstructedAmount"], { Amount: "250.00", Currency: "EUR" }],
    [RATE, { UnitCurrency: "EUR", ExchangeRate: profile === "revolut" ? "0.8538" : 0.8538, RateType: "Actual" }],
    [INITIATION_RATE, { UnitCurrency: "EUR", RateType: "Actual" }],
    [[...INITIATION, "RemittanceInformation"], { Reference: "INV-2024-117" }],
    [
      [...INITIATION, "DebtorAccount"],
      { SchemeName: "UK.OBIE.SortCodeAccountNumber", Identification: "04290953215338" }
    ]
  ]
  for (const [path, value] of edits) body = setIn(body, path, value)
  return body
}

const scan = (body: Record<string, unknown>) =>
  setIn(
    setIn(body, [...INITIATION, "CreditorAccount"], {
      SchemeName: "UK.OBIE.SortCodeAccountNumber",
      Identification: "08080021325698",
      Name: "ACME Inc"
    }),
    [...INITIATION, "CurrencyOfTransfer"],
    "GBP"
  )

describe("InternationalPaymentCheck.check", () => {
  it.each(profiles)("%s: a clean payment has no findings; the debtor currency GBP is consistent", (profile) => {
    expect(findings(profile, clean(profile))).toEqual([])
    expect(findings(profile, clean(profile), { debtorAccountCurrency: "GBP" })).toEqual([])
  })

  describe("Faster Payments (D7)", () => {
    const long = (profile: P) =>
      setIn(
        setIn(scan(clean(profile)), [...INITIATION, "EndToEndIdentification"], "E2E-2024-03-31-0000000000000001"),
        [...INITIATION, "RemittanceInformation", "Reference"],
        "INVOICE 2024-00017"
      )

    it.each(profiles)("%s: 31 and 18 code points fit", (profile) => {
      expect(findings(profile, long(profile))).toEqual([])
    })

    it.each(profiles)("%s: 32 and 19 do not, when the payment goes through Faster Payments", (profile) => {
      const body = setIn(
        setIn(long(profile), [...INITIATION, "EndToEndIdentification"], "E2E-2024-03-31-00000000000000001"),
        [...INITIATION, "RemittanceInformation", "Reference"],
        "INVOICE 2024-00017X"
      )
      expect(findings(profile, body)).toEqual([
        ["warning", "FasterPaymentsEndToEndIdentification", "Data.Initiation.EndToEndIdentification"],
        ["warning", "FasterPaymentsReference", "Data.Initiation.RemittanceInformation.Reference"]
      ])
      const [e2e, reference] = InternationalPaymentCheck.check(decoded(profile, body), { profile })
      expect(e2e?.message).toBe(
        "EndToEndIdentification is 32 characters long; FasterPayments allows at most 31 (Faster Payments carries only 31 characters of the end-to-end identification); the payment goes through Faster Payments (the creditor account is UK.OBIE.SortCodeAccountNumber and the currency of transfer GBP), which passes on only the first 31"
      )
      expect(reference?.message).toContain("Reference is 19 characters long; FasterPayments allows at most 18")
      // not through Faster Payments: an IBAN, another currency, or the caller says so
      const iban = setIn(body, [...INITIATION, "CreditorAccount"], {
        SchemeName: "UK.OBIE.IBAN",
        Identification: "GB82WEST12345698765432",
        Name: "A"
      })
      expect(findings(profile, iban)).toEqual([])
      expect(findings(profile, setIn(body, [...INITIATION, "CurrencyOfTransfer"], "EUR"))).toEqual([])
      expect(findings(profile, body, { scheme: "Other" })).toEqual([])
      expect(findings(profile, iban, { scheme: "FasterPayments" }).map((f) => f[1])).toEqual([
        "FasterPaymentsEndToEndIdentification",
        "FasterPaymentsReference"
      ])
    })

    it("counts code points, not UTF-16 units", () => {
      const body = setIn(scan(clean("revolut")), [...INITIATION, "RemittanceInformation", "Reference"], "🎉".repeat(18))
      expect(findings("revolut", body)).toEqual([])
      const over = setIn(body, [...INITIATION, "RemittanceInformation", "Reference"], "🎉".repeat(19))
      expect(findings("revolut", over).map((f) => f[1])).toEqual(["FasterPaymentsReference"])
    })

    it("says why the scheme applies", () => {
      const payment = decoded("revolut", scan(clean("revolut")))
      expect(InternationalPaymentCheck.fasterPayments(payment)).toEqual({
        applies: true,
        because: "the creditor account is UK.OBIE.SortCodeAccountNumber and the currency of transfer GBP"
      })
      expect(InternationalPaymentCheck.fasterPayments(decoded("revolut", clean("revolut"))).applies).toBe(false)
      expect(InternationalPaymentCheck.fasterPayments(payment, { scheme: "Other" }).applies).toBe(false)
    })
  })

  it.each(profiles)("%s: Unstructured next to Reference is ignored: a warning (D7)", (profile) => {
    const both = setIn(clean(profile), [...INITIATION, "RemittanceInformation", "Unstructured"], "Shipment fee")
    expect(findings(profile, both)).toEqual([
      ["warning", "UnstructuredIgnored", "Data.Initiation.RemittanceInformation.Unstructured"]
    ])
    const only = setIn(clean(profile), [...INITIATION, "RemittanceInformation"], { Unstructured: "Shipment fee" })
    expect(findings(profile, only)).toEqual([])
  })

  it.each(profiles)("%s: CurrencyOfTransfer equal to the debtor account's currency is an error", (profile) => {
    expect(findings(profile, clean(profile), { debtorAccountCurrency: "EUR" })).toEqual([
      ["error", "CurrencyOfTransferIsDebtorCurrency", "Data.Initiation.CurrencyOfTransfer"]
    ])
    expect(findings(profile, clean(profile), { debtorAccountCurrency: "GBP" })).toEqual([])
  })

  it.each(profiles)("%s: more decimals than the currency has is an error (D4)", (profile) => {
    const body = setIn(clean(profile), [...INITIATION, "InstructedAmount"], { Amount: "250.005", Currency: "EUR" })
    expect(findings(profile, body)).toEqual([
      ["error", "AmountScaleExceedsExponent", "Data.Initiation.InstructedAmount.Amount"]
    ])
    const [f] = InternationalPaymentCheck.check(decoded(profile, body), { profile })
    expect(f?.message).toBe("250.005 has 3 decimals but EUR has 2 (ISO 4217)")
    const trailingZeros = setIn(clean(profile), [...INITIATION, "InstructedAmount"], {
      Amount: "100.000",
      Currency: "EUR"
    })
    expect(findings(profile, trailingZeros)).toEqual([])
  })

  describe("exchange rates", () => {
    it.each(profiles)("%s: UnitCurrency must be a currency of the payment", (profile) => {
      const body = setIn(
        setIn(clean(profile), [...RATE, "UnitCurrency"], "CHF"),
        [...INITIATION_RATE, "UnitCurrency"],
        "CHF"
      )
      expect(findings(profile, body)).toEqual([
        ["warning", "UnitCurrencyUnrelated", "Data.ExchangeRateInformation.UnitCurrency"],
        ["warning", "UnitCurrencyUnrelated", "Data.Initiation.ExchangeRateInformation.UnitCurrency"]
      ])
      expect(findings(profile, body, { debtorAccountCurrency: "GBP" }).map((f) => f[0])).toEqual(["error", "error"])
      expect(findings(profile, body, { debtorAccountCurrency: "CHF" })).toEqual([])
      const [f] = InternationalPaymentCheck.check(decoded(profile, body), { profile })
      expect(f?.message).toBe(
        "UnitCurrency CHF is not a currency of the payment (InstructedAmount EUR, CurrencyOfTransfer EUR); Open Banking puts the debtor account's currency there, which is not known here: give debtorAccountCurrency to check it"
      )
      // the instructed or the transfer currency is fine
      expect(
        findings(
          profile,
          setIn(setIn(clean(profile), [...RATE, "UnitCurrency"], "EUR"), [...INITIATION_RATE, "UnitCurrency"], "EUR")
        )
      ).toEqual([])
    })

    it.each(profiles)("%s: a rate of 0 or less is an error", (profile) => {
      for (const [value, initiation] of [
        ["0", 0],
        ["-1.5", -1.5],
        ["0.0000", 0]
      ] as const) {
        const body = setIn(
          setIn(clean(profile), [...RATE, "ExchangeRate"], profile === "revolut" ? value : Number(value)),
          [...INITIATION_RATE, "ExchangeRate"],
          initiation
        )
        expect(findings(profile, body)).toEqual([
          ["error", "ExchangeRateNotPositive", "Data.ExchangeRateInformation.ExchangeRate"],
          ["error", "ExchangeRateNotPositive", "Data.Initiation.ExchangeRateInformation.ExchangeRate"]
        ])
      }
    })

    it.each(profiles)(
      "%s: an Agreed rate needs a ContractIdentification (and, in the initiation, the rate)",
      (profile) => {
        const body = setIn(setIn(clean(profile), [...RATE, "RateType"], "Agreed"), [...INITIATION_RATE], {
          UnitCurrency: "EUR",
          RateType: "Agreed"
        })
        expect(findings(profile, body)).toEqual([
          ["warning", "AgreedRateWithoutContract", "Data.ExchangeRateInformation.ContractIdentification"],
          ["warning", "AgreedRateWithoutContract", "Data.Initiation.ExchangeRateInformation.ContractIdentification"],
          ["warning", "AgreedRateWithoutRate", "Data.Initiation.ExchangeRateInformation.ExchangeRate"]
        ])
        const complete = setIn(setIn(body, [...RATE, "ContractIdentification"], "FX-1"), [...INITIATION_RATE], {
          UnitCurrency: "EUR",
          RateType: "Agreed",
          ExchangeRate: 0.8538,
          ContractIdentification: "FX-1"
        })
        expect(findings(profile, complete)).toEqual([])
      }
    )

    it.each(profiles)("%s: the Data-level and Initiation-level rates should agree", (profile) => {
      const initiation = (rate: Record<string, unknown>) => setIn(clean(profile), [...INITIATION_RATE], rate)
      expect(findings(profile, initiation({ UnitCurrency: "EUR", RateType: "Actual", ExchangeRate: 0.8538 }))).toEqual(
        []
      )
      expect(findings(profile, initiation({ UnitCurrency: "EUR", RateType: "Actual", ExchangeRate: 0.8538 }))).toEqual(
        []
      )
      expect(findings(profile, initiation({ UnitCurrency: "EUR", RateType: "Actual", ExchangeRate: 0.86 }))).toEqual([
        ["warning", "ExchangeRateMismatch", "Data.ExchangeRateInformation.ExchangeRate"]
      ])
      expect(findings(profile, initiation({ UnitCurrency: "GBP", RateType: "Indicative" }))).toEqual([
        ["warning", "ExchangeRateMismatch", "Data.ExchangeRateInformation.UnitCurrency"],
        ["warning", "ExchangeRateMismatch", "Data.ExchangeRateInformation.RateType"],
        ["warning", "UnitCurrencyUnrelated", "Data.Initiation.ExchangeRateInformation.UnitCurrency"]
      ])
      expect(
        findings(profile, initiation({ UnitCurrency: "GBP", RateType: "Indicative" }), { debtorAccountCurrency: "GBP" })
      ).toEqual([
        ["warning", "ExchangeRateMismatch", "Data.ExchangeRateInformation.UnitCurrency"],
        ["warning", "ExchangeRateMismatch", "Data.ExchangeRateInformation.RateType"]
      ])
      // one level alone is never a mismatch
      expect(findings(profile, deleteIn(clean(profile), [...INITIATION_RATE]))).toEqual([])
      expect(findings(profile, deleteIn(clean(profile), [...RATE]))).toEqual([])
    })
  })

  it("DebtorAccount missing: a warning in revolut (the lenient-mode finding), nothing in obie-3.1.11", () => {
    const revolut = deleteIn(clean("revolut"), [...INITIATION, "DebtorAccount"])
    expect(findings("revolut", revolut)).toEqual([["warning", "DebtorAccountMissing", "Data.Initiation.DebtorAccount"]])
    expect(InternationalPaymentCheck.check(decoded("revolut", revolut)).map((f) => f.rule)).toEqual([
      "DebtorAccountMissing"
    ])
    expect(findings("obie-3.1.11", deleteIn(clean("obie-3.1.11"), [...INITIATION, "DebtorAccount"]))).toEqual([])
  })

  it("the published examples", () => {
    expect(findings("revolut", fixture("revolut-published-example"))).toEqual([
      ["warning", "DebtorAccountMissing", "Data.Initiation.DebtorAccount"]
    ])
    expect(findings("obie-3.1.11", fixture("obie-published-example"))).toEqual([
      ["warning", "UnitCurrencyUnrelated", "Data.ExchangeRateInformation.UnitCurrency"],
      ["warning", "UnitCurrencyUnrelated", "Data.Initiation.ExchangeRateInformation.UnitCurrency"],
      ["warning", "UnstructuredIgnored", "Data.Initiation.RemittanceInformation.Unstructured"]
    ])
    // Open Banking's example pays USD from a GBP account: the rate is per GBP
    expect(findings("obie-3.1.11", fixture("obie-published-example"), { debtorAccountCurrency: "GBP" })).toEqual([
      ["warning", "UnstructuredIgnored", "Data.Initiation.RemittanceInformation.Unstructured"]
    ])
  })

  // (bug: a finding whose message did not say which values disagree, or said it of the wrong field)
  it.each(profiles)("%s: each finding's message names the values it is about", (profile) => {
    const messages = (u: unknown, options?: InternationalPaymentCheck.Options) =>
      InternationalPaymentCheck.check(decoded(profile, u), { profile, ...options }).map((f) => [f.rule, f.message])
    const rates = setIn(
      setIn(setIn(clean(profile), [...RATE, "RateType"], "Agreed"), [...INITIATION_RATE], {
        UnitCurrency: "CHF",
        RateType: "Agreed",
        ExchangeRate: -2
      }),
      [...RATE, "ExchangeRate"],
      profile === "revolut" ? "-0.50" : -0.5
    )
    expect(messages(rates, { debtorAccountCurrency: "USD" })).toEqual([
      // as written: a string keeps its trailing zero, a JSON number has none
      [
        "ExchangeRateNotPositive",
        `ExchangeRate ${profile === "revolut" ? "-0.50" : "-0.5"} is not a rate: one unit of EUR buys a positive amount`
      ],
      [
        "AgreedRateWithoutContract",
        "RateType is Agreed but no ContractIdentification names the foreign exchange contract"
      ],
      ["ExchangeRateMismatch", "the rate used is per EUR, the rate of the initiation per CHF"],
      [
        "UnitCurrencyUnrelated",
        "UnitCurrency CHF is not a currency of the payment (InstructedAmount EUR, CurrencyOfTransfer EUR, debtor account USD)"
      ],
      ["ExchangeRateNotPositive", "ExchangeRate -2 is not a rate: one unit of CHF buys a positive amount"],
      [
        "AgreedRateWithoutContract",
        "RateType is Agreed but no ContractIdentification names the foreign exchange contract"
      ]
    ])
    const agreedWithoutRate = setIn(clean(profile), [...INITIATION_RATE], {
      UnitCurrency: "EUR",
      RateType: "Agreed",
      ContractIdentification: "FX-1"
    })
    expect(messages(agreedWithoutRate)).toEqual([
      ["ExchangeRateMismatch", "the rate used is Actual, the initiation asked for Agreed"],
      [
        "AgreedRateWithoutRate",
        "RateType is Agreed but the agreed ExchangeRate is missing (Open Banking requires both with Agreed)"
      ]
    ])
    const otherRate = setIn(clean(profile), [...INITIATION_RATE], {
      UnitCurrency: "EUR",
      RateType: "Actual",
      ExchangeRate: 0.86
    })
    expect(messages(otherRate)).toEqual([
      ["ExchangeRateMismatch", "the rate used (0.8538) differs from the rate of the initiation (0.86)"]
    ])
    expect(messages(clean(profile), { debtorAccountCurrency: "EUR" })).toEqual([
      [
        "CurrencyOfTransferIsDebtorCurrency",
        "CurrencyOfTransfer EUR is the currency of the debtor account; the specification defines it as different from the currency of the debtor account"
      ]
    ])
    const both = setIn(clean(profile), [...INITIATION, "RemittanceInformation", "Unstructured"], "Shipment fee")
    expect(messages(both)).toEqual([
      [
        "UnstructuredIgnored",
        "both Reference and Unstructured are given: Unstructured is ignored (give only one reference)"
      ]
    ])
    const unlisted = setIn(clean(profile), [...INITIATION, "InstructedAmount"], { Amount: "10.12", Currency: "XYZ" })
    expect(messages(unlisted).filter(([rule]) => rule === "CurrencyNotListed")).toEqual([
      [
        "CurrencyNotListed",
        `XYZ is not on the ISO 4217 list bundled here (published ${Currency.publicationDate}): read as sent; its exponent is unknown, so the scale of the amount is not checked`
      ]
    ])
    const transfer = setIn(clean(profile), [...INITIATION, "CurrencyOfTransfer"], "XYZ")
    expect(messages(transfer)).toEqual([
      [
        "CurrencyNotListed",
        `XYZ is not on the ISO 4217 list bundled here (published ${Currency.publicationDate}): read as sent`
      ]
    ])
    const rateType = setIn(clean(profile), [...INITIATION_RATE, "RateType"], "Fixed")
    expect(messages(rateType)).toEqual([
      [
        "UnknownValue",
        'RateType "Fixed" is not a value this version of payrules knows: read as { _tag: "Unknown", value: "Fixed" }'
      ],
      ["ExchangeRateMismatch", "the rate used is Actual, the initiation asked for Fixed"]
    ])
  })

  it("DebtorAccount missing says what is unknown because of it", () => {
    const [f] = InternationalPaymentCheck.check(
      decoded("revolut", deleteIn(clean("revolut"), [...INITIATION, "DebtorAccount"]))
    )
    expect(f?.message).toBe(
      "DebtorAccount is missing: the specification marks it present (strict decoding refuses this response); the debtor account and its currency are unknown"
    )
  })

  it("fasterPayments says why the scheme applies or not, for each reason", () => {
    const payment = decoded("revolut", scan(clean("revolut")))
    expect(InternationalPaymentCheck.fasterPayments(payment, { scheme: "FasterPayments" })).toEqual({
      applies: true,
      because: "options.scheme is FasterPayments"
    })
    expect(InternationalPaymentCheck.fasterPayments(payment, { scheme: "Other" })).toEqual({
      applies: false,
      because: "options.scheme is Other"
    })
    const euro = decoded("revolut", setIn(scan(clean("revolut")), [...INITIATION, "CurrencyOfTransfer"], "EUR"))
    expect(InternationalPaymentCheck.fasterPayments(euro)).toEqual({
      applies: false,
      because: "the currency of transfer is EUR, not GBP"
    })
    expect(InternationalPaymentCheck.fasterPayments(decoded("revolut", clean("revolut")))).toEqual({
      applies: false,
      because: "the creditor account is UK.OBIE.IBAN, not UK.OBIE.SortCodeAccountNumber"
    })
    // the reason is in the findings' messages
    const [reference] = InternationalPaymentCheck.check(
      decoded(
        "revolut",
        setIn(clean("revolut"), [...INITIATION, "RemittanceInformation", "Reference"], "INVOICE 2024-00017X")
      ),
      { scheme: "FasterPayments" }
    )
    expect(reference?.message).toBe(
      "Reference is 19 characters long; FasterPayments allows at most 18 (Faster Payments accepts only 18 characters of reference); the payment goes through Faster Payments (options.scheme is FasterPayments), which passes on only the first 18"
    )
  })

  it("errors and warnings split the findings", () => {
    const all = InternationalPaymentCheck.check(
      decoded("revolut", deleteIn(clean("revolut"), [...INITIATION, "DebtorAccount"])),
      {
        debtorAccountCurrency: "EUR"
      }
    )
    expect(InternationalPaymentCheck.errors(all).map((f) => f.rule)).toEqual(["CurrencyOfTransferIsDebtorCurrency"])
    expect(InternationalPaymentCheck.warnings(all).map((f) => f.rule)).toEqual(["DebtorAccountMissing"])
  })

  for (const profile of profiles) {
    const lenient = InternationalPayment.schema(profile, { mode: "lenient" })

    it.prop(
      `${profile}: check is total on arbitrary decoded payments`,
      [lenient],
      ([payment]) => {
        for (const f of InternationalPaymentCheck.check(payment, { profile })) {
          expect(f.path[0]).toBe("Data")
          expect(f.message.length).toBeGreaterThan(0)
        }
      },
      { arbitrary: { runs: 100 } }
    )

    it.prop(
      `${profile}: decodeAndCheck of an arbitrary payment's wire form finds what check finds, in both modes`,
      [lenient],
      ([payment]) => {
        const wire = JSON.parse(JSON.stringify(Result.getOrThrow(InternationalPayment.encode(profile, payment))))
        // the same rules at the same paths (a JSON number does not keep the trailing zeros that messages quote)
        const summary = (findings: ReadonlyArray<InternationalPaymentCheck.Finding>) =>
          findings.map((f) => [f.severity, f.rule, f.path.join(".")])
        const expected = InternationalPaymentCheck.check(payment, { profile })
        const checked = Result.getOrThrow(InternationalPaymentCheck.decodeAndCheck(profile, wire))
        expect(summary(checked.findings)).toEqual(summary(expected))
        // strict decoding refuses exactly the payments whose findings say what lenient decoding let through (an
        // unknown enum value too, since issue 34)
        const strict = InternationalPaymentCheck.decodeAndCheck(profile, wire, { mode: "strict" })
        const admitted = expected.some(
          (f) => f.rule === "CurrencyNotListed" || f.rule === "DebtorAccountMissing" || f.rule === "UnknownValue"
        )
        expect(Result.isFailure(strict)).toBe(admitted)
      },
      { arbitrary: { runs: 100 } }
    )
  }
})

describe("CurrencyNotListed (D11: read what the server sends, report what the list does not know)", () => {
  const places: ReadonlyArray<Path> = [
    [...RATE, "UnitCurrency"],
    [...INITIATION, "CurrencyOfTransfer"],
    [...INITIATION, "InstructedAmount", "Currency"],
    [...INITIATION_RATE, "UnitCurrency"]
  ]

  it.each(profiles)(
    "%s: a well-formed unlisted code (XYZ) anywhere decodes leniently with a warning at its path",
    (profile) => {
      for (const at of places) {
        const body = setIn(clean(profile), at, "XYZ")
        const checked = Result.getOrThrow(InternationalPaymentCheck.decodeAndCheck(profile, body))
        const unlisted = checked.findings.filter((f) => f.rule === "CurrencyNotListed")
        expect(unlisted.map((f) => [f.severity, f.path.join(".")])).toEqual([["warning", at.join(".")]])
        expect(unlisted[0]!.message).toContain("XYZ is not on the ISO 4217 list bundled here (published 2026-01-01)")
        // an amount's scale goes unchecked only for its own currency
        if (at.at(-1) === "UnitCurrency") {
          expect(unlisted[0]!.message).toBe(
            "XYZ is not on the ISO 4217 list bundled here (published 2026-01-01): read as sent"
          )
        }
        // the same response is refused by the strict decoder, which stays available
        expect(Result.isFailure(InternationalPayment.decode(profile, body, { mode: "strict" }))).toBe(true)
      }
    }
  )

  it.each(profiles)(
    "%s: the scale of an amount in an unlisted currency is not checked (its exponent is unknown)",
    (profile) => {
      const body = setIn(clean(profile), [...INITIATION, "InstructedAmount"], { Amount: "10.12345", Currency: "XYZ" })
      expect(findings(profile, body).filter(([, rule]) => rule !== "UnitCurrencyUnrelated")).toEqual([
        ["warning", "CurrencyNotListed", "Data.Initiation.InstructedAmount.Currency"]
      ])
    }
  )

  it.each(profiles)(
    "%s: every unlisted well-formed code is read, every listed one gives no such finding",
    (profile) => {
      const unlisted = fc.stringMatching(/^[A-Z]{3}$/).filter((c) => !Currency.isKnown(c))
      const listed = fc.constantFrom(...Currency.all.map((c) => c.code as string))
      fc.assert(
        fc.property(fc.oneof(unlisted, listed), (code) => {
          const body = setIn(clean(profile), [...INITIATION, "CurrencyOfTransfer"], code)
          const checked = InternationalPaymentCheck.decodeAndCheck(profile, body)
          if (Result.isFailure(checked)) return false
          const reported = checked.success.findings.some((f) => f.rule === "CurrencyNotListed")
          return reported === !Currency.isKnown(code)
        }),
        { numRuns: 60 }
      )
    }
  )
})
